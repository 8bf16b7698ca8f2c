package astcheck

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

var _ = Describe("entry skimming", func() {
	gt := func(s string) pyval.Value {
		v, err := pyval.FromJSON([]byte(s))
		Expect(err).NotTo(HaveOccurred())
		return v
	}
	names := func(v pyval.Value) []string {
		var out []string
		for _, d := range v.(*pyval.List).Items {
			n, _ := d.(*pyval.Dict).GetStr("name")
			out = append(out, pyval.StrOf(n))
		}
		return out
	}
	entry := []byte(`{"id": "x", "question": [[{"role": "user", "content": "a \"quoted\" {brace} [x]"}]],
		"function": [{"name": "a", "parameters": {}}, {"name": "b", "description": "}]"}, {"name": "a", "x": 1}, {"name": "c"}]}`)

	It("keeps only the first doc for simple categories", func() {
		v, ok := neededDocs("simple_python", entry, gt(`[{"zzz": {}}]`))
		Expect(ok).To(BeTrue())
		Expect(names(v)).To(Equal([]string{"a"}))
	})

	It("keeps the first doc of each answered name, in order, for multiple/parallel", func() {
		v, ok := neededDocs("parallel_multiple", entry, gt(`[{"c": {}}, {"a": {}}]`))
		Expect(ok).To(BeTrue())
		Expect(names(v)).To(Equal([]string{"a", "c"}))
		first := v.(*pyval.List).Items[0].(*pyval.Dict)
		Expect(first.Has(pyval.Str("x"))).To(BeFalse(), "the first 'a' doc, not the second")
	})

	It("gives up (full parse) on names it cannot read verbatim", func() {
		_, ok := neededDocs("multiple", []byte(`{"function": [{"name": "a\u005fb"}]}`), gt(`[{"a_b": {}}]`))
		Expect(ok).To(BeFalse())
		_, ok = neededDocs("multiple", []byte(`{"function": [{"description": "no name"}]}`), gt(`[{"a": {}}]`))
		Expect(ok).To(BeFalse())
		_, ok = neededDocs("multiple", []byte(`{"function": "oops"}`), gt(`[{"a": {}}]`))
		Expect(ok).To(BeFalse())
	})
})
