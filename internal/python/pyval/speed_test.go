package pyval_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pv "github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
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
		bad := testenv.Concurrently(8, func(g int) (bad int) {
			for round := 0; round < 3; round++ {
				for i := range fs {
					j := (i*(g+1) + round) % len(fs) // different orders per goroutine
					if got := string(pv.AppendFloatRepr([]byte("x"), fs[j])); got != "x"+want[j] {
						bad++
					}
				}
			}
			return bad
		})
		Expect(bad).To(HaveEach(0))
	})
})

// The shortcuts of the speed work (issue 27) must not show: these specs
// compare them with the plain way of doing the same thing.

var _ = Describe("StrKey", func() {
	It("is Str(s), for short and long strings, from many goroutines at once", func() {
		var keys []string
		for i := 0; i < 10000; i++ { // more keys than slots: slots are replaced
			keys = append(keys, fmt.Sprintf("key_%d", i%5000), strings.Repeat("k", i%60))
		}
		bad := testenv.Concurrently(6, func(g int) (bad int) {
			for i := range keys {
				k := keys[(i*(g+3))%len(keys)]
				if v := pv.StrKey(k); v != pv.Value(pv.Str(k)) {
					bad++
				}
			}
			return bad
		})
		Expect(bad).To(HaveEach(0))
	})
})

var _ = Describe("Dict made in one piece", func() {
	// ref is the dict built key by key with Set.
	ref := func(n int) *pv.Dict {
		d := pv.NewDict()
		for i := 0; i < n; i++ {
			switch i % 3 {
			case 0:
				d.Set(pv.Str(fmt.Sprint("k", i)), pv.Int(i))
			case 1:
				d.Set(pv.Int(i), pv.Str(fmt.Sprint("v", i)))
			default:
				d.Set(pv.Tuple{pv.Int(i), pv.Str("t")}, pv.Float(float64(i)+0.5))
			}
		}
		return d
	}
	for _, n := range []int{3, 9, 20, 32, 33, 50} {
		It(fmt.Sprintf("finds, changes and removes keys like a dict built by Set (%d keys)", n), func() {
			for _, d := range []*pv.Dict{pv.DeepCopy(ref(n)).(*pv.Dict), ref(n).Copy()} {
				want := ref(n)
				Expect(pv.Equal(d, want)).To(BeTrue())
				for i := 0; i < n; i++ {
					for _, k := range []pv.Value{pv.Str(fmt.Sprint("k", i)), pv.Int(i), pv.Float(float64(i)), pv.Bool(i == 1), pv.Tuple{pv.Float(float64(i)), pv.Str("t")}} {
						gv, gok := d.Get(k)
						wv, wok := want.Get(k)
						Expect(gok).To(Equal(wok), "%d keys, key %s", n, pv.Repr(k))
						if wok {
							Expect(pv.Repr(gv)).To(Equal(pv.Repr(wv)), "%d keys, key %s", n, pv.Repr(k))
						}
					}
				}
				// Changes after the copy: overwrite, add, delete.
				for _, x := range []*pv.Dict{d, want} {
					x.Set(pv.Float(1), pv.Str("one"))
					x.Set(pv.Str("new"), pv.None)
					x.Delete(pv.Str("k0"))
					x.Set(pv.Str("k0"), pv.Int(-1))
				}
				Expect(pv.Repr(d)).To(Equal(pv.Repr(want)))
				_, ok := d.GetStr("new")
				Expect(ok).To(BeTrue())
			}
		})
	}

	It("may be read by many goroutines at once (reads never build an index)", func() {
		d := pv.DeepCopy(ref(20)).(*pv.Dict)
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 20; i++ {
					d.Get(pv.Int(i))
					d.GetStr(fmt.Sprint("k", i))
				}
			}()
		}
		wg.Wait()
	})
})

var _ = Describe("FromJSON objects and arrays", func() {
	It("keeps a repeated key's first position and last value, in small and big objects", func() {
		for _, n := range []int{2, 8, 20, 32, 40} {
			var b strings.Builder
			b.WriteString("{")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, `"k%d": [%d, {"in": [%d]}], `, i, i, i)
			}
			b.WriteString(`"k1": "again", "k\u0030": "escaped"}`)
			v, err := pv.FromJSONString(b.String())
			Expect(err).NotTo(HaveOccurred())
			d := v.(*pv.Dict)
			Expect(d.Len()).To(Equal(n))
			k, val := d.At(1)
			Expect(k).To(Equal(pv.Value(pv.Str("k1"))))
			Expect(val).To(Equal(pv.Value(pv.Str("again"))))
			k, val = d.At(0)
			Expect(k).To(Equal(pv.Value(pv.Str("k0"))))
			Expect(val).To(Equal(pv.Value(pv.Str("escaped"))))
			if n > 2 {
				last, _ := d.GetStr(fmt.Sprint("k", n-1))
				Expect(pv.Repr(last)).To(Equal(fmt.Sprintf("[%d, {'in': [%d]}]", n-1, n-1)))
			}
			d.Set(pv.Str("added"), pv.Int(1)) // the dict is complete and changeable
			Expect(d.Len()).To(Equal(n + 1))
		}
	})

	DescribeTable("reports errors in member names as CPython",
		func(src, want string) {
			_, err := pv.FromJSONString(src)
			Expect(err).To(MatchError(want))
		},
		Entry(nil, `{"a\qb": 1}`, `Invalid \escape: line 1 column 4 (char 3)`),
		Entry(nil, `{"ab`, "Unterminated string starting at: line 1 column 2 (char 1)"),
		Entry(nil, "{\"a\tb\": 1}", "Invalid control character at: line 1 column 4 (char 3)"),
		Entry(nil, `[{"a": [1, {"b": }]}]`, "Expecting value: line 1 column 18 (char 17)"),
	)
})

var _ = Describe("AppendJSONString", func() {
	It("writes what the byte-by-byte form writes", func() {
		pieces := []string{"plain ", "é", "😀", "\x00", "\x1f", "\x7f", `"`, `\`, "\n", "\xff", "\xed\xa0\x80", "ascii run of text", "\u2028", "中文"}
		r := rand.New(rand.NewPCG(5, 6))
		for i := 0; i < 3000; i++ {
			var sb strings.Builder
			for j := r.IntN(8); j >= 0; j-- {
				sb.WriteString(pieces[r.IntN(len(pieces))])
			}
			s := sb.String()
			Expect(string(pv.AppendJSONString([]byte("x"), s))).To(Equal(string(pv.AppendJSONStringBytewise([]byte("x"), s))), "%q", s)
		}
	})
})

var _ = Describe("DictFromItems", func() {
	It("is setting the pairs in order, with str keys, repeated keys and other keys", func() {
		for _, n := range []int{0, 1, 8, 9, 32, 33, 60} {
			for _, dup := range []bool{false, true} {
				for _, mixed := range []bool{false, true} {
					var items []pv.KV
					for i := 0; i < n; i++ {
						var k pv.Value = pv.Str(fmt.Sprint("k", i))
						if mixed && i%5 == 4 {
							k = pv.Int(i)
						}
						items = append(items, pv.KV{Key: k, Value: pv.Int(i)})
					}
					if dup && n > 0 {
						items = append(items, pv.KV{Key: pv.Str("k0"), Value: pv.Str("last")}, pv.KV{Key: pv.Float(float64(n - 1)), Value: pv.None})
					}
					want := pv.NewDict()
					for _, kv := range items {
						want.Set(kv.Key, kv.Value)
					}
					got := pv.DictFromItems(items)
					Expect(pv.Repr(got)).To(Equal(pv.Repr(want)), "n=%d dup=%v mixed=%v", n, dup, mixed)
					for _, kv := range items {
						gv, _ := got.Get(kv.Key)
						wv, _ := want.Get(kv.Key)
						Expect(pv.Repr(gv)).To(Equal(pv.Repr(wv)))
					}
					got.Set(pv.Str("k1"), pv.Str("changed"))
					want.Set(pv.Str("k1"), pv.Str("changed"))
					Expect(pv.Repr(got)).To(Equal(pv.Repr(want)))
				}
			}
		}
	})
})

var _ = Describe("pyjson of a set", func() {
	It("orders the members by their text as EncodePyJSON does", func() {
		r := rand.New(rand.NewPCG(7, 8))
		for round := 0; round < 300; round++ {
			set := pv.NewSet()
			for i := r.IntN(40); i > 0; i-- {
				switch r.IntN(5) {
				case 0:
					set.Add(pv.Int(r.IntN(200) - 100))
				case 1:
					set.Add(pv.Str(fmt.Sprint("s", r.IntN(50))))
				case 2:
					set.Add(pv.Float(r.Float64() * 10))
				case 3:
					set.Add(pv.Tuple{pv.Int(r.IntN(3)), pv.Str("t")})
				default:
					set.Add(pv.Int(1 << 60))
				}
			}
			got, err := pv.MarshalPyJSON(set)
			Expect(err).NotTo(HaveOccurred())
			want, err := pv.AppendAny(nil, pv.EncodePyJSON(set))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(string(want)))
		}
	})
})
