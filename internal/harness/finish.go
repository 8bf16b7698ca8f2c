package harness

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/bfcl-go/bfcl/internal/category"
	"github.com/bfcl-go/bfcl/internal/embed"
	"github.com/bfcl-go/bfcl/internal/evaluate"
	"github.com/bfcl-go/bfcl/internal/report"
	"github.com/bfcl-go/bfcl/internal/results"
	"github.com/bfcl-go/bfcl/internal/verdict"
)

// Outcomes collects the outcomes the specs of a (possibly parallel) run
// recorded, per category.
func Outcomes(r types.Report) (map[category.Category][]SpecOutcome, error) {
	out := map[category.Category][]SpecOutcome{}
	for _, sr := range r.SpecReports {
		for _, e := range sr.ReportEntries {
			if e.Name != ReportEntryName {
				continue
			}
			var o SpecOutcome
			if raw, ok := e.Value.GetRawValue().(SpecOutcome); ok {
				o = raw // same process
			} else if err := json.Unmarshal([]byte(e.Value.AsJSON), &o); err != nil {
				return nil, fmt.Errorf("report entry of %s: %w", sr.FullText(), err)
			}
			out[category.Category(o.Category)] = append(out[category.Category(o.Category)], o)
		}
	}
	return out, nil
}

// Finish is the suites' ReportAfterSuite body: it sorts the result files of
// the categories that ran, writes their score files, refreshes the summary
// CSVs of the score folder and prints the score table.
func Finish(r types.Report) {
	h, err := Shared()
	if err != nil {
		fmt.Fprintln(ginkgo.GinkgoWriter, "bfcl: no report:", err)
		return
	}
	byCat, err := Outcomes(r)
	if err != nil {
		ginkgo.Fail(err.Error())
	}
	if len(byCat) == 0 {
		return
	}
	if err := h.WriteScores(byCat); err != nil {
		ginkgo.Fail("bfcl: writing scores: " + err.Error())
	}
}

// WriteScores compacts result files and writes score files and summaries
// for the given outcomes, then prints the table to stdout.
func (h *Harness) WriteScores(byCat map[category.Category][]SpecOutcome) error {
	cats := make([]category.Category, 0, len(byCat))
	for c := range byCat {
		cats = append(cats, c)
	}
	cats = category.SortCanonical(cats)
	model := results.ModelDir(h.cfg.Model.Name)
	for _, c := range cats {
		if err := results.Compact(h.store.Path(c)); err != nil {
			return err
		}
		vs := make([]verdict.Verdict, 0, len(byCat[c]))
		for _, o := range byCat[c] {
			vs = append(vs, o.Verdict())
		}
		sort.Slice(vs, func(i, j int) bool { return category.CompareIDs(vs[i].ID, vs[j].ID) < 0 })
		if _, err := evaluate.WriteCategory(h.cfg.ScoreDir, model, c, vs); err != nil {
			return err
		}
	}
	var paths []string
	for _, c := range cats {
		paths = append(paths, h.store.Path(c))
	}
	u, err := evaluate.UsageOf(paths...)
	if err != nil {
		return err
	}
	rows, err := evaluate.RefreshSummary(h.cfg.ScoreDir, map[string]*report.Usage{model: &u}, h.cfg.Registry,
		map[string]map[string]string{model: h.runNotes(cats)})
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stdout, "\nBFCL v4 scores (score folder %s; this run: %s)\n", h.cfg.ScoreDir, h.cfg.Model.Name)
	if err := report.WriteTable(os.Stdout, rows); err != nil {
		return err
	}
	return nil
}

// runNotes records the services this run's agentic categories used.
func (h *Harness) runNotes(cats []category.Category) map[string]string {
	notes := map[string]string{}
	a := h.cfg.Agentic
	if a == nil {
		return notes
	}
	for _, c := range cats {
		switch {
		case c == category.MemoryVector && a.Options.Embedder != nil:
			notes["memory_vector_embedder"] = a.Options.Embedder.Name()
			notes["memory_vector_upstream_embedder"] = embed.UpstreamModel + " (sentence-transformers)"
		case c.IsWebSearch() && a.Options.Search != nil:
			notes["web_search_provider"] = fmt.Sprintf("%T", a.Options.Search)
		}
	}
	return notes
}
