package htmlreport

import (
	"github.com/bfcl-go/bfcl/internal/scores/compare"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
)

// MaxComparedModels bounds the pairs the page carries comparisons for
// (the first models in name order): each pair costs a bootstrap.
const MaxComparedModels = 8

// pairData is `bfcl compare A B` for one pair of the page's models: the
// same rows, p-values, intervals and verdicts the terminal prints, so the
// page's compare view shows them too (B - A; the page swaps for B, A).
type pairData struct {
	A         string        `json:"a"`
	B         string        `json:"b"`
	Rows      []compare.Row `json:"rows,omitempty"`
	Skipped   []string      `json:"skipped,omitempty"`
	Notes     []string      `json:"notes,omitempty"`
	Resamples int           `json:"resamples,omitempty"`
	Seed      uint64        `json:"seed,omitempty"`
	Error     string        `json:"error,omitempty"` // why the pair cannot be compared
}

// comparisons compares every pair of the first MaxComparedModels models
// of the score folder with the defaults of `bfcl compare`.
func comparisons(scoreDir string, models []string, scored []report.Scored) ([]pairData, error) {
	if len(models) > MaxComparedModels {
		models = models[:MaxComparedModels]
	}
	if len(models) < 2 {
		return nil, nil // no pair: nothing to load
	}
	runs := make([]compare.Run, len(models))
	inMemory := map[string]bool{}
	for _, sc := range scored {
		inMemory[sc.Model] = true
	}
	for i, m := range models {
		if inMemory[m] {
			o, err := report.OutcomesOf(scored, m)
			if err != nil {
				return nil, err
			}
			runs[i] = compare.Run{Label: m, Model: m, Outcomes: o}
			continue
		}
		r, err := compare.Load(m, scoreDir, m)
		if err != nil {
			return nil, err
		}
		runs[i] = r
	}
	var out []pairData
	for i := range runs {
		for j := i + 1; j < len(runs); j++ {
			pd := pairData{A: models[i], B: models[j]}
			res, err := compare.Two(runs[i], runs[j], stats.Options{})
			if err != nil {
				pd.Error = err.Error()
			} else {
				pd.Rows, pd.Skipped, pd.Notes, pd.Resamples, pd.Seed = res.Rows, res.Skipped, res.Notes, res.Resamples, res.Seed
			}
			out = append(out, pd)
		}
	}
	return out, nil
}
