// Package stats holds the statistics behind the intervals and comparisons
// that bfcl reports beside (never instead of) upstream's bare percentages:
// the Wilson score interval of a proportion, the exact McNemar test of
// paired binary outcomes, a stratified (and paired) bootstrap with a fixed
// seed, numpy's linear percentile, and a ranking that groups models whose
// differences are not significant. Everything here is a pure function of its
// inputs: no I/O, no global random state.
package stats

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
)

// Z95 is the standard normal quantile of 0.975: the z of a two-sided 95 %
// interval.
const Z95 = 1.959963984540054

// Wilson is the Wilson score interval of k successes out of n at normal
// quantile z (Wilson 1927; Newcombe 1998, method 3, without continuity
// correction). The bounds are clamped to [0, 1]; n must be positive and
// 0 <= k <= n.
func Wilson(k, n int, z float64) (lo, hi float64, err error) {
	if n <= 0 || k < 0 || k > n {
		return 0, 0, fmt.Errorf("stats: Wilson interval of %d successes out of %d", k, n)
	}
	p := float64(k) / float64(n)
	nf := float64(n)
	z2 := z * z
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi, nil
}

// McNemarExact is the two-sided exact McNemar test of paired binary
// outcomes: b pairs where only the first side passed, c where only the
// second did. Under the null hypothesis of no difference, b is
// Binomial(b+c, 1/2); the p-value is min(1, 2 * P(X <= min(b, c))), computed
// exactly in rational arithmetic and rounded once. With no discordant pairs
// it is 1.
func McNemarExact(b, c int) (float64, error) {
	if b < 0 || c < 0 {
		return 0, fmt.Errorf("stats: McNemar test of negative counts %d, %d", b, c)
	}
	n := b + c
	if n == 0 {
		return 1, nil
	}
	k := min(b, c)
	if 2*k == n {
		return 1, nil
	}
	// sum_{i<=k} C(n, i), each term from the previous: C(n,i) = C(n,i-1)*(n-i+1)/i.
	sum := big.NewInt(0)
	term := big.NewInt(1)
	for i := 0; i <= k; i++ {
		if i > 0 {
			term.Mul(term, big.NewInt(int64(n-i+1)))
			term.Quo(term, big.NewInt(int64(i)))
		}
		sum.Add(sum, term)
	}
	// 2 * sum / 2^n = sum / 2^(n-1)
	den := new(big.Int).Lsh(big.NewInt(1), uint(n-1))
	p, _ := new(big.Rat).SetFrac(sum, den).Float64()
	return math.Min(1, p), nil
}

// Percentile is numpy.percentile(xs, q) with numpy's default "linear"
// method (Hyndman and Fan type 7): the virtual index (n-1)*q/100 into the
// sorted data and numpy's interpolation between its neighbours. xs is not
// modified; an empty xs gives NaN.
func Percentile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return PercentileSorted(s, q)
}

// PercentileSorted is Percentile of data already sorted ascending.
func PercentileSorted(s []float64, q float64) float64 {
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	quantile := float64(q / 100)
	vi := float64(float64(n-1) * quantile)
	if vi >= float64(n-1) {
		return s[n-1]
	}
	if vi <= 0 {
		return s[0]
	}
	prev := math.Floor(vi)
	lo := int(prev)
	a, b := s[lo], s[lo+1]
	t := float64(vi - prev)
	diff := float64(b - a)
	// numpy's _lerp: from the upper neighbour when t >= 0.5, for symmetry.
	if t >= 0.5 {
		return float64(b - float64(diff*float64(1-t)))
	}
	return float64(a + float64(diff*t))
}

// PercentileInterval is the central interval of the given level (e.g. 0.95)
// of a sample: its (1-level)/2 and (1+level)/2 percentiles.
func PercentileInterval(xs []float64, level float64) (lo, hi float64, err error) {
	if len(xs) == 0 {
		return 0, 0, errors.New("stats: interval of an empty sample")
	}
	if !(level > 0 && level < 1) {
		return 0, 0, fmt.Errorf("stats: interval level %v is not in (0, 1)", level)
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return PercentileSorted(s, 100*(1-level)/2), PercentileSorted(s, 100*(1+level)/2), nil
}
