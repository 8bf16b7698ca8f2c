package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/bfcl-go/bfcl/internal/htmlreport"
)

// cmdReport writes the HTML report of a score folder.
func cmdReport(args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	scoreDir := fs.String("score-dir", "score", "score root (holds <model>/<group>/BFCL_v4_<category>_score.json and summary.json)")
	resultDir := fs.String("result-dir", "", "result root (optional): transcripts of passed entries and the full entry lists")
	out := fs.String("o", "", "output file (default <score-dir>/"+htmlreport.FileName+")")
	dataDir := fs.String("data-dir", "", "BFCL data directory (default $BFCL_DATA_DIR or the `bfcl data` cache); questions, functions, ground truth")
	noData := fs.Bool("no-data", false, "do not embed the data set (smaller page; no questions or ground-truth results)")
	title := fs.String("title", "", "page title (default: names the score folder)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("report: unexpected arguments %q", fs.Args())
	}
	o := htmlreport.Options{ScoreDir: *scoreDir, ResultDir: *resultDir, Out: *out, Title: *title}
	if !*noData {
		src, err := openData(*dataDir)
		if err != nil {
			return fmt.Errorf("report: data set: %w (use --no-data to write the report without it)", err)
		}
		o.Source = src
	}
	path, err := htmlreport.Write(o)
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
