package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Scored is what scoring produced for one category of one model, kept in
// memory for the reports of the same process (internal/scores/htmlreport)
// so that they read neither the score file nor the result file back.
type Scored struct {
	Model    string // result folder name
	Category category.Category
	Score    CategoryScore
	// File is the score file's content as written.
	File []byte
	// Records are the result lines that were scored, in file order.
	Records []results.Record
	// GroundTruth holds, for multi-turn entries, the ground truth's
	// execution results per turn by entry id (verdict.GroundTruthResults).
	GroundTruth map[string][][]string
}

// WriteScored writes a category's score file at ScoreFilePath (as
// WriteScoreDirFile) and returns it as a Scored, with the verdicts' ground
// truth results; Records are the caller's to fill.
func WriteScored(scoreRoot, model string, cat category.Category, verdicts []verdict.Verdict) (Scored, error) {
	if model == "" || strings.ContainsAny(model, `/\`) {
		return Scored{}, fmt.Errorf("report: invalid model directory name %q", model)
	}
	b, s, err := appendScoreFile(nil, model, cat, verdicts)
	if err != nil {
		return Scored{}, err
	}
	if err := WriteFileAtomic(ScoreFilePath(scoreRoot, model, cat), b); err != nil {
		return Scored{}, err
	}
	out := Scored{Model: model, Category: cat, Score: s, File: b}
	for _, v := range verdicts {
		if v.GroundTruthResults == nil {
			continue
		}
		if out.GroundTruth == nil {
			out.GroundTruth = map[string][][]string{}
		}
		out.GroundTruth[v.ID] = v.GroundTruthResults
	}
	return out, nil
}

// SummaryJSON is the content of summary.json for rows, as WriteScoreRoot
// writes it.
func SummaryJSON(rows []Row) ([]byte, error) {
	b, err := json.MarshalIndent(Summary(rows), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("report: summary.json: %w", err)
	}
	return append(b, '\n'), nil
}
