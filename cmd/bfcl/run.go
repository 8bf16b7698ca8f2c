package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/selection"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/run/harness"
	"github.com/bfcl-go/bfcl/internal/run/shard"
	"github.com/bfcl-go/bfcl/internal/run/turniso"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/htmlreport"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/store/runmeta"
)

// errUsage marks a command-line mistake (exit status 2).
var errUsage = errors.New("usage")

// parseFlags parses a verb's flags; positional arguments are mistakes
// (they usually mean a value was given to a boolean flag with a space).
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := parseWithArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: %s: unexpected argument %q (boolean flags take --flag or --flag=false; --run-ids takes --run-ids=FILE)", errUsage, fs.Name(), fs.Arg(0))
	}
	return nil
}

// parseResolve parses a verb's flags (parseFlags: no positional arguments)
// and resolves its settings, paths from the working directory.
func parseResolve(fs *flag.FlagSet, f *config.Flags, args []string) (*config.Run, error) {
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	return f.Resolve(config.WorkingDir)
}

// resolveWithData resolves a verb's settings (paths from the working
// directory) and opens the data set.
func resolveWithData(f *config.Flags) (*config.Run, *dataset.Source, error) {
	rc, err := f.Resolve(config.WorkingDir)
	if err != nil {
		return nil, nil, err
	}
	src, err := rc.Source()
	return rc, src, err
}

func cmdGenerate(args []string) error {
	fs, f := newVerb("generate")
	noReport := fs.Bool("no-report", false, "do not write "+htmlreport.FileName+" after the run (`bfcl report` writes it later)")
	rc, err := parseResolve(fs, f, args)
	if err != nil {
		return err
	}
	ctx, stop := interruptible()
	defer stop()
	for k := 1; k <= rc.Repeats; k++ {
		run := *rc
		if run.ResultDir, run.ScoreDir, err = results.RepeatRoots(rc.ResultDir, rc.ScoreDir, k); err != nil {
			return err
		}
		if rc.Repeats > 1 {
			fmt.Fprintf(os.Stderr, "repeat %d of %d: results in %s\n", k, rc.Repeats, run.ResultDir)
		}
		if err := generateOnce(ctx, f, &run, !*noReport); err != nil {
			return err
		}
	}
	if rc.Repeats > 1 && !rc.TurnIsolated {
		fmt.Fprintf(os.Stderr, "%d repeats done (bfcl repeats --score-dir %s summarises them again)\n", rc.Repeats, rc.ScoreDir)
		if err := printRepeats(rc.ScoreDir); err != nil {
			fmt.Fprintf(os.Stderr, "bfcl: repeats: %v\n", err)
		}
	}
	return nil
}

// generateOnce runs every model of rc on the selection once and scores
// what ran (the official scores, or the turn-isolated diagnostic), then
// writes the HTML report unless withReport is false. The run keeps its
// verdicts: the score files are written from them, scoring again only the
// stored results this process did not score.
func generateOnce(ctx context.Context, f *config.Flags, rc *config.Run, withReport bool) error {
	var ran []harness.Ran
	var failure error
	kept := &score.Kept{}
	skipped := map[string]map[category.Category]string{} // model -> category -> why
	for _, m := range rc.Models {
		h, err := harness.FromConfig(rc, m)
		if err != nil {
			return err
		}
		h.KeepVerdicts(kept)
		sel, err := f.Selection(rc.Base, "all").Resolve(h.Config().Source)
		if err != nil {
			return err
		}
		items, err := planShard(f, h, sel)
		if err != nil {
			return err
		}
		if items, err = dropUnavailable(h, rc, items, skipped); err != nil {
			return err
		}
		if err := writeRunMeta(rc, m); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "%s: %s of %s\n", m.Name, count(len(items), "entry", "entries"), count(len(sel.Categories), "category", "categories"))
		sum := h.RunAll(ctx, items, os.Stderr)
		for _, c := range sel.Categories {
			if why, ok := sum.Skipped[c]; ok {
				fmt.Fprintf(os.Stderr, "skipped %s: %s\n", c, why)
			}
		}
		for c, why := range sum.Skipped {
			if skipped[m.Name] == nil {
				skipped[m.Name] = map[category.Category]string{}
			}
			skipped[m.Name][c] = why
		}
		if len(sum.Ran) > 0 {
			ran = append(ran, harness.Ran{H: h, Cats: sum.Ran, Skipped: skipped[m.Name]})
		}
		if sum.Interrupted {
			failure = fmt.Errorf("interrupted: %d of %s stored; rerun the same command to resume", sum.Done, count(len(items), "entry", "entries"))
			break
		}
		if sum.Aborted {
			failure = fmt.Errorf("%s: %w", m.Name, sum.FirstError)
			break
		}
		if sum.FirstError != nil {
			failure = fmt.Errorf("%s: %s could not be run (first: %v); their results were not stored, rerun to retry them", m.Name, count(sum.Errors, "entry", "entries"), sum.FirstError)
			break
		}
	}
	if rc.TurnIsolated {
		src, err := rc.Source()
		if err != nil {
			return err
		}
		for _, r := range ran {
			m := r.H.Config().Model
			fmt.Fprintf(os.Stdout, "Turn-isolated multi-turn diagnostic (not an official score; records in %s)\n", turniso.IsolatedRoot(rc.ResultDir))
			if err := isolatedTurns(src, rc.ResultDir, rc.ScoreDir, m.Name, m.Mode, m.UnderscoreToDot, false); err != nil {
				return err
			}
		}
		return failure
	}
	// What did run is scored, also when the run stopped early.
	ev, err := scoreRun(rc, ran, kept)
	if err != nil {
		return err
	}
	if ev == nil {
		return failure
	}
	fmt.Fprintf(os.Stderr, "score files written from %d verdicts of this run (%d stored results scored again)\n", ev.Reused, ev.Entries-ev.Reused)
	if len(ev.Rows) > 0 {
		fmt.Fprintf(os.Stdout, "BFCL v4 scores (score folder %s)\n", rc.ScoreDir)
		if err := report.WriteTableOf(os.Stdout, ev.Rows, ranCategories(ran)); err != nil {
			return err
		}
	}
	if withReport {
		src, err := rc.Source()
		if err != nil {
			return err
		}
		if _, err := writeReport(htmlreport.Options{ScoreDir: rc.ScoreDir, ResultDir: rc.ResultDir, Source: src}, ev); err != nil {
			return fmt.Errorf("scores written, but the HTML report failed: %w", err)
		}
	}
	printSkipped(os.Stdout, skipped)
	return failure
}

// scoreRun writes the score files, CSVs and summary.json of what the
// runners ran (nil when nothing ran): the result files are compacted, then
// scored as `bfcl evaluate --partial-eval` would, with the verdicts the run
// kept.
func scoreRun(rc *config.Run, ran []harness.Ran, kept *score.Kept) (*evaluate.Evaluation, error) {
	if len(ran) == 0 {
		return nil, nil
	}
	src, err := rc.Source()
	if err != nil {
		return nil, err
	}
	models := make([]evaluate.RunModel, len(ran))
	for i, r := range ran {
		if err := r.H.Compact(r.Cats); err != nil {
			return nil, err
		}
		models[i] = evaluate.RunModel{Model: r.H.Config().Model, Categories: r.Cats, Notes: r.Notes(), Corrections: r.H.Config().Corrections.List()}
	}
	o := evaluate.RunOptions(src, rc.ResultDir, rc.ScoreDir, rc.Registry, models)
	o.Kept = kept
	return evaluate.Evaluate(o)
}

// dropUnavailable checks, before anything runs, that the services of every
// agentic category of the selection can be used (a mistyped or unreachable
// embedder or web-search provider). Such a category stops the run, naming
// the setting, unless --skip-unavailable is given; then its entries leave
// the run (and the progress line) and the category is recorded as skipped.
func dropUnavailable(h *harness.Harness, rc *config.Run, items []selection.Item, skipped map[string]map[category.Category]string) ([]selection.Item, error) {
	svc := h.Config().Agentic
	name := h.Config().Model.Name
	why := map[category.Category]string{}
	var order []category.Category
	for _, it := range items {
		if _, seen := why[it.Category]; seen {
			continue
		}
		why[it.Category] = ""
		if err := svc.Unavailable(it.Category); err != nil {
			why[it.Category] = strings.TrimPrefix(err.Error(), score.ErrNotApplicable.Error()+": ")
			order = append(order, it.Category)
		}
	}
	if len(order) == 0 {
		return items, nil
	}
	if !rc.Agentic.SkipUnavailable {
		var b strings.Builder
		for _, c := range order {
			fmt.Fprintf(&b, "\n  %s", why[c])
		}
		return nil, fmt.Errorf("%s: %s cannot run with these services; nothing was run:%s\nfix the setting named above, or pass --skip-unavailable (BFCL_SKIP_UNAVAILABLE=1) to run the rest and report it N/A", name, count(len(order), "category", "categories"), b.String())
	}
	if skipped[name] == nil {
		skipped[name] = map[category.Category]string{}
	}
	for _, c := range order {
		skipped[name][c] = why[c] + " (--skip-unavailable)"
		fmt.Fprintf(os.Stderr, "skipping %s: %s\n", c, why[c])
	}
	kept := items[:0:0]
	for _, it := range items {
		if why[it.Category] == "" {
			kept = append(kept, it)
		}
	}
	return kept, nil
}

// printSkipped names, after the score table, every category of the
// selection that did not run and why (they are N/A in the overall).
func printSkipped(w io.Writer, skipped map[string]map[category.Category]string) {
	models := make([]string, 0, len(skipped))
	for m := range skipped {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, m := range models {
		cats := make([]category.Category, 0, len(skipped[m]))
		for c := range skipped[m] {
			cats = append(cats, c)
		}
		cats = category.SortCanonical(cats)
		fmt.Fprintf(w, "Not run for %s (N/A, counted as 0 in the overall):\n", m)
		for _, c := range cats {
			fmt.Fprintf(w, "  %s: %s\n", c, skipped[m][c])
		}
	}
}

func cmdEvaluate(args []string) error {
	fs, f := newVerb("evaluate")
	f.Folders = true // model names are result folders; registry entries are optional
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile to this file")
	noReport := fs.Bool("no-report", false, "do not write "+htmlreport.FileName+" (`bfcl report` writes it later)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		pf, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer pf.Close()
		if err := pprof.StartCPUProfile(pf); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	rc, src, err := resolveWithData(f)
	if err != nil {
		return err
	}
	cats, err := category.ExpandList(orAll(f.List(config.TestCategory)))
	if err != nil {
		return err
	}
	o := evaluate.Options{Source: src, ResultRoot: rc.ResultDir, ScoreRoot: rc.ScoreDir, Categories: cats,
		Registry: rc.Registry, Log: os.Stderr}
	if _, _, set := f.Lookup(config.Model); set {
		o.Models = f.List(config.Model)
	}
	if o.Mode, o.UnderscoreToDot, err = f.Decoding(); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if o.Partial, _, err = f.Bool(config.PartialEval); err != nil {
		return err
	}
	if o.StrictIrrelevance, _, err = f.Bool(config.StrictIrrelevance); err != nil {
		return err
	}
	if err := applyUpstream(f, &o); err != nil {
		return err
	}
	o.CorrectionsAll = rc.Corrections.List()
	start := time.Now()
	ev, err := evaluate.Evaluate(o)
	if err != nil {
		return err
	}
	if err := report.WriteTable(os.Stdout, ev.Rows); err != nil {
		return err
	}
	wrote := "score files, CSVs and summary.json"
	if !*noReport {
		if _, err := writeReport(htmlreport.Options{ScoreDir: rc.ScoreDir, ResultDir: rc.ResultDir, Source: src}, ev); err != nil {
			return fmt.Errorf("evaluate: scores written, but the HTML report failed: %w", err)
		}
		wrote = "score files, CSVs, summary.json and " + htmlreport.FileName
	}
	fmt.Fprintf(os.Stderr, "evaluated in %.2fs; %s in %s\n", time.Since(start).Seconds(), wrote, rc.ScoreDir)
	return nil
}

// planShard is the part of the selection this process runs (--shard,
// BFCL_SHARD or the engine's variables; all of it when not sharded),
// longest expected entries first so the slowest do not start last.
func planShard(f *config.Flags, h *harness.Harness, sel *selection.Selection) ([]selection.Item, error) {
	spec, from, err := f.ShardOf()
	if err != nil {
		return nil, err
	}
	plan, err := shard.Plan(sel.Items, spec, shard.NewCosts(h.Config().Source).Weigh)
	if err != nil {
		return nil, err
	}
	if spec.Sharded() {
		fmt.Fprintf(os.Stderr, "shard %s (from %s): %d of %s\n", spec, from, len(plan), count(len(sel.Items), "entry", "entries"))
	}
	return plan, nil
}

// ranCategories is the union of the categories a run ran.
func ranCategories(ran []harness.Ran) []category.Category {
	seen := map[category.Category]bool{}
	var out []category.Category
	for _, r := range ran {
		for _, c := range r.Cats {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return category.SortCanonical(out)
}

func orAll(cats []string) []string {
	if len(cats) == 0 {
		return []string{"all"}
	}
	return cats
}

// writeRunMeta records in the model's result folder how its results are
// produced (internal/store/runmeta), so evaluate, compare, merge and the
// report score it as it was generated, from any working directory.
func writeRunMeta(rc *config.Run, m registry.Model) error {
	root := rc.ResultDir
	meta := runmeta.FromModel(m)
	meta.Corrections = rc.Corrections.List()
	if rc.TurnIsolated {
		root = turniso.IsolatedRoot(root)
		meta.Diagnostics = append(meta.Diagnostics, "turn-isolated")
	}
	return runmeta.Write(filepath.Join(root, results.ModelDir(m.Name)), meta)
}

// count is n with the noun in the singular or plural ("1 entry", "2 entries").
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
