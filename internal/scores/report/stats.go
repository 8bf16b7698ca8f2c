package report

import (
	"errors"
	"math"
	"math/big"

	"github.com/bfcl-go/bfcl/internal/scores/stats"
)

// pySum is CPython 3.12's builtin sum() over floats, started from the int 0:
// Neumaier-compensated, the compensation added once at the end when finite.
func pySum(xs []float64) float64 {
	f, c := 0.0, 0.0
	for _, x := range xs {
		t := float64(f + x)
		if math.Abs(f) >= math.Abs(x) {
			c += float64(float64(f-t) + x)
		} else {
			c += float64(float64(x-t) + f)
		}
		f = t
	}
	if c != 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
		f += c
	}
	return f
}

func exactRat(x float64) *big.Rat {
	r := new(big.Rat)
	r.SetFloat64(x)
	return r
}

// pyMean is statistics.mean over floats: the exact mean, correctly rounded.
func pyMean(xs []float64) (float64, error) {
	if len(xs) == 0 {
		return 0, errors.New("mean requires at least one data point")
	}
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return math.NaN(), nil
		}
	}
	d := dyadicSums(xs, false)
	f, _ := d.frac(d.s, big.NewInt(int64(len(xs))), 1).Float64()
	return f, nil
}

// dyadicSum holds the exact sum (and sum of squares) of finite floats
// written as integers times one power of two: every x is m*2^e with an
// integer m of at most 53 bits, so with E the least e, x = X*2^E for the
// integer X = m<<(e-E). Sums of such integers are exact, and one fraction
// at the end replaces a rational addition (a gcd) per element.
type dyadicSum struct {
	s, q *big.Int // sum of X, sum of X*X
	e    int      // E
}

// dyadicSums sums xs (all finite) exactly; squares too when squares is set.
func dyadicSums(xs []float64, squares bool) dyadicSum {
	d := dyadicSum{s: new(big.Int), q: new(big.Int)}
	first := true
	for _, x := range xs {
		if x == 0 {
			continue
		}
		_, e := mantExp(x)
		if first || e < d.e {
			d.e, first = e, false
		}
	}
	t := new(big.Int)
	for _, x := range xs {
		if x == 0 {
			continue
		}
		m, e := mantExp(x)
		t.SetInt64(m)
		t.Lsh(t, uint(e-d.e))
		d.s.Add(d.s, t)
		if squares {
			t.Mul(t, t)
			d.q.Add(d.q, t)
		}
	}
	return d
}

// mantExp splits a finite non-zero x into m*2^e exactly.
func mantExp(x float64) (int64, int) {
	frac, exp := math.Frexp(x)
	return int64(frac * (1 << 53)), exp - 53
}

// frac is the exact rational num*2^(scale*E)/den.
func (d dyadicSum) frac(num, den *big.Int, scale int) *big.Rat {
	num, den = new(big.Int).Set(num), new(big.Int).Set(den)
	if sh := scale * d.e; sh >= 0 {
		num.Lsh(num, uint(sh))
	} else {
		den.Lsh(den, uint(-sh))
	}
	return new(big.Rat).SetFrac(num, den)
}

// sampleVarianceRat is the exact sample variance (statistics._ss / (n-1)).
func sampleVarianceRat(xs []float64) (*big.Rat, error) {
	if len(xs) < 2 {
		return nil, errors.New("variance requires at least two data points")
	}
	finite := true
	for _, x := range xs {
		finite = finite && !math.IsNaN(x) && !math.IsInf(x, 0)
	}
	if finite {
		// sum((x-mean)^2) = (n*sum(X*X) - sum(X)^2)/n * 2^(2E), exactly
		d := dyadicSums(xs, true)
		n := big.NewInt(int64(len(xs)))
		num := new(big.Int).Mul(n, d.q)
		num.Sub(num, new(big.Int).Mul(d.s, d.s))
		den := new(big.Int).Mul(n, big.NewInt(int64(len(xs)-1)))
		return d.frac(num, den, 2), nil
	}
	n := new(big.Rat).SetInt64(int64(len(xs)))
	mean := new(big.Rat)
	for _, x := range xs {
		mean.Add(mean, exactRat(x))
	}
	mean.Quo(mean, n)
	ss := new(big.Rat)
	for _, x := range xs {
		d := new(big.Rat).Sub(exactRat(x), mean)
		ss.Add(ss, d.Mul(d, d))
	}
	return ss.Quo(ss, new(big.Rat).SetInt64(int64(len(xs)-1))), nil
}

// pyVariance is statistics.variance over floats (exact, correctly rounded).
func pyVariance(xs []float64) (float64, error) {
	v, err := sampleVarianceRat(xs)
	if err != nil {
		return 0, err
	}
	f, _ := v.Float64()
	return f, nil
}

// pyStdev is statistics.stdev over floats as CPython 3.12 computes it: the
// correctly rounded square root of the exact sample variance
// (statistics._float_sqrt_of_frac).
func pyStdev(xs []float64) (float64, error) {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return math.NaN(), nil
		}
	}
	v, err := sampleVarianceRat(xs)
	if err != nil {
		return 0, err
	}
	return sqrtOfFrac(v.Num(), v.Denom()), nil
}

// sqrtOfFrac follows statistics._float_sqrt_of_frac: an integer square root
// rounded to odd with enough extra bits, then one correctly rounded division.
func sqrtOfFrac(n, m *big.Int) float64 {
	if n.Sign() == 0 {
		return 0
	}
	k := n.BitLen() - m.BitLen() - 109
	q := k / 2
	if k < 0 && k%2 != 0 {
		q-- // Python's // floors
	}
	num := new(big.Int)
	den := big.NewInt(1)
	if q >= 0 {
		mm := new(big.Int).Lsh(m, uint(2*q))
		num.Lsh(isqrtRTO(n, mm), uint(q))
	} else {
		nn := new(big.Int).Lsh(n, uint(-2*q))
		num = isqrtRTO(nn, m)
		den.Lsh(den, uint(-q))
	}
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return f
}

// isqrtRTO is statistics._integer_sqrt_of_frac_rto: isqrt(n // m), with the
// lowest bit set when inexact.
func isqrtRTO(n, m *big.Int) *big.Int {
	a := new(big.Int).Sqrt(new(big.Int).Quo(n, m))
	chk := new(big.Int).Mul(a, a)
	chk.Mul(chk, m)
	if chk.Cmp(n) != 0 {
		a.SetBit(a, 0, 1)
	}
	return a
}

// npPercentile is numpy.percentile(xs, q) with the default "linear" method.
func npPercentile(xs []float64, q float64) float64 { return stats.Percentile(xs, q) }
