// Package htmlreport writes one self-contained HTML page for a score
// folder: leaderboard (with intervals when summary.json carries them) and a
// compare view of two models, per-category accuracy chart and error types,
// and the entry view (a multi-turn entry as a conversation from its
// inference_log beside the ground truth, the first failing turn, the state
// difference; a single-turn entry with its question, functions, decoded
// calls and possible answers). Inline CSS and JavaScript, no network; the
// data is embedded gzip-compressed and rendered on demand, so the file works
// from file:// at 5,106 entries per model.
package htmlreport

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/scores/report"
)

// FileName is the report's name next to the CSVs of a score folder.
const FileName = "report.html"

// Options of one report.
type Options struct {
	ScoreDir  string          // score root: <model>/<group>/BFCL_v4_<category>_score.json, summary.json
	ResultDir string          // result root (optional): transcripts of passed entries, entry lists
	Source    *dataset.Source // data set (optional): questions, functions, ground truth
	Out       string          // output file; "" is ScoreDir/report.html
	Title     string          // page title; "" names the score folder

	// Scored is what this process's scoring produced (evaluate.Evaluation):
	// those score files and result files are taken from memory, not read
	// again, and the multi-turn ground truth's results from what the
	// checker recorded. Score files of the folder it does not cover (other
	// models, earlier runs) are read from ScoreDir.
	Scored []report.Scored
	// Summary is summary.json's content as just written; nil reads it.
	Summary []byte
	// GroundTruth executes a multi-turn entry's ground truth for entries
	// no Scored recorded (multiturn.GroundTruthResults; the caller picks
	// it so that this package runs no backend). nil leaves those results
	// out of the page.
	GroundTruth func(e *dataset.Entry) ([][]string, error)
}

//go:embed assets/report.css
var css string

//go:embed assets/report.js
var js string

//go:embed assets/report.html
var page string

// Write builds the report of o and writes it (atomically) to o.Out, or to
// ScoreDir/report.html. It returns the path written.
func Write(o Options) (string, error) {
	out := o.Out
	if out == "" {
		out = filepath.Join(o.ScoreDir, FileName)
	}
	b, err := Build(o)
	if err != nil {
		return "", err
	}
	if err := report.WriteFileAtomic(out, b); err != nil {
		return "", fmt.Errorf("htmlreport: %w", err)
	}
	return out, nil
}

// gzipLevel compresses the embedded data: level 1 costs about a quarter
// of level 6 and a seventh of level 9, for a page about 37 % larger than
// level 6's (measured on the reference result set; README, "Report").
const gzipLevel = gzip.BestSpeed

// Build returns the page of o.
func Build(o Options) ([]byte, error) {
	if o.ScoreDir == "" {
		return nil, fmt.Errorf("htmlreport: no score folder given")
	}
	p, err := build(o)
	if err != nil {
		return nil, err
	}
	// The data is compressed while it is encoded (two goroutines joined by
	// a pipe), so the page costs the longer of the two, not their sum.
	var gz bytes.Buffer
	pr, pw := io.Pipe()
	zipped := make(chan error, 1)
	go func() {
		zw, _ := gzip.NewWriterLevel(&gz, gzipLevel)
		_, err := io.Copy(zw, pr)
		if cerr := zw.Close(); err == nil {
			err = cerr
		}
		pr.CloseWithError(err)
		zipped <- err
	}()
	bw := bufio.NewWriterSize(pw, 256<<10)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	err = enc.Encode(p)
	if err == nil {
		err = bw.Flush()
	}
	pw.CloseWithError(err)
	if zerr := <-zipped; err == nil && zerr != nil {
		return nil, fmt.Errorf("htmlreport: %w", zerr)
	}
	if err != nil {
		return nil, fmt.Errorf("htmlreport: encoding the data: %w", err)
	}
	data := base64.StdEncoding.EncodeToString(gz.Bytes())
	r := strings.NewReplacer(
		"{{TITLE}}", htmlEscape(p.Title),
		"{{CSS}}", css,
		"{{JS}}", strings.ReplaceAll(js, "</script", `<\/script`),
		"{{DATA}}", data,
		"{{STATIC}}", staticSummary(p), // static.go
	)
	return []byte(r.Replace(page)), nil
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
