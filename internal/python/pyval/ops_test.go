package pyval_test

import (
	"math"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pv "github.com/bfcl-go/bfcl/internal/python/pyval"
)

type binFn func(a, b pv.Value) (pv.Value, error)

// expectResult checks repr(result) or the exception text "Type: msg".
func expectResult(v pv.Value, err error, want string) {
	if err != nil {
		e, ok := err.(*pv.Exception)
		Expect(ok).To(BeTrue(), "error is not a *pyval.Exception: %v", err)
		Expect(e.Type + ": " + e.Msg).To(Equal(want))
		return
	}
	Expect(pv.Repr(v)).To(Equal(want))
}

var minI = pv.Int(math.MinInt64)

var _ = Describe("arithmetic", func() {
	DescribeTable("binary operators",
		func(f binFn, a, b pv.Value, want string) {
			v, err := f(a, b)
			expectResult(v, err, want)
		},
		Entry("int+int", binFn(pv.Add), pv.Int(1), pv.Int(2), "3"),
		Entry("int+bool", binFn(pv.Add), pv.Int(1), pv.Bool(true), "2"),
		Entry("bool+bool", binFn(pv.Add), pv.Bool(true), pv.Bool(true), "2"),
		Entry("int overflow", binFn(pv.Add), pv.Int(math.MaxInt64), pv.Int(1), "9223372036854775808"),
		Entry("int+float", binFn(pv.Add), pv.Int(1), pv.Float(0.5), "1.5"),
		Entry("str+str", binFn(pv.Add), pv.Str("a"), pv.Str("b"), "'ab'"),
		Entry("str+int", binFn(pv.Add), pv.Str("a"), pv.Int(1), `TypeError: can only concatenate str (not "int") to str`),
		Entry("int+str", binFn(pv.Add), pv.Int(1), pv.Str("a"), "TypeError: unsupported operand type(s) for +: 'int' and 'str'"),
		Entry("list+tuple", binFn(pv.Add), L(pv.Int(1)), pv.Tuple{pv.Int(1)}, `TypeError: can only concatenate list (not "tuple") to list`),
		Entry("tuple+list", binFn(pv.Add), pv.Tuple{pv.Int(1)}, L(pv.Int(1)), `TypeError: can only concatenate tuple (not "list") to tuple`),
		Entry("list+list", binFn(pv.Add), L(pv.Int(1)), L(pv.Str("x")), "[1, 'x']"),
		Entry("None+int", binFn(pv.Add), pv.None, pv.Int(1), "TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'"),
		Entry("int-str", binFn(pv.Sub), pv.Int(1), pv.Str("a"), "TypeError: unsupported operand type(s) for -: 'int' and 'str'"),
		Entry("float-int", binFn(pv.Sub), pv.Float(0.3), pv.Int(1), "-0.7"),
		Entry("int underflow", binFn(pv.Sub), minI, pv.Int(1), "-9223372036854775809"),
		Entry("set-set", binFn(pv.Sub), pv.NewSet(pv.Int(1), pv.Int(2)), pv.NewSet(pv.Int(1)), "{2}"),
		Entry("str*float", binFn(pv.Mul), pv.Str("a"), pv.Float(2), "TypeError: can't multiply sequence by non-int of type 'float'"),
		Entry("str*neg", binFn(pv.Mul), pv.Str("a"), pv.Int(-1), "''"),
		Entry("list*3", binFn(pv.Mul), L(pv.Int(1)), pv.Int(3), "[1, 1, 1]"),
		Entry("3*tuple", binFn(pv.Mul), pv.Int(3), pv.Tuple{pv.Int(1)}, "(1, 1, 1)"),
		Entry("str*True", binFn(pv.Mul), pv.Str("ab"), pv.Bool(true), "'ab'"),
		Entry("str*huge", binFn(pv.Mul), pv.Str("a"), bigOf("1180591620717411303424"), "OverflowError: cannot fit 'int' into an index-sized integer"),
		Entry("None*str", binFn(pv.Mul), pv.None, pv.Str("a"), "TypeError: can't multiply sequence by non-int of type 'NoneType'"),
		Entry("int*int big", binFn(pv.Mul), pv.Int(1<<40), pv.Int(1<<40), "1208925819614629174706176"),
		Entry("minint*-1", binFn(pv.Mul), minI, pv.Int(-1), "9223372036854775808"),
		Entry("1/0", binFn(pv.TrueDiv), pv.Int(1), pv.Int(0), "ZeroDivisionError: division by zero"),
		Entry("1.0/0", binFn(pv.TrueDiv), pv.Float(1), pv.Int(0), "ZeroDivisionError: float division by zero"),
		Entry("1/3", binFn(pv.TrueDiv), pv.Int(1), pv.Int(3), "0.3333333333333333"),
		Entry("10**30/7", binFn(pv.TrueDiv), bigOf("1000000000000000000000000000000"), pv.Int(7), "1.4285714285714285e+29"),
		Entry("1//0", binFn(pv.FloorDiv), pv.Int(1), pv.Int(0), "ZeroDivisionError: integer division or modulo by zero"),
		Entry("1.0//0", binFn(pv.FloorDiv), pv.Float(1), pv.Int(0), "ZeroDivisionError: float floor division by zero"),
		Entry("-7//2", binFn(pv.FloorDiv), pv.Int(-7), pv.Int(2), "-4"),
		Entry("7.5//-2", binFn(pv.FloorDiv), pv.Float(7.5), pv.Int(-2), "-4.0"),
		Entry("0.0//-1", binFn(pv.FloorDiv), pv.Float(0), pv.Int(-1), "-0.0"),
		Entry("minint//-1", binFn(pv.FloorDiv), minI, pv.Int(-1), "9223372036854775808"),
		Entry("1%0", binFn(pv.Mod), pv.Int(1), pv.Int(0), "ZeroDivisionError: integer modulo by zero"),
		Entry("1.0%0", binFn(pv.Mod), pv.Float(1), pv.Int(0), "ZeroDivisionError: float modulo"),
		Entry("-7%2", binFn(pv.Mod), pv.Int(-7), pv.Int(2), "1"),
		Entry("7%-2", binFn(pv.Mod), pv.Int(7), pv.Int(-2), "-1"),
		Entry("-7.5%2", binFn(pv.Mod), pv.Float(-7.5), pv.Int(2), "0.5"),
		Entry("7.5%-2", binFn(pv.Mod), pv.Float(7.5), pv.Int(-2), "-0.5"),
		Entry("-0.0%2", binFn(pv.Mod), pv.Float(math.Copysign(0, -1)), pv.Int(2), "0.0"),
		Entry("2**63", binFn(pv.Pow), pv.Int(2), pv.Int(63), "9223372036854775808"),
		Entry("2**-1", binFn(pv.Pow), pv.Int(2), pv.Int(-1), "0.5"),
		Entry("(-2)**-3", binFn(pv.Pow), pv.Int(-2), pv.Int(-3), "-0.125"),
		Entry("0**-1", binFn(pv.Pow), pv.Int(0), pv.Int(-1), "ZeroDivisionError: 0.0 cannot be raised to a negative power"),
		Entry("10.0**400", binFn(pv.Pow), pv.Float(10), pv.Int(400), "OverflowError: (34, 'Numerical result out of range')"),
		Entry("2**0.5", binFn(pv.Pow), pv.Int(2), pv.Float(0.5), "1.4142135623730951"),
		Entry("2**-1074", binFn(pv.Pow), pv.Int(2), pv.Int(-1074), "5e-324"),
		Entry("str%int", binFn(pv.Mod), pv.Str("abc"), pv.Int(5), "TypeError: not all arguments converted during string formatting"),
		Entry("1<<2", binFn(pv.LShift), pv.Int(1), pv.Int(2), "4"),
		Entry("1<<-1", binFn(pv.LShift), pv.Int(1), pv.Int(-1), "ValueError: negative shift count"),
		Entry("5&3", binFn(pv.BitAnd), pv.Int(5), pv.Int(3), "1"),
		Entry("5.0&3", binFn(pv.BitAnd), pv.Float(5), pv.Int(3), "TypeError: unsupported operand type(s) for &: 'float' and 'int'"),
		Entry("set^set", binFn(pv.BitXor), pv.NewSet(pv.Int(1)), pv.NewSet(pv.Int(2)), "{1, 2}"),
		Entry("dict|dict", binFn(pv.BitOr), D(pv.Str("a"), pv.Int(1)), D(pv.Str("b"), pv.Int(2)), "{'a': 1, 'b': 2}"),
		Entry("int@int", func(a, b pv.Value) (pv.Value, error) { return pv.BinaryOp("@", a, b) }, pv.Int(3), pv.Int(4), "TypeError: unsupported operand type(s) for @: 'int' and 'int'"),
	)
	It("implements unary operators", func() {
		v, err := pv.Neg(pv.Str("a"))
		expectResult(v, err, "TypeError: bad operand type for unary -: 'str'")
		v, err = pv.Abs(pv.Str("a"))
		expectResult(v, err, "TypeError: bad operand type for abs(): 'str'")
		v, err = pv.Invert(pv.Float(1.5))
		expectResult(v, err, "TypeError: bad operand type for unary ~: 'float'")
		v, err = pv.Neg(pv.Bool(true))
		expectResult(v, err, "-1")
		v, err = pv.Neg(minI)
		expectResult(v, err, "9223372036854775808")
		v, err = pv.Abs(minI)
		expectResult(v, err, "9223372036854775808")
		v, err = pv.Invert(pv.Int(5))
		expectResult(v, err, "-6")
		v, err = pv.Pos(pv.Bool(true))
		expectResult(v, err, "1")
	})
})

var _ = Describe("comparisons", func() {
	DescribeTable("ordering",
		func(op string, a, b pv.Value, want string) {
			r, err := pv.Compare(op, a, b)
			expectResult(pv.Bool(r), err, want)
		},
		Entry(nil, "<", pv.Int(1), pv.Str("a"), "TypeError: '<' not supported between instances of 'int' and 'str'"),
		Entry(nil, "<", L(pv.Int(1)), pv.Tuple{pv.Int(1)}, "TypeError: '<' not supported between instances of 'list' and 'tuple'"),
		Entry(nil, "<", pv.None, pv.None, "TypeError: '<' not supported between instances of 'NoneType' and 'NoneType'"),
		Entry(nil, "<=", pv.NewSet(pv.Int(1)), L(pv.Int(1)), "TypeError: '<=' not supported between instances of 'set' and 'list'"),
		Entry(nil, "<", pv.Tuple{pv.Int(1), pv.Str("a")}, pv.Tuple{pv.Int(1), pv.Int(2)}, "TypeError: '<' not supported between instances of 'str' and 'int'"),
		Entry(nil, "<", L(pv.Int(1), pv.Int(2)), L(pv.Int(1), pv.Int(3)), "True"),
		Entry(nil, "<", L(pv.Int(1), pv.Int(2)), L(pv.Int(1)), "False"),
		Entry(nil, ">=", L(pv.Int(1), pv.Int(2)), L(pv.Int(1)), "True"),
		Entry(nil, "<", pv.Str("a"), pv.Str("b"), "True"),
		Entry(nil, "<", pv.NewSet(pv.Int(1)), pv.NewSet(pv.Int(1), pv.Int(2)), "True"),
		Entry(nil, "<", pv.Int(1), pv.Float(2.5), "True"),
		Entry(nil, "<", pv.Bool(true), pv.Int(2), "True"),
		Entry(nil, "<", pv.Float(math.NaN()), pv.Int(2), "False"),
		Entry(nil, ">=", pv.Float(math.NaN()), pv.Int(2), "False"),
		Entry(nil, "in", pv.Int(1), pv.Int(5), "TypeError: argument of type 'int' is not iterable"),
		Entry(nil, "in", pv.Int(1), pv.Str("a"), "TypeError: 'in <string>' requires string as left operand, not int"),
		Entry(nil, "in", L(), D(), "TypeError: unhashable type: 'list'"),
		Entry(nil, "in", pv.Str("b"), pv.Str("abc"), "True"),
		Entry(nil, "not in", pv.Float(1), L(pv.Int(1)), "False"),
		Entry(nil, "in", pv.Float(1), D(pv.Bool(true), pv.None), "True"),
	)
})

var _ = Describe("builtins", func() {
	DescribeTable("round",
		func(v, nd pv.Value, want string) {
			r, err := pv.Round(v, nd)
			expectResult(r, err, want)
		},
		Entry(nil, pv.Float(2.5), nil, "2"),
		Entry(nil, pv.Float(-2.5), nil, "-2"),
		Entry(nil, pv.Float(0.5), nil, "0"),
		Entry(nil, pv.Float(-0.4), nil, "0"),
		Entry(nil, pv.Float(-0.4), pv.Int(0), "-0.0"),
		Entry(nil, pv.Float(2.675), pv.Int(2), "2.67"),
		Entry(nil, pv.Float(0.125), pv.Int(2), "0.12"),
		Entry(nil, pv.Float(0.375), pv.Int(2), "0.38"),
		Entry(nil, pv.Float(2.5), pv.Int(0), "2.0"),
		Entry(nil, pv.Float(1234.5678), pv.Int(-2), "1200.0"),
		Entry(nil, pv.Float(1e300), pv.Int(-300), "1e+300"),
		Entry(nil, pv.Float(1.5), pv.None, "2"),
		Entry(nil, pv.Int(5), pv.Int(-1), "0"),
		Entry(nil, pv.Int(15), pv.Int(-1), "20"),
		Entry(nil, pv.Int(25), pv.Int(-1), "20"),
		Entry(nil, pv.Int(-15), pv.Int(-1), "-20"),
		Entry(nil, pv.Int(12345), pv.Int(-2), "12300"),
		Entry(nil, pv.Bool(true), nil, "1"),
		Entry(nil, pv.Float(math.Inf(1)), nil, "OverflowError: cannot convert float infinity to integer"),
		Entry(nil, pv.Float(math.NaN()), nil, "ValueError: cannot convert float NaN to integer"),
		Entry(nil, pv.Float(math.Inf(1)), pv.Int(2), "inf"),
		Entry(nil, pv.Str("a"), nil, "TypeError: type str doesn't define __round__ method"),
		Entry(nil, pv.Float(1.5), pv.Str("a"), "TypeError: 'str' object cannot be interpreted as an integer"),
	)
	DescribeTable("int() and float()",
		func(f func(pv.Value) (pv.Value, error), v pv.Value, want string) {
			r, err := f(v)
			expectResult(r, err, want)
		},
		Entry(nil, pv.ToInt, pv.Str("x"), "ValueError: invalid literal for int() with base 10: 'x'"),
		Entry(nil, pv.ToInt, pv.Str("1.5"), "ValueError: invalid literal for int() with base 10: '1.5'"),
		Entry(nil, pv.ToInt, pv.Str(" -1_000 "), "-1000"),
		Entry(nil, pv.ToInt, pv.Str("1__0"), "ValueError: invalid literal for int() with base 10: '1__0'"),
		Entry(nil, pv.ToInt, pv.Str("_1"), "ValueError: invalid literal for int() with base 10: '_1'"),
		Entry(nil, pv.ToInt, pv.Str(""), "ValueError: invalid literal for int() with base 10: ''"),
		Entry(nil, pv.ToInt, pv.Str("١٢"), "12"),
		Entry(nil, pv.ToInt, pv.Str("123456789012345678901234567890"), "123456789012345678901234567890"),
		Entry(nil, pv.ToInt, pv.Float(-3.9), "-3"),
		Entry(nil, pv.ToInt, pv.Float(math.Inf(1)), "OverflowError: cannot convert float infinity to integer"),
		Entry(nil, pv.ToInt, pv.Float(math.NaN()), "ValueError: cannot convert float NaN to integer"),
		Entry(nil, pv.ToInt, pv.None, "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'"),
		Entry(nil, pv.ToInt, pv.Bool(true), "1"),
		Entry(nil, pv.ToFloat, pv.Str("x"), "ValueError: could not convert string to float: 'x'"),
		Entry(nil, pv.ToFloat, pv.Str(" 1e3 "), "1000.0"),
		Entry(nil, pv.ToFloat, pv.Str("1_0.5"), "10.5"),
		Entry(nil, pv.ToFloat, pv.Str("infinity"), "inf"),
		Entry(nil, pv.ToFloat, pv.Str("-NaN"), "nan"),
		Entry(nil, pv.ToFloat, pv.Str(".5"), "0.5"),
		Entry(nil, pv.ToFloat, pv.Str("5."), "5.0"),
		Entry(nil, pv.ToFloat, pv.Str("1e"), "ValueError: could not convert string to float: '1e'"),
		Entry(nil, pv.ToFloat, pv.Str("0x1p3"), "ValueError: could not convert string to float: '0x1p3'"),
		Entry(nil, pv.ToFloat, pv.Str(""), "ValueError: could not convert string to float: ''"),
		Entry(nil, pv.ToFloat, pv.Str("1e400"), "inf"),
		Entry(nil, pv.ToFloat, pv.None, "TypeError: float() argument must be a string or a real number, not 'NoneType'"),
		Entry(nil, pv.ToFloat, L(), "TypeError: float() argument must be a string or a real number, not 'list'"),
		Entry(nil, pv.ToFloat, bigOf("1"+string(make([]byte, 0))+"0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"), "OverflowError: int too large to convert to float"),
	)
	It("sums like CPython 3.12", func() {
		tenth := make([]pv.Value, 10)
		for i := range tenth {
			tenth[i] = pv.Float(0.1)
		}
		r, err := pv.Sum(tenth, nil)
		expectResult(r, err, "1.0")
		r, err = pv.Sum([]pv.Value{pv.Float(1e100), pv.Float(1), pv.Float(-1e100), pv.Float(1)}, nil)
		expectResult(r, err, "2.0")
		r, err = pv.Sum([]pv.Value{pv.Int(1), pv.Float(0.1), pv.Float(0.2)}, nil)
		expectResult(r, err, "1.3")
		r, err = pv.Sum([]pv.Value{pv.Float(0.1), pv.Float(0.2), pv.Int(1)}, nil)
		expectResult(r, err, "1.3")
		r, err = pv.Sum([]pv.Value{pv.Int(math.MaxInt64), pv.Int(1), pv.Bool(true)}, nil)
		expectResult(r, err, "9223372036854775809")
		r, err = pv.Sum([]pv.Value{pv.Str("a")}, nil)
		expectResult(r, err, "TypeError: unsupported operand type(s) for +: 'int' and 'str'")
		r, err = pv.Sum([]pv.Value{pv.Int(1)}, pv.Str("a"))
		expectResult(r, err, "TypeError: sum() can't sum strings [use ''.join(seq) instead]")
		r, err = pv.Sum([]pv.Value{L(pv.Int(1)), L(pv.Int(2))}, L())
		expectResult(r, err, "[1, 2]")
		r, err = pv.Sum(nil, nil)
		expectResult(r, err, "0")
		r, err = pv.Sum([]pv.Value{pv.Float(math.Copysign(0, -1))}, pv.Float(math.Copysign(0, -1)))
		expectResult(r, err, "-0.0")
	})
	It("measures length", func() {
		n, err := pv.Len(pv.Str("é😀"))
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(2))
		_, err = pv.Len(pv.Int(5))
		Expect(err).To(MatchError("object of type 'int' has no len()"))
	})
	DescribeTable("printf-style formatting",
		func(format string, args pv.Value, want string) {
			r, err := pv.Mod(pv.Str(format), args)
			expectResult(r, err, want)
		},
		Entry(nil, "%s-%r", pv.Tuple{pv.Str("a"), pv.Str("b")}, `"a-'b'"`),
		Entry(nil, "%d", pv.Float(3.9), "'3'"),
		Entry(nil, "%5.2f|%-6d|%06.1f|%+d|% d", pv.Tuple{pv.Float(3.14159), pv.Int(42), pv.Float(2.5), pv.Int(3), pv.Int(4)}, "' 3.14|42    |0002.5|+3| 4'"),
		Entry(nil, "%x %X %o %#x %c %c", pv.Tuple{pv.Int(255), pv.Int(255), pv.Int(8), pv.Int(255), pv.Int(65), pv.Str("z")}, "'ff FF 10 0xff A z'"),
		Entry(nil, "%(a)s", D(pv.Str("a"), pv.Int(1)), "'1'"),
		Entry(nil, "%s", L(pv.Int(1), pv.Int(2)), "'[1, 2]'"),
		Entry(nil, "%s %s", pv.Tuple{pv.Int(1)}, "TypeError: not enough arguments for format string"),
		Entry(nil, "%s", pv.Tuple{pv.Int(1), pv.Int(2)}, "TypeError: not all arguments converted during string formatting"),
		Entry(nil, "%d", pv.Str("a"), "TypeError: %d format: a real number is required, not str"),
		Entry(nil, "%f", pv.Str("a"), "TypeError: must be real number, not str"),
		Entry(nil, "%g %g %g %e %.3g", pv.Tuple{pv.Float(1e-5), pv.Float(1234567.0), pv.Float(100000.0), pv.Float(1.5), pv.Float(2.0)}, "'1e-05 1.23457e+06 100000 1.500000e+00 2'"),
		Entry(nil, "%i%%", pv.Int(5), "'5%'"),
		Entry(nil, "%.2s", pv.Str("abc"), "'ab'"),
		Entry(nil, "%*d", pv.Tuple{pv.Int(5), pv.Int(3)}, "'    3'"),
		Entry(nil, "%q", pv.Int(1), "ValueError: unsupported format character 'q' (0x71) at index 1"),
		Entry(nil, "%.0f", pv.Float(2.5), "'2'"),
		Entry(nil, "%G", pv.Float(1e-10), "'1E-10'"),
		Entry(nil, "%.1f", pv.Float(0.05), "'0.1'"),
		Entry(nil, "%5s|%-5s", pv.Tuple{pv.Str("ab"), pv.Str("c")}, "'   ab|c    '"),
		Entry(nil, "%a", pv.Str("é"), `"'\\xe9'"`),
		Entry(nil, "%.2f", bigOf("100000000000000000000"), "'100000000000000000000.00'"),
		Entry(nil, "abc", D(pv.Str("a"), pv.Int(1)), "'abc'"),
		Entry(nil, "%d", pv.None, "TypeError: %d format: a real number is required, not NoneType"),
	)
})
