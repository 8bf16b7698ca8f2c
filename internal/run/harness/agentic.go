package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/run/agenticsetup"
	"github.com/bfcl-go/bfcl/internal/services/embed"
	"github.com/bfcl-go/bfcl/internal/services/embed/minilm"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
	"github.com/bfcl-go/bfcl/internal/services/websearch"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/sim"

	wsfixtures "github.com/bfcl-go/bfcl/fixtures/agentic/websearch"
)

// AgenticServices are the external services of the agentic backends and
// why one is missing (the category is then skipped and reported N/A, as
// upstream does without them).
type AgenticServices struct {
	Options          agenticsetup.Options
	NoEmbedderReason string // set when memory_vector cannot run
	NoSearchReason   string // set when web_search_* cannot run
	probeOnce        sync.Once
	from             map[string]string // where the embedder's settings came from, for messages
	builtin          bool              // the embedder is the built-in all-MiniLM-L6-v2
}

// Unavailable says why agentic category c cannot run with these services
// (nil when it can, or is not agentic): the embedder is off or does not
// answer a probe, or there is no web-search provider. generate checks it
// before the run, so a mistyped or unreachable service stops the run
// instead of scoring the category N/A.
func (s *AgenticServices) Unavailable(c category.Category) error {
	if s == nil || !c.IsAgentic() {
		return nil
	}
	return s.applicable(c)
}

// NewAgenticServices picks the embedder and the web-search provider from
// the resolved settings (config.Agentic; the README lists them):
//
//	embedder   minilm (default: upstream's all-MiniLM-L6-v2 in pure Go, from
//	           embed-model-dir, the Hugging Face cache or a one-time download)
//	           | ollama (embed-url, else the model's Ollama base URL, else
//	           127.0.0.1:11434; embed-model, default all-minilm:l6-v2)
//	           | hashed (deterministic, NOT upstream's all-MiniLM-L6-v2; tests
//	           and gold) | off
//	websearch  serpapi (upstream's provider; config makes it the default
//	           when SERPAPI_API_KEY is set) | duckduckgo | offline:<dir> (recorded results) | off
//
// gold gets the hashed embedder and the project's offline recordings, found
// under root (the module root).
func NewAgenticServices(m registry.Model, set config.Agentic, root string) *AgenticServices {
	s := &AgenticServices{from: map[string]string{config.EmbedURL.Name: set.Origin(config.EmbedURL.Name), config.EmbedModel.Name: set.Origin(config.EmbedModel.Name),
		config.Embedder.Name: set.Origin(config.Embedder.Name)}}
	prod := producerFor(m)
	emb := set.Embedder
	if emb == "" && prod.groundTruth() {
		emb = "hashed"
	}
	switch emb {
	case "hashed":
		s.Options.Embedder = embed.Hashed{}
	case "off":
		s.NoEmbedderReason = "embedder off (" + set.Origin(config.Embedder.Name) + "=off)"
	case "", "minilm":
		// upstream's all-MiniLM-L6-v2 in pure Go; located (or downloaded
		// once) on first use, which the pre-run check makes
		s.builtin = true
		s.Options.Embedder = minilm.NewLazy(minilm.LocateOptions{Dir: set.EmbedModelDir, Download: true,
			Log: func(msg string) { fmt.Fprintln(os.Stderr, "bfcl: embedder:", msg) }})
	case "ollama":
		url := set.EmbedURL
		if url == "" {
			url = prod.embedServer(m)
		}
		if url == "" {
			url = "http://127.0.0.1:11434"
		}
		model := set.EmbedModel
		if model == "" {
			model = embed.DefaultOllamaModel
		}
		s.Options.Embedder = embed.NewOllama(url, model)
	default:
		s.NoEmbedderReason = fmt.Sprintf("%s=%q is not minilm, ollama, hashed or off", set.Origin(config.Embedder.Name), emb)
	}
	ws := set.WebSearch
	if ws == "" && prod.groundTruth() {
		// the project's recordings, built into the binary (any working directory)
		off, err := websearch.NewOfflineFS(wsfixtures.Recordings, "the built-in recordings (fixtures/agentic/websearch)")
		if err != nil {
			s.NoSearchReason = err.Error()
		} else {
			s.Options.Search = off
		}
		return s
	}
	fetch := websearch.HTTPFetcher{Policy: &netguard.Policy{AllowPrivate: set.AllowPrivate}}
	switch {
	case ws == "serpapi":
		s.Options.Search = websearch.Combine(websearch.SerpAPI{}, fetch)
	case ws == "duckduckgo":
		s.Options.Search = websearch.Combine(websearch.DuckDuckGo{}, fetch)
	case strings.HasPrefix(ws, "offline:"):
		off, err := websearch.NewOffline(strings.TrimPrefix(ws, "offline:"))
		if err != nil {
			s.NoSearchReason = err.Error()
		} else {
			s.Options.Search = off
		}
	case ws == "" || ws == "off":
		s.NoSearchReason = "no web-search provider"
		if ws == "off" {
			s.NoSearchReason += " (" + set.Origin(config.WebSearch.Name) + "=off)"
		}
		s.NoSearchReason += ": set " + websearch.SerpAPIKeyEnv + " (upstream's SerpAPI), or --websearch / BFCL_WEBSEARCH=duckduckgo or offline:<dir>"
	default:
		s.NoSearchReason = fmt.Sprintf("%s=%q is not serpapi, duckduckgo, offline:<dir> or off", set.Origin(config.WebSearch.Name), ws)
	}
	return s
}

// applicable reports why category c cannot run with these services.
func (s *AgenticServices) applicable(c category.Category) error {
	switch {
	case c == category.MemoryVector:
		s.probeOnce.Do(func() {
			if s.Options.Embedder == nil {
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if _, err := s.Options.Embedder.Embed(ctx, []string{"probe"}); err != nil && s.builtin {
				s.NoEmbedderReason = fmt.Sprintf("the built-in embedder cannot load %s: %v (embedder from %s); give a sentence-transformers download with --embed-model-dir / BFCL_EMBED_MODEL_DIR, let it download once (huggingface.co, or $HF_ENDPOINT), or use --embedder ollama", minilm.HubRepo, err, s.from[config.Embedder.Name])
			} else if err != nil {
				s.NoEmbedderReason = fmt.Sprintf("embedder %s unreachable (%v); server from %s, model from %s; fix --embed-url / BFCL_EMBED_URL or --embed-model / BFCL_EMBED_MODEL (e.g. `ollama pull %s`), or use --embedder / BFCL_EMBEDDER=hashed|off",
					s.Options.Embedder.Name(), err, s.from[config.EmbedURL.Name], s.from[config.EmbedModel.Name], embed.DefaultOllamaModel)
			}
		})
		if s.NoEmbedderReason != "" {
			return fmt.Errorf("%w: memory_vector is N/A: %s", score.ErrNotApplicable, s.NoEmbedderReason)
		}
	case c.IsWebSearch():
		if s.NoSearchReason != "" {
			return fmt.Errorf("%w: %s is N/A: %s", score.ErrNotApplicable, c, s.NoSearchReason)
		}
	}
	return nil
}

// agenticExecutor is an engine session of an agentic entry with the
// conversation hooks the inference loop calls.
type agenticExecutor struct {
	*engine.Session
	entry *dataset.Entry
}

func (a *agenticExecutor) instance() (sim.Instance, error) {
	if len(a.entry.InvolvedClasses) != 1 {
		return nil, fmt.Errorf("%s: an agentic entry involves one backend, not %v", a.entry.Where(), a.entry.InvolvedClasses)
	}
	inst, ok := a.Instance(a.entry.InvolvedClasses[0])
	if !ok {
		return nil, fmt.Errorf("%s: backend %s was not created", a.entry.Where(), a.entry.InvolvedClasses[0])
	}
	return inst, nil
}

// Prepare implements infer.Hooks.
func (a *agenticExecutor) Prepare(q [][]dataset.Message) ([][]dataset.Message, error) {
	inst, err := a.instance()
	if err != nil {
		return nil, err
	}
	return agenticsetup.PrepareQuestion(q, a.entry, inst)
}

// Finish implements infer.Hooks.
func (a *agenticExecutor) Finish() error {
	inst, err := a.instance()
	if err != nil {
		return err
	}
	return agenticsetup.Finish(a.entry, inst)
}

// ensurePrereqs runs, once per memory category and scenario, the
// prerequisite conversations that fill the memory the questions start
// from, in order (each depends on all earlier ones), storing their records
// in upstream's prerequisite result file. Stored records are reused. Across
// Ginkgo processes a lock file serialises the work.
func (h *Harness) ensurePrereqs(ctx context.Context, e *dataset.Entry) error {
	key := prereqKey{e.Category, e.Scenario}
	h.mu.Lock()
	if h.prereqs == nil {
		h.prereqs = map[prereqKey]*prereqState{}
	}
	st, ok := h.prereqs[key]
	if !ok {
		st = &prereqState{}
		h.prereqs[key] = st
	}
	h.mu.Unlock()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return st.err
	}
	st.err = h.runPrereqs(ctx, e)
	if st.err == nil || !errors.Is(st.err, context.Canceled) {
		st.done = true
	}
	return st.err
}

// prereqKey names one memory category's scenario.
type prereqKey struct {
	c        category.Category
	scenario string
}

type prereqState struct {
	mu   sync.Mutex
	done bool
	err  error
}

func (h *Harness) runPrereqs(ctx context.Context, e *dataset.Entry) error {
	cat := e.Category
	pre, err := h.cfg.Source.MemoryPrereqs(cat, e.Scenario)
	if err != nil {
		return err
	}
	name, _ := cat.PrereqResultFileName()
	path := filepath.Join(h.cfg.ResultDir, results.ModelDir(h.cfg.Model.Name), filepath.FromSlash(cat.Dir()), name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	unlock, err := lockPath(path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	done := map[string]bool{}
	if recs, err := results.Read(path); err == nil {
		for _, r := range recs {
			done[r.ID] = true
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, p := range pre {
		if done[p.ID] && !h.cfg.Rerun {
			continue
		}
		rec, _, err := h.infer(ctx, p)
		if err != nil {
			return fmt.Errorf("memory prerequisite %s: %w", p.ID, err)
		}
		if _, err := results.AppendFile(path, rec); err != nil {
			return err
		}
	}
	return nil
}

// lockPath takes an exclusive lock on the file name (created if needed,
// shared with other processes writing the same result folder) and returns
// its release, which removes the file, so no empty lock file is left in the
// result folder. A holder that finds the file it locked already removed
// (another released it meanwhile) locks the new one instead.
func lockPath(name string) (release func(), err error) {
	for {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			f.Close()
			return nil, err
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(name)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return func() {
				os.Remove(name)                             //nolint:errcheck // before unlocking: a waiter then sees a removed file and retries
				syscall.Flock(int(f.Fd()), syscall.LOCK_UN) //nolint:errcheck
				f.Close()
			}, nil
		}
		f.Close() // released by another holder after we opened it: retry on the current file
	}
}
