package compare

import (
	"errors"
	"math"
	"sort"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
)

// RepeatCategory is the run-to-run picture of one category over K repeats
// of the same model on the same entries.
type RepeatCategory struct {
	Category   string    `json:"category"`
	N          int       `json:"n"`
	Accuracies []float64 `json:"accuracies"` // per repeat, the official accuracy of each
	Mean       float64   `json:"mean"`
	Std        float64   `json:"std"`        // sample standard deviation across repeats
	PassHatK   float64   `json:"pass_hat_k"` // pass^k: fraction of entries passed by every repeat
	PassAtK    float64   `json:"pass_at_k"`  // pass@k: fraction of entries passed by at least one repeat
	Flipping   []string  `json:"flipping"`   // entries passed by some repeats and failed by others
	NoiseFloor float64   `json:"noise_floor"`
}

// RepeatGroup is the run-to-run picture of one group score (or the
// overall).
type RepeatGroup struct {
	Name       string    `json:"name"`
	Scores     []float64 `json:"scores"`
	Mean       float64   `json:"mean"`
	Std        float64   `json:"std"`
	NoiseFloor float64   `json:"noise_floor"`
}

// RepeatSummary summarises K >= 2 repeats.
type RepeatSummary struct {
	K          int              `json:"k"`
	Runs       []string         `json:"runs"`
	Skipped    []string         `json:"skipped_categories"`
	Categories []RepeatCategory `json:"categories"`
	Groups     []RepeatGroup    `json:"groups"`
}

// Repeats summarises repeats of one model scored on the same entries, over
// the categories every repeat evaluated.
//
// The noise floor is the smallest difference between two single runs that
// lies outside run-to-run variation at the 95 % level: 1.96 * sqrt(2) * s,
// where s is the standard deviation of one run's score. s is estimated from
// the entries, not from the K scores (which at small K is very noisy): an
// entry passed by m of K repeats has pass probability estimated as m/K and
// run-to-run variance K/(K-1) * (m/K) * (1 - m/K) (unbiased); a category's
// variance is the sum over its entries divided by n^2, and a group's
// variance the sum over its categories weighted by the square of the
// group's change per correct entry (the formulas are linear in the counts;
// the weights are measured with report's formula code). Entries that never
// flip contribute nothing. The Std fields are the plain sample standard
// deviations of the K scores, for reference.
func Repeats(runs []Run) (*RepeatSummary, error) {
	if len(runs) < 2 {
		return nil, errors.New("compare: repeats need at least two runs")
	}
	p, skipped, err := prepare(runs)
	if err != nil {
		return nil, err
	}
	k := len(runs)
	out := &RepeatSummary{K: k, Skipped: category.Names(skipped)}
	if out.Skipped == nil {
		out.Skipped = []string{}
	}
	for _, r := range runs {
		out.Runs = append(out.Runs, r.Label)
	}
	all := uint64(1)<<uint(k) - 1
	vars := make([]float64, len(p.cats)) // variance of the correct count per category
	for i, c := range p.cats {
		n := runs[0].Outcomes[c].Score.Total
		rc := RepeatCategory{Category: string(c), N: n, Flipping: []string{}}
		for _, r := range runs {
			rc.Accuracies = append(rc.Accuracies, r.Outcomes[c].Score.Accuracy)
		}
		rc.Mean, rc.Std = meanStd(rc.Accuracies)
		st := p.strata[i]
		hat, at := 0, 0
		for j, pat := range st.Patterns {
			m := bitsSet(pat)
			if pat == all {
				hat += st.Counts[j]
			}
			if pat != 0 {
				at += st.Counts[j]
			}
			q := float64(m) / float64(k)
			vars[i] += float64(st.Counts[j]) * float64(k) / float64(k-1) * q * (1 - q)
		}
		rc.PassHatK = float64(hat) / float64(n)
		rc.PassAtK = float64(at) / float64(n)
		union := map[string]bool{}
		for _, f := range p.failed {
			for id := range f[c] {
				union[id] = true
			}
		}
		for id := range union {
			failedAll := true
			for _, f := range p.failed {
				failedAll = failedAll && f[c][id]
			}
			if !failedAll {
				rc.Flipping = append(rc.Flipping, id)
			}
		}
		sort.Slice(rc.Flipping, func(a, b int) bool { return category.CompareIDs(rc.Flipping[a], rc.Flipping[b]) < 0 })
		rc.NoiseFloor = stats.Z95 * math.Sqrt2 * math.Sqrt(vars[i]) / float64(n)
		out.Categories = append(out.Categories, rc)
	}
	slopes := p.slopes()
	for g, name := range report.GroupNames() {
		if !p.showGroup(g, name) {
			continue
		}
		rg := RepeatGroup{Name: name}
		for _, row := range p.rows {
			rg.Scores = append(rg.Scores, report.GroupValues(row.Groups)[g].Accuracy)
		}
		rg.Mean, rg.Std = meanStd(rg.Scores)
		v := 0.0
		for i := range p.cats {
			v += slopes[i][g] * slopes[i][g] * vars[i]
		}
		rg.NoiseFloor = stats.Z95 * math.Sqrt2 * math.Sqrt(v)
		out.Groups = append(out.Groups, rg)
	}
	return out, nil
}

func bitsSet(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// meanStd is the mean and the sample standard deviation (n-1).
func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}
