package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bfcl-go/bfcl/internal/category"
	"github.com/bfcl-go/bfcl/internal/dataset"
	"github.com/bfcl-go/bfcl/internal/evaluate"
	"github.com/bfcl-go/bfcl/internal/harness"
	"github.com/bfcl-go/bfcl/internal/prompt"
	"github.com/bfcl-go/bfcl/internal/report"
	"github.com/bfcl-go/bfcl/internal/score"
)

func readRows(scoreDir string) ([]report.Row, error) {
	reg, _ := loadRegistry("")
	return evaluate.Rows(scoreDir, nil, reg)
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func cmdEvaluate(args []string) error {
	fs := flag.NewFlagSet("evaluate", flag.ExitOnError)
	var modelsF, cats listFlag
	fs.Var(&modelsF, "model", "model folder(s) to score (repeatable or comma-separated; default: every folder)")
	fs.Var(&cats, "test-category", "categories or groups (repeatable or comma-separated; default all)")
	resultDir := fs.String("result-dir", "result", "result root (holds <model>/<group>/BFCL_v4_<category>_result.json)")
	scoreDir := fs.String("score-dir", "score", "score root to write")
	dataDir := fs.String("data-dir", "", "BFCL data directory (default $BFCL_DATA_DIR or the `bfcl data` cache)")
	mode := fs.String("mode", "", "decode results as fc or prompt (default: the registry's mode, else detected per record)")
	u2d := fs.String("underscore-to-dot", "", "true/false: tool names were sent with '.' replaced by '_' (default: the registry's setting)")
	partial := fs.Bool("partial-eval", false, "score only the entries present in each result file")
	strict := fs.Bool("strict-irrelevance", false, "NOT the official score: also fail multi-turn turns without ground truth where the model still called a function (upstream's uncalled multi_turn_irrelevance_checker)")
	modelsFile := fs.String("models-file", "", "registry file (default $BFCL_MODELS_FILE or ./models.yaml)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile to this file")
	applyUpstream := upstreamEvaluateFlags(fs) // --handler, --alias (cmd/bfcl/upstream.go)
	fs.Parse(args)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	src, err := openData(*dataDir)
	if err != nil {
		return err
	}
	if len(cats) == 0 {
		cats = listFlag{"all"}
	}
	cs, err := category.ExpandList(cats)
	if err != nil {
		return err
	}
	var ms []string
	for _, m := range modelsF {
		ms = append(ms, strings.Split(m, ",")...)
	}
	if *mode != "" && *mode != "fc" && *mode != "prompt" {
		return fmt.Errorf("--mode %q must be fc or prompt", *mode)
	}
	o := evaluate.Options{Source: src, ResultRoot: *resultDir, ScoreRoot: *scoreDir, Models: ms, Categories: cs,
		Mode: *mode, Partial: *partial, StrictIrrelevance: *strict, Log: os.Stderr}
	if *u2d != "" {
		b := *u2d == "true" || *u2d == "1"
		if !b && *u2d != "false" && *u2d != "0" {
			return fmt.Errorf("--underscore-to-dot %q must be true or false", *u2d)
		}
		o.UnderscoreToDot = &b
	}
	if reg, err := loadRegistry(*modelsFile); err == nil {
		o.Registry = reg
	} else if *modelsFile != "" {
		return err
	}
	if err := applyUpstream(&o); err != nil {
		return err
	}
	start := time.Now()
	rows, err := evaluate.Run(o)
	if err != nil {
		return err
	}
	if err := report.WriteTable(os.Stdout, rows); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "evaluated in %.2fs; score files, CSVs and summary.json in %s\n", time.Since(start).Seconds(), *scoreDir)
	return nil
}

func openData(dir string) (*dataset.Source, error) {
	if dir != "" {
		return dataset.Open(dir)
	}
	return dataset.FromEnv()
}

func cmdGenerate(args []string) error {
	fs := flag.NewFlagSet("generate", flag.ExitOnError)
	var cats listFlag
	model := fs.String("model", "gold", "model name in the registry")
	fs.Var(&cats, "test-category", "categories or groups (repeatable or comma-separated; default all_scoring)")
	ids := fs.String("ids", "", "only these entry ids (comma-separated)")
	runIDs := fs.String("run-ids", "", "JSON file {category: [ids]} of the entries to run (upstream's test_case_ids_to_generate.json)")
	resultDir := fs.String("result-dir", "result", "result root")
	scoreDir := fs.String("score-dir", "score", "score root")
	dataDir := fs.String("data-dir", "", "BFCL data directory")
	modelsFile := fs.String("models-file", "", "registry file")
	rerun := fs.Bool("rerun", false, "call the model again for entries that already have a result")
	workers := fs.Int("concurrency", 0, "entries in flight (default: the model's concurrency)")
	fs.Parse(args)

	s := harness.SettingsFromEnv()
	s.Model, s.ModelsFile, s.DataDir, s.ResultDir, s.ScoreDir, s.Rerun = *model, *modelsFile, *dataDir, *resultDir, *scoreDir, *rerun
	if *workers > 0 {
		s.Concurrency = fmt.Sprint(*workers)
	}
	cfg, err := harness.Resolve(s)
	if err != nil {
		return err
	}
	cfg.NewExecutor = harness.DefaultExecutor(cfg)
	h, err := harness.New(cfg)
	if err != nil {
		return err
	}
	jobs, err := selectJobs(cfg.Source, cats, *ids, *runIDs)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return runJobs(ctx, h, jobs, cfg.Model.Concurrency)
}

type job struct{ cat, id string }

func selectJobs(src *dataset.Source, cats listFlag, ids, runIDs string) ([]job, error) {
	var jobs []job
	if runIDs != "" {
		b, err := os.ReadFile(runIDs)
		if err != nil {
			return nil, err
		}
		var m map[string][]string
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s: %w", runIDs, err)
		}
		for c, list := range m {
			if _, err := category.Parse(c); err != nil {
				return nil, fmt.Errorf("%s: %w", runIDs, err)
			}
			for _, id := range list {
				jobs = append(jobs, job{c, id})
			}
		}
		return jobs, nil
	}
	if len(cats) == 0 {
		cats = listFlag{"all_scoring"}
	}
	cs, err := category.ExpandList(cats)
	if err != nil {
		return nil, err
	}
	only := map[string]bool{}
	for _, id := range strings.Split(ids, ",") {
		if id = strings.TrimSpace(id); id != "" {
			only[id] = true
		}
	}
	for _, c := range cs {
		entries, err := prompt.LoadCategory(src, string(c))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if len(only) == 0 || only[e.ID] {
				jobs = append(jobs, job{string(c), e.ID})
				delete(only, e.ID)
			}
		}
	}
	if len(only) > 0 && ids != "" {
		var missing []string
		for id := range only {
			missing = append(missing, id)
		}
		return nil, fmt.Errorf("--ids: no such entries in the chosen categories: %s", strings.Join(missing, ", "))
	}
	return jobs, nil
}

// runJobs runs the entries with a bounded pool, printing a progress line,
// then writes score files and the table.
func runJobs(ctx context.Context, h *harness.Harness, jobs []job, workers int) error {
	if workers < 1 {
		workers = 1
	}
	var done, passed, calls, tokens, failedInfra int64
	start := time.Now()
	byCat := map[category.Category][]harness.SpecOutcome{}
	var mu sync.Mutex
	var firstErr error
	skipped := map[string]string{}
	ch := make(chan job)
	var wg sync.WaitGroup
	progress := bufio.NewWriter(os.Stderr)
	var lastReport atomic.Int64
	report := func() {
		// At most four progress lines a second (and always the last one).
		now := time.Now().UnixNano()
		if d := atomic.LoadInt64(&done); d < int64(len(jobs)) && now-lastReport.Load() < int64(250*time.Millisecond) {
			return
		}
		lastReport.Store(now)
		mu.Lock()
		defer mu.Unlock()
		d := atomic.LoadInt64(&done)
		rate := 0.0
		if d > 0 {
			rate = 100 * float64(atomic.LoadInt64(&passed)) / float64(d)
		}
		eta := "?"
		if d > 0 {
			eta = (time.Duration(float64(time.Since(start)) / float64(d) * float64(int64(len(jobs))-d))).Round(time.Second).String()
		}
		fmt.Fprintf(progress, "\r%d/%d entries  pass %.1f%%  calls %d  tokens %d  errors %d  ETA %s   ",
			d, len(jobs), rate, atomic.LoadInt64(&calls), atomic.LoadInt64(&tokens), atomic.LoadInt64(&failedInfra), eta)
		progress.Flush()
	}
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				out, err := h.Run(ctx, j.cat, j.id)
				switch {
				case errors.Is(err, score.ErrNoChecker) || errors.Is(err, score.ErrNotApplicable):
					mu.Lock()
					if skipped[j.cat] == "" {
						skipped[j.cat] = err.Error()
					}
					mu.Unlock()
				case err != nil:
					if ctx.Err() != nil {
						break
					}
					atomic.AddInt64(&failedInfra, 1)
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s: %w", j.id, err)
					}
					mu.Unlock()
				default:
					mu.Lock()
					byCat[category.Category(j.cat)] = append(byCat[category.Category(j.cat)], harness.OutcomeOf(out))
					mu.Unlock()
					if out.Verdict.Valid {
						atomic.AddInt64(&passed, 1)
					}
					atomic.AddInt64(&calls, int64(out.Stats.Calls))
					atomic.AddInt64(&tokens, int64(out.Stats.InputTokens+out.Stats.OutputTokens))
				}
				atomic.AddInt64(&done, 1)
				report()
			}
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case ch <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	report()
	fmt.Fprintln(os.Stderr)
	for c, why := range skipped {
		fmt.Fprintf(os.Stderr, "skipped %s: %s\n", c, why)
	}
	if len(byCat) > 0 {
		if err := h.WriteScores(byCat); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted: %d of %d entries done; rerun the same command to resume", atomic.LoadInt64(&done), len(jobs))
	}
	if firstErr != nil {
		return fmt.Errorf("%d entries could not be run (first: %v); their results were not stored, rerun to retry them", failedInfra, firstErr)
	}
	return nil
}
