// Package bigmath computes logarithms, exponentials and powers with
// math/big to any precision, and from them a correctly rounded float64
// pow: CPython's float ** calls the C library's pow, which glibc rounds
// correctly, while Go's math.Pow may differ in the last bit.
package bigmath

import (
	"math"
	"math/big"
)

// Ln is ln(x) for x > 0 with about w correct bits: x = m * 2**e with
// m near 1, ln x = ln m + e*ln 2.
func Ln(x *big.Float, w uint) *big.Float {
	mant := new(big.Float)
	e := x.MantExp(mant) // x = mant * 2**e, 0.5 <= mant < 1
	ae := e
	if ae < 0 {
		ae = -ae
	}
	w += uint(big.NewInt(int64(ae)).BitLen()) + 8
	m := new(big.Float).SetPrec(w).Set(mant)
	if m.Cmp(big.NewFloat(math.Sqrt2/2)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	res := lnNearOne(m, w)
	if e != 0 {
		l2 := Ln2(w + 16)
		k := new(big.Float).SetPrec(w + 16).SetInt64(int64(e))
		k.Mul(k, l2)
		res = new(big.Float).SetPrec(w).Add(res, k)
	}
	return res
}

// lnNearOne is ln(m) for 0.5 <= m <= 2: k square roots bring m close to
// 1 (ln m = 2**k * ln(m**(1/2**k))), then 2*atanh((y-1)/(y+1)) converges
// fast.
func lnNearOne(m *big.Float, w uint) *big.Float {
	k := int(math.Sqrt(float64(w)) / 2)
	wp := w + 2*uint(k) + 16
	y := new(big.Float).SetPrec(wp).Set(m)
	for i := 0; i < k; i++ {
		y.Sqrt(y)
	}
	one := new(big.Float).SetPrec(wp).SetInt64(1)
	num := new(big.Float).SetPrec(wp).Sub(y, one)
	den := new(big.Float).SetPrec(wp).Add(y, one)
	z := new(big.Float).SetPrec(wp).Quo(num, den)
	r := atanhTimes2(z, wp)
	return r.SetMantExp(r, k)
}

// atanhTimes2 is 2*atanh(z) for |z| < 1/2 by its power series.
func atanhTimes2(z *big.Float, w uint) *big.Float {
	sum := new(big.Float).SetPrec(w).Set(z)
	if z.Sign() == 0 {
		return sum
	}
	z2 := new(big.Float).SetPrec(w).Mul(z, z)
	term := new(big.Float).SetPrec(w).Set(z)
	t := new(big.Float).SetPrec(w)
	for k := int64(3); ; k += 2 {
		term.Mul(term, z2)
		t.Quo(term, new(big.Float).SetPrec(w).SetInt64(k))
		if t.Sign() == 0 || t.MantExp(nil) < sum.MantExp(nil)-int(w)-4 {
			break
		}
		sum.Add(sum, t)
	}
	return sum.SetMantExp(sum, 1)
}

// Ln2 is ln 2.
func Ln2(w uint) *big.Float {
	return lnNearOne(new(big.Float).SetPrec(w+8).SetInt64(2), w+8)
}

// Pow is pow(x, y) for x > 0 correctly rounded (glibc's pow is accurate
// to within 0.52 ulp, so this matches CPython on Linux but for rare ties).
func Pow(x, y float64) float64 {
	if x == 1 || y == 0 {
		return 1
	}
	if math.IsInf(y, 0) || math.IsNaN(y) || math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return math.Pow(x, y)
	}
	const w = 200
	t := new(big.Float).SetPrec(w).Mul(Ln(new(big.Float).SetFloat64(x), w), new(big.Float).SetPrec(w).SetFloat64(y))
	if t.Cmp(big.NewFloat(710)) > 0 {
		return math.Inf(1)
	}
	if t.Cmp(big.NewFloat(-746)) < 0 {
		return 0
	}
	f, _ := Exp(t, w).Float64()
	return f
}

// Exp is exp(t) for moderate |t| with about w bits.
func Exp(t *big.Float, w uint) *big.Float {
	w += 32
	ln2 := Ln2(w)
	kf := new(big.Float).SetPrec(w).Quo(t, ln2)
	k, _ := kf.Int64()
	r := new(big.Float).SetPrec(w).Sub(t, new(big.Float).SetPrec(w).Mul(new(big.Float).SetInt64(k), ln2))
	sum := new(big.Float).SetPrec(w).SetInt64(1)
	term := new(big.Float).SetPrec(w).SetInt64(1)
	for i := int64(1); i < 10000; i++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(w).SetInt64(i))
		if term.Sign() == 0 || term.MantExp(nil) < -int(w)-4 {
			break
		}
		sum.Add(sum, term)
	}
	return sum.SetMantExp(sum, int(k))
}
