package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/cache/reqcache"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/config/corrections"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/gold"
	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/run/agenticsetup"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/sim"
)

// A producer makes the result record of one entry. The model's provider
// decides which one (producerFor); the runner does not look at provider
// names.
type producer interface {
	produce(ctx context.Context, h *Harness, e *dataset.Entry) (results.Record, infer.Stats, error)
	// everyFormat reports that the provider answers prompt-mode formats even
	// for an FC model entry (gold answers every format-sensitivity variant).
	everyFormat() bool
	// usesServices reports that entries run live against the agentic
	// services (embedder, web search); replayed records do not.
	usesServices() bool
	// waitsOnNetwork reports that entries wait for a model server between
	// their steps of CPU work (not gold, not replay).
	waitsOnNetwork() bool
	// groundTruth reports that the answers are the entries' ground truth
	// (gold): the hashed embedder and the recorded searches serve it, and
	// its known checker failures are expected.
	groundTruth() bool
	// embedServer is the address of an embedder the model's own server
	// offers ("" when it offers none): an Ollama server embeds.
	embedServer(m registry.Model) string
	// drivers is the per-entry driver factory of the model (DriverFor).
	drivers(m registry.Model, cacheDir string, corr corrections.Set) func(e *dataset.Entry) (driver.Driver, error)
}

// producerFor is the one place in the runner that knows the providers
// apart (the driver factory, driver.New, picks the wire format): replay
// reads stored records, every other provider (gold included) is a driver
// behind the inference loop.
func producerFor(m registry.Model) producer {
	switch m.Provider {
	case "replay":
		return replayProducer{}
	case "gold":
		return inferProducer{all: true}
	case driver.ProviderOllama:
		return inferProducer{embeds: true}
	}
	return inferProducer{}
}

// AnswersGroundTruth reports that the model answers with the entries'
// ground truth (gold).
func AnswersGroundTruth(m registry.Model) bool { return producerFor(m).groundTruth() }

// DriverFor returns the per-entry driver factory of a registry model: gold
// builds one per entry from the entry's ground truth; server providers share
// one driver (and its connection pool) across entries, recorded under
// cacheDir ("" records nothing; see config's request-cache setting).
func DriverFor(m registry.Model, cacheDir string) func(e *dataset.Entry) (driver.Driver, error) {
	return DriverWith(m, cacheDir, corrections.Set{})
}

// DriverWith is DriverFor with opt-in corrections of upstream defects on
// (the drivers apply underscore-to-dot-names).
func DriverWith(m registry.Model, cacheDir string, corr corrections.Set) func(e *dataset.Entry) (driver.Driver, error) {
	return producerFor(m).drivers(m, cacheDir, corr)
}

func (replayProducer) drivers(m registry.Model, _ string, _ corrections.Set) func(e *dataset.Entry) (driver.Driver, error) {
	return func(e *dataset.Entry) (driver.Driver, error) {
		return nil, fmt.Errorf("model %s replays stored results; it has no driver", m.Name)
	}
}

func (p inferProducer) drivers(m registry.Model, cacheDir string, corr corrections.Set) func(e *dataset.Entry) (driver.Driver, error) {
	if p.all {
		return func(e *dataset.Entry) (driver.Driver, error) { return gold.New(e) }
	}
	var (
		once sync.Once
		d    driver.Driver
		err  error
	)
	return func(*dataset.Entry) (driver.Driver, error) {
		once.Do(func() {
			var timeout time.Duration
			if m.Timeout != "" {
				if timeout, err = time.ParseDuration(m.Timeout); err != nil {
					err = fmt.Errorf("model %s: timeout %q: %w", m.Name, m.Timeout, err)
					return
				}
			}
			if m.KeyRequired && m.APIKey() == "" {
				err = fmt.Errorf("model %s: no API key: environment variable %s is not set (upstream's %s reads it; or give a models.yaml entry with upstream: %s its own base_url and api_key_env)",
					m.Name, m.APIKeyEnv, m.Handler, m.Upstream)
				return
			}
			dc := driver.Config{
				Provider: m.Provider, Model: m.Model, BaseURL: m.BaseURL, APIKey: m.APIKey(), APIKeyEnv: m.APIKeyEnv,
				Mode: m.Mode, UnderscoreToDot: m.UnderscoreToDot, NumCtx: m.NumCtx, Timeout: timeout,
				BaseURLs: m.BaseURLs, MaxInFlight: m.Concurrency, // replicas; an adaptive cap on the requests in flight (halved on 429)
				Headers: m.Headers, StripReasoning: m.StripReasoning,
				Handler: m.Handler, UpstreamModel: m.UpstreamModelName(), ContextWindow: m.ContextWindow,
				Corrections: corr,
			}
			if d, err = driver.New(dc); err != nil {
				return
			}
			if err = driver.ProbeAll(context.Background(), dc, d, 0); err != nil {
				err = fmt.Errorf("model %s is not usable: %w", m.Name, err)
				var pe *core.ProbeError
				if cacheDir == "" || !errors.As(err, &pe) || pe.Kind != "unreachable" {
					return
				}
				// A run served from the request cache needs no server:
				// the cache answers what it holds, and a request it does
				// not hold fails with the probe's error (the circuit
				// breaker then stops the run).
				fmt.Fprintf(os.Stderr, "bfcl: %v\nbfcl: answering from the request cache %s only: entries whose requests are not cached fail\n", err, cacheDir)
				d, err = cacheOnly{name: d.Name(), err: err}, nil
			}
			if cacheDir != "" {
				d = reqcache.New(d, cacheDir, reqcache.Identity{Provider: m.Provider, Model: m.Model, Mode: m.Mode, BaseURL: m.BaseURL})
			}
		})
		return d, err
	}
}

// inferProducer drives the model through the inference loop. all: gold,
// the ground truth answered in process; embeds: the model's server offers
// embeddings (Ollama).
type inferProducer struct{ all, embeds bool }

func (p inferProducer) groundTruth() bool { return p.all }
func (p inferProducer) embedServer(m registry.Model) string {
	if p.embeds {
		return m.BaseURL
	}
	return ""
}
func (p inferProducer) everyFormat() bool    { return p.all }
func (inferProducer) usesServices() bool     { return true }
func (p inferProducer) waitsOnNetwork() bool { return !p.all } // all: gold, answered in process

func (inferProducer) produce(ctx context.Context, h *Harness, e *dataset.Entry) (results.Record, infer.Stats, error) {
	d, err := h.cfg.NewDriver(e)
	if err != nil {
		return results.Record{}, infer.Stats{}, err
	}
	return infer.Run(ctx, d, e, h.inferOptions(e))
}

// inferOptions are the inference-loop options of entry e for this model.
func (h *Harness) inferOptions(e *dataset.Entry) infer.Options {
	m := h.cfg.Model
	spec := m.Decoding() // models.yaml handler: / upstream:
	if e.Category == prompt.FormatSensitivityCategory {
		spec.Mode = "prompt" // the category exists only in prompt mode
	}
	return infer.Options{
		Spec:            spec,
		Temperature:     m.Temperature,
		MaxTokens:       m.MaxTokens,
		Seed:            m.Seed,
		Local:           localFormat(m),
		NewExecutor:     h.cfg.NewExecutor,
		IncludeInputLog: h.cfg.IncludeInputLog,
		ExcludeStateLog: h.cfg.ExcludeStateLog,
		Corrections:     h.cfg.Corrections,
		Gate:            h.gate,
	}
}

// replayProducer takes the entry's record from the replay folder (a result
// root of ours or of upstream's; the model folder is the registry entry's
// `model`, or its name), so a run costs no model call.
type replayProducer struct{}

func (replayProducer) groundTruth() bool                 { return false }
func (replayProducer) embedServer(registry.Model) string { return "" }
func (replayProducer) everyFormat() bool                 { return false }
func (replayProducer) usesServices() bool                { return false }
func (replayProducer) waitsOnNetwork() bool              { return false }

func (replayProducer) produce(_ context.Context, h *Harness, e *dataset.Entry) (results.Record, infer.Stats, error) {
	m := h.cfg.Model
	folder := m.Model
	if folder == "" {
		folder = m.Name
	}
	src := results.NewStore(m.ReplayDir, folder)
	rec, ok, err := src.Lookup(e.Category, e.ID)
	if err != nil {
		return results.Record{}, infer.Stats{}, err
	}
	if !ok {
		return results.Record{}, infer.Stats{}, fmt.Errorf("replay: %s has no result for %s", src.Path(e.Category), e.ID)
	}
	rec.Raw = nil
	return rec, infer.Stats{}, nil
}

// DefaultExecutor returns the model-side backend executor factory used
// during inference: each entry gets its own instances (named as upstream's
// inference names them: the model id with "/", "-" and "." turned into "_")
// on a private copy of the long-context data.
func DefaultExecutor(cfg Config) func(e *dataset.Entry) (infer.Executor, error) {
	var (
		once sync.Once
		lc   *longcontext.Data
		err  error
	)
	return func(e *dataset.Entry) (infer.Executor, error) {
		once.Do(func() { lc, err = score.LongContextOf(cfg.Source) })
		if err != nil {
			return nil, err
		}
		conf := pyval.NewDict()
		isAgentic := agenticsetup.IsMemory(e.ID) || agenticsetup.IsWebSearch(e.ID)
		if isAgentic {
			c, err := agenticsetup.InitialConfig(e, filepath.Join(cfg.ResultDir, results.ModelDir(cfg.Model.Name)))
			if err != nil {
				return nil, err
			}
			conf = c
		} else {
			c, err := e.InitialConfigDict()
			if err != nil {
				return nil, err
			}
			conf = c
		}
		name := cfg.Model.Model
		if name == "" {
			name = cfg.Model.Name
		}
		name = strings.NewReplacer("/", "_", "-", "_", ".", "_").Replace(name)
		env := sim.NewEnv(lc)
		env.KVKeyPatternCorrected = cfg.Corrections.Has(corrections.MemoryKVKeyPattern)
		env.EmptyMemorySearchCorrected = cfg.Corrections.Has(corrections.EmptyMemorySearch)
		s := engine.New(env, engine.Config{
			ModelName:     name,
			EntryID:       e.ID,
			Involved:      e.InvolvedClasses,
			InitialConfig: conf,
			LongContext:   e.LongContext(),
		})
		// Upstream creates the instances before the first request.
		if err := s.Init(); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Where(), err)
		}
		if !isAgentic {
			return s, nil
		}
		var opts agenticsetup.Options
		if cfg.Agentic != nil {
			opts = cfg.Agentic.Options
		}
		for _, cl := range s.Classes() {
			inst, _ := s.Instance(cl)
			if err := agenticsetup.Configure(inst, opts); err != nil {
				return nil, fmt.Errorf("%s: %w", e.Where(), err)
			}
		}
		return &agenticExecutor{Session: s, entry: e}, nil
	}
}

// localFormat is the per-entry format of the upstream local-model handler
// class m runs under (nil when its handler is not one: a chat or FC API,
// or gold).
func localFormat(m registry.Model) func() oss.Format {
	if m.Provider == "gold" || m.Provider == "replay" {
		return nil
	}
	if _, ok := oss.ForClass(m.Handler, m.UpstreamModelName()); !ok {
		return nil
	}
	return func() oss.Format {
		// the model's chat template, for the classes that render with it
		// (the driver, made first, stops the run when it is missing)
		if f, _, err := oss.ForModel(m.Handler, m.UpstreamModelName(), m.Model); err == nil {
			return f
		}
		f, _ := oss.ForClass(m.Handler, m.UpstreamModelName())
		return f
	}
}

// cacheOnly stands for a server that did not answer the probe: behind the
// request cache, every request the cache does not hold fails with why.
type cacheOnly struct {
	name string
	err  error
}

func (c cacheOnly) Name() string { return c.name }

func (c cacheOnly) Complete(context.Context, core.Request) (core.Response, error) {
	return core.Response{}, fmt.Errorf("not in the request cache, and the server is unreachable: %w", c.err)
}
