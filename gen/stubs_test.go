package main

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Each emitter is pinned to the Go it must render for fragmentClass (the
// go-mockgen style: %#v of the emitted code against the expected source).
var _ = Describe("stub emitters", func() {
	c := fragmentClass()
	doIt, reset := c.Methods[0], c.Methods[1]
	render := func(code jen.Code) string { return fmt.Sprintf("%#v", code) }
	src := func(lines ...string) string { return strings.Join(lines, "\n") }

	It("emits the argument struct: typed views from the document, names and defaults from the signature", func() {
		Expect(render(emitArgs(doIt))).To(Equal(src(
			`// CDoItArgs are the arguments of C.do_it(item_id, mode="fast", tags=[], extra=None). Documented in c_api.json: Do it.`,
			`type CDoItArgs struct {`,
			`	ItemID pyargs.Int  // item_id: integer, required. The item.`,
			`	Mode   pyargs.Str  // mode: string, default "fast". How.`,
			`	Tags   pyargs.List // tags: array, default [] (mutable: applied by the backend).`,
			`	Extra  pyargs.Any  // extra: undocumented, default None.`,
			`}`,
		)))
	})

	It("emits the parameter table with the immutable defaults the binder fills", func() {
		Expect(render(emitParams(doIt))).To(Equal(src(
			`var cDoItParams = []pyargs.Param{`,
			`	{Name: "item_id"},`,
			`	{Name: "mode", Optional: true, Default: pyval.Str("fast")},`,
			`	{Name: "tags", Optional: true},`,
			`	{Name: "extra", Optional: true, Default: pyval.None},`,
			`}`,
		)))
		one := stubMethod{Class: "C", Name: "get", Params: []stubParam{{Name: "key"}}}
		Expect(render(emitParams(one))).To(Equal(`var cGetParams = []pyargs.Param{{Name: "key"}}`))
	})

	It("emits the binder of a method with parameters", func() {
		Expect(render(emitBinder(doIt))).To(Equal(src(
			`// BindCDoIt binds Python call arguments to C.do_it's parameters (CPython's rules and messages).`,
			`func BindCDoIt(pos []pyval.Value, kw []pyval.KV) (CDoItArgs, error) {`,
			`	v, err := pyargs.Bind("C.do_it", cDoItParams, pos, kw)`,
			`	if err != nil {`,
			`		return CDoItArgs{}, err`,
			`	}`,
			`	return CDoItArgs{ItemID: pyargs.Int{V: v[0]}, Mode: pyargs.Str{V: v[1]}, Tags: pyargs.List{V: v[2]}, Extra: pyargs.Any{V: v[3]}}, nil`,
			`}`,
		)))
	})

	It("emits the binder of a method without parameters (it still rejects arguments)", func() {
		Expect(render(emitBinder(reset))).To(Equal(src(
			`// BindCReset binds Python call arguments to C.reset's parameters (CPython's rules and messages).`,
			`func BindCReset(pos []pyval.Value, kw []pyval.KV) error {`,
			`	_, err := pyargs.Bind("C.reset", nil, pos, kw)`,
			`	return err`,
			`}`,
		)))
	})

	It("emits the interface the backend implements", func() {
		Expect(render(emitInterface(c))).To(Equal(src(
			`// C is what a backend of upstream's class C implements (func_source_code/c_api.py).`,
			`type C interface {`,
			`	// DoIt is do_it(item_id, mode="fast", tags=[], extra=None).`,
			`	DoIt(CDoItArgs) (pyval.Value, error)`,
			`	// Reset is reset().`,
			`	Reset() (pyval.Value, error)`,
			`}`,
		)))
	})

	It("emits the dispatcher, with Python's AttributeError for an unknown method", func() {
		Expect(render(emitDispatcher(c))).To(Equal(src(
			`// callC dispatches a call on a C backend.`,
			`func callC(inst C, method string, pos []pyval.Value, kw []pyval.KV) (pyval.Value, error) {`,
			`	switch method {`,
			`	case "do_it":`,
			`		a, err := BindCDoIt(pos, kw)`,
			`		if err != nil {`,
			`			return nil, err`,
			`		}`,
			`		return inst.DoIt(a)`,
			`	case "reset":`,
			`		if err := BindCReset(pos, kw); err != nil {`,
			`			return nil, err`,
			`		}`,
			`		return inst.Reset()`,
			`	default:`,
			`		return nil, pyval.NewAttributeError("'C' object has no attribute '%s'", method)`,
			`	}`,
			`}`,
		)))
	})

	It("emits the method table", func() {
		Expect(render(emitMethods(c))).To(Equal(src(
			`// CMethods are the public methods of C.`,
			`var CMethods = []pyargs.Method{`,
			`	{Name: "do_it", GoName: "DoIt", Params: cDoItParams},`,
			`	{Name: "reset", GoName: "Reset"},`,
			`}`,
		)))
	})

	It("emits the Backend interface, the router and HasMethod", func() {
		Expect(render(emitBackend())).To(Equal(src(
			`// Backend is a backend instance; its upstream class name selects the interface it implements.`,
			`type Backend interface {`,
			`	ClassName() string`,
			`}`,
		)))
		Expect(render(emitRouter([]stubClass{c}))).To(Equal(src(
			`// Call binds pos and kw to the parameters of inst's method and calls it: the only path by which a call reaches a backend.`,
			`func Call(inst Backend, method string, pos []pyval.Value, kw []pyval.KV) (pyval.Value, error) {`,
			`	switch inst.ClassName() {`,
			`	case "C":`,
			`		if x, ok := inst.(C); ok {`,
			`			return callC(x, method, pos, kw)`,
			`		}`,
			`	}`,
			`	return nil, fmt.Errorf("stubs: %T does not implement the interface of class %q", inst, inst.ClassName())`,
			`}`,
		)))
		Expect(render(emitHasMethod([]stubClass{c}))).To(Equal(src(
			`// HasMethod reports whether class has the public method.`,
			`func HasMethod(class, method string) bool {`,
			`	switch class {`,
			`	case "C":`,
			`		switch method {`,
			`		case "do_it", "reset":`,
			`			return true`,
			`		}`,
			`	}`,
			`	return false`,
			`}`,
		)))
	})

	It("names the generator version and both sources in the header", func() {
		f := classFile(c)
		out := render(f)
		Expect(out).To(HavePrefix("// Code generated by bfcl-gen v" + Version + " from BFCL v4 (gorilla@"))
		Expect(out).To(ContainSubstring("// source: bfcl_eval/data/multi_turn_func_doc/c_api.json and gen/signatures.go (upstream's func_source_code/c_api.py)\n"))
	})

	DescribeTable("turns Python defaults into values",
		func(py, want string) {
			v, err := defaultValue(py)
			Expect(err).NotTo(HaveOccurred())
			if want == "" {
				Expect(v).To(BeNil())
				return
			}
			Expect(render(v)).To(Equal(want))
		},
		Entry("None", "None", "pyval.None"),
		Entry("False", "False", "pyval.Bool(false)"),
		Entry("an int", "10", "pyval.Int(10)"),
		Entry("a float", "0.5", "pyval.Float(0.5)"),
		Entry("a string", `"wt-wt"`, `pyval.Str("wt-wt")`),
		Entry("a mutable list is the backend's", "[]", ""),
	)

	It("rejects a default it cannot reproduce", func() {
		_, err := defaultValue("os.getcwd()")
		Expect(err).To(MatchError(ContainSubstring("default os.getcwd() is not a literal")))
	})
})

var _ = Describe("the signature table", func() {
	It("parses upstream's signatures", func() {
		m, err := parseSig(`find(path=".", name=None)`)
		Expect(err).NotTo(HaveOccurred())
		Expect(m).To(Equal(sigMethod{Name: "find", Params: []sigParam{{Name: "path", Default: `"."`}, {Name: "name", Default: "None"}}}))
		m, err = parseSig("pwd()")
		Expect(err).NotTo(HaveOccurred())
		Expect(m).To(Equal(sigMethod{Name: "pwd"}))
	})

	DescribeTable("rejects malformed signatures",
		func(s, msg string) { _, err := parseSig(s); Expect(err).To(MatchError(ContainSubstring(msg))) },
		Entry("no parentheses", "pwd", "want name(params)"),
		Entry("empty default", "f(a=)", "malformed parameter"),
		Entry("required after default", "f(a=1, b)", "required parameter b follows a default"),
	)

	It("lists every class once, methods sorted by name as inspect.getmembers does", func() {
		seen := map[string]bool{}
		for _, c := range signatures {
			Expect(seen[c.Class]).To(BeFalse(), c.Class)
			seen[c.Class] = true
			var names []string
			for _, s := range c.Methods {
				m, err := parseSig(s)
				Expect(err).NotTo(HaveOccurred())
				names = append(names, m.Name)
			}
			Expect(names).NotTo(BeEmpty())
			for i := 1; i < len(names); i++ {
				Expect(names[i-1] < names[i]).To(BeTrue(), "%s: %s before %s", c.Class, names[i-1], names[i])
			}
		}
		Expect(seen).To(HaveLen(12))
	})

	It("spells Go names with Go's initialisms", func() {
		Expect(goName("get_user_id")).To(Equal("GetUserID"))
		Expect(goName("fetch_url_content")).To(Equal("FetchURLContent"))
		Expect(goName("adjustClimateControl")).To(Equal("AdjustClimateControl"))
		Expect(goName("file_name1")).To(Equal("FileName1"))
	})
})

var _ = Describe("merging documents with signatures", func() {
	sig := classSig{Class: "C", Module: "c_api", Methods: []string{"do_it(item_id, mode=\"fast\")", "reset()"}}
	doc := func(params ...string) map[string]funcDoc {
		d := funcDoc{Description: "Tool description: Do it. More.", Params: map[string]docParam{}}
		for _, p := range params {
			d.Params[p] = docParam{Type: "integer", Description: "x"}
		}
		return map[string]funcDoc{"do_it": d}
	}

	It("takes types from the document and order and defaults from the signature", func() {
		c, err := buildClass(sig, doc("item_id"), "c_api.json")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Methods).To(HaveLen(2))
		Expect(c.Methods[0].Summary).To(Equal("Do it."))
		Expect(c.Methods[0].Params).To(Equal([]stubParam{{Name: "item_id", DocType: "integer", Doc: "x"}, {Name: "mode", Default: `"fast"`}}))
		Expect(c.Methods[1].DocFile).To(BeEmpty(), "reset is undocumented")
	})

	It("stops when a document names a parameter upstream's Python lacks", func() {
		_, err := buildClass(sig, doc("item"), "c_api.json")
		Expect(err).To(MatchError(`c_api.json: C.do_it: the function document has parameter "item" that upstream's Python signature (gen/signatures.go) lacks`))
	})

	It("stops when a document describes a method upstream's Python lacks", func() {
		docs := doc("item_id")
		docs["undo_it"] = funcDoc{}
		_, err := buildClass(sig, docs, "c_api.json")
		Expect(err).To(MatchError("c_api.json: the function document describes C.undo_it, which upstream's Python signatures (gen/signatures.go) lack"))
	})
})
