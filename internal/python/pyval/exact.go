package pyval

import (
	"math"
	"math/big"
)

// ExactRat is the exact rational value of a finite int, bool or float
// (what Python's fractions.Fraction(v) holds); false for NaN, infinities
// and non-numbers.
func ExactRat(v Value) (*big.Rat, bool) {
	switch x := v.(type) {
	case Int:
		return new(big.Rat).SetInt64(int64(x)), true
	case Bool:
		if x {
			return big.NewRat(1, 1), true
		}
		return new(big.Rat), true
	case BigInt:
		return new(big.Rat).SetInt(x.V), true
	case Float:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		return new(big.Rat).SetFloat64(f), true
	}
	return nil, false
}

// Float64Of is float(v) for an int, bool or float (big ints rounded to
// nearest); NaN for anything else.
func Float64Of(v Value) float64 {
	switch x := v.(type) {
	case Int:
		return float64(x)
	case Bool:
		if x {
			return 1
		}
		return 0
	case Float:
		return float64(x)
	case BigInt:
		f, _ := new(big.Float).SetInt(x.V).Float64()
		return f
	}
	return math.NaN()
}
