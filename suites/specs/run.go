package specs

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/selection"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/models/gold"
	"github.com/bfcl-go/bfcl/internal/run/harness"
	"github.com/bfcl-go/bfcl/internal/run/shard"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/explain"
	"github.com/bfcl-go/bfcl/internal/scores/htmlreport"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/store/runmeta"
)

// Settings are the -bfcl.* flags of the test binaries: the same settings,
// names and environment variables as the CLI's (internal/config).
var Settings = []*config.Setting{
	config.Model, config.ModelsFile, config.DataDir, config.ResultDir, config.ScoreDir, config.Rerun,
	config.Temperature, config.Concurrency, config.TestCategory, config.IDs, config.RunIDs,
	config.IncludeInputLog, config.ExcludeStateLog, config.RequestCache,
	config.Embedder, config.EmbedURL, config.EmbedModel, config.WebSearch, config.WebSearchAllowPrivate,
	config.Shard, config.Mode, config.UnderscoreToDot, config.Correction,
	config.Backend, config.SkipServerSetup, config.LocalModelPath, config.LoraModules,
}

var flags struct {
	once sync.Once
	f    *config.Flags
}

// RegisterFlags adds the -bfcl.* flags to the test binary (call from a
// suite's init).
func RegisterFlags() *config.Flags {
	flags.once.Do(func() { flags.f = config.Register(flag.CommandLine, "bfcl.", Settings...) })
	return flags.f
}

// Run is the process's run: its runner and its selection.
type Run struct {
	Harness   *harness.Harness
	Selection *selection.Selection // nil: every spec the Ginkgo filters select
	// Shard is the part of each category this process runs (-bfcl.shard,
	// BFCL_SHARD or the engine's variables); the zero Spec runs all.
	Shard shard.Spec

	metaOnce sync.Once // the result folder's runmeta file, written before the first entry
	metaErr  error
}

var shared struct {
	once sync.Once
	run  *Run
	err  error
}

// Shared returns the process's run, resolved once from the environment and
// the -bfcl.* flags. Relative paths are taken from the module root, so every
// suite (go test runs each in its own folder) writes to the same result/.
func Shared() (*Run, error) {
	shared.once.Do(func() {
		shared.run, shared.err = resolve(RegisterFlags())
		if shared.err != nil {
			shared.err = fmt.Errorf("bfcl configuration: %w", shared.err)
		}
	})
	return shared.run, shared.err
}

func resolve(f *config.Flags) (*Run, error) {
	for _, k := range config.Unknown(os.Environ()) {
		fmt.Fprintf(os.Stderr, "bfcl: warning: %s is not a setting of bfcl (see README); ignored\n", k)
	}
	rc, err := f.Resolve(config.ModuleRootBase)
	if err != nil {
		return nil, err
	}
	if len(rc.Models) != 1 {
		return nil, fmt.Errorf("the suites run one model at a time, not %d (%s)", len(rc.Models), f.String(config.Model))
	}
	h, err := harness.FromConfig(rc, rc.Models[0])
	if err != nil {
		return nil, err
	}
	h.KeepVerdicts(&score.Kept{}) // Finish writes the score files from them
	run := &Run{Harness: h}
	if run.Shard, _, err = f.ShardOf(); err != nil {
		return nil, err
	}
	sp := f.Selection(rc.Base, "all")
	if len(sp.Categories) > 0 || len(sp.IDs) > 0 || sp.RunIDs != "" {
		if run.Selection, err = sp.Resolve(h.Config().Source); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// ReportEntryName names the report entry every spec attaches; the suite's
// ReportAfterSuite collects them (across parallel processes) to know which
// categories ran.
const ReportEntryName = "bfcl-outcome"

// Outcome is what a spec records for the reporter.
type Outcome struct {
	Category category.Category `json:"category"`
	ID       string            `json:"id"`
	Valid    bool              `json:"valid"`
}

// RunSpec is the body of every generated spec: run the entry, record the
// outcome, and fail with a diagnostic a person can act on when the model
// got it wrong. Categories without a checker skip with the reason.
func RunSpec(ctx ginkgo.SpecContext, cat category.Category, id string) {
	run, err := Shared()
	if err != nil {
		ginkgo.Fail(err.Error())
	}
	run.metaOnce.Do(func() {
		cfg := run.Harness.Config()
		run.metaErr = runmeta.Write(filepath.Join(cfg.ResultDir, results.ModelDir(cfg.Model.Name)), runmeta.FromModel(cfg.Model))
	})
	if run.metaErr != nil {
		ginkgo.Fail(run.metaErr.Error())
	}
	out, err := run.Harness.Run(ctx, cat, id)
	if errors.Is(err, score.ErrNoChecker) || errors.Is(err, score.ErrNotApplicable) {
		ginkgo.Skip(err.Error())
	}
	if err != nil {
		ginkgo.Fail(fmt.Sprintf("%s: could not run the entry: %v", id, err))
	}
	ginkgo.AddReportEntry(ReportEntryName, Outcome{Category: cat, ID: id, Valid: out.Verdict.Valid}, ginkgo.ReportEntryVisibilityNever)
	if harness.AnswersGroundTruth(run.Harness.Config().Model) {
		if reason, known := gold.KnownFailure(id); known {
			if out.Verdict.Valid {
				ginkgo.Fail(fmt.Sprintf("%s: listed as a ground truth that upstream's checker rejects (%s), but it passed: update gold.KnownFailures", id, reason))
			}
			return
		}
	}
	if !out.Verdict.Valid {
		ginkgo.Fail(diagnose(run.Harness, out.Verdict))
	}
}

// diagnose renders a failed verdict for a person, as the report's entry
// view does: the entry id, upstream's error type and message, the first
// failing turn with the model's calls beside the ground truth's, the
// differing backend attributes, and where to read the rest.
func diagnose(h *harness.Harness, v verdict.Verdict) string {
	cfg := h.Config()
	model := results.ModelDir(cfg.Model.Name)
	at := explain.Where{
		Report:    filepath.Join(cfg.ScoreDir, htmlreport.FileName),
		ScoreFile: report.ScoreFilePath(cfg.ScoreDir, model, v.Category),
	}
	if e, err := h.Entry(v.Category, v.ID); err == nil {
		at.DataFile, at.DataLine = filepath.Join(filepath.Dir(cfg.Source.DataDir), e.File), e.Line // e.File is relative to the data set's parent
	}
	return explain.Message(model, v, at)
}

// ranCategories lists the categories of which at least one spec ran (across
// parallel processes).
func ranCategories(r types.Report) ([]category.Category, error) {
	seen := map[category.Category]bool{}
	for _, sr := range r.SpecReports {
		for _, e := range sr.ReportEntries {
			if e.Name != ReportEntryName {
				continue
			}
			var o Outcome
			if raw, ok := e.Value.GetRawValue().(Outcome); ok {
				o = raw // same process
			} else if err := json.Unmarshal([]byte(e.Value.AsJSON), &o); err != nil {
				return nil, fmt.Errorf("report entry of %s: %w", sr.FullText(), err)
			}
			seen[o.Category] = true
		}
	}
	cats := make([]category.Category, 0, len(seen))
	for c := range seen {
		cats = append(cats, c)
	}
	return category.SortCanonical(cats), nil
}

// Finish is the suites' ReportAfterSuite body: it scores the categories
// that ran from their result files (the same code as `bfcl evaluate`, with
// the verdicts this process kept), refreshes the score folder's CSVs and
// summary, prints the table and writes the HTML report.
func Finish(r types.Report) {
	run, err := Shared()
	if err != nil {
		fmt.Fprintln(ginkgo.GinkgoWriter, "bfcl: no report:", err)
		return
	}
	cats, err := ranCategories(r)
	if err != nil {
		ginkgo.Fail(err.Error())
	}
	if len(cats) == 0 {
		return
	}
	h := run.Harness
	if err := h.Compact(cats); err != nil {
		ginkgo.Fail("bfcl: writing scores: " + err.Error())
	}
	cfg := h.Config()
	o := evaluate.RunOptions(cfg.Source, cfg.ResultDir, cfg.ScoreDir, cfg.Registry,
		[]evaluate.RunModel{{Model: cfg.Model, Categories: cats, Notes: h.RunNotes(cats), Corrections: cfg.Corrections.List()}})
	o.Kept = cfg.Kept
	ev, err := evaluate.Evaluate(o)
	if err != nil {
		ginkgo.Fail("bfcl: writing scores: " + err.Error())
	}
	rows := ev.Rows
	fmt.Fprintf(os.Stdout, "\nBFCL v4 scores (score folder %s; this run: %s)\n", cfg.ScoreDir, cfg.Model.Name)
	if err := report.WriteTableOf(os.Stdout, rowsOf(rows, cfg.Model.Name), cats); err != nil {
		ginkgo.Fail(err.Error())
	}
	src := cfg.Source
	if _, err := htmlreport.Write(htmlreport.Options{ScoreDir: cfg.ScoreDir, ResultDir: cfg.ResultDir, Source: src,
		Scored: ev.Scored, Summary: ev.Summary,
		GroundTruth: func(e *dataset.Entry) ([][]string, error) {
			lc, err := src.LongContext()
			if err != nil {
				return nil, err
			}
			return multiturn.GroundTruthResults(e, lc)
		}}); err != nil {
		ginkgo.Fail("bfcl: scores written, but the HTML report failed: " + err.Error())
	}
}

// RunSuite runs a suite's specs. Skipped specs are not printed one by one
// unless -v is given: a label-filtered run across the six suites would
// otherwise print thousands of skip markers.
func RunSuite(t ginkgo.GinkgoTestingT, description string) bool {
	suite, rep := ginkgo.GinkgoConfiguration()
	if !rep.Verbose && !rep.VeryVerbose {
		rep.SilenceSkips = true
	}
	return ginkgo.RunSpecs(t, description, suite, rep)
}

// rowsOf keeps the leaderboard row of one model.
func rowsOf(rows []report.Row, model string) []report.Row {
	for _, r := range rows {
		if r.Model.Name == results.ModelDir(model) {
			return []report.Row{r}
		}
	}
	return rows
}

// InShard returns the ids of category c (in the given order) that this
// process's shard runs: each category is partitioned by expected cost
// (memory chains whole), the same way in every process, so the shards of
// every suite together run each entry once.
func (r *Run) InShard(c category.Category, ids []string) (map[string]bool, error) {
	items := make([]shard.Item, len(ids))
	for i, id := range ids {
		items[i] = shard.Item{Category: c, ID: id}
	}
	part, err := shard.Select(items, r.Shard, shard.NewCosts(r.Harness.Config().Source).Weigh)
	if err != nil {
		return nil, err
	}
	in := make(map[string]bool, len(part))
	for _, it := range part {
		in[it.ID] = true
	}
	return in, nil
}
