package report_test

import (
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
)

// BenchmarkComputeIntervals: a model with every scoring category evaluated
// at its data-set size, 10,000 resamples.
func BenchmarkComputeIntervals(b *testing.B) {
	var scores []report.CategoryScore
	for _, c := range category.Scoring() {
		n := c.EntryCount()
		scores = append(scores, report.CategoryScore{Category: c, Correct: n * 2 / 3, Total: n, Accuracy: float64(n*2/3) / float64(n)})
	}
	row, err := report.Summarize(report.ModelInfo{Name: "m"}, scores, report.Usage{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := report.ComputeIntervals(row, stats.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
