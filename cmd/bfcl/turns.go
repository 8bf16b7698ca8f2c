package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/run/turniso"
	"github.com/bfcl-go/bfcl/internal/scores/turns"
)

// cmdTurns prints turn-level diagnostics of the multi-turn score files of
// a score root: beside the official score, never part of it.
func cmdTurns(args []string) error {
	fs, f := newVerb("turns")
	model := fs.String("model", "", "model folder (default: every model under the score root)")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	isolated := fs.Bool("isolated", false, "score the turn-isolated records under <result-dir>_turn_isolated into <score-dir>_turn_isolated instead")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rc, src, err := resolveWithData(f)
	if err != nil {
		return err
	}
	scoreDir := &rc.ScoreDir
	if *isolated {
		mode, u2d, err := f.Decoding()
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		if mode == "" {
			mode = "fc"
		}
		return isolatedTurns(src, rc.ResultDir, rc.ScoreDir, *model, mode, u2d != nil && *u2d, *asJSON)
	}
	out, err := turns.Report(src, *scoreDir, *model)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, mt := range out {
		fmt.Printf("Model: %s (turn-level diagnostics, not part of the official score)\n", mt.Model)
		tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "CATEGORY\tENTRY ACC %%\tTURN ACC %%\tMEAN PROGRESS %%\tFIRST FAILING TURN (0, 1, ...)\tUNCHECKED\t\n")
		for _, d := range mt.Categories {
			ff := make([]string, len(d.FirstFailing))
			for i, n := range d.FirstFailing {
				ff[i] = fmt.Sprint(n)
			}
			fmt.Fprintf(tw, "%s\t%.2f\t%.2f\t%.2f\t%s\t%d\t\n", d.Category, 100*float64(d.Passed)/float64(d.Entries),
				100*d.TurnAccuracy, 100*d.MeanProgress, strings.Join(ff, " "), d.Unchecked)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Println()
	}
	fmt.Println("TURN ACC: turns passed before the first failing turn / all turns of the checked entries (turns after a failure count as failed);" +
		" UNCHECKED: entries failed before any turn was checked (inference errors), left out.")
	return nil
}

// isolatedTurns scores turn-isolated records (package turniso) and prints
// the per-turn accuracies.
func isolatedTurns(src *dataset.Source, resultDir, scoreDir, model, mode string, u2d, asJSON bool) error {
	out, err := turns.Isolated(src, resultDir, scoreDir, model, decode.Spec{Mode: mode, UnderscoreToDot: u2d})
	if err != nil {
		return err
	}
	scoreRoot := turniso.IsolatedRoot(scoreDir)
	if asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, ms := range out {
		fmt.Printf("Model: %s (turn-isolated, not part of the official score; score files in %s)\n", ms.Model, scoreRoot)
		tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "CATEGORY\tTURNS\tTURN ACC %%\tBY TURN (0, 1, ...) %%\tPREFIX FAILED\t\n")
		for _, s := range ms.Categories {
			by := make([]string, len(s.ByTurn))
			for i, t := range s.ByTurn {
				by[i] = fmt.Sprintf("%.1f", 100*float64(t.Correct)/float64(t.Total))
			}
			fmt.Fprintf(tw, "%s\t%d\t%.2f\t%s\t%d\t\n", s.Category, s.Turns, 100*s.Accuracy, strings.Join(by, " "), len(s.PrefixFailed))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Println()
	}
	return nil
}
