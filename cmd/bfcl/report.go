package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/htmlreport"
)

// cmdReport writes the HTML report of a score folder.
func cmdReport(args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	f := register(fs, "report")
	out := fs.String("o", "", "output file (default <score-dir>/"+htmlreport.FileName+")")
	noData := fs.Bool("no-data", false, "do not embed the data set (smaller page; no questions or ground-truth results)")
	title := fs.String("title", "", "page title (default: names the score folder)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rc, err := f.Resolve(config.WorkingDir)
	if err != nil {
		return err
	}
	o := htmlreport.Options{ScoreDir: rc.ScoreDir, Out: *out, Title: *title}
	if st, err := os.Stat(rc.ResultDir); err == nil && st.IsDir() {
		o.ResultDir = rc.ResultDir // transcripts of passed entries and the full entry lists
	}
	if !*noData {
		src, err := rc.Source()
		if err != nil {
			return fmt.Errorf("report: data set: %w (use --no-data to write the report without it)", err)
		}
		o.Source = src
	}
	path, err := writeReport(o, nil)
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s (%.1f MB)\n", path, float64(st.Size())/1e6)
	return nil
}

// writeReport writes the HTML report of o: from what ev (this process's
// evaluation, may be nil) scored, reading the score folder only for the
// rest; the multi-turn ground truth is executed only for entries no
// scoring of this process recorded.
func writeReport(o htmlreport.Options, ev *evaluate.Evaluation) (string, error) {
	if ev != nil {
		o.Scored, o.Summary = ev.Scored, ev.Summary
	}
	if src := o.Source; src != nil {
		o.GroundTruth = func(e *dataset.Entry) ([][]string, error) {
			lc, err := src.LongContext()
			if err != nil {
				return nil, err
			}
			return multiturn.GroundTruthResults(e, lc)
		}
	}
	return htmlreport.Write(o)
}
