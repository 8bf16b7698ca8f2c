package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bfcl-go/bfcl/internal/agentic"
	"github.com/bfcl-go/bfcl/internal/dataset"
	"github.com/bfcl-go/bfcl/internal/driver"
	"github.com/bfcl-go/bfcl/internal/engine"
	"github.com/bfcl-go/bfcl/internal/gold"
	"github.com/bfcl-go/bfcl/internal/infer"
	"github.com/bfcl-go/bfcl/internal/longcontext"
	"github.com/bfcl-go/bfcl/internal/models"
	"github.com/bfcl-go/bfcl/internal/pyval"
	"github.com/bfcl-go/bfcl/internal/reqcache"
	"github.com/bfcl-go/bfcl/internal/results"
	"github.com/bfcl-go/bfcl/internal/score"
	"github.com/bfcl-go/bfcl/sim"
)

// DriverFor returns the per-entry driver factory of a registry model: gold
// builds one per entry from the entry's ground truth; server providers share
// one driver (and its connection pool) across entries.
func DriverFor(m models.Model) func(e *dataset.Entry) (driver.Driver, error) {
	if m.Provider == "replay" {
		return func(e *dataset.Entry) (driver.Driver, error) {
			return nil, fmt.Errorf("model %s replays stored results; it has no driver", m.Name)
		}
	}
	if m.Provider == "gold" {
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
			d, err = driver.New(driver.Config{
				Provider: m.Provider, Model: m.Model, BaseURL: m.BaseURL, APIKey: m.APIKey(),
				Mode: m.Mode, UnderscoreToDot: m.UnderscoreToDot, NumCtx: m.NumCtx, Timeout: timeout,
				BaseURLs: m.BaseURLs, MaxInFlight: m.Concurrency, // replicas; adaptive cap on 429 (issue 12)
			})
			if err != nil {
				return
			}
			if p, ok := d.(driver.Prober); ok {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				if err = p.Probe(ctx); err != nil {
					err = fmt.Errorf("model %s is not usable: %w", m.Name, err)
					return
				}
			}
			if dir := RequestCacheDir(); dir != "" {
				d = reqcache.New(d, dir, reqcache.Identity{Provider: m.Provider, Model: m.Model, Mode: m.Mode, BaseURL: m.BaseURL})
			}
		})
		return d, err
	}
}

// RequestCacheDir is where model requests and responses are recorded:
// $BFCL_REQUEST_CACHE, or bfcl-go/requests in the user cache folder;
// BFCL_REQUEST_CACHE=off disables recording and replay.
func RequestCacheDir() string {
	switch v := os.Getenv("BFCL_REQUEST_CACHE"); v {
	case "off", "0", "false":
		return ""
	case "":
		c, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(c, "bfcl-go", "requests")
	default:
		return v
	}
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
		isAgentic := agentic.IsMemory(e.ID) || agentic.IsWebSearch(e.ID)
		if isAgentic {
			c, err := agentic.InitialConfig(e, filepath.Join(cfg.ResultDir, results.ModelDir(cfg.Model.Name)))
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
		s := engine.New(sim.NewEnv(lc), engine.Config{
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
		var opts agentic.Options
		if cfg.Agentic != nil {
			opts = cfg.Agentic.Options
		}
		for _, cl := range s.Classes() {
			inst, _ := s.Instance(cl)
			if err := agentic.Configure(inst, opts); err != nil {
				return nil, fmt.Errorf("%s: %w", e.Where(), err)
			}
		}
		return &agenticExecutor{Session: s, entry: e}, nil
	}
}
