package astcheck

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// The two-pass skim entryDocs replaced, kept as the reference of its
// test: objectField(entry, "function"), arrayElems, objectField(doc, "name").

// objectField returns the raw value of key in the JSON object b (the last
// occurrence wins, as in json.loads; nil when absent). ok is false when b
// is not an object this skimmer can walk.
func objectField(b []byte, key string) (out []byte, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return out, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		ke := skipValue(b, i)
		if ke < 0 {
			return nil, false
		}
		k := b[i+1 : ke-1]
		i = skipSpace(b, ke)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		ve := skipValue(b, i)
		if ve < 0 {
			return nil, false
		}
		if string(k) == key {
			out = b[i:ve]
		}
		i = skipSpace(b, ve)
		if i < len(b) && b[i] == '}' {
			return out, true
		}
		if i >= len(b) || b[i] != ',' {
			return nil, false
		}
		i = skipSpace(b, i+1)
	}
}

// arrayElems splits the raw JSON array b into its raw elements.
func arrayElems(b []byte) ([][]byte, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	var out [][]byte
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return out, true
	}
	for {
		e := skipValue(b, i)
		if e < 0 {
			return nil, false
		}
		out = append(out, b[i:e])
		i = skipSpace(b, e)
		if i < len(b) && b[i] == ']' {
			return out, true
		}
		if i >= len(b) || b[i] != ',' {
			return nil, false
		}
		i = skipSpace(b, i+1)
	}
}

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

	It("splits docs and names in one pass as the field-by-field skim does", func() {
		inputs := []string{
			string(entry),
			`{"function": [{"name": "a"}, 3, "s", {"name": "b", "name": "c"}], "function": [{"x": {"name": "no"}, "name": "d"}]}`,
			`{"function": [{"name": "a\\"}, {"name": "q\\\"x"}, {"bad" 1}]}`,
			`{"function": []}`, `{"function": "oops"}`, `{"id": 1}`, `[1]`, `{"function": [{"name": "a"}`,
			`{"a": "\\\\", "function": [{"description": "\\\"}]\\\\", "name": "z"}]}`,
		}
		for _, in := range inputs {
			b := []byte(in)
			fn, refOK := objectField(b, "function")
			docs, ok := entryDocs(b)
			if !refOK {
				Expect(ok).To(BeFalse(), in)
				continue
			}
			if fn == nil {
				Expect(ok && docs == nil).To(BeTrue(), in)
				continue
			}
			elems, elemsOK := arrayElems(fn)
			if !elemsOK {
				Expect(ok).To(BeFalse(), in)
				continue
			}
			Expect(ok).To(BeTrue(), in)
			Expect(docs.list).To(HaveLen(len(elems)), in)
			for i, e := range elems {
				Expect(string(docs.list[i].raw)).To(Equal(string(e)), in)
				name, nameOK := objectField(e, "name")
				Expect(docs.list[i].object).To(Equal(nameOK), in)
				if nameOK {
					Expect(string(docs.list[i].name)).To(Equal(string(name)), in)
				}
			}
		}
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
