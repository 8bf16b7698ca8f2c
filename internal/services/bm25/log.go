package bm25

import (
	"math"
	"math/big"
)

// logPrec is the working precision (bits) of Log, far beyond the 53 bits
// of the result so that rounding the series sum gives the correctly
// rounded float64.
const logPrec = 200

// Log is CPython's math.log(x) for a positive float: the platform C
// library's log. Built with cgo on Linux it calls glibc's log itself (what
// CPython calls); otherwise it is CorrectlyRoundedLog, which differs from
// glibc in rare hard-to-round cases (glibc's log errs up to 0.52 ulp: for
// the idf arguments (n+1)/df with n <= 200 that is 14 of 20,100, the first
// at n=40, df=35).
func Log(x float64) float64 { return platformLog(x) }

// CorrectlyRoundedLog returns the natural logarithm of x rounded to the
// nearest float64 (ties to even). x must be positive and finite; other
// inputs follow math.Log. Go's math.Log is not used: it is off by one ulp
// for about 8% of the idf arguments.
func CorrectlyRoundedLog(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return math.Log(x)
	}
	if x == 1 {
		return 0
	}
	// x = m * 2^e with m in [sqrt(1/2), sqrt(2)).
	frac, exp := math.Frexp(x) // frac in [0.5, 1)
	m := new(big.Float).SetPrec(logPrec).SetFloat64(frac)
	e := exp
	if frac < math.Sqrt2/2 {
		m.Mul(m, big.NewFloat(2).SetPrec(logPrec))
		e--
	} else {
		// frac in [sqrt(1/2), 1): keep as is
	}
	res := atanhLog(m)
	if e != 0 {
		ln2 := atanhLog(new(big.Float).SetPrec(logPrec).SetInt64(2))
		ln2.Mul(ln2, new(big.Float).SetPrec(logPrec).SetInt64(int64(e)))
		res.Add(res, ln2)
	}
	f, _ := res.Float64() // round to nearest even
	return f
}

// atanhLog computes log(m) = 2*atanh((m-1)/(m+1)) by its series.
func atanhLog(m *big.Float) *big.Float {
	one := new(big.Float).SetPrec(logPrec).SetInt64(1)
	num := new(big.Float).SetPrec(logPrec).Sub(m, one)
	den := new(big.Float).SetPrec(logPrec).Add(m, one)
	z := new(big.Float).SetPrec(logPrec).Quo(num, den)
	z2 := new(big.Float).SetPrec(logPrec).Mul(z, z)
	sum := new(big.Float).SetPrec(logPrec).Set(z)
	pow := new(big.Float).SetPrec(logPrec).Set(z)
	term := new(big.Float).SetPrec(logPrec)
	eps := new(big.Float).SetPrec(logPrec).SetMantExp(one, -(logPrec + 8))
	for k := int64(3); ; k += 2 {
		pow.Mul(pow, z2)
		term.Quo(pow, new(big.Float).SetPrec(logPrec).SetInt64(k))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	return sum.Mul(sum, new(big.Float).SetPrec(logPrec).SetInt64(2))
}
