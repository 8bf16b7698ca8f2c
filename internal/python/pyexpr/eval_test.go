package pyexpr_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// testEnv knows range3 = [0, 1, 2] and list_of = list(); it records calls.
type testEnv struct {
	calls []string
}

type builtinFn struct{ name string }

func (b builtinFn) TypeName() string           { return "builtin_function_or_method" }
func (b builtinFn) PyRepr() string             { return "<built-in function " + b.name + ">" }
func (b builtinFn) PyStr() string              { return b.PyRepr() }
func (b builtinFn) PyEqual(o pyval.Value) bool { c, ok := o.(builtinFn); return ok && c == b }
func (b builtinFn) PyJSON() any                { return nil }

func (e *testEnv) LookupName(name string) (pyval.Value, error) {
	switch name {
	case "range3":
		return pyval.NewList(pyval.Int(0), pyval.Int(1), pyval.Int(2)), nil
	case "list_of", "f", "g":
		return builtinFn{name}, nil
	}
	return nil, pyval.NewNameError("name '%s' is not defined", name)
}

func (e *testEnv) Call(fn pyval.Value, args []pyval.Value, kwargs []pyval.KV) (pyval.Value, error) {
	b := fn.(builtinFn)
	desc := b.name + "("
	for i, a := range args {
		if i > 0 {
			desc += ", "
		}
		desc += pyval.Repr(a)
	}
	for i, kv := range kwargs {
		if i > 0 || len(args) > 0 {
			desc += ", "
		}
		desc += string(kv.Key.(pyval.Str)) + "=" + pyval.Repr(kv.Value)
	}
	e.calls = append(e.calls, desc+")")
	if b.name == "list_of" {
		items, err := pyval.Iterate(args[0])
		if err != nil {
			return nil, err
		}
		return pyval.NewList(append([]pyval.Value(nil), items...)...), nil
	}
	return pyval.Str(desc + ")"), nil
}

func (e *testEnv) GetAttr(obj pyval.Value, name string) (pyval.Value, error) {
	return nil, pyval.NewAttributeError("'%s' object has no attribute '%s'", obj.TypeName(), name)
}

type evalCase struct {
	Src   string  `json:"src"`
	Repr  *string `json:"repr"`
	Error *string `json:"error"`
}

var _ = Describe("Eval", func() {
	recordedCases("testdata/eval_cases.json", 100, func(c evalCase) string { return "matches CPython for " + c.Src }, func(c evalCase) {
		e, err := pyexpr.Parse(c.Src)
		Expect(err).NotTo(HaveOccurred())
		v, err := pyexpr.Eval(e, &testEnv{})
		if c.Error != nil {
			Expect(err).To(HaveOccurred())
			ex, ok := err.(*pyval.Exception)
			Expect(ok).To(BeTrue())
			Expect(ex.Type + ": " + ex.Msg).To(Equal(*c.Error))
			return
		}
		Expect(err).NotTo(HaveOccurred())
		Expect(pyval.Repr(v)).To(Equal(*c.Repr))
	})
	It("evaluates the function, then positional arguments, then keywords, keeping keyword order", func() {
		env := &testEnv{}
		e, err := pyexpr.Parse("f(g(1), *[2, 3], z=g(4), a=5, **{'m': 6})")
		Expect(err).NotTo(HaveOccurred())
		v, err := pyexpr.Eval(e, env)
		Expect(err).NotTo(HaveOccurred())
		Expect(env.calls).To(Equal([]string{"g(1)", "g(4)", "f('g(1)', 2, 3, z='g(4)', a=5, m=6)"}))
		Expect(v).To(Equal(pyval.Value(pyval.Str("f('g(1)', 2, 3, z='g(4)', a=5, m=6)"))))
	})
	It("reports unknown names and attributes through the env", func() {
		e, _ := pyexpr.Parse("nope(1)")
		_, err := pyexpr.Eval(e, &testEnv{})
		Expect(err).To(MatchError("name 'nope' is not defined"))
		e, _ = pyexpr.Parse("f.x")
		_, err = pyexpr.Eval(e, &testEnv{})
		Expect(err).To(MatchError("'builtin_function_or_method' object has no attribute 'x'"))
	})
})

var _ = Describe("AST", func() {
	It("exposes calls with keywords in order and source spans", func() {
		src := "obj.method(1, 'two', *rest, key=[3], **kw)"
		e, err := pyexpr.Parse(src)
		Expect(err).NotTo(HaveOccurred())
		c := e.(*pyexpr.Call)
		Expect(pyexpr.Source(src, c)).To(Equal(src))
		attr := c.Func.(*pyexpr.Attribute)
		Expect(attr.Attr).To(Equal("method"))
		Expect(attr.X.(*pyexpr.Name).ID).To(Equal("obj"))
		Expect(c.Args).To(HaveLen(3))
		Expect(pyexpr.Source(src, c.Args[1])).To(Equal("'two'"))
		Expect(c.Args[2]).To(BeAssignableToTypeOf(&pyexpr.Starred{}))
		Expect(c.Keywords).To(HaveLen(2))
		Expect(c.Keywords[0].Arg).To(Equal("key"))
		Expect(pyexpr.Source(src, c.Keywords[0].Value)).To(Equal("[3]"))
		Expect(c.Keywords[1].Arg).To(Equal(""))
	})
	It("builds precedence like CPython", func() {
		e, _ := pyexpr.Parse("a or b and not c == d + e * -f ** g")
		Expect(e.(*pyexpr.BoolOp).Op).To(Equal("or"))
		and := e.(*pyexpr.BoolOp).Values[1].(*pyexpr.BoolOp)
		not := and.Values[1].(*pyexpr.UnaryOp)
		Expect(not.Op).To(Equal("not"))
		cmp := not.X.(*pyexpr.Compare)
		sum := cmp.Comparators[0].(*pyexpr.BinOp)
		Expect(sum.Op).To(Equal("+"))
		mul := sum.Y.(*pyexpr.BinOp)
		Expect(mul.Op).To(Equal("*"))
		neg := mul.Y.(*pyexpr.UnaryOp)
		Expect(neg.Op).To(Equal("-"))
		Expect(neg.X.(*pyexpr.BinOp).Op).To(Equal("**"))
	})
})

var _ = Describe("LiteralEval", func() {
	DescribeTable("accepts literals",
		func(src, want string) {
			e, err := pyexpr.Parse(src)
			Expect(err).NotTo(HaveOccurred())
			v, err := pyexpr.LiteralEval(e)
			Expect(err).NotTo(HaveOccurred())
			Expect(pyval.Repr(v)).To(Equal(want))
		},
		Entry(nil, "[1, -2.5, +3, 'a', b'b', None, True, ...]", "[1, -2.5, 3, 'a', b'b', None, True, Ellipsis]"),
		Entry(nil, "{'a': (1,), 2: {3}, (4, 5): set()}", "{'a': (1,), 2: {3}, (4, 5): set()}"),
		Entry(nil, "-True", "-1"),
		Entry(nil, "{1: 'a', 1.0: 'b', True: 'c'}", "{1: 'c'}"),
		Entry(nil, "((), [], (1, [2]))", "((), [], (1, [2]))"),
	)
	DescribeTable("rejects the rest",
		func(src, want string) {
			e, err := pyexpr.Parse(src)
			Expect(err).NotTo(HaveOccurred())
			_, err = pyexpr.LiteralEval(e)
			Expect(err).To(MatchError(want))
		},
		Entry(nil, "x", "malformed node or string on line 1: <ast.Name object>"),
		Entry(nil, "1 + 2", "malformed node or string on line 1: <ast.BinOp object>"),
		Entry(nil, "f(1)", "malformed node or string on line 1: <ast.Call object>"),
		Entry(nil, "-'a'", "malformed node or string on line 1: <ast.Constant object>"),
		Entry(nil, "{[1]: 2}", "unhashable type: 'list'"),
		// set(map(...)) hashes each element as it is converted; dict(zip(...))
		// converts a key and its value before hashing the key.
		Entry(nil, "{[1], x}", "unhashable type: 'list'"),
		Entry(nil, "{x, [1]}", "malformed node or string on line 1: <ast.Name object>"),
		Entry(nil, "{[1]: x}", "malformed node or string on line 1: <ast.Name object>"),
	)
})
