package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
)

const (
	pyvalPkg  = "github.com/bfcl-go/bfcl/internal/python/pyval"
	pyargsPkg = "github.com/bfcl-go/bfcl/internal/python/pyargs"
)

// docSource yields the function documents of a backend class
// (*dataset.Source does).
type docSource interface {
	FuncDocs(class string) ([]json.RawMessage, error)
}

// docParam is one parameter of a function document.
type docParam struct {
	Type        string
	Description string
}

// funcDoc is the part of a function document the stubs use.
type funcDoc struct {
	Description string
	Params      map[string]docParam
}

func readDocs(src docSource, class string) (map[string]funcDoc, string, error) {
	file, ok := dataset.FuncDocFile(class)
	if !ok {
		return nil, "", fmt.Errorf("no function-document file for %s", class)
	}
	raws, err := src.FuncDocs(class)
	if err != nil {
		return nil, "", err
	}
	out := map[string]funcDoc{}
	for _, raw := range raws {
		var d struct {
			Name        string `json:"name"`
			Description string `json:"description"`
			Parameters  struct {
				Properties map[string]struct {
					Type        string `json:"type"`
					Description string `json:"description"`
				} `json:"properties"`
			} `json:"parameters"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, "", fmt.Errorf("%s: %w", file, err)
		}
		fd := funcDoc{Description: d.Description, Params: map[string]docParam{}}
		for name, p := range d.Parameters.Properties {
			fd.Params[name] = docParam{Type: p.Type, Description: p.Description}
		}
		out[d.Name] = fd
	}
	return out, file, nil
}

// argType maps a BFCL schema type to its typed view in package pyargs.
func argType(t string) string {
	switch t {
	case "string":
		return "Str"
	case "integer":
		return "Int"
	case "float", "number":
		return "Float"
	case "boolean":
		return "Bool"
	case "array", "tuple":
		return "List"
	case "dict", "object":
		return "Dict"
	}
	return "Any"
}

// goName turns a Python identifier (snake_case or camelCase) into an
// exported Go name, spelling the initialisms ID and URL as Go does.
func goName(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		switch part {
		case "":
			continue
		case "id":
			b.WriteString("ID")
		case "url":
			b.WriteString("URL")
		default:
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// stubParam is one parameter as the stubs see it: the name and default from
// the signature table, the type and description from the function document.
type stubParam struct {
	Name    string // Python name
	DocType string // schema type; "" when the document does not describe it
	Doc     string // schema description
	Default string // Python source of the default; "" when required
}

func (p stubParam) field() string { return goName(p.Name) }
func (p stubParam) view() string  { return argType(p.DocType) }

// stubMethod is one public method of a backend class.
type stubMethod struct {
	Class   string
	Name    string // Python name
	DocFile string // "" when no function document describes the method
	Summary string // first sentence of the document's description
	Params  []stubParam
}

func (m stubMethod) goName() string    { return goName(m.Name) }
func (m stubMethod) argsType() string  { return m.Class + m.goName() + "Args" }
func (m stubMethod) bindName() string  { return "Bind" + m.Class + m.goName() }
func (m stubMethod) paramsVar() string { return lowerFirst(m.Class) + m.goName() + "Params" }
func (m stubMethod) qualname() string  { return m.Class + "." + m.Name }

// stubClass is one backend class.
type stubClass struct {
	Name    string
	Module  string
	DocFile string
	Methods []stubMethod
}

// buildClass merges a class's row of the signature table with its function
// documents. A document that names a method or parameter upstream's Python
// lacks is an error: the model would be told of something no backend has.
func buildClass(sig classSig, docs map[string]funcDoc, docFile string) (stubClass, error) {
	c := stubClass{Name: sig.Class, Module: sig.Module, DocFile: docFile}
	seen := map[string]bool{}
	for _, s := range sig.Methods {
		ps, err := parseSig(s)
		if err != nil {
			return stubClass{}, fmt.Errorf("gen/signatures.go: %s: %w", sig.Class, err)
		}
		seen[ps.Name] = true
		doc, documented := docs[ps.Name]
		m := stubMethod{Class: sig.Class, Name: ps.Name}
		if documented {
			m.DocFile, m.Summary = docFile, firstSentence(doc.Description)
		}
		for name := range doc.Params {
			if !hasParam(ps, name) {
				return stubClass{}, fmt.Errorf("%s: %s.%s: the function document has parameter %q that upstream's Python signature (gen/signatures.go) lacks", docFile, sig.Class, ps.Name, name)
			}
		}
		for _, p := range ps.Params {
			if p.Default != "" {
				if _, err := defaultValue(p.Default); err != nil {
					return stubClass{}, fmt.Errorf("gen/signatures.go: %s.%s: %w", sig.Class, ps.Name, err)
				}
			}
			dp := doc.Params[p.Name]
			m.Params = append(m.Params, stubParam{Name: p.Name, DocType: dp.Type, Doc: oneLine(dp.Description), Default: p.Default})
		}
		c.Methods = append(c.Methods, m)
	}
	for _, name := range sortedDocNames(docs) {
		if !seen[name] {
			return stubClass{}, fmt.Errorf("%s: the function document describes %s.%s, which upstream's Python signatures (gen/signatures.go) lack", docFile, sig.Class, name)
		}
	}
	return c, nil
}

// generateStubs renders generated/stubs: per backend class a file with the
// argument structs, binders, the interface the backend implements, its
// dispatcher and its method table, and one file routing a call on any
// backend to its class's dispatcher.
func generateStubs(src docSource) (map[string][]byte, error) {
	files := map[string][]byte{}
	var classes []stubClass
	for _, sig := range signatures {
		docs, docFile, err := readDocs(src, sig.Class)
		if err != nil {
			return nil, err
		}
		c, err := buildClass(sig, docs, docFile)
		if err != nil {
			return nil, err
		}
		classes = append(classes, c)
		var buf bytes.Buffer
		if err := classFile(c).Render(&buf); err != nil {
			return nil, fmt.Errorf("render stubs of %s: %w", c.Name, err)
		}
		files["stubs/zz_"+c.Module+".go"] = buf.Bytes()
	}
	sort.Slice(classes, func(i, j int) bool { return classes[i].Name < classes[j].Name })
	f := jen.NewFile("stubs")
	header(f, "source: gen/signatures.go (the backend classes of upstream's bfcl_eval/eval_checker/multi_turn_eval/func_source_code/)")
	f.Add(emitBackend())
	f.Line()
	f.Add(emitRouter(classes))
	f.Line()
	f.Add(emitHasMethod(classes))
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("render stub router: %w", err)
	}
	files["stubs/zz_router.go"] = buf.Bytes()
	return files, nil
}

// classFile renders one class: per method its argument struct, parameter
// table and binder; then the interface, the dispatcher and the method table.
func classFile(c stubClass) *jen.File {
	f := jen.NewFile("stubs")
	header(f, "source: bfcl_eval/data/multi_turn_func_doc/"+c.DocFile+" and gen/signatures.go (upstream's func_source_code/"+c.Module+".py)")
	for _, m := range c.Methods {
		if len(m.Params) > 0 {
			f.Add(emitArgs(m))
			f.Line()
			f.Add(emitParams(m))
			f.Line()
		}
		f.Add(emitBinder(m))
		f.Line()
	}
	f.Add(emitInterface(c))
	f.Line()
	f.Add(emitDispatcher(c))
	f.Line()
	f.Add(emitMethods(c))
	return f
}

// describe is the sentence a method's generated comments end with.
func (m stubMethod) describe() string {
	if m.DocFile == "" {
		return "No function document describes it; it is callable all the same, as upstream's eval allows."
	}
	return "Documented in " + m.DocFile + ": " + m.Summary
}

// pySignature is the method's Python signature as upstream declares it.
func (m stubMethod) pySignature() string {
	parts := make([]string, len(m.Params))
	for i, p := range m.Params {
		parts[i] = p.Name
		if p.Default != "" {
			parts[i] += "=" + p.Default
		}
	}
	return m.Name + "(" + strings.Join(parts, ", ") + ")"
}

// emitArgs renders the argument struct of a method with parameters:
//
//	// CMArgs are the arguments of C.m(p, q=1). Documented in c.json: ...
//	type CMArgs struct {
//		P pyargs.Str // p: string, required. description
//	}
func emitArgs(m stubMethod) *jen.Statement {
	fields := make([]jen.Code, len(m.Params))
	for i, p := range m.Params {
		typ := p.DocType
		if typ == "" {
			typ = "undocumented"
		}
		req := "required"
		if p.Default != "" {
			req = "default " + p.Default
			if v, _ := defaultValue(p.Default); v == nil {
				req += " (mutable: applied by the backend)"
			}
		}
		comment := fmt.Sprintf("%s: %s, %s.", p.Name, typ, req)
		if p.Doc != "" {
			comment += " " + p.Doc
		}
		fields[i] = jen.Id(p.field()).Qual(pyargsPkg, p.view()).Comment(comment)
	}
	return jen.Comment(fmt.Sprintf("%s are the arguments of %s.%s. %s", m.argsType(), m.Class, m.pySignature(), m.describe())).Line().
		Type().Id(m.argsType()).Struct(fields...)
}

// emitParams renders the parameter table Bind uses.
func emitParams(m stubMethod) *jen.Statement {
	items := make([]jen.Code, len(m.Params))
	for i, p := range m.Params {
		kv := []jen.Code{jen.Id("Name").Op(":").Lit(p.Name)}
		if p.Default != "" {
			kv = append(kv, jen.Id("Optional").Op(":").True())
			if v, _ := defaultValue(p.Default); v != nil {
				kv = append(kv, jen.Id("Default").Op(":").Add(v))
			}
		}
		items[i] = jen.Values(kv...)
	}
	typ := jen.Var().Id(m.paramsVar()).Op("=").Index().Qual(pyargsPkg, "Param")
	if len(items) == 1 {
		return typ.Values(items...)
	}
	return typ.Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
}

// defaultValue is the Go value of an immutable Python default, or nil for a
// mutable one ([] or {}), which upstream shares between calls and the
// backend therefore applies itself.
func defaultValue(src string) (jen.Code, error) {
	switch src {
	case "None":
		return jen.Qual(pyvalPkg, "None"), nil
	case "True":
		return jen.Qual(pyvalPkg, "Bool").Call(jen.True()), nil
	case "False":
		return jen.Qual(pyvalPkg, "Bool").Call(jen.False()), nil
	case "[]", "{}":
		return nil, nil
	}
	if n, err := strconv.ParseInt(src, 10, 64); err == nil {
		return jen.Qual(pyvalPkg, "Int").Call(jen.Lit(int(n))), nil
	}
	if strings.ContainsAny(src, ".eE") {
		if x, err := strconv.ParseFloat(src, 64); err == nil {
			return jen.Qual(pyvalPkg, "Float").Call(jen.Lit(x)), nil
		}
	}
	if len(src) >= 2 && (src[0] == '"' || src[0] == '\'') && src[len(src)-1] == src[0] && !strings.ContainsRune(src, '\\') {
		return jen.Qual(pyvalPkg, "Str").Call(jen.Lit(src[1 : len(src)-1])), nil
	}
	return nil, fmt.Errorf("default %s is not a literal the generator knows (None, True, False, a number, a plain string, [] or {})", src)
}

// emitBinder renders the binder of a method: its arguments struct, or only
// an error for a method without parameters.
func emitBinder(m stubMethod) *jen.Statement {
	pos := jen.Id("pos").Index().Qual(pyvalPkg, "Value")
	kw := jen.Id("kw").Index().Qual(pyvalPkg, "KV")
	doc := jen.Comment(fmt.Sprintf("%s binds Python call arguments to %s's parameters (CPython's rules and messages).", m.bindName(), m.qualname())).Line()
	if len(m.Params) == 0 {
		return doc.Func().Id(m.bindName()).Params(pos, kw).Error().Block(
			jen.List(jen.Id("_"), jen.Err()).Op(":=").Qual(pyargsPkg, "Bind").Call(jen.Lit(m.qualname()), jen.Nil(), jen.Id("pos"), jen.Id("kw")),
			jen.Return(jen.Err()),
		)
	}
	assigns := make([]jen.Code, len(m.Params))
	for i, p := range m.Params {
		assigns[i] = jen.Id(p.field()).Op(":").Qual(pyargsPkg, p.view()).Values(jen.Id("V").Op(":").Id("v").Index(jen.Lit(i)))
	}
	return doc.Func().Id(m.bindName()).Params(pos, kw).Params(jen.Id(m.argsType()), jen.Error()).Block(
		jen.List(jen.Id("v"), jen.Err()).Op(":=").Qual(pyargsPkg, "Bind").Call(jen.Lit(m.qualname()), jen.Id(m.paramsVar()), jen.Id("pos"), jen.Id("kw")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(m.argsType()).Values(), jen.Err())),
		jen.Return(jen.Id(m.argsType()).Values(assigns...), jen.Nil()),
	)
}

// emitInterface renders the interface a backend class implements: one
// method per public Python method, taking its arguments struct.
func emitInterface(c stubClass) *jen.Statement {
	methods := make([]jen.Code, 0, len(c.Methods))
	for _, m := range c.Methods {
		var params []jen.Code
		if len(m.Params) > 0 {
			params = append(params, jen.Id(m.argsType()))
		}
		methods = append(methods, jen.Comment(fmt.Sprintf("%s is %s.", m.goName(), m.pySignature())).Line().
			Id(m.goName()).Params(params...).Params(jen.Qual(pyvalPkg, "Value"), jen.Error()))
	}
	return jen.Comment(fmt.Sprintf("%s is what a backend of upstream's class %s implements (func_source_code/%s.py).", c.Name, c.Name, c.Module)).Line().
		Type().Id(c.Name).Interface(methods...)
}

// emitDispatcher renders the function that binds a call to one of the
// class's methods and calls it.
func emitDispatcher(c stubClass) *jen.Statement {
	cases := make([]jen.Code, 0, len(c.Methods)+1)
	for _, m := range c.Methods {
		var body []jen.Code
		if len(m.Params) == 0 {
			body = []jen.Code{
				jen.If(jen.Err().Op(":=").Id(m.bindName()).Call(jen.Id("pos"), jen.Id("kw")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.Return(jen.Id("inst").Dot(m.goName()).Call()),
			}
		} else {
			body = []jen.Code{
				jen.List(jen.Id("a"), jen.Err()).Op(":=").Id(m.bindName()).Call(jen.Id("pos"), jen.Id("kw")),
				jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
				jen.Return(jen.Id("inst").Dot(m.goName()).Call(jen.Id("a"))),
			}
		}
		cases = append(cases, jen.Case(jen.Lit(m.Name)).Block(body...))
	}
	cases = append(cases, jen.Default().Block(
		jen.Return(jen.Nil(), jen.Qual(pyvalPkg, "NewAttributeError").Call(jen.Lit("'"+c.Name+"' object has no attribute '%s'"), jen.Id("method"))),
	))
	return jen.Comment(fmt.Sprintf("call%s dispatches a call on a %s backend.", c.Name, c.Name)).Line().
		Func().Id("call"+c.Name).Params(
		jen.Id("inst").Id(c.Name),
		jen.Id("method").String(),
		jen.Id("pos").Index().Qual(pyvalPkg, "Value"),
		jen.Id("kw").Index().Qual(pyvalPkg, "KV"),
	).Params(jen.Qual(pyvalPkg, "Value"), jen.Error()).Block(jen.Switch(jen.Id("method")).Block(cases...))
}

// emitMethods renders the class's method table (names, Go names, Python
// parameters), sorted by name as inspect.getmembers lists them.
func emitMethods(c stubClass) *jen.Statement {
	rows := make([]jen.Code, len(c.Methods))
	for i, m := range c.Methods {
		kv := []jen.Code{jen.Id("Name").Op(":").Lit(m.Name), jen.Id("GoName").Op(":").Lit(m.goName())}
		if len(m.Params) > 0 {
			kv = append(kv, jen.Id("Params").Op(":").Id(m.paramsVar()))
		}
		rows[i] = jen.Values(kv...)
	}
	return jen.Comment(fmt.Sprintf("%sMethods are the public methods of %s.", c.Name, c.Name)).Line().
		Var().Id(c.Name+"Methods").Op("=").Index().Qual(pyargsPkg, "Method").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, rows...)
}

// emitBackend renders the interface every backend satisfies.
func emitBackend() *jen.Statement {
	return jen.Comment("Backend is a backend instance; its upstream class name selects the interface it implements.").Line().
		Type().Id("Backend").Interface(jen.Id("ClassName").Params().String())
}

// emitRouter renders Call: route a call on any backend to its class's
// dispatcher.
func emitRouter(classes []stubClass) *jen.Statement {
	cases := make([]jen.Code, len(classes))
	for i, c := range classes {
		cases[i] = jen.Case(jen.Lit(c.Name)).Block(
			jen.If(jen.List(jen.Id("x"), jen.Id("ok")).Op(":=").Id("inst").Assert(jen.Id(c.Name)), jen.Id("ok")).Block(
				jen.Return(jen.Id("call"+c.Name).Call(jen.Id("x"), jen.Id("method"), jen.Id("pos"), jen.Id("kw"))),
			),
		)
	}
	return jen.Comment("Call binds pos and kw to the parameters of inst's method and calls it: the only path by which a call reaches a backend.").Line().
		Func().Id("Call").Params(
		jen.Id("inst").Id("Backend"),
		jen.Id("method").String(),
		jen.Id("pos").Index().Qual(pyvalPkg, "Value"),
		jen.Id("kw").Index().Qual(pyvalPkg, "KV"),
	).Params(jen.Qual(pyvalPkg, "Value"), jen.Error()).Block(
		jen.Switch(jen.Id("inst").Dot("ClassName").Call()).Block(cases...),
		jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("stubs: %T does not implement the interface of class %q"), jen.Id("inst"), jen.Id("inst").Dot("ClassName").Call())),
	)
}

// emitHasMethod renders HasMethod.
func emitHasMethod(classes []stubClass) *jen.Statement {
	cases := make([]jen.Code, len(classes))
	for i, c := range classes {
		cases[i] = jen.Case(jen.Lit(c.Name)).Block(
			jen.Switch(jen.Id("method")).Block(
				jen.CaseFunc(func(g *jen.Group) {
					for _, m := range c.Methods {
						g.Lit(m.Name)
					}
				}).Block(jen.Return(jen.True())),
			),
		)
	}
	return jen.Comment("HasMethod reports whether class has the public method.").Line().
		Func().Id("HasMethod").Params(jen.List(jen.Id("class"), jen.Id("method")).String()).Bool().Block(
		jen.Switch(jen.Id("class")).Block(cases...),
		jen.Return(jen.False()),
	)
}

func hasParam(m sigMethod, name string) bool {
	for _, p := range m.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

func sortedDocNames(docs map[string]funcDoc) []string { return slices.Sorted(maps.Keys(docs)) }

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// firstSentence is the tool description after upstream's "Tool
// description: " prefix, up to its first period.
func firstSentence(s string) string {
	if i := strings.Index(s, "Tool description: "); i >= 0 {
		s = s[i+len("Tool description: "):]
	}
	s = oneLine(s)
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	return s
}
