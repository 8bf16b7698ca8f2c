package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// math_api.py (class MathAPI). Result and error strings are protocol
// constants reproduced from that file.
//
// Upstream computes logarithm with mpmath (process-global mp.dps) and
// square_root with the decimal module (process-global context precision);
// both set the precision right before computing, so no global state is
// needed here. The mpf/mpc and Decimal values they return are reproduced
// as pyval Objects (mpmathFloat, mpmathComplex, pyDecimal) whose repr
// matches mpmath 1.2 / CPython's decimal exactly.

import (
	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/bigmath"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyargs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// MathAPI is upstream's MathAPI. It has no public attributes (State is
// always empty) and is stateless per constants/executable_backend_config.py.
type MathAPI struct{}

// NewMathAPI returns a MathAPI.
func NewMathAPI(*Env) *MathAPI { return &MathAPI{} }

// ClassName implements Instance.
func (*MathAPI) ClassName() string { return "MathAPI" }

// LoadScenario implements Instance; upstream never calls it (stateless
// class) and MathAPI has no _load_scenario.
func (*MathAPI) LoadScenario(*pyval.Dict, bool) error { return nil }

// State implements Instance: MathAPI has no public attributes.
func (*MathAPI) State() *pyval.Dict { return pyval.NewDict() }

func mathResult(v pyval.Value) *pyval.Dict {
	d := pyval.NewDict()
	d.SetStr("result", v)
	return d
}

func mathError(msg string) *pyval.Dict {
	d := pyval.NewDict()
	d.SetStr("error", pyval.Str(msg))
	return d
}

// isRealNumber is isinstance(v, (int, float)) (bool is an int).
func isRealNumber(v pyval.Value) bool {
	switch v.(type) {
	case pyval.Int, pyval.BigInt, pyval.Bool, pyval.Float:
		return true
	}
	return false
}

// catchType turns a TypeError into the given error dict and passes every
// other exception through, like upstream's `except TypeError:`.
func catchType(v pyval.Value, err error, msg string) (pyval.Value, error) {
	if err != nil {
		if pyval.IsException(err, "TypeError") {
			return mathError(msg), nil
		}
		return nil, err
	}
	return mathResult(v), nil
}

// Logarithm is upstream's logarithm(value, base, precision): mpmath with
// mp.dps = precision; every exception becomes {"error": str(e)}.
func (*MathAPI) Logarithm(args stubs.MathAPILogarithmArgs) (pyval.Value, error) {
	value, base, precision := args.Value.V, args.Base.V, args.Precision.V
	ctx, err := newMPContext(precision)
	if err != nil {
		return mathError(err.Error()), nil
	}
	lv, err := ctx.log(value)
	if err != nil {
		return mathError(err.Error()), nil
	}
	lb, err := ctx.log(base)
	if err != nil {
		return mathError(err.Error()), nil
	}
	q, err := ctx.div(lv, lb)
	if err != nil {
		return mathError(err.Error()), nil
	}
	return mathResult(q), nil
}

// Mean is upstream's mean(numbers).
func (*MathAPI) Mean(args stubs.MathAPIMeanArgs) (pyval.Value, error) {
	if !pyval.Truthy(args.Numbers.V) {
		return mathError("Cannot calculate mean of an empty list"), nil
	}
	m, err := mathMean(args.Numbers)
	return catchType(m, err, "All elements in the list must be numbers")
}

func mathMean(numbers pyargs.List) (pyval.Value, error) {
	items, err := numbers.Iter()
	if err != nil {
		return nil, err
	}
	s, err := pyval.Sum(items, nil)
	if err != nil {
		return nil, err
	}
	n, err := pyval.Len(numbers.V)
	if err != nil {
		return nil, err
	}
	return pyval.TrueDiv(s, pyval.Int(n))
}

// StandardDeviation is upstream's standard_deviation(numbers).
func (*MathAPI) StandardDeviation(args stubs.MathAPIStandardDeviationArgs) (pyval.Value, error) {
	if !pyval.Truthy(args.Numbers.V) {
		return mathError("Cannot calculate standard deviation of an empty list"), nil
	}
	v, err := func() (pyval.Value, error) {
		mean, err := mathMean(args.Numbers)
		if err != nil {
			return nil, err
		}
		items, err := args.Numbers.Iter()
		if err != nil {
			return nil, err
		}
		sq := make([]pyval.Value, len(items))
		for i, x := range items {
			d, err := pyval.Sub(x, mean)
			if err != nil {
				return nil, err
			}
			if sq[i], err = pyPow(d, pyval.Int(2)); err != nil {
				return nil, err
			}
		}
		total, err := pyval.Sum(sq, nil)
		if err != nil {
			return nil, err
		}
		n, err := pyval.Len(args.Numbers.V)
		if err != nil {
			return nil, err
		}
		variance, err := pyval.TrueDiv(total, pyval.Int(n))
		if err != nil {
			return nil, err
		}
		return mathSqrt(variance)
	}()
	return catchType(v, err, "All elements in the list must be numbers")
}

// mathSqrt is math.sqrt(v).
func mathSqrt(v pyval.Value) (pyval.Value, error) {
	f, err := pyval.ToFloat(v)
	if err != nil {
		return nil, err
	}
	x := float64(f.(pyval.Float))
	if x < 0 {
		return nil, pyval.NewValueError("math domain error")
	}
	return pyval.Float(math.Sqrt(x)), nil
}

// siToMeters is upstream's to_meters table.
func siToMeters(unit string) pyval.Value {
	switch unit {
	case "km":
		return pyval.Int(1000)
	case "m":
		return pyval.Int(1)
	case "cm":
		return pyval.Float(0.01)
	case "mm":
		return pyval.Float(0.001)
	case "um":
		return pyval.Float(1e-6)
	case "nm":
		return pyval.Float(1e-9)
	}
	return nil
}

// SiUnitConversion is upstream's si_unit_conversion(value, unit_in, unit_out).
func (*MathAPI) SiUnitConversion(args stubs.MathAPISiUnitConversionArgs) (pyval.Value, error) {
	value, unitIn, unitOut := args.Value.V, args.UnitIn.V, args.UnitOut.V
	if !isRealNumber(value) {
		return mathError("Value must be a number"), nil
	}
	for _, u := range []pyval.Value{unitIn, unitOut} {
		if err := pyval.CheckHashable(u); err != nil {
			return nil, err
		}
	}
	in, inOK := unitIn.(pyval.Str)
	out, outOK := unitOut.(pyval.Str)
	if !inOK || siToMeters(string(in)) == nil || !outOK || siToMeters(string(out)) == nil {
		return mathError("Conversion from '" + pyval.StrOf(unitIn) + "' to '" + pyval.StrOf(unitOut) + "' is not supported"), nil
	}
	// from_meters[unit] = 1 / to_meters[unit] (true division: a float)
	from, err := pyval.TrueDiv(pyval.Int(1), siToMeters(string(out)))
	if err != nil {
		return nil, err
	}
	meters, err := pyval.Mul(value, siToMeters(string(in)))
	if err == nil {
		var r pyval.Value
		if r, err = pyval.Mul(meters, from); err == nil {
			return mathResult(r), nil
		}
	}
	if pyval.IsException(err, "OverflowError") {
		return mathError("Conversion resulted in a value too large to represent"), nil
	}
	return nil, err
}

// imperialFactor is upstream's conversion table of imperial_si_conversion.
func imperialFactor(key string) (pyval.Value, bool) {
	switch key {
	case "cm_to_in":
		return pyval.Float(0.393701), true
	case "in_to_cm":
		return pyval.Float(2.54), true
	case "m_to_ft":
		return pyval.Float(3.28084), true
	case "ft_to_m":
		return pyval.Float(0.3048), true
	case "m_to_yd":
		return pyval.Float(1.09361), true
	case "yd_to_m":
		return pyval.Float(0.9144), true
	case "km_to_miles":
		return pyval.Float(0.621371), true
	case "miles_to_km":
		return pyval.Float(1.60934), true
	case "kg_to_lb":
		return pyval.Float(2.20462), true
	case "lb_to_kg":
		return pyval.Float(0.453592), true
	case "celsius_to_fahrenheit":
		return pyval.Float(1.8), true
	case "fahrenheit_to_celsius":
		return pyval.Float(5.0 / 9.0), true
	}
	return nil, false
}

// ImperialSiConversion is upstream's imperial_si_conversion(value, unit_in, unit_out).
func (*MathAPI) ImperialSiConversion(args stubs.MathAPIImperialSiConversionArgs) (pyval.Value, error) {
	value, unitIn, unitOut := args.Value.V, args.UnitIn.V, args.UnitOut.V
	if !isRealNumber(value) {
		return mathError("Value must be a number"), nil
	}
	if pyval.Equal(unitIn, unitOut) {
		return mathResult(value), nil
	}
	key := pyval.StrOf(unitIn) + "_to_" + pyval.StrOf(unitOut)
	factor, ok := imperialFactor(key)
	if !ok {
		return mathError("Conversion from '" + pyval.StrOf(unitIn) + "' to '" + pyval.StrOf(unitOut) + "' is not supported"), nil
	}
	var r pyval.Value
	var err error
	switch {
	case pyval.Equal(unitIn, pyval.Str("celsius")) && pyval.Equal(unitOut, pyval.Str("fahrenheit")):
		if r, err = pyval.Mul(value, factor); err == nil {
			r, err = pyval.Add(r, pyval.Int(32))
		}
	case pyval.Equal(unitIn, pyval.Str("fahrenheit")) && pyval.Equal(unitOut, pyval.Str("celsius")):
		if r, err = pyval.Sub(value, pyval.Int(32)); err == nil {
			r, err = pyval.Mul(r, factor)
		}
	default:
		r, err = pyval.Mul(value, factor)
	}
	if err != nil {
		if pyval.IsException(err, "OverflowError") {
			return mathError("Conversion resulted in a value too large to represent"), nil
		}
		return nil, err
	}
	return mathResult(r), nil
}

// Add is upstream's add(a, b).
func (*MathAPI) Add(args stubs.MathAPIAddArgs) (pyval.Value, error) {
	a, b := args.A.V, args.B.V
	r, err := pyval.Add(a, b)
	return catchType(r, err, "Both inputs must be numbers")
}

// Subtract is upstream's subtract(a, b).
func (*MathAPI) Subtract(args stubs.MathAPISubtractArgs) (pyval.Value, error) {
	a, b := args.A.V, args.B.V
	r, err := pyval.Sub(a, b)
	return catchType(r, err, "Both inputs must be numbers")
}

// Multiply is upstream's multiply(a, b).
func (*MathAPI) Multiply(args stubs.MathAPIMultiplyArgs) (pyval.Value, error) {
	a, b := args.A.V, args.B.V
	if !isRealNumber(a) || !isRealNumber(b) {
		return mathError("Both inputs must be numbers"), nil
	}
	r, err := pyval.Mul(a, b)
	return catchType(r, err, "Both inputs must be numbers")
}

// Divide is upstream's divide(a, b).
func (*MathAPI) Divide(args stubs.MathAPIDivideArgs) (pyval.Value, error) {
	a, b := args.A.V, args.B.V
	if pyval.Equal(b, pyval.Int(0)) {
		return mathError("Cannot divide by zero"), nil
	}
	r, err := pyval.TrueDiv(a, b)
	return catchType(r, err, "Both inputs must be numbers")
}

// Power is upstream's power(base, exponent). A negative base with a
// non-integral exponent gives a Python complex, as float.__pow__ does.
func (*MathAPI) Power(args stubs.MathAPIPowerArgs) (pyval.Value, error) {
	base, exponent := args.Base.V, args.Exponent.V
	r, err := pyPow(base, exponent)
	return catchType(r, err, "Both inputs must be numbers")
}

// pyPow is Python's base ** exponent. Powers that CPython computes with
// the C library's pow() (any float operand, or a negative int exponent)
// go through pyFloatPow, which reproduces float_pow's special cases and
// glibc's (nearly always correctly rounded) pow; exact int powers and
// everything else are pyval.Pow's.
func pyPow(base, exponent pyval.Value) (pyval.Value, error) {
	if !isRealNumber(base) || !isRealNumber(exponent) {
		return pyval.Pow(base, exponent)
	}
	_, bf := base.(pyval.Float)
	_, ef := exponent.(pyval.Float)
	if !bf && !ef {
		if neg, _ := pyval.Less(exponent, pyval.Int(0)); !neg {
			return pyval.Pow(base, exponent)
		}
	}
	x, err := pyval.ToFloat(base)
	if err != nil {
		return nil, err
	}
	y, err := pyval.ToFloat(exponent)
	if err != nil {
		return nil, err
	}
	return pyFloatPow(float64(x.(pyval.Float)), float64(y.(pyval.Float)))
}

// isOddInteger is CPython's DOUBLE_IS_ODD_INTEGER.
func isOddInteger(f float64) bool { return math.Mod(math.Abs(f), 2) == 1 }

// pyFloatPow is CPython's float_pow.
func pyFloatPow(iv, iw float64) (pyval.Value, error) {
	switch {
	case iw == 0:
		return pyval.Float(1), nil
	case math.IsNaN(iv):
		return pyval.Float(iv), nil
	case math.IsNaN(iw):
		if iv == 1 {
			return pyval.Float(1), nil
		}
		return pyval.Float(iw), nil
	case math.IsInf(iw, 0):
		a := math.Abs(iv)
		if a == 1 {
			return pyval.Float(1), nil
		}
		if (iw > 0) == (a > 1) {
			return pyval.Float(math.Abs(iw)), nil
		}
		return pyval.Float(0), nil
	case math.IsInf(iv, 0):
		odd := isOddInteger(iw)
		if iw > 0 {
			if odd {
				return pyval.Float(iv), nil
			}
			return pyval.Float(math.Abs(iv)), nil
		}
		if odd {
			return pyval.Float(math.Copysign(0, iv)), nil
		}
		return pyval.Float(0), nil
	case iv == 0:
		if iw < 0 {
			return nil, pyval.NewZeroDivisionError("0.0 cannot be raised to a negative power")
		}
		if isOddInteger(iw) {
			return pyval.Float(iv), nil
		}
		return pyval.Float(0), nil
	}
	negate := false
	if iv < 0 {
		if iw != math.Floor(iw) {
			return complexPow(iv, iw)
		}
		iv = -iv
		negate = isOddInteger(iw)
	}
	if iv == 1 {
		if negate {
			return pyval.Float(-1), nil
		}
		return pyval.Float(1), nil
	}
	r := bigmath.Pow(iv, iw)
	if math.IsInf(r, 0) {
		return nil, pyval.NewOverflowError("(34, 'Numerical result out of range')")
	}
	if negate {
		r = -r
	}
	return pyval.Float(r), nil
}

// SquareRoot is upstream's square_root(number, precision): decimal module
// with getcontext().prec = precision.
func (*MathAPI) SquareRoot(args stubs.MathAPISquareRootArgs) (pyval.Value, error) {
	number, precision := args.Number.V, args.Precision.V
	const msg = "Input must be a number or computation resulted in an invalid operation"
	neg, err := pyval.Less(number, pyval.Int(0))
	if err != nil {
		if pyval.IsException(err, "TypeError") {
			return mathError(msg), nil
		}
		return nil, err
	}
	if neg {
		return mathError("Cannot calculate square root of a negative number"), nil
	}
	prec, err := decimalPrecision(precision)
	if err != nil {
		if pyval.IsException(err, "TypeError") {
			return mathError(msg), nil
		}
		return nil, err
	}
	d, err := decimalFromNumber(number)
	if err != nil {
		if pyval.IsException(err, "TypeError") {
			return mathError(msg), nil
		}
		return nil, err
	}
	return mathResult(d.sqrt(prec)), nil
}

// AbsoluteValue is upstream's absolute_value(number).
func (*MathAPI) AbsoluteValue(args stubs.MathAPIAbsoluteValueArgs) (pyval.Value, error) {
	number := args.Number.V
	r, err := pyval.Abs(number)
	return catchType(r, err, "Input must be a number")
}

// RoundNumber is upstream's round_number(number, decimal_places=0).
func (*MathAPI) RoundNumber(args stubs.MathAPIRoundNumberArgs) (pyval.Value, error) {
	number, decimalPlaces := args.Number.V, args.DecimalPlaces.V
	r, err := pyval.Round(number, decimalPlaces)
	return catchType(r, err, "First input must be a number, second input must be an integer")
}

// Percentage is upstream's percentage(part, whole).
func (*MathAPI) Percentage(args stubs.MathAPIPercentageArgs) (pyval.Value, error) {
	part, whole := args.Part.V, args.Whole.V
	if pyval.Equal(whole, pyval.Int(0)) {
		return mathError("Whole value cannot be zero"), nil
	}
	r, err := pyval.TrueDiv(part, whole)
	if err == nil {
		r, err = pyval.Mul(r, pyval.Int(100))
	}
	return catchType(r, err, "Both inputs must be numbers")
}

// minMax is min()/max() over an iterable (op "<" for min, ">" for max).
func minMax(numbers pyargs.List, op string) (pyval.Value, error) {
	items, err := numbers.Iter()
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		name := "min"
		if op == ">" {
			name = "max"
		}
		return nil, pyval.NewValueError("%s() iterable argument is empty", name)
	}
	best := items[0]
	for _, x := range items[1:] {
		better, err := pyval.Compare(op, x, best)
		if err != nil {
			return nil, err
		}
		if better {
			best = x
		}
	}
	return best, nil
}

// MinValue is upstream's min_value(numbers).
func (*MathAPI) MinValue(args stubs.MathAPIMinValueArgs) (pyval.Value, error) {
	if !pyval.Truthy(args.Numbers.V) {
		return mathError("Cannot find minimum of an empty list"), nil
	}
	r, err := minMax(args.Numbers, "<")
	return catchType(r, err, "All elements in the list must be numbers")
}

// MaxValue is upstream's max_value(numbers).
func (*MathAPI) MaxValue(args stubs.MathAPIMaxValueArgs) (pyval.Value, error) {
	if !pyval.Truthy(args.Numbers.V) {
		return mathError("Cannot find maximum of an empty list"), nil
	}
	r, err := minMax(args.Numbers, ">")
	return catchType(r, err, "All elements in the list must be numbers")
}

// SumValues is upstream's sum_values(numbers).
func (*MathAPI) SumValues(args stubs.MathAPISumValuesArgs) (pyval.Value, error) {
	if !pyval.Truthy(args.Numbers.V) {
		return mathError("Cannot calculate sum of an empty list"), nil
	}
	r, err := func() (pyval.Value, error) {
		items, err := args.Numbers.Iter()
		if err != nil {
			return nil, err
		}
		return pyval.Sum(items, nil)
	}()
	return catchType(r, err, "All elements in the list must be numbers")
}

func classMathAPI() Class {
	return Class{
		Name:      "MathAPI",
		Module:    "math_api",
		Stateless: true,
		New:       func(env *Env) Instance { return NewMathAPI(env) },
		Methods:   stubs.MathAPIMethods,
	}
}

// ---- Python complex (only what power() can produce) ----

// pyComplex is a Python complex number.
type pyComplex struct{ re, im float64 }

// complexPow is complex(x) ** complex(y) for a negative finite x and a
// finite non-integral y, computed as CPython's _Py_c_pow does.
func complexPow(x, y float64) (pyval.Value, error) {
	vabs := math.Hypot(x, 0)
	l := bigmath.Pow(vabs, y)
	if math.IsInf(l, 0) {
		return nil, pyval.NewOverflowError("complex exponentiation")
	}
	phase := math.Atan2(0, x) * y
	c, s := crCosSin(phase)
	return pyComplex{l * c, l * s}, nil
}

func (pyComplex) TypeName() string { return "complex" }

// PyRepr is repr(complex).
func (c pyComplex) PyRepr() string {
	part := func(f float64) string {
		if math.IsNaN(f) {
			return "nan"
		}
		if math.IsInf(f, 1) {
			return "inf"
		}
		if math.IsInf(f, -1) {
			return "-inf"
		}
		r := pyval.FloatRepr(f)
		return strings.TrimSuffix(r, ".0")
	}
	imag := part(c.im)
	if c.re == 0 && !math.Signbit(c.re) {
		return imag + "j"
	}
	sign := "+"
	if strings.HasPrefix(imag, "-") {
		sign = ""
	}
	return "(" + part(c.re) + sign + imag + "j)"
}

func (c pyComplex) PyStr() string { return c.PyRepr() }

func (c pyComplex) PyEqual(other pyval.Value) bool {
	switch o := other.(type) {
	case pyComplex:
		return c == o
	case pyval.Int, pyval.Float, pyval.Bool, pyval.BigInt:
		return c.im == 0 && saToFloat(o) == c.re
	}
	return false
}

func (c pyComplex) PyJSON() any {
	return pyval.OrderedObject{{Key: "$object", Value: "builtins.complex"}, {Key: "attrs", Value: pyval.OrderedObject{
		{Key: "real", Value: pyval.Float(c.re)}, {Key: "imag", Value: pyval.Float(c.im)}}}}
}

// ---- mpmath (the subset logarithm uses) ----

// log2of10 is Python's math.log(10, 2) (mpmath's digit/bit conversions).
const log2of10 = 3.3219280948873626

// mpMaxPrec bounds the working precision in bits; a request above it would
// make CPython run for hours, so it is reported as a MemoryError instead.
const mpMaxPrec = 4_000_000

// mpContext is the part of mpmath's global mp context that logarithm sets:
// mp.dps = precision.
type mpContext struct {
	prec uint  // mp.prec (bits)
	dps  int64 // mp.dps
}

// newMPContext is `mpmath.mp.dps = precision` (int() conversion, then
// dps_to_prec).
func newMPContext(precision pyval.Value) (*mpContext, error) {
	n, err := pyval.ToInt(precision)
	if err != nil {
		return nil, err
	}
	ni, ok := n.(pyval.Int)
	if !ok {
		return nil, pyval.NewException("MemoryError", "")
	}
	p := math.RoundToEven(float64(int64(ni)+1) * log2of10)
	if p < 1 {
		p = 1
	}
	if p > mpMaxPrec {
		return nil, pyval.NewException("MemoryError", "")
	}
	dps := int64(ni)
	if dps < 1 {
		dps = 1
	}
	return &mpContext{prec: uint(p), dps: dps}, nil
}

type mpfKind int8

const (
	mpfFinite mpfKind = iota
	mpfPosInf
	mpfNegInf
	mpfNaN
)

// mpmathFloat is an mpmath mpf together with the context precision that
// was in force when it was made (its repr/str depend on it).
type mpmathFloat struct {
	kind mpfKind
	f    *big.Float // finite value (zero has no sign in mpmath)
	ctx  mpContext
}

// mpmathComplex is an mpmath mpc.
type mpmathComplex struct {
	re, im *mpmathFloat
}

func (c *mpContext) finite(f *big.Float) *mpmathFloat {
	return &mpmathFloat{kind: mpfFinite, f: f, ctx: *c}
}

func (c *mpContext) special(k mpfKind) *mpmathFloat { return &mpmathFloat{kind: k, ctx: *c} }

func (c *mpContext) round(f *big.Float) *big.Float {
	return new(big.Float).SetPrec(c.prec).SetMode(big.ToNearestEven).Set(f)
}

// convert is mpmath's ctx.convert for the argument types a model can
// send: ints and floats exactly, strings rounded to the context precision.
func (c *mpContext) convert(v pyval.Value) (*mpmathFloat, error) {
	switch x := v.(type) {
	case pyval.Int:
		return c.finite(new(big.Float).SetInt64(int64(x))), nil
	case pyval.Bool:
		if x {
			return c.finite(big.NewFloat(1)), nil
		}
		return c.finite(new(big.Float)), nil
	case pyval.BigInt:
		return c.finite(new(big.Float).SetInt(x.V)), nil
	case pyval.Float:
		f := float64(x)
		switch {
		case math.IsNaN(f):
			return c.special(mpfNaN), nil
		case math.IsInf(f, 1):
			return c.special(mpfPosInf), nil
		case math.IsInf(f, -1):
			return c.special(mpfNegInf), nil
		}
		return c.finite(new(big.Float).SetFloat64(f)), nil
	case pyval.Str:
		if m, ok := c.fromStr(string(x)); ok {
			return m, nil
		}
	}
	return nil, pyval.NewTypeError("cannot create mpf from %s", pyval.Repr(v))
}

// fromStr is mpmath's from_str (decimal literals, "p/q", inf/nan).
func (c *mpContext) fromStr(s string) (*mpmathFloat, bool) {
	x := strings.TrimSpace(strings.ToLower(s))
	switch x {
	case "inf", "+inf":
		return c.special(mpfPosInf), true
	case "-inf":
		return c.special(mpfNegInf), true
	case "nan":
		return c.special(mpfNaN), true
	}
	if p, q, found := strings.Cut(x, "/"); found {
		pn, ok1 := new(big.Int).SetString(strings.TrimRight(p, "l"), 10)
		qn, ok2 := new(big.Int).SetString(strings.TrimRight(q, "l"), 10)
		if !ok1 || !ok2 || qn.Sign() == 0 {
			return nil, false
		}
		r := new(big.Rat).SetFrac(pn, qn)
		return c.finite(new(big.Float).SetPrec(c.prec).SetMode(big.ToNearestEven).SetRat(r)), true
	}
	x = strings.TrimRight(x, "l")
	if _, err := strconv.ParseFloat(x, 64); err != nil {
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			return nil, false
		}
	}
	if strings.ContainsAny(x, "xpn_") {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(x)
	if !ok {
		return nil, false
	}
	return c.finite(new(big.Float).SetPrec(c.prec).SetMode(big.ToNearestEven).SetRat(r)), true
}

// log is mpmath.log(v) (natural logarithm) at the context precision; a
// negative argument gives an mpc, as mpmath does.
func (c *mpContext) log(v pyval.Value) (pyval.Value, error) {
	x, err := c.convert(v)
	if err != nil {
		return nil, err
	}
	switch x.kind {
	case mpfNaN:
		return c.special(mpfNaN), nil
	case mpfPosInf:
		return c.special(mpfPosInf), nil
	case mpfNegInf:
		return &mpmathComplex{re: c.special(mpfPosInf), im: c.finite(c.round(bigPi(c.prec + 32)))}, nil
	}
	switch x.f.Sign() {
	case 0:
		return c.special(mpfNegInf), nil
	case -1:
		abs := new(big.Float).Abs(x.f)
		return &mpmathComplex{re: c.finite(c.lnAbs(abs)), im: c.finite(c.round(bigPi(c.prec + 32)))}, nil
	}
	return c.finite(c.lnAbs(x.f)), nil
}

// lnAbs is ln(x) for a finite x > 0, correctly rounded to the context
// precision (computed with 64+ guard bits).
func (c *mpContext) lnAbs(x *big.Float) *big.Float {
	if x.Cmp(big.NewFloat(1)) == 0 {
		return new(big.Float)
	}
	return c.round(bigmath.Ln(x, c.prec+64))
}

// bigPi is pi = 16*atan(1/5) - 4*atan(1/239) (Machin).
func bigPi(w uint) *big.Float {
	w += 16
	atanInv := func(n int64) *big.Float {
		x := new(big.Float).SetPrec(w).Quo(big.NewFloat(1), new(big.Float).SetPrec(w).SetInt64(n))
		x2 := new(big.Float).SetPrec(w).Mul(x, x)
		sum := new(big.Float).SetPrec(w).Set(x)
		term := new(big.Float).SetPrec(w).Set(x)
		t := new(big.Float).SetPrec(w)
		for k := int64(3); ; k += 2 {
			term.Mul(term, x2)
			t.Quo(term, new(big.Float).SetPrec(w).SetInt64(k))
			if t.Sign() == 0 || t.MantExp(nil) < -int(w)-4 {
				break
			}
			if (k/2)%2 == 1 {
				sum.Sub(sum, t)
			} else {
				sum.Add(sum, t)
			}
		}
		return sum
	}
	a := atanInv(5)
	a.Mul(a, new(big.Float).SetInt64(16))
	b := atanInv(239)
	b.Mul(b, new(big.Float).SetInt64(4))
	return a.Sub(a, b)
}

// div is the mpmath `/` between the results of two log calls.
func (c *mpContext) div(a, b pyval.Value) (pyval.Value, error) {
	switch x := a.(type) {
	case *mpmathFloat:
		switch y := b.(type) {
		case *mpmathFloat:
			return c.mpfDiv(x, y)
		case *mpmathComplex:
			return c.mpfDivMpc(x, y)
		}
	case *mpmathComplex:
		switch y := b.(type) {
		case *mpmathFloat:
			re, err := c.mpfDiv(x.re, y)
			if err != nil {
				return nil, err
			}
			im, err := c.mpfDiv(x.im, y)
			if err != nil {
				return nil, err
			}
			return &mpmathComplex{re: re, im: im}, nil
		case *mpmathComplex:
			return c.mpcDiv(x, y)
		}
	}
	return nil, pyval.NewTypeError("unsupported operand type(s) for /: '%s' and '%s'", a.TypeName(), b.TypeName())
}

// mpfDiv is mpmath's mpf_div with round-to-nearest.
func (c *mpContext) mpfDiv(s, t *mpmathFloat) (*mpmathFloat, error) {
	sZero := s.kind == mpfFinite && s.f.Sign() == 0
	tZero := t.kind == mpfFinite && t.f.Sign() == 0
	if s.kind != mpfFinite || t.kind != mpfFinite || sZero || tZero {
		if sZero {
			if tZero {
				return nil, pyval.NewZeroDivisionError("")
			}
			if t.kind == mpfNaN {
				return c.special(mpfNaN), nil
			}
			return c.finite(new(big.Float)), nil
		}
		if tZero {
			return nil, pyval.NewZeroDivisionError("")
		}
		sSpecial, tSpecial := s.kind != mpfFinite, t.kind != mpfFinite
		if sSpecial && tSpecial {
			return c.special(mpfNaN), nil
		}
		if s.kind == mpfNaN || t.kind == mpfNaN {
			return c.special(mpfNaN), nil
		}
		if !tSpecial {
			sign := 1
			if s.kind == mpfNegInf {
				sign = -1
			}
			if t.f.Sign() < 0 {
				sign = -sign
			}
			if sign > 0 {
				return c.special(mpfPosInf), nil
			}
			return c.special(mpfNegInf), nil
		}
		return c.finite(new(big.Float)), nil
	}
	q := new(big.Float).SetPrec(c.prec).SetMode(big.ToNearestEven).Quo(s.f, t.f)
	return c.finite(q), nil
}

func exactMul(a, b *big.Float) *big.Float {
	return new(big.Float).SetPrec(a.MinPrec()+b.MinPrec()+1).Mul(a, b)
}

func addDown(a, b *big.Float, prec uint) *big.Float {
	return new(big.Float).SetPrec(prec).SetMode(big.ToZero).Add(a, b)
}

func bothFinite(vs ...*mpmathFloat) bool {
	for _, v := range vs {
		if v.kind != mpfFinite {
			return false
		}
	}
	return true
}

// mpfDivMpc is mpmath's mpc_mpf_div (real / complex).
func (c *mpContext) mpfDivMpc(p *mpmathFloat, z *mpmathComplex) (pyval.Value, error) {
	if !bothFinite(p, z.re, z.im) {
		return nil, pyval.NewException("NotImplementedError", "division of non-finite mpmath complex values is not reproduced")
	}
	a, b := z.re.f, z.im.f
	m := addDown(exactMul(a, a), exactMul(b, b), c.prec+10)
	re, err := c.mpfDiv(c.finite(exactMul(a, p.f)), c.finite(m))
	if err != nil {
		return nil, err
	}
	nb := exactMul(b, p.f)
	nb.Neg(nb)
	im, err := c.mpfDiv(c.finite(nb), c.finite(m))
	if err != nil {
		return nil, err
	}
	return &mpmathComplex{re: re, im: im}, nil
}

// mpcDiv is mpmath's mpc_div.
func (c *mpContext) mpcDiv(z, w *mpmathComplex) (pyval.Value, error) {
	if !bothFinite(z.re, z.im, w.re, w.im) {
		return nil, pyval.NewException("NotImplementedError", "division of non-finite mpmath complex values is not reproduced")
	}
	a, b, cc, d := z.re.f, z.im.f, w.re.f, w.im.f
	wp := c.prec + 10
	mag := addDown(exactMul(cc, cc), exactMul(d, d), wp)
	t := addDown(exactMul(a, cc), exactMul(b, d), wp)
	ad := exactMul(a, d)
	ad.Neg(ad)
	u := addDown(exactMul(b, cc), ad, wp)
	re, err := c.mpfDiv(c.finite(t), c.finite(mag))
	if err != nil {
		return nil, err
	}
	im, err := c.mpfDiv(c.finite(u), c.finite(mag))
	if err != nil {
		return nil, err
	}
	return &mpmathComplex{re: re, im: im}, nil
}

// mpReprDPS is mpmath's repr_dps(prec).
func mpReprDPS(prec uint) int {
	dps := int(math.RoundToEven(float64(prec)/log2of10)) - 1
	if dps < 1 {
		dps = 1
	}
	if dps == 15 {
		return 17
	}
	return dps + 3
}

// mpToStr is mpmath's to_str(x, dps) with default options.
func mpToStr(x *mpmathFloat, dps int) string {
	switch x.kind {
	case mpfPosInf:
		return "+inf"
	case mpfNegInf:
		return "-inf"
	case mpfNaN:
		return "nan"
	}
	if x.f.Sign() == 0 {
		return "0.0"
	}
	minFixed := -(dps / 3)
	if minFixed > -5 {
		minFixed = -5
	}
	maxFixed := dps
	sign, digits, exponent := mpToDigitsExp(x.f, dps+3)
	if len(digits) > dps && strings.IndexByte("56789", digits[dps]) >= 0 {
		d := []byte(digits[:dps])
		i := dps - 1
		for i >= 0 && d[i] == '9' {
			i--
		}
		if i >= 0 {
			d[i]++
			for j := i + 1; j < dps; j++ {
				d[j] = '0'
			}
			digits = string(d)
		} else {
			digits = "1" + strings.Repeat("0", dps-1)
			exponent++
		}
	} else if len(digits) > dps {
		digits = digits[:dps]
	}
	split := 1
	if minFixed < exponent && exponent < maxFixed {
		if exponent < 0 {
			digits = strings.Repeat("0", -exponent) + digits
			split = 1
		} else {
			split = exponent + 1
			if split > dps {
				digits += strings.Repeat("0", split-dps)
			}
		}
		exponent = 0
	}
	if split > len(digits) {
		split = len(digits)
	}
	digits = digits[:split] + "." + digits[split:]
	digits = strings.TrimRight(digits, "0")
	if strings.HasSuffix(digits, ".") {
		digits += "0"
	}
	switch {
	case exponent == 0:
		return sign + digits
	case exponent > 0:
		return sign + digits + "e+" + strconv.Itoa(exponent)
	}
	return sign + digits + "e" + strconv.Itoa(exponent)
}

// mpToDigitsExp is mpmath's to_digits_exp: about dps decimal digits of
// |x| (truncated), the sign and the decimal exponent of the first digit.
func mpToDigitsExp(x *big.Float, dps int) (string, string, int) {
	sign := ""
	if x.Sign() < 0 {
		sign = "-"
	}
	abs := new(big.Float).Abs(x)
	bc := int(abs.MinPrec())
	e2 := abs.MantExp(nil) // abs = man * 2**(e2-bc), man an integer of bc bits
	man, _ := new(big.Float).SetMantExp(abs, bc-e2).Int(nil)
	exp := e2 - bc
	bitprec := int(float64(dps)*log2of10) + 10
	fixprec := bitprec - exp - bc
	if fixprec < 0 {
		fixprec = 0
	}
	fixdps := int(float64(fixprec)/log2of10 + 0.5)
	sf := new(big.Int)
	if off := exp + fixprec; off >= 0 {
		sf.Lsh(man, uint(off))
	} else {
		sf.Rsh(man, uint(-off))
	}
	sd := new(big.Int).Mul(sf, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(fixdps)), nil))
	sd.Rsh(sd, uint(fixprec))
	digits := sd.String()
	return sign, digits, len(digits) - fixdps - 1
}

func (*mpmathFloat) TypeName() string { return "mpf" }

// PyRepr is repr(mpf): mpf('<repr_dps digits>').
func (x *mpmathFloat) PyRepr() string {
	return "mpf('" + mpToStr(x, mpReprDPS(x.ctx.prec)) + "')"
}

// PyStr is str(mpf): mp.dps digits.
func (x *mpmathFloat) PyStr() string { return mpToStr(x, int(x.ctx.dps)) }

func (x *mpmathFloat) rat() (*big.Rat, bool) {
	if x.kind != mpfFinite {
		return nil, false
	}
	r, _ := x.f.Rat(nil)
	return r, true
}

// PyEqual compares the numeric value with another mpf or a Python number.
func (x *mpmathFloat) PyEqual(other pyval.Value) bool {
	switch o := other.(type) {
	case *mpmathFloat:
		if x.kind != mpfFinite || o.kind != mpfFinite {
			return x.kind == o.kind && x.kind != mpfNaN
		}
		return x.f.Cmp(o.f) == 0
	case pyval.Int, pyval.Bool, pyval.BigInt, pyval.Float:
		r, ok := x.rat()
		or, ok2 := saBigRat(o)
		if !ok || !ok2 {
			f := saToFloat(o)
			return (x.kind == mpfPosInf && math.IsInf(f, 1)) || (x.kind == mpfNegInf && math.IsInf(f, -1))
		}
		return r.Cmp(or) == 0
	}
	return false
}

// PyJSON is the pyjson v1 encoding {"$mpf": str(v), "repr": repr(v)}.
func (x *mpmathFloat) PyJSON() any {
	return pyval.OrderedObject{{Key: "$mpf", Value: x.PyStr()}, {Key: "repr", Value: x.PyRepr()}}
}

func (*mpmathComplex) TypeName() string { return "mpc" }

// PyRepr is repr(mpc): mpc(real='..', imag='..').
func (z *mpmathComplex) PyRepr() string {
	re := mpToStr(z.re, mpReprDPS(z.re.ctx.prec))
	im := mpToStr(z.im, mpReprDPS(z.im.ctx.prec))
	return "mpc(real='" + re + "', imag='" + im + "')"
}

// PyStr is str(mpc): (re + imj).
func (z *mpmathComplex) PyStr() string {
	dps := int(z.re.ctx.dps)
	re := mpToStr(z.re, dps)
	if z.im.kind == mpfNegInf || (z.im.kind == mpfFinite && z.im.f.Sign() < 0) {
		neg := *z.im
		switch neg.kind {
		case mpfNegInf:
			neg.kind = mpfPosInf
		default:
			neg.f = new(big.Float).Neg(z.im.f)
		}
		return "(" + re + " - " + mpToStr(&neg, dps) + "j)"
	}
	return "(" + re + " + " + mpToStr(z.im, dps) + "j)"
}

// PyEqual compares both parts.
func (z *mpmathComplex) PyEqual(other pyval.Value) bool {
	o, ok := other.(*mpmathComplex)
	return ok && z.re.PyEqual(o.re) && z.im.PyEqual(o.im)
}

// PyJSON encodes the value as an mpmath object with its repr.
func (z *mpmathComplex) PyJSON() any {
	return pyval.OrderedObject{{Key: "$object", Value: "mpmath.ctx_mp_python.mpc"}, {Key: "attrs", Value: pyval.OrderedObject{
		{Key: "real", Value: z.re.PyJSON()}, {Key: "imag", Value: z.im.PyJSON()}}}}
}

// ---- decimal.Decimal (the subset square_root uses) ----

// decimalMaxPrec bounds the precision this port computes with; CPython
// accepts up to MAX_PREC but would take hours far below that.
const decimalMaxPrec = 2_000_000

// decimalPrecision is `getcontext().prec = precision`.
func decimalPrecision(v pyval.Value) (int64, error) {
	var p int64
	switch x := v.(type) {
	case pyval.Int:
		p = int64(x)
	case pyval.Bool:
		if x {
			p = 1
		}
	case pyval.BigInt:
		if !x.V.IsInt64() {
			return 0, pyval.NewOverflowError("Python int too large to convert to C ssize_t")
		}
		p = x.V.Int64()
	default:
		return 0, pyval.NewTypeError("an integer is required")
	}
	if p < 1 || p > 999999999999999999 {
		return 0, pyval.NewValueError("valid range for prec is [1, MAX_PREC]")
	}
	if p > decimalMaxPrec {
		return 0, pyval.NewException("MemoryError", "")
	}
	return p, nil
}

// pyDecimal is a decimal.Decimal: (-1)**neg * coef * 10**exp, or a
// special value.
type pyDecimal struct {
	neg     bool
	special byte // 0 finite, 'I' infinity, 'N' NaN
	coef    *big.Int
	exp     int64
}

// decimalFromNumber is Decimal(v) for an int, bool or float (exact).
func decimalFromNumber(v pyval.Value) (*pyDecimal, error) {
	switch x := v.(type) {
	case pyval.Int:
		n := big.NewInt(int64(x))
		return &pyDecimal{neg: n.Sign() < 0, coef: n.Abs(n)}, nil
	case pyval.Bool:
		if x {
			return &pyDecimal{coef: big.NewInt(1)}, nil
		}
		return &pyDecimal{coef: new(big.Int)}, nil
	case pyval.BigInt:
		return &pyDecimal{neg: x.V.Sign() < 0, coef: new(big.Int).Abs(x.V)}, nil
	case pyval.Float:
		f := float64(x)
		switch {
		case math.IsNaN(f):
			return &pyDecimal{special: 'N'}, nil
		case math.IsInf(f, 0):
			return &pyDecimal{special: 'I', neg: f < 0}, nil
		}
		neg := math.Signbit(f)
		r, _ := new(big.Float).SetFloat64(math.Abs(f)).Rat(nil)
		num, den := r.Num(), r.Denom()
		k := int64(den.BitLen() - 1) // den == 2**k
		coef := new(big.Int).Mul(num, new(big.Int).Exp(big.NewInt(5), big.NewInt(k), nil))
		return &pyDecimal{neg: neg, coef: coef, exp: -k}, nil
	}
	return nil, pyval.NewTypeError("conversion from %s to Decimal is not supported", v.TypeName())
}

func pow10(n int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil) }

func floorDiv2(e int64) int64 { return e >> 1 }

// sqrt is Decimal.sqrt() with context precision prec (ROUND_HALF_EVEN),
// following the General Decimal Arithmetic algorithm CPython implements:
// correctly rounded, and exact results use the ideal exponent floor(exp/2).
func (d *pyDecimal) sqrt(prec int64) *pyDecimal {
	switch d.special {
	case 'N':
		return &pyDecimal{special: 'N', neg: d.neg}
	case 'I':
		return &pyDecimal{special: 'I'}
	}
	if d.coef.Sign() == 0 {
		return &pyDecimal{neg: d.neg, coef: new(big.Int), exp: floorDiv2(d.exp)}
	}
	p := prec + 1
	e := floorDiv2(d.exp)
	ndigits := int64(len(d.coef.String()))
	var c *big.Int
	var l int64
	if d.exp&1 != 0 {
		c = new(big.Int).Mul(d.coef, big.NewInt(10))
		l = ndigits>>1 + 1
	} else {
		c = new(big.Int).Set(d.coef)
		l = (ndigits + 1) >> 1
	}
	shift := p - l
	exact := true
	hundred := big.NewInt(100)
	if shift >= 0 {
		c.Mul(c, new(big.Int).Exp(hundred, big.NewInt(shift), nil))
	} else {
		var rem big.Int
		c.QuoRem(c, new(big.Int).Exp(hundred, big.NewInt(-shift), nil), &rem)
		exact = rem.Sign() == 0
	}
	e -= shift
	n := new(big.Int).Sqrt(c)
	exact = exact && new(big.Int).Mul(n, n).Cmp(c) == 0
	if exact {
		if shift >= 0 {
			n.Quo(n, pow10(shift))
		} else {
			n.Mul(n, pow10(-shift))
		}
		e += shift
	} else if new(big.Int).Mod(n, big.NewInt(5)).Sign() == 0 {
		n.Add(n, big.NewInt(1))
	}
	return decimalRound(&pyDecimal{coef: n, exp: e}, prec)
}

// decimalRound is Decimal._fix's rounding to prec digits (ROUND_HALF_EVEN).
func decimalRound(d *pyDecimal, prec int64) *pyDecimal {
	s := d.coef.String()
	drop := int64(len(s)) - prec
	if drop <= 0 {
		return d
	}
	div := pow10(drop)
	q, r := new(big.Int).QuoRem(d.coef, div, new(big.Int))
	half := new(big.Int).Mul(big.NewInt(5), pow10(drop-1))
	switch r.Cmp(half) {
	case 1:
		q.Add(q, big.NewInt(1))
	case 0:
		if q.Bit(0) == 1 {
			q.Add(q, big.NewInt(1))
		}
	}
	exp := d.exp + drop
	if int64(len(q.String())) > prec {
		q.Quo(q, big.NewInt(10))
		exp++
	}
	return &pyDecimal{neg: d.neg, coef: q, exp: exp}
}

func (*pyDecimal) TypeName() string { return "Decimal" }

// PyStr is str(Decimal) (to-scientific-string).
func (d *pyDecimal) PyStr() string {
	sign := ""
	if d.neg {
		sign = "-"
	}
	switch d.special {
	case 'N':
		return sign + "NaN"
	case 'I':
		return sign + "Infinity"
	}
	digits := d.coef.String()
	left := d.exp + int64(len(digits))
	var dot int64
	if d.exp <= 0 && left > -6 {
		dot = left
	} else {
		dot = 1
	}
	var intPart, fracPart string
	switch {
	case dot <= 0:
		intPart = "0"
		fracPart = "." + strings.Repeat("0", int(-dot)) + digits
	case dot >= int64(len(digits)):
		intPart = digits + strings.Repeat("0", int(dot-int64(len(digits))))
	default:
		intPart = digits[:dot]
		fracPart = "." + digits[dot:]
	}
	exp := ""
	if left != dot {
		exp = "E" + strconv.FormatInt(left-dot, 10)
		if left-dot >= 0 {
			exp = "E+" + strconv.FormatInt(left-dot, 10)
		}
	}
	return sign + intPart + fracPart + exp
}

// PyRepr is repr(Decimal): Decimal('<str>').
func (d *pyDecimal) PyRepr() string { return "Decimal('" + d.PyStr() + "')" }

// PyEqual compares numeric values (NaN is never equal).
func (d *pyDecimal) PyEqual(other pyval.Value) bool {
	r, ok := d.rat()
	if !ok {
		if o, isDec := other.(*pyDecimal); isDec {
			return d.special == 'I' && o.special == 'I' && d.neg == o.neg
		}
		if f, isF := other.(pyval.Float); isF && d.special == 'I' {
			return math.IsInf(float64(f), 1) && !d.neg || math.IsInf(float64(f), -1) && d.neg
		}
		return false
	}
	var or *big.Rat
	switch o := other.(type) {
	case *pyDecimal:
		or, ok = o.rat()
	default:
		or, ok = saBigRat(other)
	}
	return ok && r.Cmp(or) == 0
}

func (d *pyDecimal) rat() (*big.Rat, bool) {
	if d.special != 0 {
		return nil, false
	}
	r := new(big.Rat).SetInt(d.coef)
	if d.exp >= 0 {
		r.Mul(r, new(big.Rat).SetInt(pow10(d.exp)))
	} else {
		r.Quo(r, new(big.Rat).SetInt(pow10(-d.exp)))
	}
	if d.neg {
		r.Neg(r)
	}
	return r, true
}

// PyJSON is the pyjson v1 encoding {"$decimal": str(v)}.
func (d *pyDecimal) PyJSON() any { return pyval.OrderedObject{{Key: "$decimal", Value: d.PyStr()}} }

// crCosSin is (cos(x), sin(x)) correctly rounded, as glibc computes them.
func crCosSin(x float64) (float64, float64) {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN(), math.NaN()
	}
	e := math.Ilogb(x)
	if e < 0 {
		e = 0
	}
	w := uint(e) + 200
	pi := bigPi(w)
	twoPi := new(big.Float).SetPrec(w).SetMantExp(pi, 1)
	a := new(big.Float).SetPrec(w).SetFloat64(x)
	q := new(big.Float).SetPrec(w).Quo(a, twoPi)
	qi, _ := q.Int(nil)
	a.Sub(a, new(big.Float).SetPrec(w).Mul(new(big.Float).SetInt(qi), twoPi))
	// Taylor series on the reduced argument |a| < 2*pi.
	a2 := new(big.Float).SetPrec(w).Mul(a, a)
	cosSum := new(big.Float).SetPrec(w).SetInt64(1)
	sinSum := new(big.Float).SetPrec(w).Set(a)
	ct := new(big.Float).SetPrec(w).SetInt64(1)
	st := new(big.Float).SetPrec(w).Set(a)
	for n := int64(1); n < 2000; n++ {
		ct.Mul(ct, a2)
		ct.Quo(ct, new(big.Float).SetPrec(w).SetInt64((2*n-1)*(2*n)))
		ct.Neg(ct)
		st.Mul(st, a2)
		st.Quo(st, new(big.Float).SetPrec(w).SetInt64((2*n)*(2*n+1)))
		st.Neg(st)
		cosSum.Add(cosSum, ct)
		sinSum.Add(sinSum, st)
		if (ct.Sign() == 0 || ct.MantExp(nil) < -int(w)) && (st.Sign() == 0 || st.MantExp(nil) < -int(w)) {
			break
		}
	}
	c, _ := cosSum.Float64()
	s, _ := sinSum.Float64()
	return c, s
}
