package pyval

import (
	"math"
	"math/big"
)

// isNumber reports whether v is a bool, int or float.
func isNumber(v Value) bool {
	switch v.(type) {
	case Bool, Int, BigInt, Float:
		return true
	}
	return false
}

// cmpUnordered is returned by numCompare when either side is NaN.
const cmpUnordered = 2

func cmpInt64(a, b int64) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// cmpIntFloat compares an int64 with a float exactly.
func cmpIntFloat(i int64, f float64) int {
	if f != f {
		return cmpUnordered
	}
	if f < -9.223372036854775808e18 {
		return 1
	}
	if f >= 9.223372036854775808e18 {
		return -1
	}
	t := math.Trunc(f)
	ti := int64(t)
	if i < ti {
		return -1
	}
	if i > ti {
		return 1
	}
	fr := f - t
	if fr > 0 {
		return -1
	}
	if fr < 0 {
		return 1
	}
	return 0
}

func cmpBigFloat(b *big.Int, f float64) int {
	if f != f {
		return cmpUnordered
	}
	if math.IsInf(f, 1) {
		return -1
	}
	if math.IsInf(f, -1) {
		return 1
	}
	return new(big.Float).SetInt(b).Cmp(big.NewFloat(f))
}

// numCompare compares two numbers (Bool, Int, BigInt, Float) exactly, as
// CPython does; it returns -1, 0, 1 or cmpUnordered (NaN involved).
func numCompare(a, b Value) int {
	if x, ok := a.(Bool); ok {
		a = boolInt(x)
	}
	if y, ok := b.(Bool); ok {
		b = boolInt(y)
	}
	switch x := a.(type) {
	case Int:
		switch y := b.(type) {
		case Int:
			return cmpInt64(int64(x), int64(y))
		case Float:
			return cmpIntFloat(int64(x), float64(y))
		case BigInt:
			return -y.V.Sign()
		}
	case BigInt:
		switch y := b.(type) {
		case Int:
			return x.V.Sign()
		case BigInt:
			return x.V.Cmp(y.V)
		case Float:
			return cmpBigFloat(x.V, float64(y))
		}
	case Float:
		var r int
		switch y := b.(type) {
		case Float:
			fa, fb := float64(x), float64(y)
			if fa < fb {
				return -1
			}
			if fa > fb {
				return 1
			}
			if fa == fb {
				return 0
			}
			return cmpUnordered
		case Int:
			r = cmpIntFloat(int64(y), float64(x))
		case BigInt:
			r = cmpBigFloat(y.V, float64(x))
		default:
			return cmpUnordered
		}
		if r == cmpUnordered {
			return r
		}
		return -r
	}
	return cmpUnordered
}

func boolInt(b Bool) Int {
	if b {
		return 1
	}
	return 0
}

// Equal is Python's a == b for the values of this package: numbers compare
// by value across bool/int/float, str by content, list with list and tuple
// with tuple elementwise (a list never equals a tuple), dicts and sets
// without regard to order, None and Ellipsis by identity, Objects through
// PyEqual (tried on either side).
func Equal(a, b Value) bool {
	switch x := a.(type) {
	case Str:
		switch y := b.(type) {
		case Str:
			return x == y
		case Object:
			return y.PyEqual(a)
		}
		return false
	case Int:
		switch y := b.(type) {
		case Int:
			return x == y
		case Object:
			return y.PyEqual(a)
		}
		if isNumber(b) {
			return numCompare(a, b) == 0
		}
		return false
	case Bool, BigInt, Float:
		if isNumber(b) {
			return numCompare(a, b) == 0
		}
		if y, ok := b.(Object); ok {
			return y.PyEqual(a)
		}
		return false
	case NoneType:
		switch y := b.(type) {
		case NoneType:
			return true
		case Object:
			return y.PyEqual(a)
		}
		return false
	case EllipsisType:
		switch y := b.(type) {
		case EllipsisType:
			return true
		case Object:
			return y.PyEqual(a)
		}
		return false
	case *List:
		switch y := b.(type) {
		case *List:
			if x == y {
				return true
			}
			return seqEqual(x.Items, y.Items)
		case Object:
			return y.PyEqual(a)
		}
		return false
	case Tuple:
		switch y := b.(type) {
		case Tuple:
			return seqEqual(x, y)
		case Object:
			return y.PyEqual(a)
		}
		return false
	case *Dict:
		switch y := b.(type) {
		case *Dict:
			if x == y {
				return true
			}
			if x.Len() != y.Len() {
				return false
			}
			for i := range x.ents {
				v, ok := y.Get(x.ents[i].key)
				if !ok || !Equal(x.ents[i].val, v) {
					return false
				}
			}
			return true
		case Object:
			return y.PyEqual(a)
		}
		return false
	case *Set:
		switch y := b.(type) {
		case *Set:
			if x == y {
				return true
			}
			if x.Len() != y.Len() {
				return false
			}
			for i := range x.d.ents {
				if !y.Contains(x.d.ents[i].key) {
					return false
				}
			}
			return true
		case Object:
			return y.PyEqual(a)
		}
		return false
	case Bytes:
		y, ok := b.(Bytes)
		return ok && x == y
	case Object:
		return x.PyEqual(b)
	}
	return false
}

// NotEqual is Python's a != b.
func NotEqual(a, b Value) bool { return !Equal(a, b) }

func seqEqual(a, b []Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
