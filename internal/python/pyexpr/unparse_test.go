package pyexpr_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
)

// unparseCase is one line of testdata/unparse_cases.json, generated with
// CPython's ast.unparse(ast.parse(src, mode="eval")).
type unparseCase struct {
	Src     string `json:"src"`
	Unparse string `json:"unparse"`
}

var _ = Describe("Unparse", func() {
	recordedCases("testdata/unparse_cases.json", 80, func(c unparseCase) string { return "matches ast.unparse for " + c.Src }, func(c unparseCase) {
		e, err := pyexpr.ParseAST(c.Src)
		Expect(err).NotTo(HaveOccurred())
		Expect(pyexpr.Unparse(e)).To(Equal(c.Unparse))
	})
	It("names <unknown> in ast.parse errors and does not strip indentation", func() {
		_, err := pyexpr.ParseAST("f(a=1, 2)")
		Expect(err).To(MatchError("positional argument follows keyword argument (<unknown>, line 1)"))
		_, err = pyexpr.ParseAST(" f(1)")
		Expect(err).To(MatchError("unexpected indent (<unknown>, line 1)"))
		_, err = pyexpr.Parse(" f(1)")
		Expect(err).NotTo(HaveOccurred())
	})
	It("accepts repeated keyword arguments, which only CPython's compiler (eval) rejects", func() {
		e, err := pyexpr.ParseAST("f(a=1, b=2, a=3)")
		Expect(err).NotTo(HaveOccurred())
		c := e.(*pyexpr.Call)
		Expect(c.Keywords).To(HaveLen(3))
		Expect(c.Keywords[0].Arg).To(Equal("a"))
		Expect(c.Keywords[2].Arg).To(Equal("a"))
		Expect(pyexpr.Unparse(e)).To(Equal("f(a=1, b=2, a=3)"))
		_, err = pyexpr.Parse("f(a=1, b=2, a=3)")
		Expect(err).To(MatchError("keyword argument repeated: a (<string>, line 1)"))
	})
})
