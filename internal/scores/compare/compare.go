// Package compare answers "is A better than B?" for BFCL runs scored on the
// same entries: per category both accuracies, the difference, the entries
// only one side passes and the exact McNemar p-value on them; per group
// score and for the overall the difference with a paired bootstrap 95 %
// interval (the same resampled entries for both sides, the scores
// recomputed with upstream's formulas by report.GroupsOf); for several runs
// a ranking with groups of statistically tied runs. None of it changes an
// official number: the accuracies are the score files'.
package compare

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
)

// Alpha is the significance level of the verdicts (two-sided, per row, no
// correction for the number of rows).
const Alpha = 0.05

// Verdicts of a row.
const (
	VerdictA    = "A better"
	VerdictB    = "B better"
	VerdictNone = "no detectable difference"
)

// Run is one side of a comparison: a model's score files.
type Run struct {
	Label    string // how outputs name it
	Model    string // model folder name
	Outcomes map[category.Category]report.Outcome
	// Restricted marks the categories Restrict cut to common entries.
	Restricted map[category.Category]bool
	// Dropped are the categories the run has that a selection left out
	// (Select): groups that need them get no row.
	Dropped map[category.Category]bool
}

// Select keeps the categories of keep (nil: all) and records the others.
func (r *Run) Select(keep map[category.Category]bool) {
	if keep == nil {
		return
	}
	for c := range r.Outcomes {
		if !keep[c] {
			delete(r.Outcomes, c)
			if r.Dropped == nil {
				r.Dropped = map[category.Category]bool{}
			}
			r.Dropped[c] = true
		}
	}
}

// Load reads the score files of <scoreRoot>/<model>.
func Load(label, scoreRoot, model string) (Run, error) {
	o, err := report.ReadModelOutcomes(scoreRoot, model)
	if err != nil {
		return Run{}, err
	}
	if label == "" {
		label = model
	}
	return Run{Label: label, Model: model, Outcomes: o}, nil
}

// Row is one line of a comparison. Delta is B - A (fractions); for a
// category, AOnly and BOnly are the ids only A, resp. only B, passes and
// PValue the exact McNemar p-value; CI95 is the paired bootstrap interval of
// Delta (every row).
type Row struct {
	Category string      `json:"category"` // a category, a group name, or "overall"
	Scope    string      `json:"scope"`    // "category", "group" or "overall"
	A        float64     `json:"a"`
	B        float64     `json:"b"`
	Delta    float64     `json:"delta"`
	N        int         `json:"n"`
	AOnly    []string    `json:"a_only"`
	BOnly    []string    `json:"b_only"`
	PValue   *float64    `json:"p_value"`
	CI95     *[2]float64 `json:"ci95"`
	Verdict  string      `json:"verdict"`
}

// Result is a two-run comparison.
type Result struct {
	A, B       string   `json:"-"`
	Categories []string `json:"categories_compared"`
	// Skipped are the scoring categories evaluated by only one side; they
	// take no part in any row (groups and overall are recomputed over the
	// compared categories only, a missing one counting as upstream counts
	// it: 0 with its data-set size).
	Skipped []string `json:"skipped_categories"`
	// Notes say what was compared where the runs differ: categories left
	// out (entry counts that differ), categories compared on part of the
	// data set, groups left out because a category they need is missing or
	// partial.
	Notes     []string `json:"notes"`
	Rows      []Row    `json:"rows"`
	Resamples int      `json:"resamples"`
	Seed      uint64   `json:"seed"`
}

// shown are the group scores a comparison lists (the others duplicate one
// of these when present: non_live = non_live_overall, live_ast_summary =
// live).
var shown = map[string]bool{"non_live_overall": true, "non_live_simple": true, "live": true, "irrelevance": true,
	"relevance": true, "multi_turn": true, "web_search": true, "memory": true, "agentic": true, "overall": true}

// common returns the scoring categories evaluated by every run, in
// canonical order, and those evaluated by some but not all.
func common(runs []Run) (both, skipped []category.Category) {
	for _, c := range category.Scoring() {
		n := 0
		for _, r := range runs {
			if _, ok := r.Outcomes[c]; ok {
				n++
			}
		}
		switch n {
		case len(runs):
			both = append(both, c)
		case 0:
		default:
			skipped = append(skipped, c)
		}
	}
	return both, skipped
}

// prepared is the joint data of k runs over their common categories.
type prepared struct {
	cats     []category.Category
	complete map[category.Category]bool // compared categories: every entry of the data set scored
	absent   map[category.Category]bool // not compared although some run has it (or the selection dropped it)
	notes    []string
	rows     []report.Row // per run, summarised over cats only
	strata   []stats.Stratum
	failed   []map[category.Category]map[string]bool

	slopeCache [][]float64
}

func prepare(runs []Run) (*prepared, []category.Category, error) {
	if len(runs) < 2 {
		return nil, nil, errors.New("compare: need at least two runs")
	}
	if len(runs) > 64 {
		return nil, nil, errors.New("compare: at most 64 runs")
	}
	cats, skipped := common(runs)
	p := &prepared{complete: map[category.Category]bool{}}
	// A category the runs scored on different numbers of entries cannot
	// be paired from score files (they list failures only): it is left out
	// and said so. Equal counts below the data set's are compared, with the
	// assumption said (result folders, --from-results, pair them by id).
	var kept []category.Category
	for _, c := range cats {
		n := runs[0].Outcomes[c].Score.Total
		same := true
		for _, r := range runs[1:] {
			same = same && r.Outcomes[c].Score.Total == n
		}
		if !same {
			msg := fmt.Sprintf("%s: not compared: the runs scored different numbers of entries (", c)
			for i, r := range runs {
				if i > 0 {
					msg += ", "
				}
				msg += fmt.Sprintf("%s %d", r.Label, r.Outcomes[c].Score.Total)
			}
			p.notes = append(p.notes, msg+" of "+fmt.Sprint(c.EntryCount())+"); compare --from-results on the result folders compares their common entries")
			skipped = append(skipped, c)
			continue
		}
		p.complete[c] = n == c.EntryCount()
		if !p.complete[c] {
			p.notes = append(p.notes, fmt.Sprintf("%s: %d of %d entries on every side (%s)", c, n, c.EntryCount(), partialHow(runs[0], c)))
		}
		kept = append(kept, c)
	}
	cats = kept
	skipped = category.SortCanonical(skipped)
	p.absent = map[category.Category]bool{}
	for _, c := range skipped {
		p.absent[c] = true
	}
	for _, r := range runs {
		for c := range r.Dropped {
			p.absent[c] = true
		}
	}
	if len(cats) == 0 {
		return nil, nil, errors.New("compare: the runs have no scoring category in common" + notesText(p.notes))
	}
	p.cats = cats
	for _, r := range runs {
		var scores []report.CategoryScore
		f := map[category.Category]map[string]bool{}
		for _, c := range cats {
			o := r.Outcomes[c]
			scores = append(scores, o.Score)
			set := make(map[string]bool, len(o.Failed))
			for _, id := range o.Failed {
				set[id] = true
			}
			f[c] = set
		}
		row, err := report.Summarize(report.ModelInfo{Name: r.Model, DisplayName: r.Label}, scores, report.Usage{})
		if err != nil {
			return nil, nil, fmt.Errorf("compare: %s: %w", r.Label, err)
		}
		p.rows = append(p.rows, row)
		p.failed = append(p.failed, f)
	}
	for _, c := range cats {
		n := runs[0].Outcomes[c].Score.Total
		// Entries failed by some run carry their pass pattern; all others
		// are passed by every run.
		all := uint64(1)<<uint(len(runs)) - 1
		counts := map[uint64]int{}
		union := map[string]bool{}
		for _, f := range p.failed {
			for id := range f[c] {
				union[id] = true
			}
		}
		for id := range union {
			var bits uint64
			for s, f := range p.failed {
				if !f[c][id] {
					bits |= 1 << uint(s)
				}
			}
			counts[bits]++
		}
		counts[all] += n - len(union)
		var st stats.Stratum
		keys := make([]uint64, 0, len(counts))
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i] > keys[j] })
		for _, k := range keys {
			st.Patterns = append(st.Patterns, k)
			st.Counts = append(st.Counts, counts[k])
		}
		p.strata = append(p.strata, st)
	}
	return p, skipped, nil
}

// slopes[i][g] is the change of group score g (report.GroupNames order)
// per extra correct entry of category cats[i], measured on the first run's
// row: the formulas are linear in the counts.
func (p *prepared) slopes() [][]float64 {
	if p.slopeCache != nil {
		return p.slopeCache
	}
	base := p.rows[0]
	correct := make([]int, len(p.cats))
	for i, c := range p.cats {
		correct[i] = base.Scores[c].Correct
	}
	g0 := report.GroupValues(base.Groups)
	out := make([][]float64, len(p.cats))
	for i := range p.cats {
		bumped := append([]int(nil), correct...)
		bumped[i]++
		g1 := report.GroupValues(base.RegroupCounts(p.cats, bumped))
		out[i] = make([]float64, len(g0))
		for g := range g0 {
			out[i][g] = g1[g].Accuracy - g0[g].Accuracy
		}
	}
	p.slopeCache = out
	return out
}

// showGroup reports whether group g is listed: one of the shown names,
// not N/A for any run, depending on at least one compared category, and
// every scoring category it depends on compared on the whole data set (a
// group score over part of its categories or entries means nothing
// upstream's leaderboard shows).
func (p *prepared) showGroup(g int, name string) bool {
	if !shown[name] {
		return false
	}
	for _, c := range dependencies()[g] {
		if p.lacking(c) {
			return false
		}
	}
	for _, r := range p.rows {
		if report.GroupValues(r.Groups)[g].NA {
			return false
		}
	}
	for _, s := range p.slopes() {
		if s[g] != 0 {
			return true
		}
	}
	return false
}

// statistics of one side in the bootstrap vector: the categories'
// accuracies, then every group score (report.GroupNames order).
func (p *prepared) width() int { return len(p.cats) + len(report.GroupNames()) }

func (p *prepared) bootstrap(o stats.Options) (*stats.Distribution, error) {
	w := p.width()
	k := len(p.rows)
	return stats.Bootstrap(p.strata, k, k*w, func(correct [][]int, out []float64) {
		for s := 0; s < k; s++ {
			base := s * w
			for i, c := range p.cats {
				out[base+i] = float64(correct[s][i]) / float64(p.rows[s].Cat[c].Total)
			}
			for g, a := range report.GroupValues(p.rows[s].RegroupCounts(p.cats, correct[s])) {
				out[base+len(p.cats)+g] = a.Accuracy
			}
		}
	}, o)
}

// diffInterval is the percentile interval of statistic j of side b minus
// side a.
func (p *prepared) diffInterval(d *stats.Distribution, a, b, j int) (lo, hi float64, err error) {
	w := p.width()
	xa, xb := d.Samples[a*w+j], d.Samples[b*w+j]
	diff := make([]float64, len(xa))
	for r := range diff {
		diff[r] = xb[r] - xa[r]
	}
	return stats.PercentileInterval(diff, report.Level)
}

func intervalVerdict(lo, hi float64) string {
	switch {
	case lo > 0:
		return VerdictB
	case hi < 0:
		return VerdictA
	}
	return VerdictNone
}

// Two compares run a with run b.
func Two(a, b Run, o stats.Options) (*Result, error) {
	p, skipped, err := prepare([]Run{a, b})
	if err != nil {
		return nil, err
	}
	d, err := p.bootstrap(o)
	if err != nil {
		return nil, err
	}
	res := &Result{A: a.Label, B: b.Label, Categories: category.Names(p.cats), Skipped: category.Names(skipped),
		Notes: append([]string{}, p.notes...), Resamples: d.Resamples, Seed: d.Seed}
	if res.Skipped == nil {
		res.Skipped = []string{}
	}
	for i, c := range p.cats {
		fa, fb := p.failed[0][c], p.failed[1][c]
		row := Row{Category: string(c), Scope: "category", A: a.Outcomes[c].Score.Accuracy, B: b.Outcomes[c].Score.Accuracy,
			N: a.Outcomes[c].Score.Total, AOnly: onlyIn(fb, fa), BOnly: onlyIn(fa, fb)}
		row.Delta = row.B - row.A
		pv, err := stats.McNemarExact(len(row.AOnly), len(row.BOnly))
		if err != nil {
			return nil, err
		}
		row.PValue = &pv
		lo, hi, err := p.diffInterval(d, 0, 1, i)
		if err != nil {
			return nil, err
		}
		row.CI95 = &[2]float64{lo, hi}
		row.Verdict = VerdictNone
		if pv < Alpha {
			row.Verdict = VerdictB
			if row.Delta < 0 {
				row.Verdict = VerdictA
			}
		}
		res.Rows = append(res.Rows, row)
	}
	ga, gb := report.GroupValues(p.rows[0].Groups), report.GroupValues(p.rows[1].Groups)
	var omitted []string
	for g, name := range report.GroupNames() {
		if !p.showGroup(g, name) {
			if shown[name] && p.partialGroup(g) {
				omitted = append(omitted, name)
			}
			continue
		}
		scope := "group"
		if name == "overall" {
			scope = "overall"
		}
		lo, hi, err := p.diffInterval(d, 0, 1, len(p.cats)+g)
		if err != nil {
			return nil, err
		}
		row := Row{Category: name, Scope: scope, A: ga[g].Accuracy, B: gb[g].Accuracy, N: ga[g].Total,
			CI95: &[2]float64{lo, hi}, Verdict: intervalVerdict(lo, hi)}
		row.Delta = row.B - row.A
		res.Rows = append(res.Rows, row)
	}
	if len(omitted) > 0 {
		res.Notes = append(res.Notes, "no row for "+strings.Join(omitted, ", ")+": a group score needs every category of the group compared on the whole data set")
	}
	return res, nil
}

// partialGroup: group g depends on a compared category but also on one
// that is not compared on the whole data set.
func (p *prepared) partialGroup(g int) bool {
	uses, lacks := false, false
	for _, c := range dependencies()[g] {
		if _, in := p.complete[c]; in {
			uses = true
		}
		lacks = lacks || p.lacking(c)
	}
	return uses && lacks
}

// lacking: category c makes a group score over the compared data
// meaningless: compared on part of the data set, scored by some runs only,
// or left out by the selection. (A category no run has counts 0 for every
// run, as upstream counts it: the group score is then each run's own.)
func (p *prepared) lacking(c category.Category) bool {
	if full, in := p.complete[c]; in {
		return !full
	}
	return p.absent[c]
}

// onlyIn lists, in entry order, the ids failed by the other side but not
// by this one: failedOther minus failedThis, i.e. the entries only this
// side passes.
func onlyIn(failedOther, failedThis map[string]bool) []string {
	out := []string{}
	for id := range failedOther {
		if !failedThis[id] {
			out = append(out, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return category.CompareIDs(out[i], out[j]) < 0 })
	return out
}

// Standing is one run of a ranking.
type Standing struct {
	Label    string      `json:"label"`
	Rank     int         `json:"rank"`
	Overall  float64     `json:"overall"`
	CI95     *[2]float64 `json:"ci95"` // bootstrap interval of the run's own overall
	TiedWith []string    `json:"tied_with"`
}

// Ranking is the ranking of several runs by the overall score.
type Ranking struct {
	Categories []string   `json:"categories_compared"`
	Skipped    []string   `json:"skipped_categories"`
	Standings  []Standing `json:"ranking"`
	// Notes say what was compared where the runs differ (see Result).
	Notes     []string `json:"notes"`
	Resamples int      `json:"resamples"`
	Seed      uint64   `json:"seed"`
}

// Rank ranks runs by their overall score over the categories all of them
// evaluated. Run i is significantly better than run j when the paired
// bootstrap 95 % interval of overall_i - overall_j lies above 0; a run's
// rank is 1 + the number of runs significantly better than it, so runs not
// separated by the data share a rank (stats.Rank).
func Rank(runs []Run, o stats.Options) (*Ranking, error) {
	p, skipped, err := prepare(runs)
	if err != nil {
		return nil, err
	}
	d, err := p.bootstrap(o)
	if err != nil {
		return nil, err
	}
	og := len(p.cats) + len(report.GroupNames()) - 1 // "overall" is last
	k := len(runs)
	better := make([][]bool, k)
	for i := range better {
		better[i] = make([]bool, k)
	}
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			lo, hi, err := p.diffInterval(d, i, j, og) // j - i
			if err != nil {
				return nil, err
			}
			better[j][i] = lo > 0
			better[i][j] = hi < 0
		}
	}
	scores := make([]float64, k)
	for i := range runs {
		scores[i] = p.rows[i].Overall.Accuracy
	}
	ranked, err := stats.Rank(scores, func(i, j int) bool { return better[i][j] })
	if err != nil {
		return nil, err
	}
	out := &Ranking{Categories: category.Names(p.cats), Skipped: category.Names(skipped), Notes: append([]string{}, p.notes...), Resamples: d.Resamples, Seed: d.Seed}
	if og := len(report.GroupNames()) - 1; p.partialGroup(og) {
		out.Notes = append(out.Notes, "ranked by upstream's overall formula over the compared entries only: not the runs' official overall scores")
	}
	if out.Skipped == nil {
		out.Skipped = []string{}
	}
	w := p.width()
	for _, r := range ranked {
		lo, hi, err := stats.PercentileInterval(d.Samples[r.Index*w+og], report.Level)
		if err != nil {
			return nil, err
		}
		st := Standing{Label: runs[r.Index].Label, Rank: r.Rank, Overall: scores[r.Index], CI95: &[2]float64{lo, hi}, TiedWith: []string{}}
		for _, t := range r.TiedWith {
			st.TiedWith = append(st.TiedWith, runs[t].Label)
		}
		out.Standings = append(out.Standings, st)
	}
	return out, nil
}

// Common ids: a run's Outcomes restricted to the entries every run scored.

// Restrict keeps, for category c, only the entries of ids (the entries
// every run scored; the caller knows them from the result folders): the
// failed ids outside it are dropped and the counts recomputed.
func (r *Run) Restrict(c category.Category, ids map[string]bool) {
	o, ok := r.Outcomes[c]
	if !ok {
		return
	}
	var failed []string
	for _, id := range o.Failed {
		if ids[id] {
			failed = append(failed, id)
		}
	}
	o.Failed = failed
	o.Score.Total = len(ids)
	o.Score.Correct = len(ids) - len(failed)
	if o.Score.Total > 0 {
		o.Score.Accuracy = float64(o.Score.Correct) / float64(o.Score.Total)
	}
	r.Outcomes[c] = o
	if r.Restricted == nil {
		r.Restricted = map[category.Category]bool{}
	}
	r.Restricted[c] = true
}

func partialHow(r Run, c category.Category) string {
	if r.Restricted[c] {
		return "the entries every run scored, paired by id"
	}
	return "score files list failures only: the runs are assumed to have scored the same entries"
}

func notesText(notes []string) string {
	if len(notes) == 0 {
		return ""
	}
	out := ""
	for _, n := range notes {
		out += "\n  " + n
	}
	return out
}

var deps struct {
	once sync.Once
	cats [][]category.Category
}

// dependencies[g] lists the scoring categories group score g
// (report.GroupNames order) depends on: upstream's formulas are linear in
// the counts, so one extra correct entry of such a category moves it.
func dependencies() [][]category.Category {
	deps.once.Do(func() {
		all := category.Scoring()
		scores := make([]report.CategoryScore, len(all))
		zero := make([]int, len(all))
		for i, c := range all {
			scores[i] = report.CategoryScore{Category: c, Total: c.EntryCount()}
		}
		row, err := report.Summarize(report.ModelInfo{Name: "dependencies"}, scores, report.Usage{})
		if err != nil {
			panic(err)
		}
		g0 := report.GroupValues(row.RegroupCounts(all, zero))
		deps.cats = make([][]category.Category, len(g0))
		for i, c := range all {
			bumped := append([]int(nil), zero...)
			bumped[i] = 1
			for g, a := range report.GroupValues(row.RegroupCounts(all, bumped)) {
				if a.Accuracy != g0[g].Accuracy {
					deps.cats[g] = append(deps.cats[g], c)
				}
			}
		}
	})
	return deps.cats
}
