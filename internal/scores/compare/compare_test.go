package compare_test

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/scores/compare"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
)

// writeRun writes score files of model under root: for each category n
// entries <category>_0.. of which the listed indices fail.
func writeRun(root, model string, cats map[category.Category]struct {
	n      int
	failed []int
}) {
	for c, spec := range cats {
		fail := map[int]bool{}
		for _, i := range spec.failed {
			fail[i] = true
		}
		var vs []verdict.Verdict
		for i := 0; i < spec.n; i++ {
			vs = append(vs, verdict.Verdict{ID: fmt.Sprintf("%s_%d", c, i), Valid: !fail[i], ErrorType: "x"})
		}
		_, err := report.WriteScoreDirFile(root, model, c, vs)
		Expect(err).NotTo(HaveOccurred())
	}
}

type spec = struct {
	n      int
	failed []int
}

var _ = Describe("compare on hand-made score files", func() {
	It("pairs entries by id, lists discordant ids in entry order, and skips categories one side lacks", func() {
		root := GinkgoT().TempDir()
		writeRun(root, "a", map[category.Category]spec{
			category.LiveParallel:         {16, []int{0, 1, 2, 10}},
			category.LiveParallelMultiple: {24, []int{5}},
		})
		writeRun(root, "b", map[category.Category]spec{
			category.LiveParallel: {16, []int{2, 3, 11, 12, 13}},
		})
		a, err := compare.Load("", root, "a")
		Expect(err).NotTo(HaveOccurred())
		b, err := compare.Load("", root, "b")
		Expect(err).NotTo(HaveOccurred())
		res, err := compare.Two(a, b, stats.Options{Resamples: 500})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Categories).To(Equal([]string{"live_parallel"}))
		Expect(res.Skipped).To(Equal([]string{"live_parallel_multiple"}))
		row := res.Rows[0]
		Expect(row.AOnly).To(Equal([]string{"live_parallel_3", "live_parallel_11", "live_parallel_12", "live_parallel_13"}))
		Expect(row.BOnly).To(Equal([]string{"live_parallel_0", "live_parallel_1", "live_parallel_10"}))
		Expect(*row.PValue).To(Equal(1.0)) // 4 vs 3
		Expect(row.Delta).To(BeNumerically("~", -1.0/16, 1e-15))
		// live_parallel_multiple, scored by a only, is part of the live
		// group: live and overall over the compared data mean nothing
		// (issue 26), so they get no row, and a note says why.
		for _, r := range res.Rows {
			Expect(r.Scope).To(Equal("category"), r.Category)
		}
		Expect(res.Notes).To(ContainElement(And(ContainSubstring("no row for"), ContainSubstring("live"), ContainSubstring("overall"))))
	})

	It("gives group rows when every category of the group is compared or absent on both sides", func() {
		root := GinkgoT().TempDir()
		writeRun(root, "a", map[category.Category]spec{category.LiveParallel: {16, []int{0, 1, 2, 10}}})
		writeRun(root, "b", map[category.Category]spec{category.LiveParallel: {16, []int{2, 3, 11, 12, 13}}})
		a, _ := compare.Load("", root, "a")
		b, _ := compare.Load("", root, "b")
		res, err := compare.Two(a, b, stats.Options{Resamples: 500})
		Expect(err).NotTo(HaveOccurred())
		// The live group is live_parallel over the live data set size
		// (the other live categories count 0 on both sides, as upstream).
		var live compare.Row
		for _, r := range res.Rows {
			if r.Category == "live" {
				live = r
			}
		}
		Expect(live.Delta).To(BeNumerically("~", -1.0/(258+1053+16+24), 1e-15))
		Expect(live.Verdict).To(Equal(compare.VerdictNone))
		// a ranking over part of the data says its overall is not the official one
		writeRun(root, "c", map[category.Category]spec{category.LiveParallel: {16, []int{0}}, category.LiveSimple: {258, nil}})
		c, _ := compare.Load("", root, "c")
		rk, err := compare.Rank([]compare.Run{a, b, c}, stats.Options{Resamples: 200})
		Expect(err).NotTo(HaveOccurred())
		Expect(rk.Skipped).To(Equal([]string{"live_simple"}))
		Expect(rk.Notes).To(ContainElement(ContainSubstring("not the runs' official overall scores")))
		// a selection that leaves out a category the runs have removes the
		// groups that need it
		a.Select(map[category.Category]bool{category.LiveSimple: true})
		_, err = compare.Two(a, b, stats.Options{Resamples: 10})
		Expect(err).To(MatchError(ContainSubstring("no scoring category in common")))
	})

	It("refuses runs that did not score the same entries", func() {
		root := GinkgoT().TempDir()
		writeRun(root, "a", map[category.Category]spec{category.LiveParallel: {16, nil}})
		writeRun(root, "b", map[category.Category]spec{category.LiveParallel: {15, nil}})
		writeRun(root, "c", map[category.Category]spec{category.LiveParallelMultiple: {24, nil}})
		a, _ := compare.Load("", root, "a")
		b, _ := compare.Load("", root, "b")
		c, _ := compare.Load("", root, "c")
		_, err := compare.Two(a, b, stats.Options{Resamples: 10})
		Expect(err).To(MatchError(ContainSubstring("live_parallel: not compared: the runs scored different numbers of entries (a 16, b 15 of 16)")))
		// equal partial counts are compared, the assumption said, and no
		// group row is given (issue 26: official V3 folders with 882 of
		// live_irrelevance's 884 entries)
		res, err := compare.Two(b, b, stats.Options{Resamples: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Categories).To(Equal([]string{"live_parallel"}))
		Expect(res.Notes).To(ContainElement(ContainSubstring("live_parallel: 15 of 16 entries on every side (score files list failures only")))
		Expect(res.Rows).To(HaveLen(1))
		_, err = compare.Two(a, c, stats.Options{Resamples: 10})
		Expect(err).To(MatchError(ContainSubstring("no scoring category in common")))
		_, err = compare.Load("", root, "nosuch")
		Expect(err).To(MatchError(ContainSubstring("no score folder")))
	})

	It("ranks clearly separated runs apart and equal runs together", func() {
		root := GinkgoT().TempDir()
		fails := func(k int) []int {
			out := make([]int, k)
			for i := range out {
				out[i] = i
			}
			return out
		}
		writeRun(root, "strong", map[category.Category]spec{category.LiveMultiple: {1053, fails(100)}})
		writeRun(root, "strong2", map[category.Category]spec{category.LiveMultiple: {1053, fails(101)}})
		writeRun(root, "weak", map[category.Category]spec{category.LiveMultiple: {1053, fails(600)}})
		var runs []compare.Run
		for _, m := range []string{"weak", "strong", "strong2"} {
			r, err := compare.Load("", root, m)
			Expect(err).NotTo(HaveOccurred())
			runs = append(runs, r)
		}
		r, err := compare.Rank(runs, stats.Options{Resamples: 1000})
		Expect(err).NotTo(HaveOccurred())
		var got []string
		for _, s := range r.Standings {
			got = append(got, fmt.Sprintf("%d %s %v", s.Rank, s.Label, s.TiedWith))
		}
		Expect(got).To(Equal([]string{"1 strong [strong2]", "1 strong2 [strong]", "3 weak []"}))
	})
})
