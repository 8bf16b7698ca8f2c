// Package pynum holds the Python numeric values beyond int and float that
// the MathAPI backend (sim/math_api.go, a port of upstream's
// func_source_code/math_api.py) returns: complex (what float ** float gives
// for a negative base), mpmath's mpf and mpc (the subset logarithm uses,
// with mpmath 1.2's repr) and decimal.Decimal (the subset square_root uses,
// with CPython's repr). Each is a pyval value with Python's repr, str,
// equality and JSON form.
package pynum

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/bigmath"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// ---- Python complex (only what power() can produce) ----

// Complex is a Python complex number.
type Complex struct{ re, im float64 }

// ComplexPow is complex(x) ** complex(y) for a negative finite x and a
// finite non-integral y, computed as CPython's _Py_c_pow does.
func ComplexPow(x, y float64) (pyval.Value, error) {
	vabs := math.Hypot(x, 0)
	l := bigmath.Pow(vabs, y)
	if math.IsInf(l, 0) {
		return nil, pyval.NewOverflowError("complex exponentiation")
	}
	phase := math.Atan2(0, x) * y
	c, s := crCosSin(phase)
	return Complex{l * c, l * s}, nil
}

func (Complex) TypeName() string { return "complex" }

// PyRepr is repr(complex).
func (c Complex) PyRepr() string {
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

func (c Complex) PyStr() string { return c.PyRepr() }

func (c Complex) PyEqual(other pyval.Value) bool {
	switch o := other.(type) {
	case Complex:
		return c == o
	case pyval.Int, pyval.Float, pyval.Bool, pyval.BigInt:
		return c.im == 0 && pyval.Float64Of(o) == c.re
	}
	return false
}

func (c Complex) PyJSON() any {
	return pyval.OrderedObject{{Key: "$object", Value: "builtins.complex"}, {Key: "attrs", Value: pyval.OrderedObject{
		{Key: "real", Value: pyval.Float(c.re)}, {Key: "imag", Value: pyval.Float(c.im)}}}}
}

// ---- mpmath (the subset logarithm uses) ----

// log2of10 is Python's math.log(10, 2) (mpmath's digit/bit conversions).
const log2of10 = 3.3219280948873626

// mpMaxPrec bounds the working precision in bits; a request above it would
// make CPython run for hours, so it is reported as a MemoryError instead.
const mpMaxPrec = 4_000_000

// MPContext is the part of mpmath's global mp context that logarithm sets:
// mp.dps = precision.
type MPContext struct {
	prec uint  // mp.prec (bits)
	dps  int64 // mp.dps
}

// NewMPContext is `mpmath.mp.dps = precision` (int() conversion, then
// dps_to_prec).
func NewMPContext(precision pyval.Value) (*MPContext, error) {
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
	return &MPContext{prec: uint(p), dps: dps}, nil
}

type mpfKind int8

const (
	mpfFinite mpfKind = iota
	mpfPosInf
	mpfNegInf
	mpfNaN
)

// MPF is an mpmath mpf together with the context precision that
// was in force when it was made (its repr/str depend on it).
type MPF struct {
	kind mpfKind
	f    *big.Float // finite value (zero has no sign in mpmath)
	ctx  MPContext
}

// MPC is an mpmath mpc.
type MPC struct {
	re, im *MPF
}

func (c *MPContext) finite(f *big.Float) *MPF {
	return &MPF{kind: mpfFinite, f: f, ctx: *c}
}

func (c *MPContext) special(k mpfKind) *MPF { return &MPF{kind: k, ctx: *c} }

func (c *MPContext) round(f *big.Float) *big.Float {
	return new(big.Float).SetPrec(c.prec).SetMode(big.ToNearestEven).Set(f)
}

// convert is mpmath's ctx.convert for the argument types a model can
// send: ints and floats exactly, strings rounded to the context precision.
func (c *MPContext) convert(v pyval.Value) (*MPF, error) {
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
func (c *MPContext) fromStr(s string) (*MPF, bool) {
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
func (c *MPContext) Log(v pyval.Value) (pyval.Value, error) {
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
		return &MPC{re: c.special(mpfPosInf), im: c.finite(c.round(bigPi(c.prec + 32)))}, nil
	}
	switch x.f.Sign() {
	case 0:
		return c.special(mpfNegInf), nil
	case -1:
		abs := new(big.Float).Abs(x.f)
		return &MPC{re: c.finite(c.lnAbs(abs)), im: c.finite(c.round(bigPi(c.prec + 32)))}, nil
	}
	return c.finite(c.lnAbs(x.f)), nil
}

// lnAbs is ln(x) for a finite x > 0, correctly rounded to the context
// precision (computed with 64+ guard bits).
func (c *MPContext) lnAbs(x *big.Float) *big.Float {
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
func (c *MPContext) Div(a, b pyval.Value) (pyval.Value, error) {
	switch x := a.(type) {
	case *MPF:
		switch y := b.(type) {
		case *MPF:
			return c.mpfDiv(x, y)
		case *MPC:
			return c.mpfDivMpc(x, y)
		}
	case *MPC:
		switch y := b.(type) {
		case *MPF:
			re, err := c.mpfDiv(x.re, y)
			if err != nil {
				return nil, err
			}
			im, err := c.mpfDiv(x.im, y)
			if err != nil {
				return nil, err
			}
			return &MPC{re: re, im: im}, nil
		case *MPC:
			return c.mpcDiv(x, y)
		}
	}
	return nil, pyval.NewTypeError("unsupported operand type(s) for /: '%s' and '%s'", a.TypeName(), b.TypeName())
}

// mpfDiv is mpmath's mpf_div with round-to-nearest.
func (c *MPContext) mpfDiv(s, t *MPF) (*MPF, error) {
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

func bothFinite(vs ...*MPF) bool {
	for _, v := range vs {
		if v.kind != mpfFinite {
			return false
		}
	}
	return true
}

// mpfDivMpc is mpmath's mpc_mpf_div (real / complex).
func (c *MPContext) mpfDivMpc(p *MPF, z *MPC) (pyval.Value, error) {
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
	return &MPC{re: re, im: im}, nil
}

// mpcDiv is mpmath's mpc_div.
func (c *MPContext) mpcDiv(z, w *MPC) (pyval.Value, error) {
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
	return &MPC{re: re, im: im}, nil
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
func mpToStr(x *MPF, dps int) string {
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

func (*MPF) TypeName() string { return "mpf" }

// PyRepr is repr(mpf): mpf('<repr_dps digits>').
func (x *MPF) PyRepr() string {
	return "mpf('" + mpToStr(x, mpReprDPS(x.ctx.prec)) + "')"
}

// PyStr is str(mpf): mp.dps digits.
func (x *MPF) PyStr() string { return mpToStr(x, int(x.ctx.dps)) }

func (x *MPF) rat() (*big.Rat, bool) {
	if x.kind != mpfFinite {
		return nil, false
	}
	r, _ := x.f.Rat(nil)
	return r, true
}

// PyEqual compares the numeric value with another mpf or a Python number.
func (x *MPF) PyEqual(other pyval.Value) bool {
	switch o := other.(type) {
	case *MPF:
		if x.kind != mpfFinite || o.kind != mpfFinite {
			return x.kind == o.kind && x.kind != mpfNaN
		}
		return x.f.Cmp(o.f) == 0
	case pyval.Int, pyval.Bool, pyval.BigInt, pyval.Float:
		r, ok := x.rat()
		or, ok2 := pyval.ExactRat(o)
		if !ok || !ok2 {
			f := pyval.Float64Of(o)
			return (x.kind == mpfPosInf && math.IsInf(f, 1)) || (x.kind == mpfNegInf && math.IsInf(f, -1))
		}
		return r.Cmp(or) == 0
	}
	return false
}

// PyJSON is the pyjson v1 encoding {"$mpf": str(v), "repr": repr(v)}.
func (x *MPF) PyJSON() any {
	return pyval.OrderedObject{{Key: "$mpf", Value: x.PyStr()}, {Key: "repr", Value: x.PyRepr()}}
}

func (*MPC) TypeName() string { return "mpc" }

// PyRepr is repr(mpc): mpc(real='..', imag='..').
func (z *MPC) PyRepr() string {
	re := mpToStr(z.re, mpReprDPS(z.re.ctx.prec))
	im := mpToStr(z.im, mpReprDPS(z.im.ctx.prec))
	return "mpc(real='" + re + "', imag='" + im + "')"
}

// PyStr is str(mpc): (re + imj).
func (z *MPC) PyStr() string {
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
func (z *MPC) PyEqual(other pyval.Value) bool {
	o, ok := other.(*MPC)
	return ok && z.re.PyEqual(o.re) && z.im.PyEqual(o.im)
}

// PyJSON encodes the value as an mpmath object with its repr.
func (z *MPC) PyJSON() any {
	return pyval.OrderedObject{{Key: "$object", Value: "mpmath.ctx_mp_python.mpc"}, {Key: "attrs", Value: pyval.OrderedObject{
		{Key: "real", Value: z.re.PyJSON()}, {Key: "imag", Value: z.im.PyJSON()}}}}
}

// ---- decimal.Decimal (the subset square_root uses) ----

// decimalMaxPrec bounds the precision this port computes with; CPython
// accepts up to MAX_PREC but would take hours far below that.
const decimalMaxPrec = 2_000_000

// DecimalPrecision is `getcontext().prec = precision`.
func DecimalPrecision(v pyval.Value) (int64, error) {
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

// Decimal is a decimal.Decimal: (-1)**neg * coef * 10**exp, or a
// special value.
type Decimal struct {
	neg     bool
	special byte // 0 finite, 'I' infinity, 'N' NaN
	coef    *big.Int
	exp     int64
}

// DecimalFromNumber is Decimal(v) for an int, bool or float (exact).
func DecimalFromNumber(v pyval.Value) (*Decimal, error) {
	switch x := v.(type) {
	case pyval.Int:
		n := big.NewInt(int64(x))
		return &Decimal{neg: n.Sign() < 0, coef: n.Abs(n)}, nil
	case pyval.Bool:
		if x {
			return &Decimal{coef: big.NewInt(1)}, nil
		}
		return &Decimal{coef: new(big.Int)}, nil
	case pyval.BigInt:
		return &Decimal{neg: x.V.Sign() < 0, coef: new(big.Int).Abs(x.V)}, nil
	case pyval.Float:
		f := float64(x)
		switch {
		case math.IsNaN(f):
			return &Decimal{special: 'N'}, nil
		case math.IsInf(f, 0):
			return &Decimal{special: 'I', neg: f < 0}, nil
		}
		neg := math.Signbit(f)
		r, _ := new(big.Float).SetFloat64(math.Abs(f)).Rat(nil)
		num, den := r.Num(), r.Denom()
		k := int64(den.BitLen() - 1) // den == 2**k
		coef := new(big.Int).Mul(num, new(big.Int).Exp(big.NewInt(5), big.NewInt(k), nil))
		return &Decimal{neg: neg, coef: coef, exp: -k}, nil
	}
	return nil, pyval.NewTypeError("conversion from %s to Decimal is not supported", v.TypeName())
}

func pow10(n int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil) }

func floorDiv2(e int64) int64 { return e >> 1 }

// sqrt is Decimal.Sqrt() with context precision prec (ROUND_HALF_EVEN),
// following the General Decimal Arithmetic algorithm CPython implements:
// correctly rounded, and exact results use the ideal exponent floor(exp/2).
func (d *Decimal) Sqrt(prec int64) *Decimal {
	switch d.special {
	case 'N':
		return &Decimal{special: 'N', neg: d.neg}
	case 'I':
		return &Decimal{special: 'I'}
	}
	if d.coef.Sign() == 0 {
		return &Decimal{neg: d.neg, coef: new(big.Int), exp: floorDiv2(d.exp)}
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
	return decimalRound(&Decimal{coef: n, exp: e}, prec)
}

// decimalRound is Decimal._fix's rounding to prec digits (ROUND_HALF_EVEN).
func decimalRound(d *Decimal, prec int64) *Decimal {
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
	return &Decimal{neg: d.neg, coef: q, exp: exp}
}

func (*Decimal) TypeName() string { return "Decimal" }

// PyStr is str(Decimal) (to-scientific-string).
func (d *Decimal) PyStr() string {
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
func (d *Decimal) PyRepr() string { return "Decimal('" + d.PyStr() + "')" }

// PyEqual compares numeric values (NaN is never equal).
func (d *Decimal) PyEqual(other pyval.Value) bool {
	r, ok := d.rat()
	if !ok {
		if o, isDec := other.(*Decimal); isDec {
			return d.special == 'I' && o.special == 'I' && d.neg == o.neg
		}
		if f, isF := other.(pyval.Float); isF && d.special == 'I' {
			return math.IsInf(float64(f), 1) && !d.neg || math.IsInf(float64(f), -1) && d.neg
		}
		return false
	}
	var or *big.Rat
	switch o := other.(type) {
	case *Decimal:
		or, ok = o.rat()
	default:
		or, ok = pyval.ExactRat(other)
	}
	return ok && r.Cmp(or) == 0
}

func (d *Decimal) rat() (*big.Rat, bool) {
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
func (d *Decimal) PyJSON() any { return pyval.OrderedObject{{Key: "$decimal", Value: d.PyStr()}} }

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
