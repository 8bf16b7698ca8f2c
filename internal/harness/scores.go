package harness

import (
	"fmt"

	"github.com/bfcl-go/bfcl/internal/category"
	"github.com/bfcl-go/bfcl/internal/embed"
	"github.com/bfcl-go/bfcl/internal/evaluate"
	"github.com/bfcl-go/bfcl/internal/models"
	"github.com/bfcl-go/bfcl/internal/report"
	"github.com/bfcl-go/bfcl/internal/results"
)

// WriteScores scores the stored results of the given categories and writes
// the score files, the leaderboard CSVs and summary.json, through the same
// code as `bfcl evaluate --partial-eval` (evaluate.Run): a score tree
// written at the end of a run and one written later from the result files
// are the same bytes. It returns the leaderboard rows of the score folder.
func (h *Harness) WriteScores(cats []category.Category) ([]report.Row, error) {
	cats = category.SortCanonical(cats)
	for _, c := range cats {
		if err := results.Compact(h.store.Path(c)); err != nil {
			return nil, err
		}
	}
	return evaluate.Run(evaluate.Options{
		Source:     h.cfg.Source,
		ResultRoot: h.cfg.ResultDir,
		ScoreRoot:  h.cfg.ScoreDir,
		Models:     []string{h.cfg.Model.Name},
		Categories: cats,
		Partial:    true,
		Registry:   h.registryWithModel(),
		Notes:      map[string]map[string]string{results.ModelDir(h.cfg.Model.Name): h.runNotes(cats)},
	})
}

// registryWithModel is the run's registry with the model as this run used
// it (overrides applied), so scoring decodes its results the same way.
func (h *Harness) registryWithModel() *models.Registry {
	r := &models.Registry{Models: []models.Model{h.cfg.Model}}
	if h.cfg.Registry != nil {
		r.File = h.cfg.Registry.File
		for _, m := range h.cfg.Registry.Models {
			if m.Name != h.cfg.Model.Name {
				r.Models = append(r.Models, m)
			}
		}
	}
	return r
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
