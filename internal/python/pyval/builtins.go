package pyval

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
)

// Len is len(v).
func Len(v Value) (int, error) {
	switch x := v.(type) {
	case Str:
		return StrLen(string(x)), nil
	case *List:
		return len(x.Items), nil
	case Tuple:
		return len(x), nil
	case *Dict:
		return x.Len(), nil
	case *Set:
		return x.Len(), nil
	case Bytes:
		return len(x), nil
	case Lener:
		return x.PyLen(), nil
	}
	return 0, NewTypeError("object of type '" + v.TypeName() + "' has no len()")
}

// Contains is `item in container`.
func Contains(container, item Value) (bool, error) {
	switch c := container.(type) {
	case Str:
		s, ok := item.(Str)
		if !ok {
			return false, NewTypeError("'in <string>' requires string as left operand, not " + item.TypeName())
		}
		return strings.Contains(string(c), string(s)), nil
	case *List:
		for _, e := range c.Items {
			if Equal(e, item) {
				return true, nil
			}
		}
		return false, nil
	case Tuple:
		for _, e := range c {
			if Equal(e, item) {
				return true, nil
			}
		}
		return false, nil
	case *Dict:
		if err := CheckHashable(item); err != nil {
			return false, err
		}
		return c.Has(item), nil
	case *Set:
		if err := CheckHashable(item); err != nil {
			return false, err
		}
		return c.Contains(item), nil
	case Container:
		return c.PyContains(item)
	}
	return false, NewTypeError("argument of type '" + container.TypeName() + "' is not iterable")
}

// Sum is sum(items, start) as CPython 3.12 computes it: an exact int fast
// path, then a float path with Neumaier compensation (ints added to a float
// sum are added uncompensated, as in CPython), then generic addition.
// start nil means 0; a str start is rejected like Python does.
func Sum(items []Value, start Value) (Value, error) {
	if start == nil {
		start = Int(0)
	}
	if _, ok := start.(Str); ok {
		return nil, NewTypeError("sum() can't sum strings [use ''.join(seq) instead]")
	}
	result := start
	i := 0
	if r, ok := result.(Int); ok {
		acc := int64(r)
		for ; i < len(items); i++ {
			y, ok := asInt64(items[i])
			if !ok {
				break
			}
			s := acc + y
			if (s > acc) != (y > 0) {
				break
			}
			acc = s
		}
		result = Int(acc)
		if i == len(items) {
			return result, nil
		}
		var err error
		if result, err = Add(result, items[i]); err != nil {
			return nil, err
		}
		i++
	}
	if f, ok := result.(Float); ok {
		fr := float64(f)
		c := 0.0
		for ; i < len(items); i++ {
			switch x := items[i].(type) {
			case Float:
				xf := float64(x)
				t := fr + xf
				if math.Abs(fr) >= math.Abs(xf) {
					c += (fr - t) + xf
				} else {
					c += (xf - t) + fr
				}
				fr = t
				continue
			case Int:
				fr += float64(x)
				continue
			case Bool:
				if x {
					fr++
				}
				continue
			}
			break
		}
		if c != 0 && !math.IsInf(c, 0) && !math.IsNaN(c) {
			fr += c
		}
		result = Float(fr)
	}
	for ; i < len(items); i++ {
		var err error
		if result, err = Add(result, items[i]); err != nil {
			return nil, err
		}
	}
	return result, nil
}

// ndigitsArg converts round()'s ndigits argument.
func ndigitsArg(v Value) (int64, bool, error) {
	return optionalIndex(v, math.MaxInt32, func() error {
		return NewTypeError("'" + v.TypeName() + "' object cannot be interpreted as an integer")
	})
}

// Round is round(v, ndigits); ndigits nil or None means the one-argument
// form (an int result). Floats are rounded on their exact decimal value,
// halves to even (round(2.675, 2) == 2.67, round(2.5) == 2).
func Round(v Value, ndigits Value) (Value, error) {
	n, has, err := ndigitsArg(ndigits)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case Float:
		f := float64(x)
		if !has {
			return floatToInt(f, math.RoundToEven)
		}
		return Float(roundFloat(f, n)), nil
	case Int, Bool, BigInt:
		if !has || n >= 0 {
			return NormBig(new(big.Int).Set(toBig(v))), nil
		}
		return roundIntNeg(toBig(v), -n), nil
	}
	if o, ok := v.(Operand); ok {
		nd := ndigits
		if nd == nil {
			nd = None
		}
		r, err := o.PyBinaryOp("round", nd, false)
		if err != nil || r != nil {
			return r, err
		}
	}
	return nil, NewTypeError("type " + v.TypeName() + " doesn't define __round__ method")
}

func roundIntNeg(x *big.Int, k int64) Value {
	if k > 4000 {
		return Int(0)
	}
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(k), nil)
	q, r := new(big.Int).QuoRem(x, pow, new(big.Int))
	roundQuotient(q, r, pow)
	return NormBig(q.Mul(q, pow))
}

// roundQuotient turns q, the truncated quotient of a division by den > 0
// with remainder rem (big.Int.QuoRem), into the quotient rounded to the
// nearest integer, halves to even (rem is changed too).
func roundQuotient(q, rem, den *big.Int) {
	if rem.Sign() < 0 { // floor division first
		q.Sub(q, big.NewInt(1))
		rem.Add(rem, den)
	}
	twice := new(big.Int).Lsh(rem, 1)
	c := twice.Cmp(den)
	if c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(1))
	}
}

// roundFloat is CPython's double_round: correctly rounded, half to even on
// the exact binary value.
func roundFloat(f float64, n int64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
		return f
	}
	if n > 323 {
		return f
	}
	if n < -308 {
		return math.Copysign(0, f)
	}
	if n >= 0 {
		s := strconv.FormatFloat(f, 'f', int(n), 64)
		r, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return f
		}
		return r
	}
	// Negative ndigits: exact rational arithmetic.
	r := new(big.Rat).SetFloat64(f)
	pow := new(big.Int).Exp(big.NewInt(10), big.NewInt(-n), nil)
	r.Quo(r, new(big.Rat).SetInt(pow))
	num, den := r.Num(), r.Denom()
	q, rem := new(big.Int).QuoRem(num, den, new(big.Int))
	roundQuotient(q, rem, den)
	q.Mul(q, pow)
	out, _ := new(big.Float).SetInt(q).Float64()
	if out == 0 {
		return math.Copysign(0, f)
	}
	return out
}

// decimalDigits converts a string of Unicode decimal digits (Nd) and
// single underscores between digits into ASCII digits.
func decimalDigits(s string, allowUnderscore bool) (string, bool) {
	if s == "" {
		return "", false
	}
	var b []byte
	ascii := true
	prevDigit := false
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			if b != nil {
				b = append(b, byte(r))
			}
			prevDigit = true
		case r == '_' && allowUnderscore:
			if !prevDigit || i+1 >= len(s) {
				return "", false
			}
			if b == nil {
				b = append([]byte{}, strings.ReplaceAll(s[:i], "_", "")...)
			}
			prevDigit = false
			ascii = false
		case r >= 0x80 && unicode.Is(unicode.Nd, r):
			if b == nil {
				b = append([]byte{}, strings.ReplaceAll(s[:i], "_", "")...)
			}
			zero := r
			for unicode.Is(unicode.Nd, zero-1) {
				zero--
			}
			b = append(b, byte('0'+(r-zero)%10))
			prevDigit = true
			ascii = false
		default:
			return "", false
		}
	}
	if !prevDigit {
		return "", false
	}
	if ascii || b == nil {
		return s, true
	}
	return string(b), true
}

func stripPy(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
	})
}

// ParseIntLiteral is int(s) for a str (base 10).
func ParseIntLiteral(s string) (Value, error) {
	t := stripPy(s)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	digits, ok := decimalDigits(t, true)
	if !ok {
		return nil, NewValueError("invalid literal for int() with base 10: " + Repr(Str(s)))
	}
	if neg {
		digits = "-" + digits
	}
	if n, err := strconv.ParseInt(digits, 10, 64); err == nil {
		return Int(n), nil
	}
	bi, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, NewValueError("invalid literal for int() with base 10: " + Repr(Str(s)))
	}
	return NormBig(bi), nil
}

// ToInt is int(v).
func ToInt(v Value) (Value, error) {
	switch x := v.(type) {
	case Int:
		return x, nil
	case Bool:
		return boolInt(x), nil
	case BigInt:
		return x, nil
	case Float:
		return floatToInt(float64(x), math.Trunc)
	case Str:
		return ParseIntLiteral(string(x))
	}
	if o, ok := v.(UnaryOperand); ok {
		r, err := o.PyUnaryOp("int")
		if err != nil || r != nil {
			return r, err
		}
	}
	return nil, NewTypeError("int() argument must be a string, a bytes-like object or a real number, not '" + v.TypeName() + "'")
}

// ParseFloatLiteral is float(s) for a str.
func ParseFloatLiteral(s string) (float64, error) {
	bad := func() (float64, error) {
		return 0, NewValueError("could not convert string to float: " + Repr(Str(s)))
	}
	t := stripPy(s)
	body := t
	sign := ""
	if body != "" && (body[0] == '+' || body[0] == '-') {
		sign = body[:1]
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if sign == "-" {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	case "nan":
		return math.NaN(), nil
	}
	// mantissa [e exponent]
	mant, exp := body, ""
	if i := strings.IndexAny(body, "eE"); i >= 0 {
		mant, exp = body[:i], body[i+1:]
		if exp == "" {
			return bad()
		}
		esign := ""
		if exp[0] == '+' || exp[0] == '-' {
			esign = exp[:1]
			exp = exp[1:]
		}
		d, ok := decimalDigits(exp, true)
		if !ok {
			return bad()
		}
		exp = "e" + esign + d
	}
	intPart, frac := mant, ""
	hasDot := false
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
		hasDot = true
	}
	if intPart == "" && frac == "" {
		return bad()
	}
	var ip, fp string
	if intPart != "" {
		d, ok := decimalDigits(intPart, true)
		if !ok {
			return bad()
		}
		ip = d
	}
	if frac != "" {
		d, ok := decimalDigits(frac, true)
		if !ok {
			return bad()
		}
		fp = d
	}
	text := sign + ip
	if hasDot {
		text += "." + fp
	}
	if ip == "" {
		text = sign + "0." + fp
	}
	text += exp
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return bad()
		}
	}
	return f, nil
}

// ToFloat is float(v).
func ToFloat(v Value) (Value, error) {
	switch x := v.(type) {
	case Float:
		return x, nil
	case Int, Bool, BigInt:
		f, err := asFloat(v)
		if err != nil {
			return nil, err
		}
		return Float(f), nil
	case Str:
		f, err := ParseFloatLiteral(string(x))
		if err != nil {
			return nil, err
		}
		return Float(f), nil
	}
	if o, ok := v.(UnaryOperand); ok {
		r, err := o.PyUnaryOp("float")
		if err != nil || r != nil {
			return r, err
		}
	}
	return nil, NewTypeError("float() argument must be a string or a real number, not '" + v.TypeName() + "'")
}

// floatToInt is the int a float becomes after rounding it to a whole
// number with round (int() truncates, round() rounds halves to even): a
// ValueError for NaN, an OverflowError for an infinity, a big int beyond
// int64.
func floatToInt(f float64, round func(float64) float64) (Value, error) {
	if math.IsNaN(f) {
		return nil, NewValueError("cannot convert float NaN to integer")
	}
	if math.IsInf(f, 0) {
		return nil, NewOverflowError("cannot convert float infinity to integer")
	}
	r := round(f)
	if r >= -9.223372036854775808e18 && r < 9.223372036854775808e18 {
		return Int(int64(r)), nil
	}
	bi, _ := new(big.Float).SetFloat64(r).Int(nil)
	return NormBig(bi), nil
}
