package compare_test

import (
	"fmt"
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/compare"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

var _ = Describe("Repeats", func() {
	It("reports mean, std, pass^k, pass@k, flipping entries and the noise floor", func() {
		root := GinkgoT().TempDir() + "/score"
		// Three repeats of live_parallel (16 entries): entries 0-3 always
		// fail, 4 fails in repeats 1 and 2, 5 in repeat 3 only, 6 in
		// repeat 2 only; the rest always pass.
		failed := [][]int{{0, 1, 2, 3, 4}, {0, 1, 2, 3, 4, 6}, {0, 1, 2, 3, 5}}
		var runs []compare.Run
		for k := 1; k <= 3; k++ {
			dir, err := results.RepeatRoot(root, k)
			Expect(err).NotTo(HaveOccurred())
			writeRun(dir, "m", map[category.Category]spec{category.LiveParallel: {16, failed[k-1]}})
			r, err := compare.Load(fmt.Sprintf("repeat %d", k), dir, "m")
			Expect(err).NotTo(HaveOccurred())
			runs = append(runs, r)
		}
		s, err := compare.Repeats(runs)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.K).To(Equal(3))
		Expect(s.Categories).To(HaveLen(1))
		c := s.Categories[0]
		Expect(c.Accuracies).To(Equal([]float64{11.0 / 16, 10.0 / 16, 11.0 / 16}))
		Expect(c.Mean).To(BeNumerically("~", 32.0/48, 1e-15))
		// sample std of 11/16, 10/16, 11/16: sqrt(((1/3)^2*2 + (2/3)^2)/2)/16
		Expect(c.Std).To(BeNumerically("~", math.Sqrt((2.0/9+4.0/9)/2)/16, 1e-15))
		Expect(c.PassHatK).To(Equal(9.0 / 16))
		Expect(c.PassAtK).To(Equal(12.0 / 16))
		Expect(c.Flipping).To(Equal([]string{"live_parallel_4", "live_parallel_5", "live_parallel_6"}))
		// Entry 4 passes 1 of 3, entries 5 and 6 pass 2 of 3: each has
		// unbiased variance 3/2 * 1/3 * 2/3 = 1/3.
		sd := math.Sqrt(3*(1.0/3)) / 16
		Expect(c.NoiseFloor).To(BeNumerically("~", stats.Z95*math.Sqrt2*sd, 1e-12))
		var live compare.RepeatGroup
		for _, g := range s.Groups {
			if g.Name == "live" {
				live = g
			}
		}
		// live = correct(live_parallel) / 1351 while the other live
		// categories are missing: its floor scales by 16/1351.
		Expect(live.NoiseFloor).To(BeNumerically("~", c.NoiseFloor*16/1351, 1e-12))
		Expect(live.Scores).To(Equal([]float64{11.0 / 1351, 10.0 / 1351, 11.0 / 1351}))
	})
	It("needs two repeats", func() {
		_, err := compare.Repeats(nil)
		Expect(err).To(HaveOccurred())
	})
})
