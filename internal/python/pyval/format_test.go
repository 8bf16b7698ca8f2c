package pyval_test

import (
	"math"
	"math/big"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

func bigInt(s string) pyval.Value {
	n, ok := new(big.Int).SetString(s, 10)
	Expect(ok).To(BeTrue(), s)
	return pyval.BigInt{V: n}
}

func dictOf(kv ...any) pyval.Value {
	d := pyval.NewDict()
	for i := 0; i < len(kv); i += 2 {
		d.SetStr(kv[i].(string), kv[i+1].(pyval.Value))
	}
	return d
}

var _ = Describe("FormatPercent", func() {
	// Expected values are CPython 3.11's `format % args` (str results, or
	// the exception's type and message).
	DescribeTable("is Python's printf-style formatting",
		func(format string, args pyval.Value, want pyval.Value, excType, excMsg string) {
			got, err := pyval.FormatPercent(format, args)
			if excType != "" {
				Expect(err).To(HaveOccurred())
				exc, ok := err.(*pyval.Exception)
				Expect(ok).To(BeTrue(), "%T: %v", err, err)
				Expect(exc.Type).To(Equal(excType))
				Expect(exc.Msg).To(Equal(excMsg))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("%s % 'a'", "%s", pyval.Str("a"), pyval.Str("a"), "", ""),
		Entry("%r % 'a'", "%r", pyval.Str("a"), pyval.Str("'a'"), "", ""),
		Entry("%a % 'é'", "%a", pyval.Str("é"), pyval.Str("'\\xe9'"), "", ""),
		Entry("%5s|%-5s| % ('ab', 'cd')", "%5s|%-5s|", pyval.Tuple{pyval.Str("ab"), pyval.Str("cd")}, pyval.Str("   ab|cd   |"), "", ""),
		Entry("%.2s % 'abcdef'", "%.2s", pyval.Str("abcdef"), pyval.Str("ab"), "", ""),
		Entry("%10.3r % 'abcdef'", "%10.3r", pyval.Str("abcdef"), pyval.Str("       'ab"), "", ""),
		Entry("%d % 42", "%d", pyval.Int(42), pyval.Str("42"), "", ""),
		Entry("%i % -7", "%i", pyval.Int(-7), pyval.Str("-7"), "", ""),
		Entry("%u % 3", "%u", pyval.Int(3), pyval.Str("3"), "", ""),
		Entry("%+d % d % (5, 5)", "%+d % d", pyval.Tuple{pyval.Int(5), pyval.Int(5)}, pyval.Str("+5  5"), "", ""),
		Entry("%05d % -42", "%05d", pyval.Int(-42), pyval.Str("-0042"), "", ""),
		Entry("%-6d| % 12", "%-6d|", pyval.Int(12), pyval.Str("12    |"), "", ""),
		Entry("%.4d % 7", "%.4d", pyval.Int(7), pyval.Str("0007"), "", ""),
		Entry("%+08.3d % 5", "%+08.3d", pyval.Int(5), pyval.Str("+0000005"), "", ""),
		Entry("%x %X %o % (255, 255, 8)", "%x %X %o", pyval.Tuple{pyval.Int(255), pyval.Int(255), pyval.Int(8)}, pyval.Str("ff FF 10"), "", ""),
		Entry("%#x %#X %#o % (255, 255, 8)", "%#x %#X %#o", pyval.Tuple{pyval.Int(255), pyval.Int(255), pyval.Int(8)}, pyval.Str("0xff 0XFF 0o10"), "", ""),
		Entry("%#08x % 255", "%#08x", pyval.Int(255), pyval.Str("0x0000ff"), "", ""),
		Entry("%-#8o| % 8", "%-#8o|", pyval.Int(8), pyval.Str("0o10    |"), "", ""),
		Entry("%x % -255", "%x", pyval.Int(-255), pyval.Str("-ff"), "", ""),
		Entry("%d % True", "%d", pyval.Bool(true), pyval.Str("1"), "", ""),
		Entry("%d % 1180591620717411303424", "%d", bigInt("1180591620717411303424"), pyval.Str("1180591620717411303424"), "", ""),
		Entry("%x % 1180591620717411303424", "%x", bigInt("1180591620717411303424"), pyval.Str("400000000000000000"), "", ""),
		Entry("%d % 3.9", "%d", pyval.Float(3.9), pyval.Str("3"), "", ""),
		Entry("%x % 3.0", "%x", pyval.Float(3.0), nil, "TypeError", "%x format: an integer is required, not float"),
		Entry("%f % 1.5", "%f", pyval.Float(1.5), pyval.Str("1.500000"), "", ""),
		Entry("%.2f % 3.14159", "%.2f", pyval.Float(3.14159), pyval.Str("3.14"), "", ""),
		Entry("%e % 12345.678", "%e", pyval.Float(12345.678), pyval.Str("1.234568e+04"), "", ""),
		Entry("%E % 0.000123", "%E", pyval.Float(0.000123), pyval.Str("1.230000E-04"), "", ""),
		Entry("%g % 0.0001", "%g", pyval.Float(0.0001), pyval.Str("0.0001"), "", ""),
		Entry("%G % 1e+20", "%G", pyval.Float(1e+20), pyval.Str("1E+20"), "", ""),
		Entry("%g % 123456789.0", "%g", pyval.Float(123456789.0), pyval.Str("1.23457e+08"), "", ""),
		Entry("%#g % 1.0", "%#g", pyval.Float(1.0), pyval.Str("1.00000"), "", ""),
		Entry("%#.0f % 2.0", "%#.0f", pyval.Float(2.0), pyval.Str("2."), "", ""),
		Entry("%#.0e % 2.0", "%#.0e", pyval.Float(2.0), pyval.Str("2.e+00"), "", ""),
		Entry("%#.1g % 1.0", "%#.1g", pyval.Float(1.0), pyval.Str("1."), "", ""),
		Entry("%#.0g % 1e10", "%#.0g", pyval.Float(1e10), pyval.Str("1.e+10"), "", ""),
		Entry("%#.0F % inf", "%#.0F", pyval.Float(math.Inf(1)), pyval.Str("INF"), "", ""),
		Entry("%#.0f % -0.4", "%#.0f", pyval.Float(-0.4), pyval.Str("-0."), "", ""),
		Entry("%#5.0f| % 3.0", "%#5.0f|", pyval.Float(3.0), pyval.Str("   3.|"), "", ""),
		Entry("%010.3f % -3.14159", "%010.3f", pyval.Float(-3.14159), pyval.Str("-00003.142"), "", ""),
		Entry("%+.1e % 5.0", "%+.1e", pyval.Float(5.0), pyval.Str("+5.0e+00"), "", ""),
		Entry("% f % 1.0", "% f", pyval.Float(1.0), pyval.Str(" 1.000000"), "", ""),
		Entry("%f % inf", "%f", pyval.Float(math.Inf(1)), pyval.Str("inf"), "", ""),
		Entry("%F % nan", "%F", pyval.Float(math.NaN()), pyval.Str("NAN"), "", ""),
		Entry("%5.1f|%-8.2f| % (2.25, 2.5)", "%5.1f|%-8.2f|", pyval.Tuple{pyval.Float(2.25), pyval.Float(2.5)}, pyval.Str("  2.2|2.50    |"), "", ""),
		Entry("%f % 3", "%f", pyval.Int(3), pyval.Str("3.000000"), "", ""),
		Entry("%.3g % 1180591620717411303424", "%.3g", bigInt("1180591620717411303424"), pyval.Str("1.18e+21"), "", ""),
		Entry("%c % 65", "%c", pyval.Int(65), pyval.Str("A"), "", ""),
		Entry("%c % 'z'", "%c", pyval.Str("z"), pyval.Str("z"), "", ""),
		Entry("%3c| % 'é'", "%3c|", pyval.Str("é"), pyval.Str("  é|"), "", ""),
		Entry("%-3c| % 66", "%-3c|", pyval.Int(66), pyval.Str("B  |"), "", ""),
		Entry("%*d % (5, 42)", "%*d", pyval.Tuple{pyval.Int(5), pyval.Int(42)}, pyval.Str("   42"), "", ""),
		Entry("%-*d| % (4, 7)", "%-*d|", pyval.Tuple{pyval.Int(4), pyval.Int(7)}, pyval.Str("7   |"), "", ""),
		Entry("%*d| % (-4, 7)", "%*d|", pyval.Tuple{pyval.Int(-4), pyval.Int(7)}, pyval.Str("7   |"), "", ""),
		Entry("%.*f % (2, 3.14159)", "%.*f", pyval.Tuple{pyval.Int(2), pyval.Float(3.14159)}, pyval.Str("3.14"), "", ""),
		Entry("%*.*f % (8, 3, 2.71828)", "%*.*f", pyval.Tuple{pyval.Int(8), pyval.Int(3), pyval.Float(2.71828)}, pyval.Str("   2.718"), "", ""),
		Entry("%% % ()", "%%", pyval.Tuple{}, pyval.Str("%"), "", ""),
		Entry("100%% %s % 'sure'", "100%% %s", pyval.Str("sure"), pyval.Str("100% sure"), "", ""),
		Entry("%ld %hd %Lf % (1, 2, 3.0)", "%ld %hd %Lf", pyval.Tuple{pyval.Int(1), pyval.Int(2), pyval.Float(3.0)}, pyval.Str("1 2 3.000000"), "", ""),
		Entry("%(name)s is %(age)d % {'name': 'Ann', 'age': 30}", "%(name)s is %(age)d", dictOf("name", pyval.Str("Ann"), "age", pyval.Int(30)), pyval.Str("Ann is 30"), "", ""),
		Entry("%(a)s %(a)r % {'a': 'x'}", "%(a)s %(a)r", dictOf("a", pyval.Str("x")), pyval.Str("x 'x'"), "", ""),
		Entry("%(x(y))s % {'x(y)': 1}", "%(x(y))s", dictOf("x(y)", pyval.Int(1)), pyval.Str("1"), "", ""),
		Entry("%(n)05.1f % {'n': 2.5}", "%(n)05.1f", dictOf("n", pyval.Float(2.5)), pyval.Str("002.5"), "", ""),
		Entry("%s % (1, 2)", "%s", pyval.Tuple{pyval.Int(1), pyval.Int(2)}, nil, "TypeError", "not all arguments converted during string formatting"),
		Entry("%s % {'k': 1}", "%s", dictOf("k", pyval.Int(1)), pyval.Str("{'k': 1}"), "", ""),
		Entry("no args % ()", "no args", pyval.Tuple{}, pyval.Str("no args"), "", ""),
		Entry("%s %s % (None, [1, 'a'])", "%s %s", pyval.Tuple{pyval.None, &pyval.List{Items: []pyval.Value{pyval.Int(1), pyval.Str("a")}}}, pyval.Str("None [1, 'a']"), "", ""),
		Entry("%s % 1.0", "%s", pyval.Float(1.0), pyval.Str("1.0"), "", ""),
		Entry("%r % 1e+16", "%r", pyval.Float(1e+16), pyval.Str("1e+16"), "", ""),
		Entry("%s % -0.0", "%s", pyval.Float(math.Copysign(0, -1)), pyval.Str("-0.0"), "", ""),
		Entry("%s %s % ('a',)", "%s %s", pyval.Tuple{pyval.Str("a")}, nil, "TypeError", "not enough arguments for format string"),
		Entry("%s % ('a', 'b')", "%s", pyval.Tuple{pyval.Str("a"), pyval.Str("b")}, nil, "TypeError", "not all arguments converted during string formatting"),
		Entry("%d % 'x'", "%d", pyval.Str("x"), nil, "TypeError", "%d format: a real number is required, not str"),
		Entry("%x % 1.5", "%x", pyval.Float(1.5), nil, "TypeError", "%x format: an integer is required, not float"),
		Entry("%f % 'x'", "%f", pyval.Str("x"), nil, "TypeError", "must be real number, not str"),
		Entry("%c % 'ab'", "%c", pyval.Str("ab"), nil, "TypeError", "%c requires int or char"),
		Entry("%c % 1114112", "%c", pyval.Int(1114112), nil, "OverflowError", "%c arg not in range(0x110000)"),
		Entry("%c % 1.5", "%c", pyval.Float(1.5), nil, "TypeError", "%c requires int or char"),
		Entry("% % ()", "%", pyval.Tuple{}, nil, "ValueError", "incomplete format"),
		Entry("%(a % {'a': 1}", "%(a", dictOf("a", pyval.Int(1)), nil, "ValueError", "incomplete format key"),
		Entry("%(a)s % ('x',)", "%(a)s", pyval.Tuple{pyval.Str("x")}, nil, "TypeError", "format requires a mapping"),
		Entry("%(b)s % {'a': 1}", "%(b)s", dictOf("a", pyval.Int(1)), nil, "KeyError", "'b'"),
		Entry("%y % 1", "%y", pyval.Int(1), nil, "ValueError", "unsupported format character 'y' (0x79) at index 1"),
		Entry("%*d % ('x', 1)", "%*d", pyval.Tuple{pyval.Str("x"), pyval.Int(1)}, nil, "TypeError", "* wants int"),
		Entry("abc % 5", "abc", pyval.Int(5), nil, "TypeError", "not all arguments converted during string formatting"),
		Entry("%. % 1", "%.", pyval.Int(1), nil, "ValueError", "incomplete format"),
	)
})
