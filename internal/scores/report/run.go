package report

import (
	"fmt"
	"sort"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
)

// CategoryResult is one evaluated category of a model: its verdicts (one
// per result-file entry) and the usage data of its result file.
type CategoryResult struct {
	Category category.Category
	Verdicts []verdict.Verdict
	Usage    Usage
}

// WriteModelScores writes the score file of every category (upstream's
// evaluate_task per category) under scoreRoot/<model>/ and returns the
// scores and the model's combined usage (record_cost_latency over the
// evaluated categories).
func WriteModelScores(scoreRoot, model string, results []CategoryResult) ([]CategoryScore, Usage, error) {
	var scores []CategoryScore
	var usage Usage
	seen := map[category.Category]bool{}
	for _, r := range results {
		if seen[r.Category] {
			return nil, Usage{}, fmt.Errorf("report: model %s: category %s given twice", model, r.Category)
		}
		seen[r.Category] = true
		s, err := WriteScoreDirFile(scoreRoot, model, r.Category, r.Verdicts)
		if err != nil {
			return nil, Usage{}, err
		}
		scores = append(scores, s)
		usage.Add(r.Usage)
	}
	return scores, usage, nil
}

// Leaderboard builds the leaderboard rows the way upstream's runner does
// after evaluating: every score file under scoreRoot is read back
// (update_leaderboard_table_with_local_score_file), so categories and models
// scored by earlier runs are included; the rows are the evaluated models in
// the given order, then the other models found in scoreRoot by name (upstream
// uses directory iteration order; the order only matters for rank ties). usage
// holds this run's usage per evaluated model (models without usage get N/A
// cost and latency, as upstream). info supplies the model metadata
// (upstream's MODEL_CONFIG_MAPPING); an error from it aborts, as upstream's
// KeyError does.
func Leaderboard(scoreRoot string, evaluated []string, usage map[string]Usage, info func(model string) (ModelInfo, error)) ([]Row, error) {
	onDisk, err := ReadScoreDir(scoreRoot)
	if err != nil {
		return nil, err
	}
	order := append([]string(nil), evaluated...)
	inOrder := map[string]bool{}
	for _, m := range order {
		inOrder[m] = true
	}
	var rest []string
	for m := range onDisk {
		if !inOrder[m] {
			rest = append(rest, m)
		}
	}
	sort.Strings(rest)
	order = append(order, rest...)
	var rows []Row
	for _, m := range order {
		mi, err := info(m)
		if err != nil {
			return nil, fmt.Errorf("report: model %s: %w", m, err)
		}
		if mi.Name == "" {
			mi.Name = m
		}
		r, err := Summarize(mi, onDisk[m], usage[m])
		if err != nil {
			return nil, err
		}
		rows = append(rows, r)
	}
	return rows, nil
}
