package report_test

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
)

func catScore(c category.Category, correct, total int) report.CategoryScore {
	return report.CategoryScore{Category: c, Correct: correct, Total: total, Accuracy: float64(correct) / float64(total)}
}

var _ = Describe("intervals", func() {
	var row report.Row
	BeforeEach(func() {
		var err error
		row, err = report.Summarize(report.ModelInfo{Name: "m", DisplayName: "M"}, []report.CategoryScore{
			catScore(category.SimplePython, 330, 400), catScore(category.Multiple, 160, 200),
			catScore(category.LiveSimple, 200, 258), catScore(category.LiveParallel, 9, 16),
			catScore(category.Irrelevance, 200, 240), catScore(category.MultiTurnBase, 81, 200),
		}, report.Usage{})
		Expect(err).NotTo(HaveOccurred())
	})

	It("recomputes the official group scores exactly from the unchanged counts", func() {
		cats := row.Evaluated()
		correct := make([]int, len(cats))
		for i, c := range cats {
			correct[i] = row.Scores[c].Correct
		}
		Expect(row.RegroupCounts(cats, correct)).To(Equal(row.Groups))
	})

	It("gives Wilson intervals per category and bootstrap intervals around every group score", func() {
		iv, err := report.ComputeIntervals(row, stats.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(iv.Resamples).To(Equal(10000))
		Expect(iv.Seed).To(Equal(uint64(stats.DefaultSeed)))
		lo, hi, _ := stats.Wilson(81, 200, stats.Z95)
		Expect(iv.Category[category.MultiTurnBase]).To(Equal(report.Interval{Lo: lo, Hi: hi, N: 200}))
		Expect(iv.Category).To(HaveLen(6))
		for i, a := range report.GroupValues(row.Groups) {
			name := report.GroupNames()[i]
			g := iv.Group[name]
			Expect(g.Lo).To(BeNumerically("<=", a.Accuracy), name)
			Expect(g.Hi).To(BeNumerically(">=", a.Accuracy), name)
			Expect(g.N).To(Equal(a.Total), name)
		}
		// The live score is entry-weighted over the four live categories, the
		// missing two counting 0 with their data-set sizes: with live_simple
		// (258) and live_parallel (16) evaluated it is
		// (X1 + X2) / N, N = 258+1053+16+24, so its standard deviation is
		// sqrt(258 p1 q1 + 16 p2 q2) / N.
		n := float64(258 + 1053 + 16 + 24)
		p1, p2 := 200.0/258, 9.0/16
		sd := math.Sqrt(258*p1*(1-p1)+16*p2*(1-p2)) / n
		live := iv.Group["live"]
		Expect(live.Hi - live.Lo).To(BeNumerically("~", 2*stats.Z95*sd, 0.1*2*stats.Z95*sd))
		// A group that is a single category is that category's binomial.
		rel := iv.Group["multi_turn"] // multi_turn_base / 4 (the other three are 0)
		sdMT := math.Sqrt(81.0/200*(1-81.0/200)/200) / 4
		Expect(rel.Hi - rel.Lo).To(BeNumerically("~", 2*stats.Z95*sdMT, 0.1*2*stats.Z95*sdMT))
		again, err := report.ComputeIntervals(row, stats.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(again).To(Equal(iv), "deterministic")
	})

	It("adds ci95 and n to summary.json and data_intervals.csv, and leaves upstream's CSVs unchanged", func() {
		plain := []report.Row{row}
		withCI := []report.Row{row}
		Expect(report.AddIntervals(withCI, stats.Options{Resamples: 2000})).To(Succeed())
		Expect(report.CSVFiles(withCI)).To(Equal(report.CSVFiles(plain)))
		dir := GinkgoT().TempDir()
		Expect(report.WriteScoreRoot(dir, withCI)).To(Succeed())
		raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
		Expect(err).NotTo(HaveOccurred())
		var s report.JSONSummary
		Expect(json.Unmarshal(raw, &s)).To(Succeed())
		Expect(s.Intervals).NotTo(BeNil())
		Expect(s.Intervals.Resamples).To(Equal(2000))
		Expect(s.Intervals.Seed).To(Equal(uint64(stats.DefaultSeed)))
		m := s.Models[0]
		Expect(m.Overall.CI95).NotTo(BeNil())
		Expect(m.Overall.N).To(Equal(row.Overall.Total))
		for _, c := range m.Categories {
			if c.Present {
				Expect(c.CI95).NotTo(BeNil(), c.Category)
				Expect(c.N).To(Equal(c.Total))
			} else {
				Expect(c.CI95).To(BeNil(), c.Category)
			}
		}
		csv, err := os.ReadFile(filepath.Join(dir, report.FileIntervals))
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSuffix(string(csv), "\n"), "\n")
		Expect(lines[0]).To(Equal("Model,Scope,Name,Accuracy (%),N,CI95 Low (%),CI95 High (%),Method,Resamples,Seed"))
		Expect(lines).To(ContainElement(HavePrefix("m,category,multi_turn_base,40.50,200,")))
		Expect(lines).To(ContainElement(MatchRegexp(`^m,overall,overall,[0-9.]+,\d+,[0-9.]+,[0-9.]+,stratified_bootstrap,2000,20251112$`)))
		// No intervals: no extra file, no ci95.
		dir2 := GinkgoT().TempDir()
		Expect(report.WriteScoreRoot(dir2, plain)).To(Succeed())
		Expect(filepath.Join(dir2, report.FileIntervals)).NotTo(BeAnExistingFile())
		raw2, _ := os.ReadFile(filepath.Join(dir2, "summary.json"))
		Expect(string(raw2)).NotTo(ContainSubstring("ci95"))
		var buf bytes.Buffer
		Expect(report.WriteTable(&buf, withCI)).To(Succeed())
		Expect(buf.String()).To(MatchRegexp(`multi_turn_base\s+multi_turn\s+81\s+200\s+40\.50%\s+±6\.7 \[33\.9, 47\.4\]`))
		Expect(buf.String()).To(MatchRegexp(`Overall\s+\d+\.\d\d%\s+±\d+\.\d \[`))
	})
})
