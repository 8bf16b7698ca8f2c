package sim

import (
	"math"
	"math/big"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

var _ = Describe("formatFixed", func() {
	ten30, _ := new(big.Int).SetString("1000000000000000000000000000000", 10)
	DescribeTable("is format(v, '.2f') as CPython prints it",
		func(v pyval.Value, want string) {
			got, err := formatFixed(v, 2)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("float", pyval.Float(2.345), "2.35"),
		Entry("int", pyval.Int(3), "3.00"),
		Entry("bool", pyval.Bool(true), "1.00"),
		Entry("big int", pyval.NormBig(ten30), "1000000000000000019884624838656.00"),
		Entry("nan", pyval.Float(math.NaN()), "nan"),
		Entry("-inf", pyval.Float(math.Inf(-1)), "-inf"),
		Entry("-0.0", pyval.Float(math.Copysign(0, -1)), "-0.00"),
	)
	It("refuses a str as CPython does", func() {
		_, err := formatFixed(pyval.Str("x"), 2)
		Expect(err).To(MatchError("Unknown format code 'f' for object of type 'str'"))
	})
})
