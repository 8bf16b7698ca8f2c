package harness

import (
	"fmt"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/services/embed"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// WriteScores scores the stored results of the given categories and writes
// the score files, the leaderboard CSVs and summary.json, through the same
// code as `bfcl evaluate --partial-eval` (evaluate.Run): a score tree
// written at the end of a run and one written later from the result files
// are the same bytes. It returns the leaderboard rows of the score folder.
func (h *Harness) WriteScores(cats []category.Category) ([]report.Row, error) {
	return WriteScores([]Ran{{H: h, Cats: cats}})
}

// Ran is what one runner ran.
type Ran struct {
	H    *Harness
	Cats []category.Category
	// Skipped are the selected categories that did not run, with why;
	// summary.json names them (notes "not_run_<category>").
	Skipped map[category.Category]string
}

// WriteScores scores several models of one run in one pass (so every
// model's cost and latency columns come from this run, as `bfcl evaluate
// --model a,b` gives them). The runners share their result and score roots.
func WriteScores(runs []Ran) ([]report.Row, error) {
	if len(runs) == 0 {
		return nil, nil
	}
	first := runs[0].H.cfg
	o := evaluate.Options{Source: first.Source, ResultRoot: first.ResultDir, ScoreRoot: first.ScoreDir, Partial: true,
		Notes: map[string]map[string]string{}, Report: true}
	reg := &registry.Registry{}
	if first.Registry != nil {
		reg.File = first.Registry.File
	}
	seen := map[category.Category]bool{}
	for _, r := range runs {
		if r.H.cfg.ResultDir != first.ResultDir || r.H.cfg.ScoreDir != first.ScoreDir {
			return nil, fmt.Errorf("harness: models of one run must share result and score folders")
		}
		for _, c := range r.Cats {
			if err := results.Compact(r.H.store.Path(c)); err != nil {
				return nil, err
			}
			if !seen[c] {
				seen[c] = true
				o.Categories = append(o.Categories, c)
			}
		}
		m := r.H.cfg.Model
		o.Models = append(o.Models, m.Name)
		notes := r.H.runNotes(r.Cats)
		for c, why := range r.Skipped {
			notes["not_run_"+string(c)] = why
		}
		o.Notes[results.ModelDir(m.Name)] = notes
		reg.Models = append(reg.Models, m) // as this run used it (overrides applied)
	}
	if first.Registry != nil {
		for _, m := range first.Registry.Models {
			if _, err := reg.Get(m.Name); err != nil {
				reg.Models = append(reg.Models, m)
			}
		}
	}
	o.Registry = reg
	o.Categories = category.SortCanonical(o.Categories)
	return evaluate.Run(o)
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
