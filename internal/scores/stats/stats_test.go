package stats_test

import (
	"math"
	"math/big"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/scores/stats"
)

// exactBinomialTwoSided is 2 * P(X <= k) for X ~ Binomial(n, 1/2), capped at
// 1, summed term by term in big.Rat (the definition, independent of the
// implementation's recurrence).
func exactBinomialTwoSided(k, n int) float64 {
	sum := new(big.Rat)
	for i := 0; i <= k; i++ {
		c := new(big.Int).Binomial(int64(n), int64(i))
		sum.Add(sum, new(big.Rat).SetFrac(c, new(big.Int).Lsh(big.NewInt(1), uint(n))))
	}
	sum.Mul(sum, big.NewRat(2, 1))
	f, _ := sum.Float64()
	return math.Min(1, f)
}

var _ = Describe("Wilson", func() {
	// Newcombe (1998), "Two-sided confidence intervals for the single
	// proportion", Statistics in Medicine 17:857-872, Table II, method 3.
	DescribeTable("matches Newcombe's published intervals",
		func(k, n int, lo, hi float64) {
			l, h, err := stats.Wilson(k, n, stats.Z95)
			Expect(err).NotTo(HaveOccurred())
			Expect(l).To(BeNumerically("~", lo, 0.00005))
			Expect(h).To(BeNumerically("~", hi, 0.00005))
		},
		Entry("81/263", 81, 263, 0.2553, 0.3662),
		Entry("15/148", 15, 148, 0.0624, 0.1605),
		Entry("0/20", 0, 20, 0.0, 0.1611),
		Entry("1/29", 1, 29, 0.0061, 0.1718),
	)
	It("is 0..1-bounded and exact at the edges, and rejects bad counts", func() {
		l, h, err := stats.Wilson(20, 20, stats.Z95)
		Expect(err).NotTo(HaveOccurred())
		Expect(h).To(Equal(1.0))
		Expect(l).To(BeNumerically("~", 1-0.1611, 0.00005))
		_, _, err = stats.Wilson(3, 0, stats.Z95)
		Expect(err).To(HaveOccurred())
		_, _, err = stats.Wilson(5, 4, stats.Z95)
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("McNemarExact", func() {
	DescribeTable("equals the two-sided exact binomial test on the discordant pairs",
		func(b, c int, want float64) {
			p, err := stats.McNemarExact(b, c)
			Expect(err).NotTo(HaveOccurred())
			Expect(p).To(Equal(want))
			Expect(p).To(Equal(exactBinomialTwoSided(min(b, c), b+c)))
			q, _ := stats.McNemarExact(c, b)
			Expect(q).To(Equal(p), "symmetric")
		},
		// Hand-computed: 2*(C(10,0)+C(10,1))/2^10 = 22/1024.
		Entry("1 vs 9", 1, 9, 22.0/1024),
		Entry("0 vs 5", 0, 5, 2.0/32),
		// 2*(1+15+105+455)/2^15 (scipy.stats.binomtest(3, 15).pvalue).
		Entry("3 vs 12", 3, 12, 1152.0/32768),
		Entry("no discordant pairs", 0, 0, 1.0),
		Entry("balanced", 7, 7, 1.0),
		Entry("one pair", 0, 1, 1.0),
	)
	It("is exact for large tables", func() {
		p, err := stats.McNemarExact(180, 240)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(Equal(exactBinomialTwoSided(180, 420)))
		Expect(p).To(BeNumerically("<", 0.01))
		Expect(p).To(BeNumerically(">", 0.001))
	})
})

var _ = Describe("Percentile", func() {
	It("is numpy's linear percentile", func() {
		xs := []float64{3, 1, 2, 10}
		// numpy.percentile([3,1,2,10], [0, 25, 50, 95, 100])
		Expect(stats.Percentile(xs, 0)).To(Equal(1.0))
		Expect(stats.Percentile(xs, 25)).To(Equal(1.75))
		Expect(stats.Percentile(xs, 50)).To(Equal(2.5))
		Expect(stats.Percentile(xs, 95)).To(BeNumerically("~", 8.95, 1e-12))
		Expect(stats.Percentile(xs, 100)).To(Equal(10.0))
		Expect(xs).To(Equal([]float64{3, 1, 2, 10}), "input untouched")
	})
})

var _ = Describe("Bootstrap", func() {
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	variance := func(xs []float64) float64 {
		m, s := mean(xs), 0.0
		for _, x := range xs {
			s += (x - m) * (x - m)
		}
		return s / float64(len(xs)-1)
	}
	accuracy := func(correct [][]int, out []float64) { out[0] = float64(correct[0][0]) / 263 }

	It("on a single category is the binomial: mean p, variance p(1-p)/n", func() {
		d, err := stats.Bootstrap([]stats.Stratum{stats.Binary(81, 263)}, 1, 1, accuracy, stats.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Resamples).To(Equal(stats.DefaultResamples))
		p := 81.0 / 263
		want := p * (1 - p) / 263
		// The variance estimate of 10,000 draws has a relative standard
		// error of about sqrt(2/10000) = 1.4 %.
		Expect(variance(d.Samples[0])).To(BeNumerically("~", want, 0.05*want))
		Expect(mean(d.Samples[0])).To(BeNumerically("~", p, 4*math.Sqrt(want/10000)))
		lo, hi, err := d.Interval(0, 0.95)
		Expect(err).NotTo(HaveOccurred())
		se := math.Sqrt(want)
		Expect(lo).To(BeNumerically("~", p-stats.Z95*se, 0.006))
		Expect(hi).To(BeNumerically("~", p+stats.Z95*se, 0.006))
	})

	It("draws two-pattern strata (binomial inversion) and many-pattern strata (explicit draws) from the same distribution", func() {
		fast, err := stats.Bootstrap([]stats.Stratum{stats.Binary(81, 263)}, 1, 1, accuracy, stats.Options{Resamples: 20000})
		Expect(err).NotTo(HaveOccurred())
		// The same stratum split into three patterns, two of them failing.
		slow, err := stats.Bootstrap([]stats.Stratum{{Patterns: []uint64{1, 0, 0}, Counts: []int{81, 100, 82}}}, 1, 1, accuracy, stats.Options{Resamples: 20000})
		Expect(err).NotTo(HaveOccurred())
		p := 81.0 / 263
		want := p * (1 - p) / 263
		for _, d := range []*stats.Distribution{fast, slow} {
			Expect(variance(d.Samples[0])).To(BeNumerically("~", want, 0.04*want))
			Expect(mean(d.Samples[0])).To(BeNumerically("~", p, 4*math.Sqrt(want/20000)))
		}
		fl, fh, _ := fast.Interval(0, 0.95)
		sl, sh, _ := slow.Interval(0, 0.95)
		Expect(fl).To(BeNumerically("~", sl, 0.0039)) // one entry is 1/263 = 0.0038
		Expect(fh).To(BeNumerically("~", sh, 0.0039))
	})

	It("is deterministic for a seed, whatever the number of workers, and depends on the seed", func() {
		strata := []stats.Stratum{stats.Binary(10, 16), stats.Binary(17, 24), stats.Binary(200, 258)}
		stat := func(correct [][]int, out []float64) {
			out[0] = float64(correct[0][0]+correct[0][1]+correct[0][2]) / 298
			out[1] = float64(correct[0][0]) / 16
		}
		run := func(seed uint64, workers int) *stats.Distribution {
			d, err := stats.Bootstrap(strata, 1, 2, stat, stats.Options{Resamples: 2000, Seed: seed, Workers: workers})
			Expect(err).NotTo(HaveOccurred())
			return d
		}
		a := run(7, 1)
		Expect(run(7, 1).Samples).To(Equal(a.Samples))
		Expect(run(7, 5).Samples).To(Equal(a.Samples))
		Expect(run(8, 2).Samples).NotTo(Equal(a.Samples))
	})

	It("keeps every stratum's size and pairs the sides on the same entries", func() {
		// Side 0 and side 1 agree on every entry of the first stratum: their
		// resampled counts must be equal; in the second, side 1 passes
		// exactly the entries side 0 fails.
		strata := []stats.Stratum{
			{Patterns: []uint64{0b11, 0b00}, Counts: []int{30, 20}},
			{Patterns: []uint64{0b01, 0b10}, Counts: []int{12, 28}},
		}
		stat := func(c [][]int, out []float64) {
			out[0] = float64(c[1][0] - c[0][0])
			out[1] = float64(c[0][1] + c[1][1])
		}
		d, err := stats.Bootstrap(strata, 2, 2, stat, stats.Options{Resamples: 500, Seed: 1})
		Expect(err).NotTo(HaveOccurred())
		for r := 0; r < 500; r++ {
			Expect(d.Samples[0][r]).To(Equal(0.0))
			Expect(d.Samples[1][r]).To(Equal(40.0))
		}
	})

	It("rejects bad strata", func() {
		_, err := stats.Bootstrap([]stats.Stratum{{Patterns: []uint64{1}, Counts: []int{1, 2}}}, 1, 1, accuracy, stats.Options{})
		Expect(err).To(HaveOccurred())
		_, err = stats.Bootstrap(nil, 0, 1, accuracy, stats.Options{})
		Expect(err).To(HaveOccurred())
	})
})

var _ = Describe("Rank", func() {
	It("ranks by significant wins and lists ties", func() {
		scores := []float64{0.50, 0.70, 0.69, 0.30}
		// 1 and 2 beat 3 and 0; 0 beats 3; 1 and 2 are tied.
		sig := map[[2]int]bool{{1, 0}: true, {2, 0}: true, {1, 3}: true, {2, 3}: true, {0, 3}: true}
		r, err := stats.Rank(scores, func(i, j int) bool { return sig[[2]int{i, j}] })
		Expect(err).NotTo(HaveOccurred())
		Expect(r).To(Equal([]stats.Ranked{
			{Index: 1, Rank: 1, TiedWith: []int{2}},
			{Index: 2, Rank: 1, TiedWith: []int{1}},
			{Index: 0, Rank: 3},
			{Index: 3, Rank: 4},
		}))
	})
})
