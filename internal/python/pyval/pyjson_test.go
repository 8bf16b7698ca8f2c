package pyval_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	pv "github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

type fakeObj struct{ name string }

func (f fakeObj) TypeName() string { return "File" }
func (f fakeObj) PyRepr() string   { return "<File>" }
func (f fakeObj) PyStr() string    { return "<File>" }
func (f fakeObj) PyEqual(o pv.Value) bool {
	g, ok := o.(fakeObj)
	return ok && g == f
}
func (f fakeObj) PyJSON() any {
	return pv.OrderedObject{{Key: "$File", Value: pv.OrderedObject{{Key: "name", Value: f.name}, {Key: "content", Value: pv.Str("x")}}}}
}

var _ = Describe("pyjson v1", func() {
	It("encodes every kind of value", func() {
		d := D(pv.Str("b"), pv.Float(1e-06), pv.Str("a"), pv.Tuple{pv.Int(1)}, pv.Str("s"), pv.NewSet(pv.Str("z"), pv.Int(10), pv.Int(9)),
			pv.Str("big"), pv.Int(1<<53), pv.Str("n"), pv.Int(-(1<<53)+1), pv.Str("e"), pv.Ellipsis, pv.Str("u"), pv.Str("é\"\n\x7f<"),
			pv.Str("d"), D(pv.Int(1), pv.Str("x"), pv.Str("k"), pv.None), pv.Str("dl"), D(pv.Str("$x"), pv.Bool(false)))
		b, err := pv.MarshalPyJSON(d)
		Expect(err).NotTo(HaveOccurred())
		want := `{"b":{"$float":"1e-06"},"a":{"$tuple":[1]},"s":{"$set":["z",10,9]},"big":{"$int":"9007199254740992"},"n":-9007199254740991,"e":{"$ellipsis":true},"u":"é\"\n` + "\x7f" + `<","d":{"$dict":[[1,"x"],["k",null]]},"dl":{"$dict":[["$x",false]]}}`
		Expect(string(b)).To(Equal(want))
		back, err := pv.DecodePyJSON(b)
		Expect(err).NotTo(HaveOccurred())
		Expect(pv.Equal(back, d)).To(BeTrue())
		Expect(pv.Repr(back)).To(Equal(pv.Repr(d)))
	})
	It("decodes object tags to Instances comparable with live Objects", func() {
		v, err := pv.DecodePyJSON([]byte(`{"f":{"$File":{"name":"a.txt","content":"x"}},"m":{"$mpf":"1.5","repr":"mpf('1.5')"},"dec":{"$decimal":"2.50"}}`))
		Expect(err).NotTo(HaveOccurred())
		f, _ := v.(*pv.Dict).GetStr("f")
		Expect(f.TypeName()).To(Equal("File"))
		Expect(pv.Equal(f, fakeObj{"a.txt"})).To(BeTrue())
		Expect(pv.Equal(f, fakeObj{"b.txt"})).To(BeFalse())
		m, _ := v.(*pv.Dict).GetStr("m")
		Expect(pv.Repr(m)).To(Equal("mpf('1.5')"))
		Expect(pv.StrOf(m)).To(Equal("1.5"))
		dec, _ := v.(*pv.Dict).GetStr("dec")
		Expect(pv.Repr(dec)).To(Equal("Decimal('2.50')"))
		b, _ := pv.MarshalPyJSON(v)
		Expect(string(b)).To(Equal(`{"f":{"$File":{"name":"a.txt","content":"x"}},"m":{"$mpf":"1.5","repr":"mpf('1.5')"},"dec":{"$decimal":"2.50"}}`))
	})
	It("round-trips every line of the reference traces byte for byte", func() {
		dir, _ := testenv.ReferenceDir()
		files, _ := filepath.Glob(filepath.Join(dir, "multi_turn_traces", "*_trace.jsonl"))
		if len(files) == 0 {
			Skip("REFERENCE DATA ABSENT: no multi_turn_traces/*_trace.jsonl under " + dir + " (set BFCL_REFERENCE_DIR)")
		}
		lines := 0
		for _, fn := range files {
			fh, err := os.Open(fn)
			Expect(err).NotTo(HaveOccurred())
			sc := bufio.NewScanner(fh)
			sc.Buffer(make([]byte, 1<<20), 1<<28)
			for sc.Scan() {
				line := bytes.TrimSpace(sc.Bytes())
				if len(line) == 0 {
					continue
				}
				v, err := pv.DecodePyJSON(line)
				Expect(err).NotTo(HaveOccurred(), fn)
				out, err := pv.MarshalPyJSON(v)
				Expect(err).NotTo(HaveOccurred())
				Expect(string(out)).To(Equal(string(line)), fn)
				lines++
			}
			Expect(sc.Err()).NotTo(HaveOccurred())
			fh.Close()
		}
		Expect(lines).To(Equal(800))
	})
})
