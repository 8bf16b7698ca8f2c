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
	"math"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/bigmath"

	"github.com/bfcl-go/bfcl/internal/python/pyargs"
	"github.com/bfcl-go/bfcl/internal/python/pynum"
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
			return errorDict(msg), nil
		}
		return nil, err
	}
	return oneKey("result", v), nil
}

// Logarithm is upstream's logarithm(value, base, precision): mpmath with
// mp.dps = precision; every exception becomes {"error": str(e)}.
func (*MathAPI) Logarithm(args stubs.MathAPILogarithmArgs) (pyval.Value, error) {
	value, base, precision := args.Value.V, args.Base.V, args.Precision.V
	ctx, err := pynum.NewMPContext(precision)
	if err != nil {
		return errorDict(err.Error()), nil
	}
	lv, err := ctx.Log(value)
	if err != nil {
		return errorDict(err.Error()), nil
	}
	lb, err := ctx.Log(base)
	if err != nil {
		return errorDict(err.Error()), nil
	}
	q, err := ctx.Div(lv, lb)
	if err != nil {
		return errorDict(err.Error()), nil
	}
	return oneKey("result", q), nil
}

// Mean is upstream's mean(numbers).
func (*MathAPI) Mean(args stubs.MathAPIMeanArgs) (pyval.Value, error) {
	if !pyval.Truthy(args.Numbers.V) {
		return errorDict("Cannot calculate mean of an empty list"), nil
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
		return errorDict("Cannot calculate standard deviation of an empty list"), nil
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
		return errorDict("Value must be a number"), nil
	}
	for _, u := range []pyval.Value{unitIn, unitOut} {
		if err := pyval.CheckHashable(u); err != nil {
			return nil, err
		}
	}
	in, inOK := unitIn.(pyval.Str)
	out, outOK := unitOut.(pyval.Str)
	if !inOK || siToMeters(string(in)) == nil || !outOK || siToMeters(string(out)) == nil {
		return errorDict("Conversion from '" + pyval.StrOf(unitIn) + "' to '" + pyval.StrOf(unitOut) + "' is not supported"), nil
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
			return oneKey("result", r), nil
		}
	}
	if pyval.IsException(err, "OverflowError") {
		return errorDict("Conversion resulted in a value too large to represent"), nil
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
		return errorDict("Value must be a number"), nil
	}
	if pyval.Equal(unitIn, unitOut) {
		return oneKey("result", value), nil
	}
	key := pyval.StrOf(unitIn) + "_to_" + pyval.StrOf(unitOut)
	factor, ok := imperialFactor(key)
	if !ok {
		return errorDict("Conversion from '" + pyval.StrOf(unitIn) + "' to '" + pyval.StrOf(unitOut) + "' is not supported"), nil
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
			return errorDict("Conversion resulted in a value too large to represent"), nil
		}
		return nil, err
	}
	return oneKey("result", r), nil
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
		return errorDict("Both inputs must be numbers"), nil
	}
	r, err := pyval.Mul(a, b)
	return catchType(r, err, "Both inputs must be numbers")
}

// Divide is upstream's divide(a, b).
func (*MathAPI) Divide(args stubs.MathAPIDivideArgs) (pyval.Value, error) {
	a, b := args.A.V, args.B.V
	if pyval.Equal(b, pyval.Int(0)) {
		return errorDict("Cannot divide by zero"), nil
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
			return pynum.ComplexPow(iv, iw)
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
	var r float64
	switch iw {
	case 1:
		r = iv
	case 2:
		// The correctly rounded square is the product (IEEE multiplication
		// rounds exactly once), overflow included; no need for the
		// 200-bit evaluation (statistics square every deviation).
		r = iv * iv
	default:
		r = bigmath.Pow(iv, iw)
	}
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
			return errorDict(msg), nil
		}
		return nil, err
	}
	if neg {
		return errorDict("Cannot calculate square root of a negative number"), nil
	}
	prec, err := pynum.DecimalPrecision(precision)
	if err != nil {
		if pyval.IsException(err, "TypeError") {
			return errorDict(msg), nil
		}
		return nil, err
	}
	d, err := pynum.DecimalFromNumber(number)
	if err != nil {
		if pyval.IsException(err, "TypeError") {
			return errorDict(msg), nil
		}
		return nil, err
	}
	return oneKey("result", d.Sqrt(prec)), nil
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
		return errorDict("Whole value cannot be zero"), nil
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
		return errorDict("Cannot find minimum of an empty list"), nil
	}
	r, err := minMax(args.Numbers, "<")
	return catchType(r, err, "All elements in the list must be numbers")
}

// MaxValue is upstream's max_value(numbers).
func (*MathAPI) MaxValue(args stubs.MathAPIMaxValueArgs) (pyval.Value, error) {
	if !pyval.Truthy(args.Numbers.V) {
		return errorDict("Cannot find maximum of an empty list"), nil
	}
	r, err := minMax(args.Numbers, ">")
	return catchType(r, err, "All elements in the list must be numbers")
}

// SumValues is upstream's sum_values(numbers).
func (*MathAPI) SumValues(args stubs.MathAPISumValuesArgs) (pyval.Value, error) {
	if !pyval.Truthy(args.Numbers.V) {
		return errorDict("Cannot calculate sum of an empty list"), nil
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
