package pyargs_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyargs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Expected texts are CPython 3.12's for a method
// `def m(self, a, b, c=1)` of class C (and variants), as str(TypeError).
var params = []pyargs.Param{{Name: "a"}, {Name: "b"}, {Name: "c", Optional: true}}

func kw(pairs ...any) []pyval.KV {
	var out []pyval.KV
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, pyval.KV{Key: pyval.Str(pairs[i].(string)), Value: pairs[i+1].(pyval.Value)})
	}
	return out
}

var _ = Describe("Bind", func() {
	one, two := pyval.Value(pyval.Int(1)), pyval.Value(pyval.Int(2))

	It("binds positional then keyword arguments, leaving defaults nil", func() {
		v, err := pyargs.Bind("C.m", params, []pyval.Value{one}, kw("b", two))
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal([]pyval.Value{one, two, nil}))
	})

	It("supplies a parameter's default when the caller leaves it out", func() {
		withDefault := []pyargs.Param{{Name: "a"}, {Name: "c", Optional: true, Default: pyval.Int(1)}}
		v, err := pyargs.Bind("C.m", withDefault, []pyval.Value{two}, nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal([]pyval.Value{two, one}))
		v, err = pyargs.Bind("C.m", withDefault, []pyval.Value{two}, kw("c", two))
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal([]pyval.Value{two, two}))
	})

	DescribeTable("CPython's TypeError texts",
		func(pos []pyval.Value, k []pyval.KV, want string) {
			_, err := pyargs.Bind("C.m", params, pos, k)
			Expect(err).To(MatchError(want))
			Expect(err.(*pyval.Exception).Type).To(Equal("TypeError"))
		},
		Entry("unexpected keyword", nil, kw("path", one), "C.m() got an unexpected keyword argument 'path'"),
		Entry("multiple values", []pyval.Value{one}, kw("a", two), "C.m() got multiple values for argument 'a'"),
		Entry("too many positional with defaults", []pyval.Value{one, one, one, one}, nil, "C.m() takes from 3 to 4 positional arguments but 5 were given"),
		Entry("one missing", []pyval.Value{one}, nil, "C.m() missing 1 required positional argument: 'b'"),
		Entry("two missing", nil, nil, "C.m() missing 2 required positional arguments: 'a' and 'b'"),
		Entry("keyword errors come before positional count", []pyval.Value{one, one, one, one}, kw("x", one), "C.m() got an unexpected keyword argument 'x'"),
	)

	It("counts self for methods without parameters", func() {
		_, err := pyargs.Bind("C.n", nil, []pyval.Value{one}, nil)
		Expect(err).To(MatchError("C.n() takes 1 positional argument but 2 were given"))
		_, err = pyargs.Bind("C.p", []pyargs.Param{{Name: "x"}}, []pyval.Value{one, one}, nil)
		Expect(err).To(MatchError("C.p() takes 2 positional arguments but 3 were given"))
		_, err = pyargs.Bind("C.q", []pyargs.Param{{Name: "x"}, {Name: "y"}, {Name: "z"}}, nil, nil)
		Expect(err).To(MatchError("C.q() missing 3 required positional arguments: 'x', 'y', and 'z'"))
	})

	It("gives typed views of bound values", func() {
		s, ok := pyargs.Str{V: pyval.Str("x")}.Get()
		Expect(ok).To(BeTrue())
		Expect(s).To(Equal("x"))
		_, ok = pyargs.Int{V: pyval.Bool(true)}.Get()
		Expect(ok).To(BeFalse(), "bool is not an int for the typed view")
		f, ok := pyargs.Float{V: pyval.Int(3)}.Get()
		Expect(ok).To(BeTrue())
		Expect(f).To(Equal(3.0))
		Expect(pyargs.Str{}.Supplied()).To(BeFalse())
	})

	It("gives typed access that fails with upstream's Python errors", func() {
		d := pyval.NewDict()
		d.Set(pyval.Str("k"), one)
		keys, err := pyargs.Dict{V: d}.Keys()
		Expect(err).NotTo(HaveOccurred())
		Expect(keys).To(Equal([]pyval.Value{pyval.Str("k")}))
		_, err = pyargs.Dict{V: pyval.Str("x")}.Items()
		Expect(err).To(MatchError("'str' object has no attribute 'items'"))
		items, err := pyargs.List{V: pyval.Tuple{one, two}}.Iter()
		Expect(err).NotTo(HaveOccurred())
		Expect(items).To(Equal([]pyval.Value{one, two}))
		_, err = pyargs.List{V: one}.Iter()
		Expect(err).To(MatchError("'int' object is not iterable"))
		low, err := pyargs.Str{V: pyval.Str("ΑΣ")}.Lower()
		Expect(err).NotTo(HaveOccurred())
		Expect(low).To(Equal(pyval.Str("ας")))
		_, err = pyargs.Str{V: one}.Method("startswith")
		Expect(err).To(MatchError("'int' object has no attribute 'startswith'"))
	})
})
