package pyval_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pv "github.com/bfcl-go/bfcl/internal/python/pyval"
)

var _ = Describe("Lower", func() {
	It("lower-cases like CPython's str.lower (İ and final sigma)", func() {
		// pairs printed by CPython: print(repr(t), repr(t.lower()))
		for _, c := range [][2]string{
			{"ΟΔΟΣ", "οδος"}, {"ΣΑΣ", "σας"}, {"Σ", "σ"}, {"aΣ.", "aς."}, {"aΣb", "aσb"},
			{"İstanbul", "i̇stanbul"}, {"AΣ'", "aς'"}, {"ΑΣ ΑΣ", "ας ας"}, {"x Σ y", "x σ y"}, {"ǅΣ", "ǆς"},
			{"Hello World", "hello world"}, {"ÀÉÎ", "àéî"}, {"\u212a", "k"},
		} {
			Expect(pv.Lower(c[0])).To(Equal(c[1]), c[0])
		}
	})
})

var _ = Describe("str methods and item access", func() {
	It("splits and joins as str.split(), str.splitlines() and str.join do", func() {
		Expect(pv.Split(" a\u001cb\u3000c \n")).To(Equal([]string{"a", "b", "c"}))
		Expect(pv.SplitLines("a\r\nb\rc\u2028d\n")).To(Equal([]string{"a", "b", "c", "d"}))
		Expect(pv.SplitLines("")).To(BeNil())
		Expect(pv.StrLen("a\u00e9\U0001F600"+"\xed\xa0\x80")).To(Equal(4), "a lone surrogate counts once")
		Expect(pv.Strip("\u00a0\u001f x y\u2029")).To(Equal("x y"))
		Expect(pv.IsWord('_') && pv.IsWord('é') && pv.IsWord('\u2167') && !pv.IsWord('-')).To(BeTrue())
		s, err := pv.Join(", ", []pv.Value{pv.Str("a"), pv.Str("b")})
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(Equal("a, b"))
		_, err = pv.Join(", ", []pv.Value{pv.Str("a"), pv.Int(1)})
		Expect(err).To(MatchError("sequence item 1: expected str instance, int found"))
	})

	It("raises Python's errors for a receiver or container of the wrong type", func() {
		_, err := pv.StrMethod(pv.Int(3), "lower")
		Expect(err).To(MatchError("'int' object has no attribute 'lower'"))
		Expect(pv.SetItem(pv.Str("x"), pv.Int(0), pv.None)).To(MatchError("'str' object does not support item assignment"))
		Expect(pv.SetItem(pv.NewList(), pv.Int(0), pv.None)).To(MatchError("list assignment index out of range"))
		Expect(pv.SetItem(pv.NewDict(), pv.NewList(), pv.None)).To(MatchError("unhashable type: 'list'"))
		Expect(pv.Append(pv.NewDict(), pv.None)).To(MatchError("'dict' object has no attribute 'append'"))
	})

	It("makes list(v) a new list", func() {
		l := pv.NewList(pv.Int(1))
		items, err := pv.ListOf(l)
		Expect(err).NotTo(HaveOccurred())
		items[0] = pv.Int(2)
		Expect(l.Items[0]).To(Equal(pv.Value(pv.Int(1))))
		_, err = pv.ListOf(pv.Int(1))
		Expect(err).To(MatchError("'int' object is not iterable"))
	})
})

var _ = Describe("FormatFields", func() {
	It("is str.format with named fields: one pass, doubled braces literal, CPython's errors", func() {
		s, err := pv.FormatFields("{a} {{x}} {b}", map[string]pv.Value{"a": pv.Str("{b}"), "b": pv.Int(2)})
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(Equal("{b} {x} 2"))
		_, err = pv.FormatFields("{c}", nil)
		Expect(err).To(MatchError("'c'"))
		Expect(pv.IsException(err, "KeyError")).To(BeTrue())
		_, err = pv.FormatFields("x{", nil)
		Expect(err).To(MatchError("Single '{' encountered in format string"))
		_, err = pv.FormatFields("{ab", nil)
		Expect(err).To(MatchError("expected '}' before end of string"))
		_, err = pv.FormatFields("a}b", nil)
		Expect(err).To(MatchError("Single '}' encountered in format string"))
		_, err = pv.FormatFields("{a:>4}", map[string]pv.Value{"a": pv.Int(1)})
		Expect(err).To(MatchError(ContainSubstring("not reproduced")))
	})
})
