package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/scores/compare"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

const compareUsage = `usage: bfcl compare [flags] A B [C ...]

Each run is a model folder name under --score-dir, a model's score folder
(<score root>/<model>), or a score root holding exactly one model. With
--from-results they are result folders instead, scored first (like
bfcl evaluate) into a temporary folder. Two runs: per category and group,
A, B, delta = B - A, the entries only one side passes, the exact McNemar
p-value and the paired bootstrap interval, and a verdict. Three or more:
a ranking by the overall score with groups of tied runs.

flags:
`

// parseWithArgs parses a verb's flags where positional arguments are the
// verb's operands (flags first).
func parseWithArgs(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(os.Stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return nil
}

func cmdCompare(args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), compareUsage); fs.PrintDefaults() }
	f := register(fs, "compare")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	seed := fs.Uint64("seed", stats.DefaultSeed, "bootstrap seed")
	resamples := fs.Int("resamples", stats.DefaultResamples, "bootstrap resamples")
	fromResults := fs.Bool("from-results", false, "the runs are result folders: score them first (--test-category, --mode, --underscore-to-dot as for evaluate)")
	if err := parseWithArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() < 2 {
		fs.Usage()
		return fmt.Errorf("%w: compare: name at least two runs", errUsage)
	}
	if *resamples < 1 {
		return fmt.Errorf("%w: compare: --resamples %d must be positive", errUsage, *resamples)
	}
	rc, err := f.Resolve(config.WorkingDir)
	if err != nil {
		return err
	}
	var runs []compare.Run
	var scoreEval func(root, model string) (string, error)
	if *fromResults {
		tmp, err := os.MkdirTemp("", "bfcl-compare-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		src, err := rc.Source()
		if err != nil {
			return err
		}
		cs, err := category.ExpandList(orScoring(f.List(config.TestCategory)))
		if err != nil {
			return err
		}
		// each side's entries are scored as they are; the comparison then
		// keeps the entries every side has (paired by id, counts said)
		o := evaluate.Options{Source: src, Categories: cs, Registry: rc.Registry, Partial: true}
		if o.Mode, o.UnderscoreToDot, err = f.Decoding(); err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		n := 0
		scoreEval = func(root, model string) (string, error) {
			n++
			o.ResultRoot, o.ScoreRoot, o.Models = root, filepath.Join(tmp, fmt.Sprint(n)), []string{model}
			if _, err := evaluate.Run(o); err != nil {
				return "", err
			}
			return o.ScoreRoot, nil
		}
	}
	var keep map[category.Category]bool
	if sel := f.List(config.TestCategory); len(sel) > 0 {
		cs, err := category.ExpandList(sel)
		if err != nil {
			return err
		}
		keep = map[category.Category]bool{}
		for _, c := range cs {
			keep[c] = true
		}
	}
	type origin struct{ root, model string }
	var origins []origin
	for _, arg := range fs.Args() {
		root, model, err := resolveRun(arg, rc.ScoreDir, *fromResults)
		if err != nil {
			return err
		}
		origins = append(origins, origin{root, model})
		if scoreEval != nil {
			if root, err = scoreEval(root, model); err != nil {
				return fmt.Errorf("compare: scoring %s: %w", arg, err)
			}
		}
		r, err := compare.Load(arg, root, model)
		if err != nil {
			return err
		}
		r.Select(keep)
		runs = append(runs, r)
	}
	if *fromResults {
		if err := commonEntries(runs, func(i int, c category.Category) string {
			return results.Path(origins[i].root, origins[i].model, c)
		}); err != nil {
			return err
		}
	}
	return writeComparison(os.Stdout, runs, stats.Options{Seed: *seed, Resamples: *resamples}, *asJSON)
}

func writeComparison(w io.Writer, runs []compare.Run, o stats.Options, asJSON bool) error {
	var v any
	if len(runs) == 2 {
		res, err := compare.Two(runs[0], runs[1], o)
		if err != nil {
			return err
		}
		if !asJSON {
			return compare.WriteTable(w, res)
		}
		v = struct {
			A string `json:"a"`
			B string `json:"b"`
			*compare.Result
		}{res.A, res.B, res}
	} else {
		rk, err := compare.Rank(runs, o)
		if err != nil {
			return err
		}
		if !asJSON {
			return compare.WriteRanking(w, rk)
		}
		v = rk
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// resolveRun turns a command-line run into a (root, model folder) pair:
// a folder holding category folders is a model folder; another folder is
// a root that must hold exactly one model; anything else is a model name
// under defaultRoot.
func resolveRun(arg, defaultRoot string, resultFolders bool) (root, model string, err error) {
	what := "score"
	if resultFolders {
		what = "result"
	}
	st, statErr := os.Stat(arg)
	if statErr != nil || !st.IsDir() {
		if resultFolders {
			return "", "", fmt.Errorf("compare: %s is not a result folder", arg)
		}
		model = results.ModelDir(arg)
		if st, err := os.Stat(filepath.Join(defaultRoot, model)); err != nil || !st.IsDir() {
			return "", "", fmt.Errorf("compare: %q is neither a folder nor a model under %s", arg, defaultRoot)
		}
		return defaultRoot, model, nil
	}
	groupDirs := map[string]bool{}
	for _, c := range category.All() {
		groupDirs[strings.SplitN(c.Dir(), "/", 2)[0]] = true
	}
	ents, err := os.ReadDir(arg)
	if err != nil {
		return "", "", err
	}
	var models []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if groupDirs[e.Name()] {
			abs, err := filepath.Abs(arg)
			if err != nil {
				return "", "", err
			}
			return filepath.Dir(abs), filepath.Base(abs), nil
		}
		models = append(models, e.Name())
	}
	switch len(models) {
	case 1:
		return arg, models[0], nil
	case 0:
		return "", "", fmt.Errorf("compare: %s holds no model %s folder", arg, what)
	}
	return "", "", fmt.Errorf("compare: %s holds %d models (%s); name one: %s", arg, len(models), strings.Join(models, ", "),
		filepath.Join(arg, models[0]))
}

func orScoring(cats []string) []string {
	if len(cats) == 0 {
		return []string{"all_scoring"}
	}
	return cats
}

// commonEntries cuts every category the runs share to the entries all of
// them scored, read from their result files, so runs of different subsets
// compare on what both ran; the comparison's notes give the counts.
func commonEntries(runs []compare.Run, path func(i int, c category.Category) string) error {
	for _, c := range category.Scoring() {
		var common map[string]bool
		for i, r := range runs {
			if _, ok := r.Outcomes[c]; !ok {
				common = nil
				break
			}
			recs, err := results.Read(path(i, c))
			if err != nil {
				return fmt.Errorf("compare: %w", err)
			}
			ids := make(map[string]bool, len(recs))
			for _, rec := range recs {
				if common == nil || common[rec.ID] {
					ids[rec.ID] = true
				}
			}
			common = ids
		}
		if common == nil {
			continue
		}
		cut := len(common) < c.EntryCount()
		for i := range runs {
			cut = cut || runs[i].Outcomes[c].Score.Total != len(common)
		}
		if cut {
			for i := range runs {
				runs[i].Restrict(c, common)
			}
		}
	}
	return nil
}
