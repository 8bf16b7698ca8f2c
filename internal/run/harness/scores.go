package harness

import (
	"fmt"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/services/embed"
	"github.com/bfcl-go/bfcl/internal/services/embed/minilm"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Ran is what one runner ran. Scoring the result files and writing the
// reports is the caller's (cmd/bfcl, suites/specs compose run, evaluate and
// report); the runner only stores results.
type Ran struct {
	H    *Harness
	Cats []category.Category
	// Skipped are the selected categories that did not run, with why;
	// summary.json names them (notes "not_run_<category>").
	Skipped map[category.Category]string
}

// Notes are what summary.json says of this run of the model: the services
// its agentic categories used, the requests note, and each selected
// category that did not run, with why ("not_run_<category>").
func (r Ran) Notes() map[string]string {
	notes := r.H.RunNotes(r.Cats)
	for c, why := range r.Skipped {
		notes["not_run_"+string(c)] = why
	}
	return notes
}

// Compact rewrites the result files of the given categories in entry
// order (results.Compact), as they are before scoring.
func (h *Harness) Compact(cats []category.Category) error {
	for _, c := range cats {
		if err := results.Compact(h.store.Path(c)); err != nil {
			return err
		}
	}
	return nil
}

// requestsNote says when a model tied to an upstream registry entry does
// not send that entry's requests: the entry names another provider (every
// handler class's own requests are reproduced by its provider's driver).
func requestsNote(m registry.Model) string {
	e, ok := upstream.Lookup(m.Upstream)
	if !ok {
		return ""
	}
	t, err := upstream.TransportOf(e)
	switch {
	case err != nil:
		return ""
	case t.Provider != m.Provider:
		return fmt.Sprintf("not upstream's requests: %s's handler %s speaks %s, this model %s", e.Name, e.Handler, t.Provider, m.Provider)
	}
	return ""
}

// RunNotes records the services this run's agentic categories used, for
// summary.json.
func (h *Harness) RunNotes(cats []category.Category) map[string]string {
	notes := map[string]string{}
	if n := requestsNote(h.cfg.Model); n != "" {
		notes["requests"] = n
	}
	a := h.cfg.Agentic
	if a == nil {
		return notes
	}
	for _, c := range cats {
		switch {
		case c == category.MemoryVector && a.Options.Embedder != nil:
			notes["memory_vector_embedder"] = a.Options.Embedder.Name()
			if l, ok := a.Options.Embedder.(*minilm.Lazy); ok && l.SHA256() != "" {
				notes["memory_vector_embedder_sha256"] = l.SHA256() // model.safetensors
			}
			notes["memory_vector_upstream_embedder"] = embed.UpstreamModel + " (sentence-transformers)"
		case c.IsWebSearch() && a.Options.Search != nil:
			notes["web_search_provider"] = fmt.Sprintf("%T", a.Options.Search)
		}
	}
	return notes
}
