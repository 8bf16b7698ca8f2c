package pyval_test

import (
	"math"
	"math/rand/v2"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pv "github.com/bfcl-go/bfcl/internal/python/pyval"
)

// floatSamples are floats of every shape repr distinguishes: integral
// ones on both sides of 2**53, signed zeros, two-decimal prices (the
// cache's common case), random bit patterns, tiny and huge magnitudes.
func floatSamples() []float64 {
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 1e15, 1e16, -1e16, 1 << 53, -(1 << 53), 1<<53 + 2,
		1<<53 - 1, 123456789012345678, 0.1, 1e-5, 1e-4, 5e-324, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 227.16, 2840.56, -0.12, 1e22, 9999999999999998}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		fs = append(fs, float64(r.IntN(1_000_000))/100, math.Float64frombits(r.Uint64()),
			float64(r.Int64N(1<<60)-1<<59), r.NormFloat64()*1e6)
	}
	return fs
}

var _ = Describe("float repr", func() {
	It("writes Python's repr for integral, signed-zero and extreme floats", func() {
		for f, want := range map[float64]string{
			0: "0.0", math.Copysign(0, -1): "-0.0", 3: "3.0", -42: "-42.0", 1e15: "1000000000000000.0",
			1 << 53: "9007199254740992.0", -(1 << 53): "-9007199254740992.0", 1e16: "1e+16",
			123456789012345678: "1.2345678901234568e+17", 0.1: "0.1", 1e-5: "1e-05", 1e-4: "0.0001",
			227.16: "227.16", math.Inf(-1): "-inf",
		} {
			Expect(pv.Repr(pv.Float(f))).To(Equal(want), "%b", f)
			Expect(pv.Repr(pv.Float(f))).To(Equal(want), "%b (second time, cached)", f)
		}
		Expect(pv.Repr(pv.Float(math.NaN()))).To(Equal("nan"))
	})

	It("gives the uncached text for every float, from many goroutines at once", func() {
		fs := floatSamples()
		want := make([]string, len(fs))
		for i, f := range fs {
			want[i] = string(pv.AppendFloatReprSlow(nil, f))
		}
		var wg sync.WaitGroup
		bad := make([]int, 8)
		for g := range bad {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for round := 0; round < 3; round++ {
					for i := range fs {
						j := (i*(g+1) + round) % len(fs) // different orders per goroutine
						if got := string(pv.AppendFloatRepr([]byte("x"), fs[j])); got != "x"+want[j] {
							bad[g]++
						}
					}
				}
			}()
		}
		wg.Wait()
		Expect(bad).To(HaveEach(0))
	})
})
