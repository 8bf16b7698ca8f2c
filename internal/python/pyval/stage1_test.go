package pyval_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pv "github.com/bfcl-go/bfcl/internal/python/pyval"
)

func L(items ...pv.Value) *pv.List { return pv.NewList(items...) }

func D(kv ...pv.Value) *pv.Dict {
	d := pv.NewDict()
	for i := 0; i < len(kv); i += 2 {
		d.Set(kv[i], kv[i+1])
	}
	return d
}

func bigOf(s string) pv.BigInt {
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return pv.BigInt{V: b}
}

var _ = Describe("Dict", func() {
	It("treats 1, 1.0 and True as one key and keeps the first key object", func() {
		d := pv.NewDict()
		d.Set(pv.Int(1), pv.Str("a"))
		d.Set(pv.Float(1.0), pv.Str("b"))
		d.Set(pv.Bool(true), pv.Str("c"))
		Expect(d.Len()).To(Equal(1))
		Expect(pv.Repr(d)).To(Equal("{1: 'c'}"))
		v, ok := d.Get(pv.Float(1))
		Expect(ok).To(BeTrue())
		Expect(v).To(Equal(pv.Value(pv.Str("c"))))
		Expect(d.Has(pv.Str("1"))).To(BeFalse())
	})
	It("keeps insertion order, position on overwrite, and order after delete", func() {
		d := pv.NewDict()
		for i := 0; i < 20; i++ {
			d.Set(pv.Int(i), pv.Int(i*i))
		}
		d.Set(pv.Int(3), pv.Str("x"))
		Expect(d.Delete(pv.Int(0))).To(BeTrue())
		Expect(d.Delete(pv.Int(0))).To(BeFalse())
		Expect(d.Keys()[0]).To(Equal(pv.Value(pv.Int(1))))
		Expect(d.Keys()[2]).To(Equal(pv.Value(pv.Int(3))))
		Expect(d.Values()[2]).To(Equal(pv.Value(pv.Str("x"))))
		Expect(d.Len()).To(Equal(19))
		for i := 1; i < 20; i++ {
			Expect(d.Has(pv.Float(float64(i)))).To(BeTrue())
		}
	})
	It("supports tuple keys, None keys and big integer keys in small and large dicts", func() {
		for _, n := range []int{0, 30} {
			d := pv.NewDict()
			for i := 0; i < n; i++ {
				d.Set(pv.Str(pv.Repr(pv.Int(i))), pv.Int(i))
			}
			d.Set(pv.Tuple{pv.Int(1), pv.Str("a")}, pv.Str("t"))
			d.Set(pv.None, pv.Str("n"))
			d.Set(bigOf("100000000000000000000"), pv.Str("big"))
			v, ok := d.Get(pv.Tuple{pv.Float(1), pv.Str("a")})
			Expect(ok).To(BeTrue())
			Expect(v).To(Equal(pv.Value(pv.Str("t"))))
			_, ok = d.Get(pv.Tuple{pv.Int(1), pv.Str("b")})
			Expect(ok).To(BeFalse())
			_, ok = d.Get(L(pv.Int(1), pv.Str("a")))
			Expect(ok).To(BeFalse())
			v, ok = d.Get(pv.Float(1e20))
			Expect(ok).To(BeTrue())
			Expect(v).To(Equal(pv.Value(pv.Str("big"))))
			v, ok = d.GetStr("5")
			if n > 0 {
				Expect(ok).To(BeTrue())
				Expect(v).To(Equal(pv.Value(pv.Int(5))))
			} else {
				Expect(ok).To(BeFalse())
			}
			_, ok = d.Get(pv.Int(5))
			Expect(ok).To(BeFalse())
		}
	})
	It("copies shallowly", func() {
		inner := L(pv.Int(1))
		d := D(pv.Str("a"), inner)
		c := d.Copy()
		c.SetStr("b", pv.Int(2))
		Expect(d.Len()).To(Equal(1))
		v, _ := c.GetStr("a")
		Expect(v).To(BeIdenticalTo(pv.Value(inner)))
	})
	It("reports unhashable keys like Python", func() {
		Expect(pv.CheckHashable(L()).Error()).To(Equal("unhashable type: 'list'"))
		Expect(pv.CheckHashable(pv.Tuple{pv.Int(1), pv.NewDict()}).Error()).To(Equal("unhashable type: 'dict'"))
		Expect(pv.CheckHashable(pv.Tuple{pv.Int(1), pv.Str("x")})).To(Succeed())
	})
})

var _ = Describe("Set", func() {
	It("collapses equal members and keeps insertion order", func() {
		s := pv.NewSet(pv.Int(3), pv.Float(3), pv.Bool(true), pv.Int(1), pv.Str("1"))
		Expect(s.Len()).To(Equal(3))
		Expect(s.Items()).To(Equal([]pv.Value{pv.Int(3), pv.Bool(true), pv.Str("1")}))
		Expect(s.Contains(pv.Float(1))).To(BeTrue())
		Expect(s.Remove(pv.Int(1))).To(BeTrue())
		Expect(s.Remove(pv.Int(1))).To(BeFalse())
		Expect(pv.NewSet(pv.Str("b"), pv.Int(2), pv.Str("a"), pv.Float(1.5)).SortedItems()).To(
			Equal([]pv.Value{pv.Float(1.5), pv.Int(2), pv.Str("a"), pv.Str("b")}))
	})
})

var _ = Describe("Repr and StrOf", func() {
	DescribeTable("repr of strings",
		func(s, want string) { Expect(pv.Repr(pv.Str(s))).To(Equal(want)) },
		Entry("plain", "abc", "'abc'"),
		Entry("single quote switches to double", "a'b", `"a'b"`),
		Entry("both quotes", `a'b"c`, `'a\'b"c'`),
		Entry("controls", "\x00\x7f\n\t\r\\", `'\x00\x7f\n\t\r\\'`),
		Entry("non-printable latin-1", "\u00a0\u00ad", `'\xa0\xad'`),
		Entry("printable non-ASCII kept", "é😀", "'é😀'"),
		Entry("zero-width space", "\u200b", `'\u200b'`),
		Entry("astral non-printable", "\U000E0001", `'\U000e0001'`),
	)
	DescribeTable("repr of floats",
		func(f float64, want string) { Expect(pv.Repr(pv.Float(f))).To(Equal(want)) },
		Entry(nil, 1e-05, "1e-05"),
		Entry(nil, 1e16, "1e+16"),
		Entry(nil, 1.5e-07, "1.5e-07"),
		Entry(nil, 1e15, "1000000000000000.0"),
		Entry(nil, 0.1, "0.1"),
		Entry(nil, math.Copysign(0, -1), "-0.0"),
		Entry(nil, 123456789012345678.0, "1.2345678901234568e+17"),
		Entry(nil, 1e22, "1e+22"),
		Entry(nil, 0.0001, "0.0001"),
		Entry(nil, 2.5e-5, "2.5e-05"),
		Entry(nil, 1e100, "1e+100"),
		Entry(nil, 10000.0, "10000.0"),
		Entry(nil, math.Inf(1), "inf"),
		Entry(nil, math.Inf(-1), "-inf"),
		Entry(nil, math.NaN(), "nan"),
	)
	It("formats containers and singletons", func() {
		Expect(pv.Repr(pv.Tuple{pv.Int(1)})).To(Equal("(1,)"))
		Expect(pv.Repr(pv.Tuple{})).To(Equal("()"))
		Expect(pv.Repr(pv.NewSet())).To(Equal("set()"))
		Expect(pv.Repr(pv.NewDict())).To(Equal("{}"))
		Expect(pv.Repr(L(pv.Bool(true), pv.None, pv.Ellipsis, pv.Float(2), bigOf("-123456789012345678901234")))).To(
			Equal("[True, None, Ellipsis, 2.0, -123456789012345678901234]"))
		Expect(pv.Repr(D(pv.Str("a"), L(pv.Int(1)), pv.Int(2), pv.Tuple{pv.Str("x"), pv.Str("y")}))).To(
			Equal("{'a': [1], 2: ('x', 'y')}"))
		Expect(pv.Repr(pv.NewSet(pv.Int(1), pv.Str("a")))).To(Equal("{1, 'a'}"))
		Expect(pv.StrOf(pv.Str("a'b"))).To(Equal("a'b"))
		Expect(pv.StrOf(L(pv.Str("a")))).To(Equal("['a']"))
		Expect(pv.StrOf(pv.Float(1e16))).To(Equal("1e+16"))
	})
})

var _ = Describe("JSONDumps", func() {
	It("matches json.dumps defaults", func() {
		d := D(pv.Str("a"), L(pv.Int(1), pv.Float(2), pv.Str("é😀\x7f\x1f<>&")), pv.Float(1.5), pv.None, pv.Bool(true), pv.Int(1), pv.None, pv.Int(2), pv.Int(7), pv.Tuple{pv.Int(1), pv.Int(2)})
		s, err := pv.JSONDumps(d)
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(Equal(`{"a": [1, 2.0, "\u00e9\ud83d\ude00\u007f\u001f<>&"], "1.5": null, "true": 1, "null": 2, "7": [1, 2]}`))
		s, _ = pv.JSONDumps(L(pv.Float(math.NaN()), pv.Float(math.Inf(1)), pv.Float(math.Inf(-1)), pv.Float(1e-7), pv.Str("q\"\\\b\f\n\r\t")))
		Expect(s).To(Equal(`[NaN, Infinity, -Infinity, 1e-07, "q\"\\\b\f\n\r\t"]`))
		s, _ = pv.JSONDumps(D(pv.Bool(false), pv.Int(0)))
		Expect(s).To(Equal(`{"false": 0}`))
		s, _ = pv.JSONDumps(L())
		Expect(s).To(Equal(`[]`))
	})
	It("raises Python's TypeErrors", func() {
		_, err := pv.JSONDumps(L(pv.NewSet(pv.Int(1))))
		Expect(err).To(MatchError("Object of type set is not JSON serializable"))
		Expect(pv.IsException(err, "TypeError")).To(BeTrue())
		_, err = pv.JSONDumps(pv.Ellipsis)
		Expect(err).To(MatchError("Object of type ellipsis is not JSON serializable"))
		_, err = pv.JSONDumps(D(pv.Tuple{pv.Int(1)}, pv.Int(1)))
		Expect(err).To(MatchError("keys must be str, int, float, bool or None, not tuple"))
	})
})

var _ = Describe("AppendJSONSerializable", func() {
	It("is json.dumps(make_json_serializable(v)): containers rebuilt, leaves json.dumps refuses replaced by str()", func() {
		in := D(pv.Str("tweets"), D(pv.Int(0), L(pv.Str("a"), pv.NewSet(pv.Int(1)))),
			pv.Str("t"), pv.Tuple{pv.Int(1), pv.NewSet(pv.Int(2))},
			pv.Str("ok"), pv.Tuple{pv.Int(1), pv.Float(2)},
			pv.Str("e"), pv.Ellipsis)
		b, err := pv.AppendJSONSerializable([]byte("prefix "), in, pv.JSONOptions{ASCII: true})
		Expect(err).NotTo(HaveOccurred())
		s := strings.TrimPrefix(string(b), "prefix ")
		// Python: json.dumps(make_json_serializable({"tweets": {0: ["a", {1}]},
		// "t": (1, {2}), "ok": (1, 2.0), "e": ...}))
		Expect(s).To(Equal(`{"tweets": {"0": ["a", "{1}"]}, "t": "(1, {2})", "ok": [1, 2.0], "e": "Ellipsis"}`))
		// The input is not modified.
		Expect(pv.Repr(in)).To(Equal("{'tweets': {0: ['a', {1}]}, 't': (1, {2}), 'ok': (1, 2.0), 'e': Ellipsis}"))
		// Leaves at the top, and a tuple refused deep inside a list.
		for v, want := range map[pv.Value]string{
			pv.NewSet(pv.Int(3)):                 `"{3}"`,
			pv.Str("é"):                          `"\u00e9"`,
			L(pv.Tuple{L(pv.NewSet())}, pv.None): `["([set()],)", null]`,
		} {
			got, err := pv.AppendJSONSerializable(nil, v, pv.JSONOptions{ASCII: true})
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(want))
		}
		// separators=(",", ":"): what json.Compact makes of the same text.
		c, err := pv.AppendJSONSerializable(nil, in, pv.JSONOptions{ASCII: true, Compact: true})
		Expect(err).NotTo(HaveOccurred())
		var want bytes.Buffer
		Expect(json.Compact(&want, []byte(s))).To(Succeed())
		Expect(string(c)).To(Equal(want.String()))
		// Keys are kept as they are: json.dumps still refuses a tuple key.
		_, err = pv.AppendJSONSerializable(nil, D(pv.Tuple{pv.Int(1)}, pv.Int(1)), pv.JSONOptions{ASCII: true})
		Expect(err).To(MatchError("keys must be str, int, float, bool or None, not tuple"))
	})
})

var _ = Describe("Equal", func() {
	It("follows the numeric tower", func() {
		Expect(pv.Equal(pv.Int(1), pv.Float(1))).To(BeTrue())
		Expect(pv.Equal(pv.Bool(true), pv.Int(1))).To(BeTrue())
		Expect(pv.Equal(pv.Bool(false), pv.Float(0))).To(BeTrue())
		Expect(pv.Equal(pv.Int(1), pv.Str("1"))).To(BeFalse())
		Expect(pv.Equal(pv.Float(math.NaN()), pv.Float(math.NaN()))).To(BeFalse())
		Expect(pv.Equal(pv.Int(9007199254740993), pv.Float(9007199254740992))).To(BeFalse())
		Expect(pv.Equal(bigOf("100000000000000000000"), pv.Float(1e20))).To(BeTrue())
		Expect(pv.Equal(bigOf("100000000000000000001"), pv.Float(1e20))).To(BeFalse())
		Expect(pv.Equal(pv.Float(0.5), pv.Int(0))).To(BeFalse())
	})
	It("compares containers like Python", func() {
		Expect(pv.Equal(L(pv.Int(1), pv.Int(2)), pv.Tuple{pv.Int(1), pv.Int(2)})).To(BeFalse())
		Expect(pv.Equal(L(pv.Int(1), pv.Float(2)), L(pv.Bool(true), pv.Int(2)))).To(BeTrue())
		Expect(pv.Equal(D(pv.Str("a"), pv.Int(1), pv.Str("b"), pv.Int(2)), D(pv.Str("b"), pv.Float(2), pv.Str("a"), pv.Int(1)))).To(BeTrue())
		Expect(pv.Equal(D(pv.Str("a"), pv.Int(1)), D(pv.Str("a"), pv.Int(2)))).To(BeFalse())
		Expect(pv.Equal(pv.NewSet(pv.Int(1), pv.Int(2)), pv.NewSet(pv.Float(2), pv.Float(1)))).To(BeTrue())
		Expect(pv.Equal(pv.None, pv.None)).To(BeTrue())
		Expect(pv.Equal(pv.None, pv.Int(0))).To(BeFalse())
	})
})

var _ = Describe("Exceptions", func() {
	It("prints like str(e)", func() {
		Expect(pv.NewKeyError(pv.Str("x")).Error()).To(Equal("'x'"))
		Expect(pv.NewKeyError(pv.Int(3)).Error()).To(Equal("3"))
		Expect(pv.NewTypeError("unsupported operand type(s) for +: '%s' and '%s'", "int", "str").Error()).To(
			Equal("unsupported operand type(s) for +: 'int' and 'str'"))
		Expect(pv.NewValueError("100%").Error()).To(Equal("100%"))
		e := pv.NewException("RuntimeError", "boom")
		Expect(e.Type).To(Equal("RuntimeError"))
		Expect(e.PyRepr()).To(Equal("RuntimeError('boom')"))
		Expect(pv.NewKeyError(pv.Str("x")).PyRepr()).To(Equal("KeyError('x')"))
	})
})

var _ = Describe("FromJSON", func() {
	It("follows json.loads", func() {
		v, err := pv.FromJSONString(`{"b": [1, 2.0, 1E2, -0.0, 1e400, 12345678901234567890123, "\ud83d\ude00", "\u00e9", NaN, -Infinity, true, null], "a": {}, "b": 3}`)
		Expect(err).NotTo(HaveOccurred())
		d := v.(*pv.Dict)
		Expect(d.Keys()).To(Equal([]pv.Value{pv.Str("b"), pv.Str("a")}))
		Expect(pv.Repr(v)).To(Equal("{'b': 3, 'a': {}}"))
		v, _ = pv.FromJSONString(`[1, 2.0, 1E2, -0.0, 1e400, 12345678901234567890123, "\ud83d\ude00", "\u00e9", NaN, -Infinity, true, null, "\ud800"]`)
		Expect(pv.Repr(v)).To(Equal(`[1, 2.0, 100.0, -0.0, inf, 12345678901234567890123, '😀', 'é', nan, -inf, True, None, '\ud800']`))
		s, _ := pv.JSONDumps(v)
		Expect(s).To(Equal(`[1, 2.0, 100.0, -0.0, Infinity, 12345678901234567890123, "\ud83d\ude00", "\u00e9", NaN, -Infinity, true, null, "\ud800"]`))
	})
	DescribeTable("errors match CPython",
		func(src, want string) {
			_, err := pv.FromJSONString(src)
			Expect(err).To(MatchError(want))
			Expect(pv.IsException(err, "JSONDecodeError")).To(BeTrue())
		},
		Entry(nil, "", "Expecting value: line 1 column 1 (char 0)"),
		Entry(nil, "[1,", "Expecting value: line 1 column 4 (char 3)"),
		Entry(nil, `{"a" 1}`, "Expecting ':' delimiter: line 1 column 6 (char 5)"),
		Entry(nil, `{"a":1,}`, "Expecting property name enclosed in double quotes: line 1 column 8 (char 7)"),
		Entry(nil, "[1 2]", "Expecting ',' delimiter: line 1 column 4 (char 3)"),
		Entry(nil, `"abc`, "Unterminated string starting at: line 1 column 1 (char 0)"),
		Entry(nil, `"a\qb"`, `Invalid \escape: line 1 column 3 (char 2)`),
		Entry(nil, `"\u12"`, `Invalid \uXXXX escape: line 1 column 3 (char 2)`),
		Entry(nil, "1 2", "Extra data: line 1 column 3 (char 2)"),
		Entry(nil, "{1:2}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
		Entry(nil, "\n\n  x", "Expecting value: line 3 column 3 (char 4)"),
		Entry(nil, "\"a\tb\"", "Invalid control character at: line 1 column 3 (char 2)"),
		Entry(nil, "[1,]", "Expecting value: line 1 column 4 (char 3)"),
		Entry(nil, `["é", x]`, "Expecting value: line 1 column 7 (char 6)"),
	)
})

var _ = Describe("Truthy and DeepCopy", func() {
	It("computes bool()", func() {
		for _, v := range []pv.Value{pv.None, pv.Bool(false), pv.Int(0), pv.Float(0), pv.Str(""), L(), pv.Tuple{}, pv.NewDict(), pv.NewSet()} {
			Expect(pv.Truthy(v)).To(BeFalse(), pv.Repr(v))
		}
		for _, v := range []pv.Value{pv.Bool(true), pv.Int(-1), pv.Float(0.1), pv.Str(" "), L(pv.None), pv.Tuple{pv.None}, D(pv.None, pv.None), pv.NewSet(pv.None), pv.Ellipsis} {
			Expect(pv.Truthy(v)).To(BeTrue(), pv.Repr(v))
		}
	})
	It("deep-copies containers and preserves aliasing", func() {
		shared := L(pv.Int(1))
		orig := D(pv.Str("a"), shared, pv.Str("b"), shared, pv.Str("t"), pv.Tuple{shared})
		c := pv.DeepCopy(orig).(*pv.Dict)
		Expect(pv.Equal(c, orig)).To(BeTrue())
		ca, _ := c.GetStr("a")
		cb, _ := c.GetStr("b")
		Expect(ca).To(BeIdenticalTo(cb))
		Expect(ca).NotTo(BeIdenticalTo(pv.Value(shared)))
		ca.(*pv.List).Items = append(ca.(*pv.List).Items, pv.Int(2))
		Expect(pv.Repr(orig)).To(Equal("{'a': [1], 'b': [1], 't': ([1],)}"))
		Expect(pv.Repr(c)).To(Equal("{'a': [1, 2], 'b': [1, 2], 't': ([1, 2],)}"))
	})
})

var _ = Describe("cyclic containers", func() {
	It("prints [...] and {...} and refuses to serialise them", func() {
		l := L(pv.Int(1))
		l.Items = append(l.Items, l)
		Expect(pv.Repr(l)).To(Equal("[1, [...]]"))
		d := D(pv.Str("a"), pv.Int(1))
		d.SetStr("self", d)
		Expect(pv.Repr(d)).To(Equal("{'a': 1, 'self': {...}}"))
		_, err := pv.JSONDumps(d)
		Expect(err).To(MatchError("Circular reference detected"))
		shared := L(pv.Int(2))
		Expect(pv.Repr(L(shared, shared))).To(Equal("[[2], [2]]"))
		s, err := pv.JSONDumps(L(shared, shared))
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(Equal("[[2], [2]]"))
	})
})
