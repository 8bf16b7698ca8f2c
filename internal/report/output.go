package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"text/tabwriter"

	"github.com/bfcl-go/bfcl/internal/category"
)

// JSONAcc is one accuracy in summary.json.
type JSONAcc struct {
	Accuracy float64 `json:"accuracy"`                // value used by the formulas (0 for a missing category)
	Total    int     `json:"total_count"`             // entries behind it
	Display  string  `json:"display"`                 // the CSV text, "N/A" when a category is missing
	Present  bool    `json:"evaluated"`               // false when shown as N/A
	Correct  *int    `json:"correct_count,omitempty"` // categories only
}

// JSONCategory is one category line of summary.json.
type JSONCategory struct {
	Category string `json:"category"`
	Group    string `json:"group"` // the scoring group ("" for live_relevance and format_sensitivity)
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
}

// JSONSummary is the content of summary.json, our machine-readable summary.
type JSONSummary struct {
	Weights map[string]float64 `json:"overall_weights"`
	Models  []JSONModel        `json:"models"`
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
	g := func(name, col string, a Acc) JSONGroup {
		return JSONGroup{Name: name, Column: col, JSONAcc: jsonAcc(a)}
	}
	return []JSONGroup{
		g("non_live", "Non-Live AST Acc", r.NonLiveAST),
		g("non_live_overall", "Non-Live Overall Acc", r.NonLiveOverall),
		g("non_live_simple", "Non-Live Simple AST", r.NonLiveSimple),
		g("live", "Live Acc", r.LiveOverall),
		g("live_ast_summary", "AST Summary", r.LiveAST),
		g("irrelevance", "Irrelevance Detection", r.Irrelevance),
		g("relevance", "Relevance Detection", r.Relevance),
		g("multi_turn", "Multi Turn Acc", r.MultiTurn),
		g("web_search", "Web Search Acc", r.WebSearch),
		g("memory", "Memory Acc", r.Memory),
		g("agentic", "Agentic Overall Acc", r.Agentic),
	}
}

// Summary builds the JSON summary of the rows.
func Summary(rows []Row) JSONSummary {
	w := OverallWeights()
	out := JSONSummary{Weights: map[string]float64{"non_live": w[0], "live": w[1], "irrelevance": w[2], "multi_turn": w[3], "agentic": w[4]}}
	for _, r := range rows {
		m := JSONModel{Model: r.Model.Name, DisplayName: r.Model.DisplayName, Overall: jsonAcc(r.Overall),
			Groups: groupScores(r), Cost: numPtr(r.Cost.Cost), LatencyMean: numPtr(r.Cost.LatencyMean),
			LatencyStd: numPtr(r.Cost.LatencyStd), LatencyP95: numPtr(r.Cost.LatencyP95), FormatSensitivity: r.FormatSensitivity, Notes: r.Model.Notes}
		for _, c := range category.Scoring() {
			g, _ := c.ScoringGroup()
			jc := JSONCategory{Category: string(c), Group: string(g), JSONAcc: jsonAcc(r.Cat[c])}
			if s, ok := r.Scores[c]; ok {
				n := s.Correct
				jc.Correct = &n
			}
			m.Categories = append(m.Categories, jc)
		}
		if s, ok := r.Scores[category.FormatSensitivity]; ok {
			n := s.Correct
			m.Categories = append(m.Categories, JSONCategory{Category: string(category.FormatSensitivity),
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

// WriteScoreRoot writes the six CSVs and summary.json into scoreRoot.
func WriteScoreRoot(scoreRoot string, rows []Row) error {
	if err := WriteCSVs(scoreRoot, rows); err != nil {
		return err
	}
	b, err := json.MarshalIndent(Summary(rows), "", "  ")
	if err != nil {
		return fmt.Errorf("report: summary.json: %w", err)
	}
	return writeFileAtomic(filepath.Join(scoreRoot, FileSummaryJSON), append(b, '\n'))
}

// WriteTable renders the rows for a terminal: per model, the evaluated
// categories (correct/total, accuracy) and the group scores, then a
// one-line-per-model overview.
func WriteTable(w io.Writer, rows []Row) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }
	for _, r := range rows {
		name := r.Model.DisplayName
		if name == "" {
			name = r.Model.Name
		}
		p("Model: %s\t\t\t\t\t\n", name)
		p("CATEGORY\tGROUP\tCORRECT\tTOTAL\tACCURACY\t\n")
		for _, c := range category.All() {
			s, ok := r.Scores[c]
			g := string(c.SpecLabel())
			if !ok {
				if c.IsFormatSensitivity() {
					continue
				}
				p("%s\t%s\t-\t%d\tN/A\t\n", c, g, c.EntryCount())
				continue
			}
			p("%s\t%s\t%d\t%d\t%s\t\n", c, g, s.Correct, s.Total, pyPercent(s.Accuracy))
		}
		p("\t\t\t\t\t\n")
		p("GROUP\tWEIGHT\t\t\tACCURACY\t\n")
		wt := OverallWeights()
		for _, gr := range []struct {
			name string
			w    string
			a    Acc
		}{
			{"Non-Live AST", pct(wt[0]), r.NonLiveOverall},
			{"Live AST", pct(wt[1]), r.LiveOverall},
			{"Irrelevance", pct(wt[2]), r.Irrelevance},
			{"Multi-Turn", pct(wt[3]), r.MultiTurn},
			{"Agentic", pct(wt[4]), r.Agentic},
			{"Relevance", "-", r.Relevance},
			{"Overall", "", r.Overall},
		} {
			p("%s\t%s\t\t\t%s\t\n", gr.name, gr.w, gr.a.Display())
		}
		if r.Cost.Cost.OK || r.Cost.LatencyMean.OK {
			p("Cost $%s, latency mean %ss, std %ss, p95 %ss\t\t\t\t\t\n",
				r.Cost.Cost, r.Cost.LatencyMean, r.Cost.LatencyStd, r.Cost.LatencyP95)
		}
		p("\t\t\t\t\t\n")
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Model.Name, r.Overall.Display(), r.NonLiveOverall.Display(),
			r.LiveOverall.Display(), r.Irrelevance.Display(), r.MultiTurn.Display(), r.Agentic.Display(), r.Relevance.Display())
	}
	return tw.Flush()
}

func pct(w float64) string { return strconv.FormatFloat(w, 'f', -1, 64) + "%" }
