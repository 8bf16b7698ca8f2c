package report

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Expected values below were printed by CPython 3.12.1.
var _ = Describe("Python number formatting", func() {
	It("formats floats as repr()", func() {
		for f, want := range map[float64]string{
			0.0001: "0.0001", 1e-05: "1e-05", 1e16: "1e+16", 1e15: "1000000000000000.0",
			123456789012345678.0: "1.2345678901234568e+17", 2.5: "2.5", 100.0: "100.0",
			0.30000000000000004: "0.30000000000000004", 0.3333333333333333: "0.3333333333333333", 5e-324: "5e-324",
			1.7976931348623157e308: "1.7976931348623157e+308", 12203.4: "12203.4", 0.782051282051282: "0.782051282051282",
		} {
			Expect(pyFloatRepr(f)).To(Equal(want), want)
		}
		Expect(pyFloatRepr(math.Copysign(0, -1))).To(Equal("-0.0"))
	})
	It("rounds like round(x, 2) and formats like {:.2f}%", func() {
		for _, c := range []struct {
			x     float64
			round string
			pct   string
		}{
			{0.125, "0.12", "12.50%"}, {0.375, "0.38", "37.50%"}, {2.675, "2.67", "267.50%"},
			{1.005, "1.0", "100.50%"}, {0.285, "0.28", "28.50%"}, {1234.5678, "1234.57", "123456.78%"},
			{2.5, "2.5", "250.00%"},
		} {
			Expect(pyFloatRepr(pyRound(c.x, 2))).To(Equal(c.round), c.round)
			Expect(pyPercent(c.x)).To(Equal(c.pct))
		}
	})
	It("rounds numpy floats with rint(x*100)/100", func() {
		Expect(npRound(5.795, 2)).To(Equal(5.8))
		Expect(npRound(0.125, 2)).To(Equal(0.12))
		Expect(npRound(0.135, 2)).To(Equal(0.14))
	})
})

var _ = Describe("Python statistics", func() {
	xs := []float64{0.1, 0.2, 0.3, 1e-05, 12.345678, 7.25, 3.3333333333333335}
	It("sums with CPython 3.12's compensated sum", func() {
		Expect(pySum(xs)).To(Equal(23.529021333333333))
		Expect(pySum([]float64{1e16, 1.0, -1e16})).To(Equal(1.0))
		Expect(pySum(nil)).To(Equal(0.0))
	})
	It("computes exact mean, variance and correctly rounded stdev", func() {
		m, err := pyMean(xs)
		Expect(err).NotTo(HaveOccurred())
		Expect(m).To(Equal(3.361288761904762))
		sd, err := pyStdev(xs)
		Expect(err).NotTo(HaveOccurred())
		Expect(sd).To(Equal(4.780891503414825))
		v, err := pyVariance(xs)
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal(22.85692356742406))
		ys := []float64{1.0, 0.3333333333333333, 0.6666666666666666, 1.0}
		sd, _ = pyStdev(ys)
		Expect(sd).To(Equal(0.3191423692521127))
		v, _ = pyVariance(ys)
		Expect(v).To(Equal(0.10185185185185186))
		_, err = pyStdev([]float64{1})
		Expect(err).To(HaveOccurred())
		sd, _ = pyStdev([]float64{2, 2, 2})
		Expect(sd).To(Equal(0.0))
	})
	It("sums exactly as rationals do (dyadic integers, one fraction)", func() {
		// the reference: one rational addition per element
		ratMean := func(xs []float64) *big.Rat {
			sum := new(big.Rat)
			for _, x := range xs {
				sum.Add(sum, new(big.Rat).SetFloat64(x))
			}
			return sum.Quo(sum, new(big.Rat).SetInt64(int64(len(xs))))
		}
		ratVar := func(xs []float64) *big.Rat {
			mean := ratMean(xs)
			ss := new(big.Rat)
			for _, x := range xs {
				d := new(big.Rat).Sub(new(big.Rat).SetFloat64(x), mean)
				ss.Add(ss, d.Mul(d, d))
			}
			return ss.Quo(ss, new(big.Rat).SetInt64(int64(len(xs)-1)))
		}
		rng := rand.New(rand.NewPCG(1, 2))
		cases := [][]float64{xs, {0, 0}, {0, 1e-310, -5e-324}, {1e300, -1e-300, 3}, {2, 2, 2}}
		for range 200 {
			n := 2 + rng.IntN(40)
			c := make([]float64, n)
			for i := range c {
				switch rng.IntN(4) {
				case 0:
					c[i] = rng.Float64() * 100
				case 1:
					c[i] = math.Ldexp(rng.Float64()-0.5, rng.IntN(200)-100)
				case 2:
					c[i] = float64(rng.IntN(5000))
				default:
					c[i] = 0
				}
			}
			cases = append(cases, c)
		}
		for _, c := range cases {
			v, err := sampleVarianceRat(c)
			Expect(err).NotTo(HaveOccurred())
			Expect(v.Cmp(ratVar(c))).To(Equal(0), "%v", c)
			m, err := pyMean(c)
			Expect(err).NotTo(HaveOccurred())
			want, _ := ratMean(c).Float64()
			Expect(m).To(Equal(want), "%v", c)
		}
	})
	It("computes numpy's linear percentile", func() {
		Expect(npPercentile([]float64{1, 2, 3, 4}, 95)).To(BeNumerically("~", 3.85, 1e-12))
		Expect(npPercentile([]float64{5}, 95)).To(Equal(5.0))
		Expect(npPercentile([]float64{3, 1, 2}, 50)).To(Equal(2.0))
		Expect(npPercentile([]float64{0, 10}, 95)).To(Equal(9.5))
	})
})

var _ = Describe("Python json.dumps", func() {
	enc := func(v any) string {
		b, err := appendPyJSON(nil, v)
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}
	It("uses Python separators, repr floats, no HTML or non-ASCII escaping", func() {
		Expect(enc(verdict.Fields{{Key: "a", Value: 1.0}, {Key: "b", Value: []any{1, "x<&>é\n\"", nil, true}}})).
			To(Equal(`{"a": 1.0, "b": [1, "x<&>é\n\"", null, true]}`))
		Expect(enc(map[string]any{"z": 1, "a": math.Inf(1)})).To(Equal(`{"a": Infinity, "z": 1}`))
		Expect(enc(json.RawMessage(`{"k":[1,2.50,1e5],"b":{"x":"\u001f"}}`))).
			To(Equal(`{"k": [1, 2.5, 100000.0], "b": {"x": "\u001f"}}`))
		Expect(enc(struct {
			B int     `json:"b"`
			A float64 `json:"a"`
		}{1, 2})).To(Equal(`{"b": 1, "a": 2.0}`))
		Expect(enc([]string{})).To(Equal(`[]`))
		Expect(enc((*int)(nil))).To(Equal(`null`))
		d := pyval.NewDict()
		d.Set(pyval.Int(12345), pyval.NewList(pyval.Float(25000), pyval.Str("’"), pyval.None))
		d.Set(pyval.Str("t"), pyval.Tuple{pyval.Bool(true)})
		d.Set(pyval.Str("s"), pyval.NewSet(pyval.Int(1)))
		d.Set(pyval.Float(1.5), pyval.Tuple{pyval.NewSet()})
		Expect(enc(d)).To(Equal(`{"12345": [25000.0, "’", null], "t": [true], "s": "{1}", "1.5": "(set(),)"}`))
		type inner struct {
			X float64 `json:"x,omitempty"`
			Y string
		}
		Expect(enc(struct {
			inner
			Z    []int `json:"z,omitempty"`
			Skip int   `json:"-"`
			priv int
		}{inner: inner{Y: "y"}})).To(Equal(`{"Y": "y"}`))
	})
})

// FuzzPyFloatRepr checks that repr text always reads back as the same float
// and uses Python's notation thresholds.
func FuzzPyFloatRepr(f *testing.F) {
	for _, x := range []float64{0, 1, 0.1, 1e-05, 1e16, 1e15, 123.456, -2.5e-300, math.MaxFloat64} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		s := pyFloatRepr(x)
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || back != x {
			t.Fatalf("repr %q of %v reads back as %v (%v)", s, x, back, err)
		}
		a := math.Abs(x)
		sci := strings.Contains(s, "e")
		if x != 0 && sci != (a < 1e-4 || a >= 1e16) {
			t.Fatalf("repr %q of %v: wrong notation", s, x)
		}
		if !sci && !strings.Contains(s, ".") {
			t.Fatalf("repr %q of %v: positional without '.'", s, x)
		}
	})
}
