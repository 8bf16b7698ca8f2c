package pyval

import (
	"github.com/bfcl-go/bfcl/internal/python/bigmath"
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// Operand is implemented by Objects that take part in binary operators
// (decimal.Decimal, mpmath.mpf, ...). op is the Python operator text ("+",
// "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^", "<",
// "<=", ">", ">=", and "round" from Round with other = ndigits or None);
// reflected is true when the object is the right operand.
// Returning (nil, nil) means NotImplemented.
type Operand interface {
	PyBinaryOp(op string, other Value, reflected bool) (Value, error)
}

// UnaryOperand is implemented by Objects supporting unary operators ("-",
// "+", "~", "abs"). Returning (nil, nil) means unsupported.
type UnaryOperand interface {
	PyUnaryOp(op string) (Value, error)
}

// Lener is implemented by Objects that support len().
type Lener interface {
	PyLen() int
}

// Container is implemented by Objects that support the in operator.
type Container interface {
	PyContains(item Value) (bool, error)
}

// NormBig returns b as Int when it fits in 64 bits, else as BigInt.
func NormBig(b *big.Int) Value {
	if b.IsInt64() {
		return Int(b.Int64())
	}
	return BigInt{b}
}

func toBig(v Value) *big.Int {
	switch x := v.(type) {
	case Int:
		return big.NewInt(int64(x))
	case Bool:
		if x {
			return big.NewInt(1)
		}
		return big.NewInt(0)
	case BigInt:
		return x.V
	}
	return nil
}

// isIntLike reports bool/int.
func isIntLike(v Value) bool {
	switch v.(type) {
	case Int, Bool, BigInt:
		return true
	}
	return false
}

// asInt64 returns a Bool/Int as int64.
func asInt64(v Value) (int64, bool) {
	switch x := v.(type) {
	case Int:
		return int64(x), true
	case Bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// bigToFloat converts an int to float as Python does (OverflowError when
// too large).
func bigToFloat(b *big.Int) (float64, error) {
	f, _ := new(big.Float).SetInt(b).Float64()
	if math.IsInf(f, 0) {
		return 0, NewOverflowError("int too large to convert to float")
	}
	return f, nil
}

// asFloat converts a number to float64 (int promotion rules).
// anyFloat reports whether either operand is a float (Python's numeric
// tower: the operation is then done in floats).
func anyFloat(a, b Value) bool {
	_, af := a.(Float)
	_, bf := b.(Float)
	return af || bf
}

// floatPair converts both operands to floats.
func floatPair(a, b Value) (x, y float64, err error) {
	if x, err = asFloat(a); err != nil {
		return 0, 0, err
	}
	y, err = asFloat(b)
	return x, y, err
}

func asFloat(v Value) (float64, error) {
	switch x := v.(type) {
	case Float:
		return float64(x), nil
	case Int:
		return float64(x), nil
	case Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case BigInt:
		return bigToFloat(x.V)
	}
	return 0, NewTypeError("must be real number, not " + v.TypeName())
}

func unsupported(op string, a, b Value) error {
	return NewTypeError("unsupported operand type(s) for " + op + ": '" + a.TypeName() + "' and '" + b.TypeName() + "'")
}

// objectBinary tries the Operand hooks of a then b.
func objectBinary(op string, a, b Value) (Value, bool, error) {
	if o, ok := a.(Operand); ok {
		r, err := o.PyBinaryOp(op, b, false)
		if err != nil || r != nil {
			return r, true, err
		}
	}
	if o, ok := b.(Operand); ok {
		r, err := o.PyBinaryOp(op, a, true)
		if err != nil || r != nil {
			return r, true, err
		}
	}
	return nil, false, nil
}

func isObject(v Value) bool {
	_, ok := v.(Object)
	return ok
}

// BinaryOp applies the Python binary operator op ("+", "-", "*", "/",
// "//", "%", "**", "@", "<<", ">>", "&", "|", "^").
func BinaryOp(op string, a, b Value) (Value, error) {
	switch op {
	case "+":
		return Add(a, b)
	case "-":
		return Sub(a, b)
	case "*":
		return Mul(a, b)
	case "/":
		return TrueDiv(a, b)
	case "//":
		return FloorDiv(a, b)
	case "%":
		return Mod(a, b)
	case "**":
		return Pow(a, b)
	case "@":
		if isObject(a) || isObject(b) {
			if r, ok, err := objectBinary(op, a, b); ok {
				return r, err
			}
		}
		return nil, unsupported("@", a, b)
	case "<<":
		return LShift(a, b)
	case ">>":
		return RShift(a, b)
	case "&":
		return BitAnd(a, b)
	case "|":
		return BitOr(a, b)
	case "^":
		return BitXor(a, b)
	}
	return nil, NewSyntaxError("unknown operator " + op)
}

// Add is a + b.
func Add(a, b Value) (Value, error) {
	if x, ok := asInt64(a); ok {
		if y, ok := asInt64(b); ok {
			s := x + y
			if (s > x) == (y > 0) {
				return Int(s), nil
			}
			return NormBig(new(big.Int).Add(big.NewInt(x), big.NewInt(y))), nil
		}
	}
	switch x := a.(type) {
	case Str:
		if y, ok := b.(Str); ok {
			return x + y, nil
		}
		if !isObject(b) {
			return nil, NewTypeError("can only concatenate str (not \"" + b.TypeName() + "\") to str")
		}
	case *List:
		if y, ok := b.(*List); ok {
			items := make([]Value, 0, len(x.Items)+len(y.Items))
			items = append(items, x.Items...)
			return &List{Items: append(items, y.Items...)}, nil
		}
		if !isObject(b) {
			return nil, NewTypeError("can only concatenate list (not \"" + b.TypeName() + "\") to list")
		}
	case Bytes:
		if y, ok := b.(Bytes); ok {
			return x + y, nil
		}
	case Tuple:
		if y, ok := b.(Tuple); ok {
			items := make(Tuple, 0, len(x)+len(y))
			items = append(items, x...)
			return append(items, y...), nil
		}
		if !isObject(b) {
			return nil, NewTypeError("can only concatenate tuple (not \"" + b.TypeName() + "\") to tuple")
		}
	}
	if isNumber(a) && isNumber(b) {
		return numArith('+', a, b)
	}
	if r, ok, err := objectBinary("+", a, b); ok {
		return r, err
	}
	return nil, unsupported("+", a, b)
}

// Sub is a - b.
func Sub(a, b Value) (Value, error) {
	if x, ok := asInt64(a); ok {
		if y, ok := asInt64(b); ok {
			s := x - y
			if (s < x) == (y > 0) {
				return Int(s), nil
			}
			return NormBig(new(big.Int).Sub(big.NewInt(x), big.NewInt(y))), nil
		}
	}
	if isNumber(a) && isNumber(b) {
		return numArith('-', a, b)
	}
	if x, ok := a.(*Set); ok {
		if y, ok := b.(*Set); ok {
			out := NewSet()
			for _, e := range x.Items() {
				if !y.Contains(e) {
					out.Add(e)
				}
			}
			return out, nil
		}
	}
	if r, ok, err := objectBinary("-", a, b); ok {
		return r, err
	}
	return nil, unsupported("-", a, b)
}

// numArith handles + - * for numbers when the int64 fast path did not.
func numArith(op byte, a, b Value) (Value, error) {
	if anyFloat(a, b) {
		x, y, err := floatPair(a, b)
		if err != nil {
			return nil, err
		}
		switch op {
		case '+':
			return Float(x + y), nil
		case '-':
			return Float(x - y), nil
		default:
			return Float(x * y), nil
		}
	}
	x, y := toBig(a), toBig(b)
	r := new(big.Int)
	switch op {
	case '+':
		r.Add(x, y)
	case '-':
		r.Sub(x, y)
	default:
		r.Mul(x, y)
	}
	return NormBig(r), nil
}

// repeatCount returns the repetition count of an int operand.
func repeatCount(n Value) (int, error) {
	if k, ok := asInt64(n); ok {
		if k < 0 {
			return 0, nil
		}
		return int(k), nil
	}
	if bi, ok := n.(BigInt); ok {
		if bi.V.Sign() < 0 {
			return 0, nil
		}
		return 0, NewOverflowError("cannot fit 'int' into an index-sized integer")
	}
	return 0, NewTypeError("can't multiply sequence by non-int of type '" + n.TypeName() + "'")
}

const maxRepeatBytes = 1 << 30

func repeatSeq(seq, n Value) (Value, error) {
	k, err := repeatCount(n)
	if err != nil {
		return nil, err
	}
	switch s := seq.(type) {
	case Str:
		if len(s) > 0 && k > maxRepeatBytes/len(s) {
			return nil, NewException("MemoryError", "")
		}
		return Str(strings.Repeat(string(s), k)), nil
	case *List:
		if len(s.Items) > 0 && k > maxRepeatBytes/16/len(s.Items) {
			return nil, NewException("MemoryError", "")
		}
		out := make([]Value, 0, len(s.Items)*k)
		for i := 0; i < k; i++ {
			out = append(out, s.Items...)
		}
		return &List{Items: out}, nil
	case Tuple:
		if len(s) > 0 && k > maxRepeatBytes/16/len(s) {
			return nil, NewException("MemoryError", "")
		}
		out := make(Tuple, 0, len(s)*k)
		for i := 0; i < k; i++ {
			out = append(out, s...)
		}
		return out, nil
	}
	return nil, nil
}

func isSeq(v Value) bool {
	switch v.(type) {
	case Str, *List, Tuple:
		return true
	}
	return false
}

// Mul is a * b (numbers, and str/list/tuple repetition).
func Mul(a, b Value) (Value, error) {
	if x, ok := asInt64(a); ok {
		if y, ok := asInt64(b); ok {
			hi, lo := bits.Mul64(uint64(absI(x)), uint64(absI(y)))
			neg := (x < 0) != (y < 0)
			if hi == 0 && x != math.MinInt64 && y != math.MinInt64 && (lo < 1<<63) {
				if neg {
					return Int(-int64(lo)), nil
				}
				return Int(int64(lo)), nil
			}
			return NormBig(new(big.Int).Mul(big.NewInt(x), big.NewInt(y))), nil
		}
	}
	if isNumber(a) && isNumber(b) {
		return numArith('*', a, b)
	}
	if isSeq(a) && !isObject(b) {
		return repeatSeq(a, b)
	}
	if isSeq(b) && isIntLike(a) {
		return repeatSeq(b, a)
	}
	if isSeq(b) && !isObject(a) && !isNumber(a) {
		return nil, NewTypeError("can't multiply sequence by non-int of type '" + a.TypeName() + "'")
	}
	if isSeq(b) && isNumber(a) {
		return nil, NewTypeError("can't multiply sequence by non-int of type '" + a.TypeName() + "'")
	}
	if r, ok, err := objectBinary("*", a, b); ok {
		return r, err
	}
	return nil, unsupported("*", a, b)
}

func absI(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// divOp is one of Python's division operators: its symbol, its float,
// machine-integer and big-integer forms on numbers, and the
// ZeroDivisionError messages CPython gives for a float and an int divisor.
type divOp struct {
	sym                string
	floatZero, intZero string
	float              func(x, y float64) (Value, error)
	// small is the int64 form for a non-zero y; ok=false hands the pair
	// to big (a result that does not fit, or is not exact, in machine form).
	small func(x, y int64) (r Value, ok bool)
	big   func(x, y *big.Int) (Value, error)
}

// apply is a <sym> b for two numbers, else the operands' own dunder
// methods, else TypeError.
func (op *divOp) apply(a, b Value) (Value, error) {
	if isNumber(a) && isNumber(b) {
		return op.numbers(a, b)
	}
	if r, ok, err := objectBinary(op.sym, a, b); ok {
		return r, err
	}
	return nil, unsupported(op.sym, a, b)
}

func (op *divOp) numbers(a, b Value) (Value, error) {
	if anyFloat(a, b) {
		x, y, err := floatPair(a, b)
		if err != nil {
			return nil, err
		}
		if y == 0 {
			return nil, NewZeroDivisionError(op.floatZero)
		}
		return op.float(x, y)
	}
	x, xok := asInt64(a)
	y, yok := asInt64(b)
	if xok && yok {
		if y == 0 {
			return nil, NewZeroDivisionError(op.intZero)
		}
		if r, ok := op.small(x, y); ok {
			return r, nil
		}
	}
	bx, by := toBig(a), toBig(b)
	if by.Sign() == 0 {
		return nil, NewZeroDivisionError(op.intZero)
	}
	return op.big(bx, by)
}

var trueDivOp = &divOp{
	sym:       "/",
	floatZero: "float division by zero",
	intZero:   "division by zero",
	float:     func(x, y float64) (Value, error) { return Float(x / y), nil },
	small: func(x, y int64) (Value, bool) {
		if absI(x) <= 1<<53 && absI(y) <= 1<<53 && x != math.MinInt64 && y != math.MinInt64 {
			return Float(float64(x) / float64(y)), true
		}
		return nil, false
	},
	big: func(bx, by *big.Int) (Value, error) {
		f, _ := new(big.Rat).SetFrac(bx, by).Float64()
		if math.IsInf(f, 0) {
			return nil, NewOverflowError("integer division result too large for a float")
		}
		return Float(f), nil
	},
}

var floorDivOp = &divOp{
	sym:       "//",
	floatZero: "float floor division by zero",
	intZero:   "integer division or modulo by zero",
	float: func(x, y float64) (Value, error) {
		d, _ := floatDivmod(x, y)
		return Float(d), nil
	},
	small: func(x, y int64) (Value, bool) {
		if x == math.MinInt64 && y == -1 {
			return nil, false
		}
		q := x / y
		if (x%y != 0) && ((x < 0) != (y < 0)) {
			q--
		}
		return Int(q), true
	},
	big: func(bx, by *big.Int) (Value, error) {
		q, m := new(big.Int).QuoRem(bx, by, new(big.Int))
		if m.Sign() != 0 && (m.Sign() < 0) != (by.Sign() < 0) {
			q.Sub(q, big.NewInt(1))
		}
		return NormBig(q), nil
	},
}

var modOp = &divOp{
	sym:       "%",
	floatZero: "float modulo",
	intZero:   "integer modulo by zero",
	float:     func(x, y float64) (Value, error) { return Float(floatMod(x, y)), nil },
	small: func(x, y int64) (Value, bool) {
		if y == -1 {
			return Int(0), true
		}
		m := x % y
		if m != 0 && ((m < 0) != (y < 0)) {
			m += y
		}
		return Int(m), true
	},
	big: func(bx, by *big.Int) (Value, error) {
		m := new(big.Int).Rem(bx, by)
		if m.Sign() != 0 && (m.Sign() < 0) != (by.Sign() < 0) {
			m.Add(m, by)
		}
		return NormBig(m), nil
	},
}

// TrueDiv is a / b.
func TrueDiv(a, b Value) (Value, error) { return trueDivOp.apply(a, b) }

// floatDivmod is CPython's float_divmod.
func floatDivmod(vx, wx float64) (float64, float64) {
	mod := math.Mod(vx, wx)
	div := (vx - mod) / wx
	if mod != 0 {
		if (wx < 0) != (mod < 0) {
			mod += wx
			div -= 1.0
		}
	} else {
		mod = math.Copysign(0, wx)
	}
	var floordiv float64
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv += 1.0
		}
	} else {
		floordiv = math.Copysign(0, vx/wx)
	}
	return floordiv, mod
}

func floatMod(vx, wx float64) float64 {
	mod := math.Mod(vx, wx)
	if mod != 0 {
		if (wx < 0) != (mod < 0) {
			mod += wx
		}
	} else {
		mod = math.Copysign(0, wx)
	}
	return mod
}

// FloorDiv is a // b.
func FloorDiv(a, b Value) (Value, error) { return floorDivOp.apply(a, b) }

// Mod is a % b (numbers; str % args is printf-style formatting).
func Mod(a, b Value) (Value, error) {
	if s, ok := a.(Str); ok {
		return FormatPercent(string(s), b)
	}
	return modOp.apply(a, b)
}

const maxPowBits = 1 << 24

// Pow is a ** b.
func Pow(a, b Value) (Value, error) {
	if isNumber(a) && isNumber(b) {
		if !anyFloat(a, b) {
			bx, by := toBig(a), toBig(b)
			if by.Sign() >= 0 {
				if bx.Sign() == 0 || bx.CmpAbs(big.NewInt(1)) == 0 {
					if by.Sign() == 0 {
						return Int(1), nil
					}
					if bx.Sign() < 0 && by.Bit(0) == 0 {
						return Int(1), nil
					}
					return NormBig(new(big.Int).Set(bx)), nil
				}
				if !by.IsInt64() || int64(bx.BitLen())*by.Int64() > maxPowBits {
					return nil, NewException("MemoryError", "")
				}
				return NormBig(new(big.Int).Exp(bx, by, nil)), nil
			}
			// negative exponent: float result
		}
		x, y, err := floatPair(a, b)
		if err != nil {
			return nil, err
		}
		return floatPow(x, y)
	}
	if r, ok, err := objectBinary("**", a, b); ok {
		return r, err
	}
	return nil, unsupported("** or pow()", a, b)
}

func floatPow(x, y float64) (Value, error) {
	if x == 0 && y < 0 {
		return nil, NewZeroDivisionError("0.0 cannot be raised to a negative power")
	}
	if x < 0 && y != math.Trunc(y) && !math.IsInf(y, 0) && !math.IsNaN(y) {
		return nil, NewValueError("complex result: %s ** %s is not supported by this value model", FloatRepr(x), FloatRepr(y))
	}
	// Correctly rounded, as glibc's pow behind CPython (Go's math.Pow may
	// differ in the last bit); a negative base has an integral exponent here.
	r := bigmath.Pow(math.Abs(x), y)
	if x < 0 && math.Mod(y, 2) != 0 {
		r = -r
	}
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return nil, NewOverflowError("(34, 'Numerical result out of range')")
	}
	return Float(r), nil
}

// LShift is a << b for ints.
func LShift(a, b Value) (Value, error) {
	if isIntLike(a) && isIntLike(b) {
		by := toBig(b)
		if by.Sign() < 0 {
			return nil, NewValueError("negative shift count")
		}
		if !by.IsInt64() || by.Int64() > maxPowBits {
			return nil, NewOverflowError("too many digits in integer")
		}
		return NormBig(new(big.Int).Lsh(toBig(a), uint(by.Int64()))), nil
	}
	if r, ok, err := objectBinary("<<", a, b); ok {
		return r, err
	}
	return nil, unsupported("<<", a, b)
}

// RShift is a >> b for ints.
func RShift(a, b Value) (Value, error) {
	if isIntLike(a) && isIntLike(b) {
		by := toBig(b)
		if by.Sign() < 0 {
			return nil, NewValueError("negative shift count")
		}
		if !by.IsInt64() || by.Int64() > maxPowBits {
			if toBig(a).Sign() < 0 {
				return Int(-1), nil
			}
			return Int(0), nil
		}
		return NormBig(new(big.Int).Rsh(toBig(a), uint(by.Int64()))), nil
	}
	if r, ok, err := objectBinary(">>", a, b); ok {
		return r, err
	}
	return nil, unsupported(">>", a, b)
}

func bitOp(op string, a, b Value) (Value, error) {
	_, ab := a.(Bool)
	_, bb := b.(Bool)
	if isIntLike(a) && isIntLike(b) {
		x, y := toBig(a), toBig(b)
		r := new(big.Int)
		switch op {
		case "&":
			r.And(x, y)
		case "|":
			r.Or(x, y)
		default:
			r.Xor(x, y)
		}
		if ab && bb {
			return Bool(r.Sign() != 0), nil
		}
		return NormBig(r), nil
	}
	if x, ok := a.(*Set); ok {
		if y, ok := b.(*Set); ok {
			out := NewSet()
			switch op {
			case "&":
				for _, e := range x.Items() {
					if y.Contains(e) {
						out.Add(e)
					}
				}
			case "|":
				for _, e := range x.Items() {
					out.Add(e)
				}
				for _, e := range y.Items() {
					out.Add(e)
				}
			default:
				for _, e := range x.Items() {
					if !y.Contains(e) {
						out.Add(e)
					}
				}
				for _, e := range y.Items() {
					if !x.Contains(e) {
						out.Add(e)
					}
				}
			}
			return out, nil
		}
	}
	if op == "|" {
		if x, ok := a.(*Dict); ok {
			if y, ok := b.(*Dict); ok {
				out := x.Copy()
				out.Update(y)
				return out, nil
			}
		}
	}
	if r, ok, err := objectBinary(op, a, b); ok {
		return r, err
	}
	return nil, unsupported(op, a, b)
}

// BitAnd is a & b (ints, bools, sets).
func BitAnd(a, b Value) (Value, error) { return bitOp("&", a, b) }

// BitOr is a | b (ints, bools, sets, dicts).
func BitOr(a, b Value) (Value, error) { return bitOp("|", a, b) }

// BitXor is a ^ b (ints, bools, sets).
func BitXor(a, b Value) (Value, error) { return bitOp("^", a, b) }

func objectUnary(op string, v Value) (Value, bool, error) {
	if o, ok := v.(UnaryOperand); ok {
		r, err := o.PyUnaryOp(op)
		if err != nil || r != nil {
			return r, true, err
		}
	}
	return nil, false, nil
}

// Neg is -v.
func Neg(v Value) (Value, error) {
	switch x := v.(type) {
	case Int:
		if x == math.MinInt64 {
			return NormBig(new(big.Int).Neg(big.NewInt(int64(x)))), nil
		}
		return -x, nil
	case Bool:
		return -boolInt(x), nil
	case Float:
		return -x, nil
	case BigInt:
		return NormBig(new(big.Int).Neg(x.V)), nil
	}
	if r, ok, err := objectUnary("-", v); ok {
		return r, err
	}
	return nil, NewTypeError("bad operand type for unary -: '" + v.TypeName() + "'")
}

// Pos is +v.
func Pos(v Value) (Value, error) {
	switch x := v.(type) {
	case Int, Float, BigInt:
		return v, nil
	case Bool:
		return boolInt(x), nil
	}
	if r, ok, err := objectUnary("+", v); ok {
		return r, err
	}
	return nil, NewTypeError("bad operand type for unary +: '" + v.TypeName() + "'")
}

// Invert is ~v.
func Invert(v Value) (Value, error) {
	if isIntLike(v) {
		return NormBig(new(big.Int).Not(toBig(v))), nil
	}
	if r, ok, err := objectUnary("~", v); ok {
		return r, err
	}
	return nil, NewTypeError("bad operand type for unary ~: '" + v.TypeName() + "'")
}

// Not is `not v`.
func Not(v Value) Value { return Bool(!Truthy(v)) }

// Abs is abs(v).
func Abs(v Value) (Value, error) {
	switch x := v.(type) {
	case Int:
		if x < 0 {
			return Neg(x)
		}
		return x, nil
	case Bool:
		return boolInt(x), nil
	case Float:
		return Float(math.Abs(float64(x))), nil
	case BigInt:
		return NormBig(new(big.Int).Abs(x.V)), nil
	}
	if r, ok, err := objectUnary("abs", v); ok {
		return r, err
	}
	return nil, NewTypeError("bad operand type for abs(): '" + v.TypeName() + "'")
}
