package pyval_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pv "github.com/bfcl-go/bfcl/internal/pyval"
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
