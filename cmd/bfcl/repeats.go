package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"

	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/scores/compare"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// cmdRepeats summarises K repeats of the same run: the score roots
// results.RepeatRoot(--score-dir, k) for k = 1..K (--score-dir itself, then
// <score-dir>_repeat_2, ...), or the score roots given as arguments
// (bfcl repeats [flags] [ROOT ...]).
func cmdRepeats(args []string) error {
	fs := flag.NewFlagSet("repeats", flag.ContinueOnError)
	f := register(fs, "repeats")
	k := fs.Int("repeats", 0, "number of repeats K (>= 2); default: every <score-dir>_repeat_<k> found")
	model := fs.String("model", "", "model folder (default: every model scored in all repeats)")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	if err := parseWithArgs(fs, args); err != nil {
		return err
	}
	rc, err := f.Resolve(config.WorkingDir)
	if err != nil {
		return err
	}
	scoreDir := &rc.ScoreDir
	roots := fs.Args()
	if len(roots) == 0 {
		for i := 1; *k == 0 || i <= *k; i++ {
			r, err := results.RepeatRoot(*scoreDir, i)
			if err != nil {
				return err
			}
			if st, err := os.Stat(r); err != nil || !st.IsDir() {
				if *k != 0 {
					return fmt.Errorf("repeats: no score root %s for repeat %d", r, i)
				}
				break
			}
			roots = append(roots, r)
		}
	}
	if len(roots) < 2 {
		return errors.New("repeats: need at least two repeats (score roots)")
	}
	var models []string
	if *model != "" {
		models = []string{results.ModelDir(*model)}
	} else {
		count := map[string]int{}
		for _, r := range roots {
			ents, err := os.ReadDir(r)
			if err != nil {
				return err
			}
			for _, e := range ents {
				if e.IsDir() {
					count[e.Name()]++
				}
			}
		}
		for m, n := range count {
			if n == len(roots) {
				models = append(models, m)
			}
		}
		sort.Strings(models)
		if len(models) == 0 {
			return errors.New("repeats: no model is scored in every repeat")
		}
	}
	var all []*compare.RepeatSummary
	for _, m := range models {
		var runs []compare.Run
		for _, r := range roots {
			run, err := compare.Load(r, r, m)
			if err != nil {
				return err
			}
			runs = append(runs, run)
		}
		s, err := compare.Repeats(runs)
		if err != nil {
			return fmt.Errorf("repeats: %s: %w", m, err)
		}
		if !*asJSON {
			fmt.Printf("Model: %s\n", m)
			if err := compare.WriteRepeats(os.Stdout, s); err != nil {
				return err
			}
			fmt.Println()
		}
		all = append(all, s)
	}
	if !*asJSON {
		return nil
	}
	type modelSummary struct {
		Model string `json:"model"`
		*compare.RepeatSummary
	}
	var out []modelSummary
	for i, m := range models {
		out = append(out, modelSummary{m, all[i]})
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
