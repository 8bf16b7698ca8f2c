// Package evaluate scores result directories without calling any model, as
// upstream's `bfcl evaluate` does: for each model folder under the result
// root, each BFCL_v4_<category>_result.json of the requested categories is
// checked entry by entry against the data set, score files are written
// under the score root, and the leaderboard CSVs and summary are refreshed
// from every score file there.
package evaluate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/store/runmeta"
)

// Options of one evaluation.
type Options struct {
	Source     *dataset.Source
	ResultRoot string
	ScoreRoot  string
	// Models restricts the model folders (names as given to --model; "/" is
	// mapped to "_" as upstream does). Empty: every folder.
	Models     []string
	Categories []category.Category
	// Mode forces "fc" or "prompt" decoding; "" takes the registry's mode
	// for registered models and otherwise detects it per record.
	Mode string
	// UnderscoreToDot forces the name mapping; nil takes the registry's.
	UnderscoreToDot *bool
	// Handler forces the upstream handler class whose decoders read the
	// results (--handler); "" takes the model's (see Configuration).
	Handler string
	// Aliases maps result folders to entries of upstream's model registry
	// (internal/models/upstream): such a folder is scored with that entry's
	// configuration (--alias, $BFCL_UPSTREAM_ALIASES).
	Aliases map[string]string
	// Partial scores only the entries present in each result file (upstream's
	// --partial-eval); otherwise a file with missing entries is an error.
	Partial bool
	// StrictIrrelevance applies the non-default multi-turn irrelevance rule
	// (see score.Options); scores then differ from the official ones.
	StrictIrrelevance bool
	Registry          *registry.Registry // may be nil
	Log               io.Writer          // progress; nil for none
	// Corrections are, per model folder, the opt-in corrections of upstream
	// defects its results were made with (internal/config/corrections):
	// recorded in summary.json and shown beside the scores. A folder not
	// named keeps what summary.json recorded for it; a folder named with
	// no corrections is official again.
	Corrections map[string][]string
	// CorrectionsAll, when set, are the corrections of every model folder
	// this evaluation scores (bfcl evaluate --correction: the results were
	// made with them), unless Corrections names the folder.
	CorrectionsAll []string
	// Notes are extra facts per model folder for summary.json (which
	// services a live run used).
	Notes map[string]map[string]string
	// Kept are verdicts this process reached already (a run's own loop):
	// records they cover are not scored again.
	Kept *score.Kept
}

// Evaluation is what one evaluation produced: the leaderboard rows of the
// score root, summary.json as written, and per scored file what scoring
// recorded (for the HTML report of the same process,
// internal/scores/htmlreport).
type Evaluation struct {
	Rows    []report.Row
	Summary []byte
	Scored  []report.Scored
	// Entries counts the verdicts written, Reused those of them that
	// were kept (Options.Kept) rather than scored again.
	Entries, Reused int
}

// Run evaluates and returns the leaderboard rows of the score root.
func Run(o Options) ([]report.Row, error) {
	ev, err := Evaluate(o)
	if err != nil {
		return nil, err
	}
	return ev.Rows, nil
}

// job is one result file to score.
type job struct {
	model string
	cat   category.Category
	path  string
	size  int64
	opts  score.Options
	conf  Configuration
}

// Evaluate scores the result files of o, writes their score files, the
// leaderboard CSVs and summary.json, and returns what it produced. Result
// files are scored concurrently (one per CPU), largest first; the output
// does not depend on the order.
func Evaluate(o Options) (*Evaluation, error) {
	if len(o.CorrectionsAll) > 0 {
		dirs, err := modelDirs(o.ResultRoot, o.Models)
		if err != nil {
			return nil, err
		}
		marked := map[string][]string{}
		for _, model := range dirs {
			marked[model] = o.CorrectionsAll
		}
		for k, v := range o.Corrections {
			marked[k] = v
		}
		o.Corrections = marked
	}
	jobs, err := o.jobs()
	if err != nil {
		return nil, err
	}
	type outcome struct {
		scored report.Scored
		usage  report.Usage
		reused int
		n      int
		err    error
	}
	outs := make([]outcome, len(jobs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func(i int, j job) {
			defer wg.Done()
			defer func() { <-sem }()
			f, err := evaluateFile(o, j.cat, j.path, j.opts)
			if err != nil {
				outs[i].err = err
				return
			}
			outs[i].usage, outs[i].reused, outs[i].n = f.usage, f.reused, len(f.verdicts)
			outs[i].scored, outs[i].err = report.WriteScored(o.ScoreRoot, j.model, j.cat, f.verdicts)
			outs[i].scored.Records = f.records
		}(i, j)
	}
	wg.Wait()
	// every file that cannot be scored is reported, not only the first
	var errs []error
	for i := range jobs {
		if outs[i].err != nil {
			errs = append(errs, outs[i].err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	ev := &Evaluation{}
	usage := map[string]*report.Usage{}
	marks := map[string]map[category.Category]string{}
	for i, j := range jobs {
		if marks[j.model] == nil {
			marks[j.model] = map[category.Category]string{}
		}
		marks[j.model][j.cat] = o.reasonsOf(j.conf, j.cat)
		if usage[j.model] == nil {
			usage[j.model] = &report.Usage{}
		}
		usage[j.model].Add(outs[i].usage)
		ev.Reused += outs[i].reused
		ev.Entries += outs[i].n
		ev.Scored = append(ev.Scored, outs[i].scored)
	}
	sort.SliceStable(ev.Scored, func(a, b int) bool {
		if ev.Scored[a].Model != ev.Scored[b].Model {
			return ev.Scored[a].Model < ev.Scored[b].Model
		}
		return canonical[ev.Scored[a].Category] < canonical[ev.Scored[b].Category]
	})
	if o.Log != nil {
		for _, sc := range ev.Scored {
			s := sc.Score
			fmt.Fprintf(o.Log, "%s %-26s %7.2f%%  (%d/%d)\n", sc.Model, sc.Category, 100*s.Accuracy, s.Correct, s.Total)
		}
	}
	for model, m := range marks {
		if err := updateMarks(o.ScoreRoot, model, m); err != nil {
			return nil, err
		}
	}
	if ev.Rows, ev.Summary, err = refreshSummary(o.ScoreRoot, usage, o.Registry, o.Corrections, o.Notes); err != nil {
		return nil, err
	}
	return ev, nil
}

// canonical is the index of every category in canonical order.
var canonical = func() map[category.Category]int {
	m := map[category.Category]int{}
	for i, c := range category.All() {
		m[c] = i
	}
	return m
}()

// jobs lists the result files of o's models and categories, largest first
// (they are the critical path).
func (o Options) jobs() ([]job, error) {
	want := map[category.Category]bool{}
	for _, c := range o.Categories {
		want[c] = true
	}
	dirs, err := modelDirs(o.ResultRoot, o.Models)
	if err != nil {
		return nil, err
	}
	var jobs []job
	for _, model := range dirs {
		opts, conf, err := o.scoreOptions(model)
		if err != nil {
			return nil, err
		}
		files, err := resultFiles(filepath.Join(o.ResultRoot, model))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			c := category.Category(f.category)
			if !want[c] || c.IsMemoryPrereq() {
				continue
			}
			jobs = append(jobs, job{model, c, f.path, fileSize(f.path), opts, conf})
		}
	}
	sort.SliceStable(jobs, func(i, k int) bool { return jobs[i].size > jobs[k].size })
	return jobs, nil
}

// Configuration says how one result folder is decoded and checked, and
// where that came from.
type Configuration struct {
	decode.Spec // mode "" is detected per record
	// Source is where the configuration came from: "models.yaml entry X",
	// "upstream registry entry X", "alias to upstream registry entry X",
	// or "the command line"; flags are applied on top.
	Source string
	// NonOfficial lists the folder's non-official settings (its
	// runmeta corrections and diagnostics); its numbers are marked.
	NonOfficial []string
}

// ConfigurationOf resolves the configuration of a result folder, first
// match wins: the models.yaml entry of that folder (its own keys, or those
// of the upstream entry its `upstream:` key names), an alias, the upstream
// registry entry the folder is named after (as upstream's evaluator does);
// then --mode, --underscore-to-dot and --handler override.
func (o Options) ConfigurationOf(folder string) (Configuration, error) {
	var c Configuration
	found := false
	if meta, err := runmeta.Read(filepath.Join(o.ResultRoot, folder)); err == nil {
		c = Configuration{Spec: decode.Spec{Mode: meta.Mode, UnderscoreToDot: meta.UnderscoreToDot, Handler: meta.Handler},
			Source: "the folder's " + runmeta.FileName + " (" + meta.Describe() + ")", NonOfficial: meta.NonOfficial()}
		found = true
	} else if !errors.Is(err, runmeta.ErrNone) {
		return c, fmt.Errorf("evaluate: %w", err)
	}
	if o.Registry != nil && !found {
		for _, m := range o.Registry.Models {
			if results.ModelDir(m.Name) == folder {
				c.Spec = m.Decoding()
				c.Source = "models.yaml entry " + m.Name
				if m.Upstream != "" {
					c.Source += " (upstream registry entry " + m.Upstream + ")"
				}
				found = true
			}
		}
	}
	if name, ok := o.Aliases[folder]; ok && !found {
		e, known := upstream.Lookup(name)
		if !known {
			return c, fmt.Errorf("evaluate: alias %s=%s: not a model of upstream's registry", folder, name)
		}
		c = Configuration{Spec: e.Decoding(), Source: "alias to upstream registry entry " + name}
		found = true
	}
	if e, ok := upstream.ByFolder(folder); ok && !found {
		c = Configuration{Spec: e.Decoding(), Source: "upstream registry entry " + e.Name}
		found = true
	}
	if !found && o.Mode == "" && o.Handler == "" {
		// Upstream's evaluator stops on a model name it does not know; so
		// do we, rather than guess a decoding and mis-score the folder.
		return c, fmt.Errorf("evaluate: result folder %s: unknown origin: it has no %s (bfcl generate writes one), no models.yaml entry, no --alias/%s and is not named after an entry of upstream's registry; tie it with one of: a models.yaml entry named %q (with upstream: <registry name>, or mode/underscore_to_dot/handler), --alias %s=<registry name>, --handler <upstream class>, or --mode fc|prompt (see `bfcl models --upstream`)",
			filepath.Join(o.ResultRoot, folder), runmeta.FileName, "BFCL_UPSTREAM_ALIASES", folder, folder)
	}
	if !found {
		c.Source = "the command line"
	}
	if o.Mode != "" {
		c.Mode = o.Mode
	}
	if o.UnderscoreToDot != nil {
		c.UnderscoreToDot = *o.UnderscoreToDot
	}
	if o.Handler != "" {
		c.Handler = o.Handler
	}
	if err := score.CheckHandler(c.Handler); err != nil {
		return c, fmt.Errorf("evaluate: %s: %w", folder, err)
	}
	return c, nil
}

func (o Options) scoreOptions(model string) (score.Options, Configuration, error) {
	c, err := o.ConfigurationOf(model)
	if err != nil {
		return score.Options{}, c, err
	}
	if o.Log != nil {
		fmt.Fprintf(o.Log, "%s: scored as %s: mode %s, underscore_to_dot %v, handler %s%s\n", model, c.Source, orDetect(c.Mode), c.UnderscoreToDot, orDefault(c.Handler), o.overrides())
	}
	return score.Options{ModelName: model, Spec: c.Spec, StrictIrrelevance: o.StrictIrrelevance}, c, nil
}

// overrides names the flags that replaced the folder's configuration.
func (o Options) overrides() string {
	var fl []string
	if o.Mode != "" {
		fl = append(fl, "--mode "+o.Mode)
	}
	if o.UnderscoreToDot != nil {
		fl = append(fl, fmt.Sprintf("--underscore-to-dot=%v", *o.UnderscoreToDot))
	}
	if o.Handler != "" {
		fl = append(fl, "--handler "+o.Handler)
	}
	if o.StrictIrrelevance {
		fl = append(fl, "--strict-irrelevance (NOT the official score)")
	}
	if len(fl) == 0 {
		return ""
	}
	return " (set by " + strings.Join(fl, ", ") + ")"
}

func orDetect(mode string) string {
	if mode == "" {
		return "detected per record"
	}
	return mode
}

func orDefault(h string) string {
	if h == "" {
		return "default"
	}
	return h
}

type resultFile struct{ category, path string }

func resultFiles(dir string) ([]resultFile, error) {
	var out []resultFile
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if c, ok := results.FileCategory(d.Name()); ok {
			out = append(out, resultFile{category: c, path: p})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, err
}

func modelDirs(root string, only []string) ([]string, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("evaluate: result root: %w", err)
	}
	want := map[string]bool{}
	for _, m := range only {
		want[results.ModelDir(m)] = true
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && (len(want) == 0 || want[e.Name()]) {
			out = append(out, e.Name())
		}
	}
	for m := range want {
		found := false
		for _, d := range out {
			found = found || d == m
		}
		if !found {
			return nil, fmt.Errorf("evaluate: no result folder %s under %s", m, root)
		}
	}
	sort.Strings(out)
	return out, nil
}

// scoredFile is what scoring one result file produced.
type scoredFile struct {
	verdicts []verdict.Verdict // data-set order
	records  []results.Record  // file order
	usage    report.Usage
	reused   int // verdicts taken from o.Kept
}

// evaluateFile scores one result file in data-set order.
func evaluateFile(o Options, c category.Category, path string, opts score.Options) (scoredFile, error) {
	var out scoredFile
	// The data set (loaded once per process; for a long-context category
	// long_context.py too: no other entry's backends read it) and the
	// result file are read at the same time.
	var entries []*dataset.Entry
	var loadErr error
	loaded := make(chan struct{})
	go func() {
		defer close(loaded)
		if entries, loadErr = o.Source.LoadCategory(c); loadErr == nil && c.IsMultiTurn() && c.IsLongContext() {
			opts.LongContext, loadErr = o.Source.LongContext()
		}
	}()
	recs, torn, err := results.ReadAll(path)
	<-loaded
	if err != nil {
		return out, err
	}
	if loadErr != nil {
		return out, loadErr
	}
	out.records = recs
	if torn > 0 && o.Log != nil {
		fmt.Fprintf(o.Log, "evaluate: warning: %s:%d: the last line has no newline (a run stopped mid-write?); it is not scored: rerun generate to redo that entry\n", path, torn)
	}
	for _, r := range recs {
		if err := out.usage.AddRecord(r); err != nil {
			return out, fmt.Errorf("evaluate: %s:%d: %w", path, r.Line, err)
		}
	}
	byID := make(map[string]results.Record, len(recs))
	for _, r := range recs {
		if _, dup := byID[r.ID]; dup {
			return out, fmt.Errorf("evaluate: %s:%d: duplicate result for %s", path, r.Line, r.ID)
		}
		byID[r.ID] = r
	}
	// Ids that are not entries of c come first: the file is of another
	// category or data set, and --partial-eval would not help.
	known := make(map[string]bool, len(entries))
	for _, e := range entries {
		known[e.ID] = true
	}
	var unknown []string
	for _, r := range recs {
		if !known[r.ID] {
			unknown = append(unknown, fmt.Sprintf("%s (line %d)", r.ID, r.Line))
		}
	}
	if n := len(unknown); n > 0 {
		more := ""
		if n > 5 {
			unknown, more = unknown[:5], fmt.Sprintf(" and %d more", n-5)
		}
		return out, fmt.Errorf("evaluate: %s: %d result ids are not entries of %s (a file of another category, or of another data-set version?): %s%s",
			path, n, c, strings.Join(unknown, ", "), more)
	}
	if !o.Partial && len(recs) != len(entries) {
		return out, fmt.Errorf("evaluate: %s holds %d results but %s has %d entries; pass --partial-eval to score only the entries present", path, len(recs), c, len(entries))
	}
	// Entries are scored concurrently (one worker per CPU; a file's
	// entries are independent), then taken in data-set order: the verdicts
	// and the first error are those of scoring them one by one.
	type scored struct {
		rec    results.Record
		found  bool
		reused bool
		v      verdict.Verdict
		err    error
	}
	res := make([]scored, len(entries))
	for i, e := range entries {
		res[i].rec, res[i].found = byID[e.ID]
	}
	parallelFor(len(entries), func(i int) {
		x := &res[i]
		if !x.found {
			return
		}
		if v, ok := o.Kept.Get(x.rec, opts); ok {
			x.v, x.reused = v, true
			return
		}
		x.v, x.err = score.Entry(entries[i], x.rec, opts)
	})
	out.verdicts = make([]verdict.Verdict, 0, len(entries))
	for i, e := range entries {
		x := &res[i]
		if !x.found {
			if o.Partial {
				continue
			}
			return out, fmt.Errorf("evaluate: %s: no result for %s", path, e.ID)
		}
		if x.err != nil {
			if errors.Is(x.err, score.ErrNoChecker) {
				return out, fmt.Errorf("evaluate: %s: %w", c, x.err)
			}
			return out, fmt.Errorf("evaluate: %s:%d: %w", path, x.rec.Line, x.err)
		}
		out.verdicts = append(out.verdicts, x.v)
		if x.reused {
			out.reused++
		}
	}
	return out, nil
}

// parallelFor calls fn(i) for i in [0, n) on up to GOMAXPROCS goroutines
// and returns when every call has.
func parallelFor(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}

// RefreshSummary rebuilds the leaderboard CSVs and summary.json of the
// score root from every score file there, as upstream's runner does after
// evaluating. usage holds, per model folder, the cost and latency data of
// the result files evaluated in this run (upstream's record_cost_latency
// sees only those too); models without it get N/A cost columns.
func RefreshSummary(scoreRoot string, usage map[string]*report.Usage, reg *registry.Registry, notes ...map[string]map[string]string) ([]report.Row, error) {
	rows, _, err := refreshSummary(scoreRoot, usage, reg, nil, notes...)
	return rows, err
}

// RefreshSummaryMarked is RefreshSummary with, per model folder, the
// opt-in corrections its results were made with.
func RefreshSummaryMarked(scoreRoot string, usage map[string]*report.Usage, reg *registry.Registry, corr map[string][]string, notes ...map[string]map[string]string) ([]report.Row, error) {
	rows, _, err := refreshSummary(scoreRoot, usage, reg, corr, notes...)
	return rows, err
}

// refreshSummary is RefreshSummaryMarked, also returning summary.json's
// content.
func refreshSummary(scoreRoot string, usage map[string]*report.Usage, reg *registry.Registry, corr map[string][]string, notes ...map[string]map[string]string) ([]report.Row, []byte, error) {
	rows, err := Rows(scoreRoot, usage, reg)
	if err != nil {
		return nil, nil, err
	}
	for i := range rows {
		if c, ok := corr[rows[i].Model.Name]; ok {
			rows[i].Model.Corrections = c
		}
		for _, n := range notes {
			for k, v := range n[rows[i].Model.Name] {
				if rows[i].Model.Notes == nil {
					rows[i].Model.Notes = map[string]string{}
				}
				rows[i].Model.Notes[k] = v
			}
		}
	}
	if err := report.WriteScoreRoot(scoreRoot, rows); err != nil {
		return nil, nil, err
	}
	sum, err := report.SummaryJSON(rows)
	if err != nil {
		return nil, nil, err
	}
	return rows, sum, nil
}

// Rows computes the leaderboard rows of the score root without writing
// anything, each with its 95 % intervals (report.AddIntervals, default
// bootstrap options).
func Rows(scoreRoot string, usage map[string]*report.Usage, reg *registry.Registry) ([]report.Row, error) {
	all, err := report.ReadScoreDir(scoreRoot)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(all))
	for m := range all {
		names = append(names, m)
	}
	sort.Strings(names)
	var rows []report.Row
	for _, m := range names {
		var u report.Usage
		if usage[m] != nil {
			u = *usage[m]
		}
		row, err := report.Summarize(modelInfo(m, reg), all[m], u)
		if err != nil {
			return nil, err
		}
		marks, err := readMarks(scoreRoot, m)
		if err != nil {
			return nil, err
		}
		if note := markNote(marks); note != "" {
			if row.Model.Notes == nil {
				row.Model.Notes = map[string]string{}
			}
			row.Model.Notes[NotOfficialNote] = note
		}
		rows = append(rows, row)
	}
	if err := report.AddIntervals(rows, stats.Options{}); err != nil {
		return nil, err
	}
	// The corrections each folder's results were made with stay with them
	// (summary.json) until a run or evaluation says otherwise.
	prev := previousCorrections(scoreRoot)
	for i := range rows {
		rows[i].Model.Corrections = prev[rows[i].Model.Name]
	}
	return rows, nil
}

// previousCorrections reads, per model folder, the corrections recorded in
// the score root's summary.json (none when it is absent or unreadable).
func previousCorrections(scoreRoot string) map[string][]string {
	b, err := os.ReadFile(filepath.Join(scoreRoot, report.FileSummaryJSON))
	if err != nil {
		return nil
	}
	var s report.JSONSummary
	if json.Unmarshal(b, &s) != nil {
		return nil
	}
	out := map[string][]string{}
	for _, m := range s.Models {
		if len(m.Corrections) > 0 {
			out[m.Model] = m.Corrections
		}
	}
	return out
}

func modelInfo(dir string, reg *registry.Registry) report.ModelInfo {
	info := report.ModelInfo{Name: dir, DisplayName: dir}
	e, isEntry := upstream.ByFolder(dir)
	if isEntry {
		// A folder named after an upstream registry entry is reported as
		// upstream's leaderboard does; a models.yaml entry of the folder
		// replaces all of it.
		info.DisplayName, info.URL, info.Org, info.License = e.DisplayName, e.URL, e.Org, e.License
		info.InputPrice, info.OutputPrice = e.InputPrice, e.OutputPrice
	}
	if reg == nil {
		return info
	}
	for _, m := range reg.Models {
		if results.ModelDir(m.Name) != dir {
			continue
		}
		if isEntry && m.Name == e.Name && m.Upstream == e.Name {
			continue // the registry name itself (registry.FromUpstream): upstream's display data
		}
		info = report.ModelInfo{Name: dir}
		mode := "FC"
		if m.Mode == "prompt" {
			mode = "Prompt"
		}
		info.DisplayName = fmt.Sprintf("%s (%s) (%s)", m.Name, mode, capitalize(m.Provider))
		if m.PricePerMillion.Input > 0 || m.PricePerMillion.Output > 0 {
			in, out := m.PricePerMillion.Input, m.PricePerMillion.Output
			info.InputPrice, info.OutputPrice = &in, &out
		}
	}
	return info
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func fileSize(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return st.Size()
}

// RunModel is one model of a run, as the runner used it.
type RunModel struct {
	Model      registry.Model // overrides of the run applied
	Categories []category.Category
	Notes      map[string]string // services the run used (summary.json)
	// Corrections are the opt-in corrections the run had on (nil: the
	// official behaviour); the model's rows are marked with them.
	Corrections []string
}

// RunOptions are the options that score what a run ran, through the same
// code as `bfcl evaluate --partial-eval`: a score tree written at the end
// of a run and one written later from the result files are the same bytes.
// All models share the result and score roots; each is scored as the run
// configured it, and the other models of reg keep their entries.
func RunOptions(src *dataset.Source, resultRoot, scoreRoot string, reg *registry.Registry, models []RunModel) Options {
	o := Options{Source: src, ResultRoot: resultRoot, ScoreRoot: scoreRoot, Partial: true,
		Notes: map[string]map[string]string{}}
	own := &registry.Registry{}
	if reg != nil {
		own.File = reg.File
	}
	seen := map[category.Category]bool{}
	for _, m := range models {
		for _, c := range m.Categories {
			if !seen[c] {
				seen[c] = true
				o.Categories = append(o.Categories, c)
			}
		}
		o.Models = append(o.Models, m.Model.Name)
		o.Notes[results.ModelDir(m.Model.Name)] = m.Notes
		if o.Corrections == nil {
			o.Corrections = map[string][]string{}
		}
		o.Corrections[results.ModelDir(m.Model.Name)] = m.Corrections
		own.Models = append(own.Models, m.Model)
	}
	if reg != nil {
		for _, m := range reg.Models {
			if _, err := own.Get(m.Name); err != nil {
				own.Models = append(own.Models, m)
			}
		}
	}
	o.Registry = own
	o.Categories = category.SortCanonical(o.Categories)
	return o
}
