package longcontext_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// pythonDigests holds, for every name of the dataset's long_context.py,
// len(value) and the SHA-256 of repr(value) as CPython 3.12 prints it:
//
//	python3.12 -c "import hashlib, long_context as L; [print(n, len(v),
//	  hashlib.sha256(repr(v).encode()).hexdigest()) for n, v in vars(L).items()
//	  if not n.startswith('_')]"
//
// so the parsed values must agree with Python's item for item, including
// float formatting, key order and the trailing Ellipsis.
func pythonDigests() map[string]struct {
	n      int
	sha256 string
} {
	return map[string]struct {
		n      int
		sha256 string
	}{
		"WATCH_LIST_EXTENSION":          {1001, "b05ae646f0cea01d634e0324d5d9f876f421ae48d29761700131a080b0cb4729"},
		"TRANSACTION_HISTORY_EXTENSION": {1000, "4bc4237354da40d0fba5cfe8dc1b1d17e695145a89c24f1386837cfc3893ca1a"},
		"MA_5_EXTENSION":                {2000, "d31eacce6600e39b7dd2a87200c62e252882f63dc832245b701c4a83359da1ce"},
		"MA_20_EXTENSION":               {2000, "02d40275df50e36894fa8a5b9efaed9d7cf781d634d792091955c7d8b311f83d"},
		"TECHNOLOGY_EXTENSION":          {1000, "8a7b132e728c228977f4b6c16952fea0ea104a0debffb42fa76f443b8bf1d2f9"},
		"AUTOMOBILE_EXTENSION":          {1000, "b2193828e3ff5c8476bf38b2dc99caca00113a0543e632a1c87c23d450290f02"},
		"ORDER_DETAIL_EXTENSION":        {8, "4cf5aca5a15db8e443de51ef3d56cbf17b1e39f1679df93c39c21d95504d31ad"},
		"FILE_CONTENT_EXTENSION":        {3251, "70bf69488345cccfc7e594d8307d0007e4eda9343c939f237ee8cd3df9e68545"},
		"POPULATE_FILE_EXTENSION":       {30, "8365debdf2427e2ce788a4919fa7b37985df5755c058bf85205a4922427f04b2"},
		"CAR_STATUS_METADATA_EXTENSION": {6503, "e2d77c62fea2f654687451dcd7a3390ed56ebd1e65fd202ddfdb7ce7567549be"},
		"LONG_WEATHER_EXTENSION":        {15, "557637beecfcdbbf26b5d9aa0c01d0b7e3e0dd9f555ea8c83dadbd97ba95ec70"},
		"PARKING_BRAKE_INSTRUCTION":     {9710, "7c675129152f19ed31e28d16421ad189c7dce1f2ada79a3abc7f6c3645cfdf3a"},
		"INTERMEDIARY_CITIES":           {826, "5296eb4988fb1215f6c55567d160a235641509c9e1abce519e1aa284abbb0273"},
		"CREDIT_CARD_EXTENSION":         {22, "67d42830a15de3f2a3a6233e2b7f902a20e8f17e2a701ab09672d91704fb9ccc"},
		"BOOKING_RECORD_EXTENSION":      {16, "b006ecb0d947365126bfc04e1ae5913d16c8cad4b09c189631ec938a1631aab1"},
		"FILES_TAIL_USED":               {9, "e7996dea44cb77e86d0f01b80e10f0497cc57921be2ae95bf65206f5bcbbbf60"},
	}
}

func loadData() *longcontext.Data {
	dir := testenv.NeedDataDir(GinkgoT(), "BFCL data set (long_context.py)")
	d, err := longcontext.Load(dir)
	Expect(err).NotTo(HaveOccurred())
	return d
}

func lenOf(v pyval.Value) int {
	n, err := pyval.Len(v)
	Expect(err).NotTo(HaveOccurred())
	return n
}

func digest(v pyval.Value) string {
	sum := sha256.Sum256([]byte(pyval.Repr(v)))
	return hex.EncodeToString(sum[:])
}

var _ = Describe("long_context.py", func() {
	It("parses to exactly the values CPython builds", func() {
		d := loadData()
		want := pythonDigests()
		Expect(d.Names()).To(HaveLen(len(want)))
		for _, name := range d.Names() {
			w, ok := want[name]
			Expect(ok).To(BeTrue(), "unexpected name %s", name)
			v := d.Get(name)
			Expect(lenOf(v)).To(Equal(w.n), name)
			Expect(digest(v)).To(Equal(w.sha256), name)
		}
		for _, n := range longcontext.RequiredNames() {
			Expect(d.Has(n)).To(BeTrue(), n)
		}
	})

	It("keeps the literal Ellipsis at the end of WATCH_LIST_EXTENSION", func() {
		wl := loadData().Get(longcontext.WatchListExtension).(*pyval.List)
		Expect(wl.Items[len(wl.Items)-1]).To(Equal(pyval.Ellipsis))
		Expect(wl.Items[len(wl.Items)-2]).To(Equal(pyval.Str("ZRFRE")))
	})

	It("clones deeply", func() {
		d := loadData()
		c := d.Clone()
		Expect(c.Names()).To(Equal(d.Names()))
		for _, n := range d.Names() {
			Expect(pyval.Equal(c.Get(n), d.Get(n))).To(BeTrue(), n)
		}
		card := c.Get(longcontext.CreditCardExtension).(*pyval.Dict).Values()[0].(*pyval.Dict)
		card.SetStr("balance", pyval.Float(1))
		c.Get(longcontext.LongWeatherExtension).(*pyval.Dict).SetStr("outsideTemperature", pyval.Float(3))
		orig := d.Get(longcontext.CreditCardExtension).(*pyval.Dict).Values()[0].(*pyval.Dict)
		bal, _ := orig.GetStr("balance")
		Expect(bal).To(Equal(pyval.Float(5000.0)))
		Expect(d.Get(longcontext.LongWeatherExtension).(*pyval.Dict).Has(pyval.Str("outsideTemperature"))).To(BeFalse())
		Expect(digest(d.Get(longcontext.CreditCardExtension))).To(Equal(pythonDigests()[longcontext.CreditCardExtension].sha256))
	})

	It("clones a clone as it is now, without touching the clone or the original", func() {
		d := loadData()
		c := d.Clone()
		c.Get(longcontext.LongWeatherExtension).(*pyval.Dict).SetStr("outsideTemperature", pyval.Float(3))
		cc := c.Clone()
		t, ok := cc.Get(longcontext.LongWeatherExtension).(*pyval.Dict).GetStr("outsideTemperature")
		Expect(ok).To(BeTrue(), "the clone's change is in its clone")
		Expect(t).To(Equal(pyval.Float(3)))
		cc.Get(longcontext.LongWeatherExtension).(*pyval.Dict).SetStr("outsideTemperature", pyval.Float(4))
		cc.Get(longcontext.CreditCardExtension).(*pyval.Dict).Values()[0].(*pyval.Dict).SetStr("balance", pyval.Float(1))
		t, _ = c.Get(longcontext.LongWeatherExtension).(*pyval.Dict).GetStr("outsideTemperature")
		Expect(t).To(Equal(pyval.Float(3)))
		bal, _ := c.Get(longcontext.CreditCardExtension).(*pyval.Dict).Values()[0].(*pyval.Dict).GetStr("balance")
		Expect(bal).To(Equal(pyval.Float(5000.0)))
		Expect(digest(d.Get(longcontext.CreditCardExtension))).To(Equal(pythonDigests()[longcontext.CreditCardExtension].sha256))
	})

	It("panics on a name long_context.py does not define", func() {
		Expect(func() { loadData().Get("NO_SUCH_NAME") }).To(PanicWith(ContainSubstring("NO_SUCH_NAME")))
	})

	It("accepts an upstream checkout layout", func() {
		dir := GinkgoT().TempDir()
		src := []byte("WATCH_LIST_EXTENSION = ['A', ...]\n")
		p := filepath.Join(dir, "bfcl_eval", "eval_checker", "multi_turn_eval", "func_source_code")
		Expect(os.MkdirAll(p, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(p, "long_context.py"), src, 0o644)).To(Succeed())
		_, err := longcontext.Load(dir)
		Expect(err).To(MatchError(ContainSubstring("does not define")))
		Expect(err).To(MatchError(ContainSubstring("FILES_TAIL_USED")))
	})

	It("reads the Python literal forms the module may use", func() {
		names := longcontext.RequiredNames()
		src := ""
		for _, n := range names {
			src += n + " = None\n"
		}
		src += `# comment
A = {"k": [1, -2, 3.5e2, 0x1F, 1_000, True, False, None, ...], 'b': ('x',), 'c': (1), 'd': {1, 2}}
B = ("implicit " 'concat'
     """triple
quoted""" r'\d' "\t\u00e9\x41\101")
C = -0.0
B2 = 12345678901234567890123
`
		d, err := longcontext.Parse([]byte(src))
		Expect(err).NotTo(HaveOccurred())
		Expect(pyval.Repr(d.Get("A"))).To(Equal(`{'k': [1, -2, 350.0, 31, 1000, True, False, None, Ellipsis], 'b': ('x',), 'c': 1, 'd': {1, 2}}`))
		Expect(d.Get("B")).To(Equal(pyval.Str("implicit concattriple\nquoted\\d\téAA")))
		Expect(pyval.Repr(d.Get("C"))).To(Equal("-0.0"))
		Expect(pyval.Repr(d.Get("B2"))).To(Equal("12345678901234567890123"))
	})

	It("rejects what is not a literal assignment, naming the line", func() {
		for _, src := range []string{"x = foo(1)\n", "x = [1, 2\n", "x = 'abc\n", "import os\n", "x = 1 2\n"} {
			_, err := longcontext.Parse([]byte(src))
			Expect(err).To(MatchError(ContainSubstring("line")), src)
		}
	})
})

func BenchmarkClone(b *testing.B) {
	dir := testenv.NeedDataDir(b, "BFCL data set (long_context.py)")
	d, err := longcontext.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := d.Clone() // values are copied on first read: read them all
		for _, n := range c.Names() {
			c.Get(n)
		}
	}
}

func BenchmarkLoad(b *testing.B) {
	dir := testenv.NeedDataDir(b, "BFCL data set (long_context.py)")
	for i := 0; i < b.N; i++ {
		if _, err := longcontext.Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzParse checks that no input makes the literal reader panic or loop.
func FuzzParse(f *testing.F) {
	f.Add([]byte("A = [1, 'x', {'k': (2,)}, ...]\n"))
	f.Add([]byte("B = \"\"\"a\nb\"\"\" 'c'\nC = -1.5e3\n"))
	f.Add([]byte("D = {1, 2\n"))
	f.Add([]byte("E = '\\x4"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, _ = longcontext.Parse(src)
	})
}
