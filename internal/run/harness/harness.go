// Package harness runs one data-set entry end to end: it loads the entry,
// reuses its stored result or drives the model through the inference loop
// and stores the result, scores it with the category's checker and returns
// the outcome. It knows nothing of Ginkgo or of the environment: the CLI's
// verbs and the Ginkgo specs (suites/specs) build it from a resolved
// configuration (FromConfig).
package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/config/corrections"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/internal/run/sched"
	"github.com/bfcl-go/bfcl/internal/run/turniso"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Config is what a run needs.
type Config struct {
	Model    registry.Model
	Registry *registry.Registry // the registry Model came from; nil for the built-in gold
	Source   *dataset.Source
	// Storage: the result root ("result") and score root ("score"); Rerun
	// ignores stored results and calls the model again; TurnIsolated asks
	// multi-turn entries turn by turn with the ground truth's history
	// (internal/run/turniso), records and scores in their own folders,
	// never the official ones; RequestCache is the request record/replay
	// folder ("" for none); IncludeInputLog and ExcludeStateLog shape the
	// inference log of the records (upstream's --include-input-log,
	// --exclude-state-log; see infer.Options).
	config.Storage
	// NewDriver returns the driver for one entry (gold needs the entry;
	// servers ignore it). Defaults to DriverFor(Model, RequestCache).
	NewDriver func(e *dataset.Entry) (driver.Driver, error)
	// NewExecutor returns the model-side backend executor of a multi-turn or
	// agentic entry.
	NewExecutor func(e *dataset.Entry) (infer.Executor, error)
	// Agentic are the agentic backends' services (embedder, web search).
	Agentic *AgenticServices
	// Corrections are the opt-in corrections of upstream defects that are
	// on (none: the official behaviour): the driver, the inference loop
	// and the model-side backends apply theirs, and the scores of the run
	// are marked with the list.
	Corrections corrections.Set
	// Kept, when set, keeps every verdict the run reaches, so that the
	// score files written after the run do not score those records again
	// (evaluate.Options.Kept).
	Kept *score.Kept
}

// Outcome is the result of one entry.
type Outcome struct {
	Verdict  verdict.Verdict
	Resumed  bool // the stored result of an earlier run was scored
	Stats    infer.Stats
	Duration time.Duration
}

// Harness runs entries of one model. It is safe for concurrent use.
type Harness struct {
	cfg   Config
	store *results.Store
	sem   chan struct{} // entries in progress (see entrySlots)
	prod  producer
	gate  *sched.Gate // orders the entries' CPU work, longest first

	lcOnce sync.Once
	lc     *longcontext.Data
	lcErr  error

	mu      sync.Mutex
	prereqs map[prereqKey]*prereqState // memory category/scenario -> prerequisites run
}

// New returns a harness for cfg.
func New(cfg Config) (*Harness, error) {
	if cfg.Source == nil {
		return nil, errors.New("harness: no data set")
	}
	if cfg.ResultDir == "" {
		cfg.ResultDir = "result"
	}
	if cfg.ScoreDir == "" {
		cfg.ScoreDir = "score"
	}
	if cfg.NewDriver == nil {
		cfg.NewDriver = DriverWith(cfg.Model, cfg.RequestCache, cfg.Corrections)
	}
	if cfg.NewExecutor == nil {
		cfg.NewExecutor = DefaultExecutor(cfg)
	}
	prod := producerFor(cfg.Model)
	if !prod.usesServices() {
		cfg.Agentic = nil // stored records need no embedder or search provider
	}
	entries, cpu, reserve := slots(cfg.Model.Concurrency, prod.waitsOnNetwork(), runtime.GOMAXPROCS(0))
	gate := sched.NewGate(cpu)
	gate.ReserveForWaits(reserve)
	return &Harness{
		cfg:   cfg,
		store: results.NewStore(cfg.ResultDir, cfg.Model.Name),
		sem:   make(chan struct{}, entries),
		prod:  prod,
		gate:  gate,
	}, nil
}

// slots is how a run of a model with the given concurrency (the requests
// it keeps in flight, capped by the driver's limiter) spreads its work:
//
//   - entries in progress: for a model behind a server, twice the
//     concurrency. An entry does CPU work between its calls (executing the
//     calls, encoding the next request); with one entry per request slot,
//     the slot idles meanwhile. With more entries than slots, a waiting
//     request takes the slot at once, and the limiter hands slots to the
//     entry with the most calls ahead (internal/run/cost), so the longest
//     entries are not delayed by the extra ones. Gold and replay make no
//     requests: one entry per unit of concurrency.
//   - CPU slots of the gate (internal/run/sched): one per core. For a model
//     behind a server, reserve is the one core kept for the HTTP client's
//     goroutines while requests are out, so that a response is read when
//     it arrives rather than after another entry's step of CPU work; when
//     no request is out (the end of a run, whose last entries are being
//     scored) every core serves the entries (sched.Gate.ReserveForWaits).
func slots(concurrency int, network bool, cores int) (entries, cpu, reserve int) {
	concurrency, cores = max(concurrency, 1), max(cores, 1)
	if !network {
		return concurrency, cores, 0
	}
	return 2 * concurrency, cores, 1
}

// Config returns the harness's configuration.
func (h *Harness) Config() Config { return h.cfg }

// Store returns the result store.
func (h *Harness) Store() *results.Store { return h.store }

// Entry returns the data-set entry id of category c (the data set's own
// index: every category is loaded once per process).
func (h *Harness) Entry(c category.Category, id string) (*dataset.Entry, error) {
	e, err := h.cfg.Source.Entry(c, id)
	if err != nil {
		return nil, fmt.Errorf("harness: %w", err)
	}
	return e, nil
}

// Run runs entry id of category c: stored result or a fresh inference, then
// scoring. Errors are infrastructure failures (no data, model unreachable
// after retries, no checker); a wrong answer is a verdict, not an error.
func (h *Harness) Run(ctx context.Context, cat category.Category, id string) (Outcome, error) {
	start := time.Now()
	if ok, why := score.Supported(cat); !ok {
		return Outcome{}, fmt.Errorf("%w (%s)", score.ErrNoChecker, why)
	}
	if cat.IsAgentic() && h.cfg.Agentic != nil {
		if err := h.cfg.Agentic.applicable(cat); err != nil {
			return Outcome{}, err
		}
	}
	if cat.IsFormatSensitivity() && h.cfg.Model.Mode != "prompt" && !h.prod.everyFormat() {
		return Outcome{}, fmt.Errorf("%w: format sensitivity re-runs prompt-mode models under 26 prompt formats; %s is an FC model (upstream skips those too)", score.ErrNotApplicable, h.cfg.Model.Name)
	}
	e, err := h.Entry(cat, id)
	if err != nil {
		return Outcome{}, err
	}
	if h.cfg.TurnIsolated {
		return h.runIsolated(ctx, e, start)
	}
	var out Outcome
	rec, found := results.Record{}, false
	if !h.cfg.Rerun {
		if rec, found, err = h.store.Lookup(cat, id); err != nil {
			return Outcome{}, err
		}
	}
	if found {
		out.Resumed = true
	} else {
		if cat.IsMemory() {
			if err := h.ensurePrereqs(ctx, e); err != nil {
				return Outcome{}, err
			}
		}
		if rec, out.Stats, err = h.infer(ctx, e); err != nil {
			return Outcome{}, err
		}
		if err := h.store.Append(cat, rec); err != nil {
			return Outcome{}, err
		}
		// The stored record carries the line as written (Raw), which is
		// what keeps its verdict for the score files (score.Kept).
		if stored, ok, err := h.store.Lookup(cat, id); err == nil && ok {
			rec = stored
		}
	}
	if cat.IsMultiTurn() {
		h.lcOnce.Do(func() { h.lc, h.lcErr = h.cfg.Source.LongContext() })
		if h.lcErr != nil {
			return Outcome{}, h.lcErr
		}
	}
	// Scoring is CPU work like the inference loop's: under the gate, last
	// in line (priority 0), so it never delays an entry still talking to
	// the model.
	sctx, ticket := sched.With(ctx, h.gate, 0)
	if err := ticket.Acquire(sctx); err != nil {
		return Outcome{}, err
	}
	defer ticket.Release()
	opts := score.Options{
		Spec:        h.cfg.Model.Decoding(), // the run's verdicts decode as its score files do
		LongContext: h.lc,
		ModelName:   results.ModelDir(h.cfg.Model.Name),
	}
	v, err := score.Entry(e, rec, opts)
	if err != nil {
		return Outcome{}, err
	}
	h.cfg.Kept.Add(rec, opts, v)
	out.Verdict = v
	out.Duration = time.Since(start)
	return out, nil
}

func (h *Harness) infer(ctx context.Context, e *dataset.Entry) (results.Record, infer.Stats, error) {
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return results.Record{}, infer.Stats{}, ctx.Err()
	}
	defer func() { <-h.sem }()
	return h.prod.produce(ctx, h, e)
}

// FromConfig builds the runner of model m from a resolved configuration
// (internal/config): the CLI's verbs and the suites both start here.
func FromConfig(rc *config.Run, m registry.Model) (*Harness, error) {
	src, err := rc.Source()
	if err != nil {
		return nil, err
	}
	return New(Config{
		Model:       m,
		Registry:    rc.Registry,
		Source:      src,
		Storage:     rc.Storage,
		Agentic:     NewAgenticServices(m, rc.Agentic, config.ModuleRootBase.Dir()),
		Corrections: rc.Corrections,
	})
}

// runIsolated runs a multi-turn entry in the turn-isolated mode
// (internal/run/turniso): every turn is asked with the ground truth's
// conversation and backend state before it, stored under the isolated
// result root (resumable) and scored by upstream's checker on the entry cut
// after the turn. The entry passes when every turn does. A diagnostic of
// ours, never an official score.
func (h *Harness) runIsolated(ctx context.Context, e *dataset.Entry, start time.Time) (Outcome, error) {
	if !e.Category.IsMultiTurn() {
		return Outcome{}, fmt.Errorf("%w: the turn-isolated mode asks multi-turn entries only", score.ErrNotApplicable)
	}
	if !h.prod.usesServices() {
		return Outcome{}, fmt.Errorf("%w: the turn-isolated mode asks the model; %s replays stored results", score.ErrNotApplicable, h.cfg.Model.Name)
	}
	h.lcOnce.Do(func() { h.lc, h.lcErr = h.cfg.Source.LongContext() })
	if h.lcErr != nil {
		return Outcome{}, h.lcErr
	}
	store := results.NewStore(turniso.IsolatedRoot(h.cfg.ResultDir), h.cfg.Model.Name)
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return Outcome{}, ctx.Err()
	}
	recs, st, err := turniso.RunEntry(ctx, func() (driver.Driver, error) { return h.cfg.NewDriver(e) }, e, h.inferOptions(e), store)
	<-h.sem
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Stats: st, Verdict: verdict.Verdict{ID: e.ID, Category: e.Category, Valid: true}}
	for t, rec := range recs {
		v, err := turniso.Score(e, t, rec, multiturn.Options{Spec: h.cfg.Model.Decoding(), ModelName: results.ModelDir(h.cfg.Model.Name),
			LongContext: h.lc})
		if err != nil {
			return Outcome{}, err
		}
		if !v.Valid && out.Verdict.Valid {
			out.Verdict = v.Verdict
			out.Verdict.ID, out.Verdict.Category = e.ID, e.Category
			out.Verdict.Errors = append([]string{fmt.Sprintf("isolated turn %d failed", t)}, v.Errors...)
		}
	}
	out.Duration = time.Since(start)
	return out, nil
}

// Probe checks, before a run, that the model can be used: for a server the
// driver is built once and its provider's probe runs (reachable, model
// present, key accepted, tools where the API tells), so a wrong URL or key
// ends the run at once with one message instead of failing every entry.
// Gold and replay need no probe.
func (h *Harness) Probe() error {
	if p, ok := h.prod.(inferProducer); !ok || p.all {
		return nil // replayed records, or gold's own answers
	}
	_, err := h.cfg.NewDriver(nil)
	return withKeyHint(err, h.cfg.Model)
}

// withKeyHint adds to a refused key what the environment says about it: a
// 401 with the key's variable unset is that variable's absence, not a bad
// key.
func withKeyHint(err error, m registry.Model) error {
	var pe *core.ProbeError
	if !errors.As(err, &pe) || pe.Kind != "key" {
		return err
	}
	switch {
	case m.APIKeyEnv == "":
		return fmt.Errorf("%w (the model entry %s names no api_key_env, so no key was sent)", err, m.Name)
	case os.Getenv(m.APIKeyEnv) == "":
		return fmt.Errorf("%w (%s, the model's api_key_env, is not set in the environment: no key was sent)", err, m.APIKeyEnv)
	}
	return err
}

// KeepVerdicts makes the runner keep every verdict it reaches in k (see
// Config.Kept). Call before running.
func (h *Harness) KeepVerdicts(k *score.Kept) { h.cfg.Kept = k }
