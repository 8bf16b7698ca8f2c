package bigmath_test

import (
	"encoding/json"
	"math"
	"os"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/bigmath"
)

var _ = Describe("Pow", func() {
	It("equals CPython's float ** (glibc pow) bit for bit on recorded cases", func() {
		b, err := os.ReadFile("testdata/pow_glibc.json")
		Expect(err).NotTo(HaveOccurred())
		var data struct{ Cases [][3]string }
		Expect(json.Unmarshal(b, &data)).To(Succeed())
		Expect(len(data.Cases)).To(BeNumerically(">", 300))
		mismatch, goMismatch := 0, 0
		for _, c := range data.Cases {
			x, _ := strconv.ParseFloat(c[0], 64)
			y, _ := strconv.ParseFloat(c[1], 64)
			want, _ := strconv.ParseFloat(c[2], 64)
			if bigmath.Pow(x, y) != want {
				mismatch++
			}
			if math.Pow(x, y) != want {
				goMismatch++
			}
		}
		GinkgoWriter.Printf("math.Pow differs from glibc in %d of %d cases\n", goMismatch, len(data.Cases))
		Expect(mismatch).To(BeZero())
	})

	It("keeps the special cases of pow", func() {
		Expect(bigmath.Pow(1, math.NaN())).To(Equal(1.0))
		Expect(bigmath.Pow(5, 0)).To(Equal(1.0))
		Expect(math.IsInf(bigmath.Pow(10, 400), 1)).To(BeTrue())
		Expect(bigmath.Pow(10, -400)).To(Equal(0.0))
	})
})
