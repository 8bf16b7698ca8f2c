package report

import (
	"fmt"
	"maps"
	"runtime"
	"strings"
	"sync"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
)

// Level is the confidence level of the intervals we report.
const Level = 0.95

// Method names of the intervals, as written to summary.json and
// data_intervals.csv.
const (
	MethodWilson    = "wilson score interval"
	MethodBootstrap = stats.Method
)

// Interval is a 95 % interval of an accuracy (fractions in [0, 1]) and the
// number of entries behind it.
type Interval struct {
	Lo, Hi float64
	N      int
}

// Intervals are a row's intervals: the Wilson interval of every evaluated
// category, and a stratified bootstrap interval of every group score and the
// overall (entries resampled within each evaluated category, the scores
// recomputed by GroupsOf; categories that were not evaluated keep their
// constant cell).
type Intervals struct {
	Resamples int
	Seed      uint64
	Category  map[category.Category]Interval
	Group     map[string]Interval // by GroupNames name, "overall" included
}

// GroupNames are the names of the group scores in summary.json order, the
// overall last.
func GroupNames() []string {
	out := make([]string, len(groupFields))
	for i, g := range groupFields {
		out[i] = g.name
	}
	return out
}

// groupFields lists every group score of Groups with its summary.json name
// and upstream's CSV column.
var groupFields = []struct {
	name, column string
	get          func(*Groups) Acc
}{
	{"non_live", "Non-Live AST Acc", func(g *Groups) Acc { return g.NonLiveAST }},
	{"non_live_overall", "Non-Live Overall Acc", func(g *Groups) Acc { return g.NonLiveOverall }},
	{"non_live_simple", "Non-Live Simple AST", func(g *Groups) Acc { return g.NonLiveSimple }},
	{"live", "Live Acc", func(g *Groups) Acc { return g.LiveOverall }},
	{"live_ast_summary", "AST Summary", func(g *Groups) Acc { return g.LiveAST }},
	{"irrelevance", "Irrelevance Detection", func(g *Groups) Acc { return g.Irrelevance }},
	{"relevance", "Relevance Detection", func(g *Groups) Acc { return g.Relevance }},
	{"multi_turn", "Multi Turn Acc", func(g *Groups) Acc { return g.MultiTurn }},
	{"web_search", "Web Search Acc", func(g *Groups) Acc { return g.WebSearch }},
	{"memory", "Memory Acc", func(g *Groups) Acc { return g.Memory }},
	{"agentic", "Agentic Overall Acc", func(g *Groups) Acc { return g.Agentic }},
	{"overall", "Overall Acc", func(g *Groups) Acc { return g.Overall }},
}

// GroupValues lists g's scores in GroupNames order.
func GroupValues(g Groups) []Acc {
	out := make([]Acc, len(groupFields))
	for i, f := range groupFields {
		out[i] = f.get(&g)
	}
	return out
}

// Evaluated lists the row's evaluated scoring categories in canonical
// order: the strata of its bootstrap.
func (r Row) Evaluated() []category.Category {
	var out []category.Category
	for _, c := range category.Scoring() {
		if _, ok := r.Scores[c]; ok {
			out = append(out, c)
		}
	}
	return out
}

// RegroupCounts recomputes the group scores of the row with other correct
// counts for the categories cats (correct[i] for cats[i], out of the same
// totals): the accuracy is correct/total as upstream's save_eval_results
// computes it, and every other cell is the row's. It is how a bootstrap
// resample becomes group scores.
func (r Row) RegroupCounts(cats []category.Category, correct []int) Groups {
	return regroupInto(maps.Clone(r.Cat), r.Cat, cats, correct)
}

// regroupInto is RegroupCounts on cells, a copy of base whose entries other
// than cats are base's: it sets the cells of cats and returns GroupsOf.
func regroupInto(cells, base map[category.Category]Acc, cats []category.Category, correct []int) Groups {
	if cells == nil {
		cells = map[category.Category]Acc{}
	}
	for i, c := range cats {
		a := base[c]
		a.Accuracy = float64(correct[i]) / float64(a.Total)
		cells[c] = a
	}
	return GroupsOf(cells)
}

// ComputeIntervals computes the row's intervals; o sets the bootstrap's
// resamples and seed.
func ComputeIntervals(r Row, o stats.Options) (*Intervals, error) {
	iv := &Intervals{Resamples: o.ResamplesOrDefault(), Seed: o.SeedOrDefault(),
		Category: map[category.Category]Interval{}, Group: map[string]Interval{}}
	cats := r.Evaluated()
	strata := make([]stats.Stratum, len(cats))
	for i, c := range cats {
		s := r.Scores[c]
		lo, hi, err := stats.Wilson(s.Correct, s.Total, stats.Z95)
		if err != nil {
			return nil, fmt.Errorf("report: model %s, category %s: %w", r.Model.Name, c, err)
		}
		iv.Category[c] = Interval{Lo: lo, Hi: hi, N: s.Total}
		strata[i] = stats.Binary(s.Correct, s.Total)
	}
	if len(cats) == 0 {
		return iv, nil
	}
	// Each resample is RegroupCounts of its counts, on a copy of the cells
	// per worker (pooled) instead of a new map per resample: a resample
	// sets the cell of every stratum, the other cells never change.
	type scratch struct {
		cells map[category.Category]Acc
		g     Groups
	}
	pool := sync.Pool{New: func() any { return &scratch{cells: maps.Clone(r.Cat)} }}
	d, err := stats.Bootstrap(strata, 1, len(groupFields), func(correct [][]int, out []float64) {
		w := pool.Get().(*scratch)
		w.g = regroupInto(w.cells, r.Cat, cats, correct[0])
		for i, f := range groupFields {
			out[i] = f.get(&w.g).Accuracy
		}
		pool.Put(w)
	}, o)
	if err != nil {
		return nil, fmt.Errorf("report: model %s: %w", r.Model.Name, err)
	}
	// The percentile intervals (a sort of each statistic's resamples) are
	// computed concurrently, one statistic per CPU.
	vals := GroupValues(r.Groups)
	ivs := make([]Interval, len(vals))
	errs := make([]error, len(vals))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, a := range vals {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			lo, hi, err := d.Interval(i, Level)
			ivs[i], errs[i] = Interval{Lo: lo, Hi: hi, N: a.Total}, err
		}()
	}
	wg.Wait()
	for i := range vals {
		if errs[i] != nil {
			return nil, errs[i]
		}
		iv.Group[groupFields[i].name] = ivs[i]
	}
	return iv, nil
}

// AddIntervals sets the Intervals of every row (the same options for all).
func AddIntervals(rows []Row, o stats.Options) error {
	for i := range rows {
		iv, err := ComputeIntervals(rows[i], o)
		if err != nil {
			return err
		}
		rows[i].Intervals = iv
	}
	return nil
}

// FileIntervals is our extra CSV next to upstream's: every interval of
// every model, one line each.
const FileIntervals = "data_intervals.csv"

// ColumnsIntervals is the header of data_intervals.csv.
func ColumnsIntervals() []string {
	return []string{"Model", "Scope", "Name", "Accuracy (%)", "N", "CI95 Low (%)", "CI95 High (%)", "Method", "Resamples", "Seed"}
}

// IntervalsCSV renders data_intervals.csv for the rows that carry
// intervals (false when none does): per model, the evaluated categories
// (Wilson), then the group scores that are not N/A and the overall
// (bootstrap). Numbers are percentages with two decimals; lines end in
// "\n".
func IntervalsCSV(rows []Row) ([]byte, bool) {
	var b []byte
	any := false
	line := func(fields ...string) {
		for i, f := range fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, csvField(f)...)
		}
		b = append(b, '\n')
	}
	line(ColumnsIntervals()...)
	pc := func(x float64) string { return fmt.Sprintf("%.2f", 100*x) }
	for _, r := range rows {
		iv := r.Intervals
		if iv == nil {
			continue
		}
		any = true
		res, seed := fmt.Sprint(iv.Resamples), fmt.Sprint(iv.Seed)
		for _, c := range r.Evaluated() {
			ci := iv.Category[c]
			line(r.Model.Name, "category", string(c), pc(r.Scores[c].Accuracy), fmt.Sprint(ci.N), pc(ci.Lo), pc(ci.Hi), "wilson", "", "")
		}
		for i, a := range GroupValues(r.Groups) {
			name := groupFields[i].name
			ci, ok := iv.Group[name]
			if !ok || a.NA {
				continue
			}
			scope := "group"
			if name == "overall" {
				scope = "overall"
			}
			line(r.Model.Name, scope, name, pc(a.Accuracy), fmt.Sprint(ci.N), pc(ci.Lo), pc(ci.Hi), "stratified_bootstrap", res, seed)
		}
	}
	return b, any
}

// csvField quotes a field that needs it (RFC 4180).
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\n\r") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// CIText is the interval as the terminal table shows it: the half-width in
// points and the bounds, e.g. "±3.4 [58.1, 64.9]".
func CIText(iv Interval) string {
	return fmt.Sprintf("±%.1f [%.1f, %.1f]", 50*(iv.Hi-iv.Lo), 100*iv.Lo, 100*iv.Hi)
}
