package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
)

// JSONAcc is one accuracy in summary.json.
type JSONAcc struct {
	Accuracy float64 `json:"accuracy"`                // value used by the formulas (0 for a missing category)
	Total    int     `json:"total_count"`             // entries behind it
	Display  string  `json:"display"`                 // the CSV text, "N/A" when a category is missing
	Present  bool    `json:"evaluated"`               // false when shown as N/A
	Correct  *int    `json:"correct_count,omitempty"` // categories only
	// CI95 is our 95 % interval of the accuracy (not upstream's): Wilson
	// for a category, the stratified bootstrap for groups and the overall;
	// N is the number of entries behind it. Both absent for a category that
	// was not evaluated or when no intervals were computed.
	CI95 *[2]float64 `json:"ci95,omitempty"`
	N    int         `json:"n,omitempty"`
}

// JSONCategory is one category line of summary.json.
type JSONCategory struct {
	Category category.Category `json:"category"`
	Group    string            `json:"group"` // the scoring group ("" for live_relevance and format_sensitivity)
	JSONAcc
}

// JSONGroup is one group score of summary.json.
type JSONGroup struct {
	Name   string `json:"name"`   // e.g. "non_live"
	Column string `json:"column"` // upstream's CSV column, e.g. "Non-Live AST Acc"
	JSONAcc
}

// JSONModel is one model of summary.json.
type JSONModel struct {
	Model             string                  `json:"model"`
	DisplayName       string                  `json:"display_name"`
	Overall           JSONAcc                 `json:"overall"`
	Groups            []JSONGroup             `json:"groups"`
	Categories        []JSONCategory          `json:"categories"`
	Cost              *float64                `json:"total_cost_usd"`
	LatencyMean       *float64                `json:"latency_mean_s"`
	LatencyStd        *float64                `json:"latency_std_s"`
	LatencyP95        *float64                `json:"latency_p95_s"`
	FormatSensitivity *FormatSensitivityStats `json:"format_sensitivity,omitempty"`
	Notes             map[string]string       `json:"notes,omitempty"`
	// Corrections lists the opt-in corrections of upstream defects the
	// results were made with; absent for the official behaviour.
	Corrections []string `json:"corrections,omitempty"`
}

// JSONIntervals describes how the ci95 fields were computed.
type JSONIntervals struct {
	Level           float64 `json:"level"`
	CategoryMethod  string  `json:"category_method"`
	GroupMethod     string  `json:"group_method"`
	Resamples       int     `json:"resamples"`
	Seed            uint64  `json:"seed"`
	OfficialNumbers string  `json:"note"`
}

// JSONSummary is the content of summary.json, our machine-readable summary.
type JSONSummary struct {
	Weights   map[string]float64 `json:"overall_weights"`
	Intervals *JSONIntervals     `json:"intervals,omitempty"`
	Models    []JSONModel        `json:"models"`
}

func withCI(a JSONAcc, iv Interval, ok bool) JSONAcc {
	if ok && a.Present {
		a.CI95 = &[2]float64{iv.Lo, iv.Hi}
		a.N = iv.N
	}
	return a
}

func (r Row) groupInterval(name string) (Interval, bool) {
	if r.Intervals == nil {
		return Interval{}, false
	}
	iv, ok := r.Intervals.Group[name]
	return iv, ok
}

func (r Row) categoryInterval(c category.Category) (Interval, bool) {
	if r.Intervals == nil {
		return Interval{}, false
	}
	iv, ok := r.Intervals.Category[c]
	return iv, ok
}

func jsonAcc(a Acc) JSONAcc {
	return JSONAcc{Accuracy: a.Accuracy, Total: a.Total, Display: a.Display(), Present: !a.NA}
}

func numPtr(n Num) *float64 {
	if !n.OK {
		return nil
	}
	v := n.V
	return &v
}

// groupScores lists a row's group scores in display order with upstream's
// column names.
func groupScores(r Row) []JSONGroup {
	var out []JSONGroup
	for _, f := range groupFields {
		if f.name == "overall" {
			continue
		}
		iv, ok := r.groupInterval(f.name)
		out = append(out, JSONGroup{Name: f.name, Column: f.column, JSONAcc: withCI(jsonAcc(f.get(&r.Groups)), iv, ok)})
	}
	return out
}

// Summary builds the JSON summary of the rows.
func Summary(rows []Row) JSONSummary {
	w := OverallWeights()
	out := JSONSummary{Weights: map[string]float64{"non_live": w[0], "live": w[1], "irrelevance": w[2], "multi_turn": w[3], "agentic": w[4]}}
	for _, r := range rows {
		if r.Intervals != nil && out.Intervals == nil {
			out.Intervals = &JSONIntervals{Level: Level, CategoryMethod: MethodWilson, GroupMethod: MethodBootstrap,
				Resamples: r.Intervals.Resamples, Seed: r.Intervals.Seed,
				OfficialNumbers: "intervals are ours, not upstream's; the accuracies are the official numbers"}
			if marked(rows) {
				out.Intervals.OfficialNumbers = "intervals are ours, not upstream's; the accuracies are the official numbers except for the models whose notes." + NotOfficialNote + " says otherwise"
			}
		}
		oiv, ook := r.groupInterval("overall")
		m := JSONModel{Model: r.Model.Name, DisplayName: r.Model.DisplayName, Overall: withCI(jsonAcc(r.Overall), oiv, ook),
			Groups: groupScores(r), Cost: numPtr(r.Cost.Cost), LatencyMean: numPtr(r.Cost.LatencyMean),
			LatencyStd: numPtr(r.Cost.LatencyStd), LatencyP95: numPtr(r.Cost.LatencyP95), FormatSensitivity: r.FormatSensitivity, Notes: r.Model.Notes,
			Corrections: r.Model.Corrections}
		for _, c := range category.Scoring() {
			g, _ := c.ScoringGroup()
			civ, cok := r.categoryInterval(c)
			jc := JSONCategory{Category: c, Group: string(g), JSONAcc: withCI(jsonAcc(r.Cat[c]), civ, cok)}
			if s, ok := r.Scores[c]; ok {
				n := s.Correct
				jc.Correct = &n
			}
			m.Categories = append(m.Categories, jc)
		}
		if s, ok := r.Scores[category.FormatSensitivity]; ok {
			n := s.Correct
			m.Categories = append(m.Categories, JSONCategory{Category: category.FormatSensitivity,
				JSONAcc: JSONAcc{Accuracy: s.Accuracy, Total: s.Total, Display: pyPercent(s.Accuracy), Present: true, Correct: &n}})
		}
		out.Models = append(out.Models, m)
	}
	return out
}

// WriteSummaryJSON writes Summary(rows) as indented JSON.
func WriteSummaryJSON(w io.Writer, rows []Row) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(Summary(rows))
}

// WriteScoreRoot writes the six CSVs and summary.json into scoreRoot, and
// data_intervals.csv when the rows carry intervals.
func WriteScoreRoot(scoreRoot string, rows []Row) error {
	if err := WriteCSVs(scoreRoot, rows); err != nil {
		return err
	}
	if b, ok := IntervalsCSV(rows); ok {
		if err := WriteFileAtomic(filepath.Join(scoreRoot, FileIntervals), b); err != nil {
			return err
		}
	}
	b, err := SummaryJSON(rows)
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(scoreRoot, FileSummaryJSON), b)
}

// WriteTable renders the rows for a terminal: per model, the evaluated
// categories (correct/total, accuracy) and the group scores, then a
// one-line-per-model overview.
func WriteTable(w io.Writer, rows []Row) error { return WriteTableOf(w, rows, nil) }

// WriteTableOf is WriteTable with the category lines limited to only (nil:
// every category), for a run that ran a few categories: the group and
// overall lines stay (upstream's formulas over the whole score folder), and
// one line says how many categories were left out.
func WriteTableOf(w io.Writer, rows []Row, only []category.Category) error {
	keep := map[category.Category]bool{}
	for _, c := range only {
		keep[c] = true
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	for _, r := range rows {
		name := r.Model.DisplayName
		if name == "" {
			name = r.Model.Name
		}
		p("Model: %s\t\t\t\t\t\t\n", name)
		if c := correctionsNote(r.Model); c != "" {
			p("%s\n", c) // no cell: a line of its own, outside the columns
		}
		if note := r.Model.Notes[NotOfficialNote]; note != "" {
			p("  %s\n", note)
		}
		p("CATEGORY\tGROUP\tCORRECT\tTOTAL\tACCURACY\t%s\t\n", ciHeader(r))
		left := 0
		for _, c := range category.All() {
			s, ok := r.Scores[c]
			g := string(c.SpecLabel())
			if only != nil && !keep[c] {
				if !c.IsFormatSensitivity() {
					left++
				}
				continue
			}
			if !ok {
				if c.IsFormatSensitivity() {
					continue
				}
				p("%s\t%s\t-\t%d\tN/A\t\t\n", c, g, c.EntryCount())
				continue
			}
			ci := ""
			if iv, ok := r.categoryInterval(c); ok {
				ci = CIText(iv)
			}
			p("%s\t%s\t%d\t%d\t%s\t%s\t\n", c, g, s.Correct, s.Total, pyPercent(s.Accuracy), ci)
		}
		if left > 0 {
			p("  (%d more categories not in this run; bfcl scores prints them)\n", left)
		}
		p("\t\t\t\t\t\t\n")
		p("GROUP\tWEIGHT\t\t\tACCURACY\t%s\t\n", ciHeader(r))
		wt := OverallWeights()
		for _, gr := range []struct {
			name string
			w    string
			a    Acc
			key  string
		}{
			{"Non-Live AST", pct(wt[0]), r.NonLiveOverall, "non_live_overall"},
			{"Live AST", pct(wt[1]), r.LiveOverall, "live"},
			{"Irrelevance", pct(wt[2]), r.Irrelevance, "irrelevance"},
			{"Multi-Turn", pct(wt[3]), r.MultiTurn, "multi_turn"},
			{"Agentic", pct(wt[4]), r.Agentic, "agentic"},
			{"Relevance", "-", r.Relevance, "relevance"},
			{"Overall", "", r.Overall, "overall"},
		} {
			ci := ""
			if iv, ok := r.groupInterval(gr.key); ok && !gr.a.NA {
				ci = CIText(iv)
			}
			acc := gr.a.Display()
			if gr.key == "overall" && len(r.Model.Corrections) > 0 && !gr.a.NA {
				acc += " (corrected)"
			}
			p("%s\t%s\t\t\t%s\t%s\t\n", gr.name, gr.w, acc, ci)
		}
		if r.Cost.Cost.OK || r.Cost.LatencyMean.OK {
			// no tab: a cell this long would widen the table's first column
			p("Cost $%s, latency mean %ss, std %ss, p95 %ss\n",
				r.Cost.Cost, r.Cost.LatencyMean, r.Cost.LatencyStd, r.Cost.LatencyP95)
		}
		p("\t\t\t\t\t\t\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rows) < 2 {
		return nil
	}
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "MODEL\tOVERALL\tNON-LIVE\tLIVE\tIRRELEVANCE\tMULTI-TURN\tAGENTIC\tRELEVANCE\t\n")
	for _, r := range rows {
		overall := r.Overall.Display()
		if iv, ok := r.groupInterval("overall"); ok {
			overall += fmt.Sprintf(" ±%.1f", 50*(iv.Hi-iv.Lo))
		}
		if len(r.Model.Corrections) > 0 {
			overall += " (corrected: " + strings.Join(r.Model.Corrections, ", ") + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Model.Name, overall, r.NonLiveOverall.Display(),
			r.LiveOverall.Display(), r.Irrelevance.Display(), r.MultiTurn.Display(), r.Agentic.Display(), r.Relevance.Display())
	}
	return tw.Flush()
}

// correctionsNote is the table's line under the model name when its
// results were made with opt-in corrections ("" for the official
// behaviour).
func correctionsNote(m ModelInfo) string {
	if len(m.Corrections) == 0 {
		return ""
	}
	return "NOT the official score: corrections " + strings.Join(m.Corrections, ", ") + " on"
}

func ciHeader(r Row) string {
	if r.Intervals == nil {
		return ""
	}
	return "95% CI (ours)"
}

func pct(w float64) string { return strconv.FormatFloat(w, 'f', -1, 64) + "%" }

// NotOfficialNote is the key of a model's note (summary.json, the score
// table) saying which of its numbers a non-official option computed.
const NotOfficialNote = "not_official"

func marked(rows []Row) bool {
	for _, r := range rows {
		if r.Model.Notes[NotOfficialNote] != "" {
			return true
		}
	}
	return false
}
