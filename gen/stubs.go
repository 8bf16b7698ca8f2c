package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/bfcl-go/bfcl/internal/dataset"
	"github.com/bfcl-go/bfcl/sim"
)

const (
	pyvalPkg  = "github.com/bfcl-go/bfcl/internal/pyval"
	pyargsPkg = "github.com/bfcl-go/bfcl/internal/pyargs"
	simPkg    = "github.com/bfcl-go/bfcl/sim"
)

// docParam is one parameter of a function document.
type docParam struct {
	Type        string
	Description string
	Required    bool
}

// funcDoc is the part of a function document the stubs use.
type funcDoc struct {
	Description string
	Params      map[string]docParam
}

func readDocs(src *dataset.Source, class string) (map[string]funcDoc, string, error) {
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
				Required []string `json:"required"`
			} `json:"parameters"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, "", fmt.Errorf("%s: %w", file, err)
		}
		fd := funcDoc{Description: d.Description, Params: map[string]docParam{}}
		for name, p := range d.Parameters.Properties {
			fd.Params[name] = docParam{Type: p.Type, Description: p.Description}
		}
		for _, r := range d.Parameters.Required {
			p := fd.Params[r]
			p.Required = true
			fd.Params[r] = p
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

// goName turns snake_case into CamelCase.
func goName(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// generateStubs renders generated/stubs: per backend class a file with an
// argument struct, a binder and a dispatcher per public method, and one
// file routing a call on any instance to its class's dispatcher.
func generateStubs(src *dataset.Source) (map[string][]byte, error) {
	files := map[string][]byte{}
	reg := sim.Classes()
	names := make([]string, 0, len(reg))
	for n := range reg {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, cl := range names {
		c := reg[cl]
		docs, docFile, err := readDocs(src, cl)
		if err != nil {
			return nil, err
		}
		f, err := classStubs(c, docs, docFile)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		if err := f.Render(&buf); err != nil {
			return nil, fmt.Errorf("render stubs of %s: %w", cl, err)
		}
		files["stubs/zz_"+c.Module+".go"] = buf.Bytes()
	}
	f := routerFile(reg, names)
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("render stub router: %w", err)
	}
	files["stubs/zz_router.go"] = buf.Bytes()
	return files, nil
}

// classStubs renders, for each method m of class C:
//
//	// CMArgs are the arguments of C.m (doc description).
//	type CMArgs struct {
//		P pyargs.Str // p: string, required. description
//	}
//	// BindCM binds Python call arguments to C.m's parameters.
//	func BindCM(pos []pyval.Value, kw []pyval.KV) (CMArgs, error)
//
// and the class dispatcher
//
//	func callC(inst *sim.C, method string, pos []pyval.Value, kw []pyval.KV) (pyval.Value, error)
func classStubs(c sim.Class, docs map[string]funcDoc, docFile string) (*jen.File, error) {
	f := jen.NewFile("stubs")
	header(f, "source: bfcl_eval/data/multi_turn_func_doc/"+docFile+" and the signatures in sim/"+c.Module+".go")
	var cases []jen.Code
	for _, m := range c.Methods {
		doc, documented := docs[m.Name]
		for name := range doc.Params {
			if !hasParam(m, name) {
				return nil, fmt.Errorf("%s.%s: the function document has parameter %q that the Python signature (sim) lacks", c.Name, m.Name, name)
			}
		}
		typeName := c.Name + goName(m.Name) + "Args"
		bindName := "Bind" + c.Name + goName(m.Name)
		paramsVar := lowerFirst(c.Name) + goName(m.Name) + "Params"
		summary := "is undocumented (a public method that no function document describes; callable all the same, as upstream's eval allows)"
		if documented {
			summary = "are documented in " + docFile + ": " + firstSentence(doc.Description)
		}
		f.Comment(fmt.Sprintf("%s are the arguments of %s.%s, which %s", typeName, c.Name, m.Name, summary))
		var fields []jen.Code
		var assigns []jen.Code
		for i, p := range m.Params {
			dp := doc.Params[p.Name]
			req := "optional"
			if !p.Optional {
				req = "required"
			}
			typ := dp.Type
			if typ == "" {
				typ = "any"
			}
			fields = append(fields, jen.Id(goName(p.Name)).Qual(pyargsPkg, argType(dp.Type)).Comment(fmt.Sprintf("%s: %s, %s. %s", p.Name, typ, req, oneLine(dp.Description))))
			assigns = append(assigns, jen.Id(goName(p.Name)).Op(":").Qual(pyargsPkg, argType(dp.Type)).Values(jen.Id("V").Op(":").Id("v").Index(jen.Lit(i))))
		}
		f.Type().Id(typeName).Struct(fields...)
		f.Line()
		f.Var().Id(paramsVar).Op("=").Index().Qual(simPkg, "Param").ValuesFunc(func(g *jen.Group) {
			for _, p := range m.Params {
				d := jen.Dict{jen.Id("Name"): jen.Lit(p.Name)}
				if p.Optional {
					d[jen.Id("Optional")] = jen.True()
				}
				g.Values(d)
			}
		})
		f.Line()
		f.Comment(fmt.Sprintf("%s binds Python call arguments to %s.%s's parameters (CPython's rules and messages).", bindName, c.Name, m.Name))
		boundVar := "v"
		if len(m.Params) == 0 {
			boundVar = "_"
		}
		f.Func().Id(bindName).Params(
			jen.Id("pos").Index().Qual(pyvalPkg, "Value"),
			jen.Id("kw").Index().Qual(pyvalPkg, "KV"),
		).Params(jen.Id(typeName), jen.Error()).Block(
			jen.List(jen.Id(boundVar), jen.Err()).Op(":=").Qual(pyargsPkg, "Bind").Call(jen.Lit(c.Name+"."+m.Name), jen.Id(paramsVar), jen.Id("pos"), jen.Id("kw")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Id(typeName).Values(), jen.Err())),
			jen.Return(jen.Id(typeName).Values(assigns...), jen.Nil()),
		)
		f.Line()
		var callArgs []jen.Code
		for _, p := range m.Params {
			callArgs = append(callArgs, jen.Id("a").Dot(goName(p.Name)).Dot("V"))
		}
		argsVar := "a"
		if len(m.Params) == 0 {
			argsVar = "_"
		}
		cases = append(cases, jen.Case(jen.Lit(m.Name)).Block(
			jen.List(jen.Id(argsVar), jen.Err()).Op(":=").Id(bindName).Call(jen.Id("pos"), jen.Id("kw")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			jen.Return(jen.Id("inst").Dot(m.GoName).Call(callArgs...)),
		))
	}
	cases = append(cases, jen.Default().Block(
		jen.Return(jen.Nil(), jen.Qual(pyvalPkg, "NewAttributeError").Call(jen.Lit("'"+c.Name+"' object has no attribute '%s'"), jen.Id("method"))),
	))
	f.Comment(fmt.Sprintf("call%s dispatches a call on a %s instance.", c.Name, c.Name))
	f.Func().Id("call"+c.Name).Params(
		jen.Id("inst").Op("*").Qual(simPkg, c.Name),
		jen.Id("method").String(),
		jen.Id("pos").Index().Qual(pyvalPkg, "Value"),
		jen.Id("kw").Index().Qual(pyvalPkg, "KV"),
	).Params(jen.Qual(pyvalPkg, "Value"), jen.Error()).Block(jen.Switch(jen.Id("method")).Block(cases...))
	return f, nil
}

// routerFile renders Call (route a call to the instance's class
// dispatcher) and HasMethod.
func routerFile(reg map[string]sim.Class, names []string) *jen.File {
	f := jen.NewFile("stubs")
	header(f, "source: the backend classes registered in sim/registry.go")
	var cases []jen.Code
	for _, n := range names {
		cases = append(cases, jen.Case(jen.Op("*").Qual(simPkg, n)).Block(
			jen.Return(jen.Id("call"+n).Call(jen.Id("x"), jen.Id("method"), jen.Id("pos"), jen.Id("kw"))),
		))
	}
	cases = append(cases, jen.Default().Block(jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("stubs: no dispatcher for %T"), jen.Id("inst")))))
	f.Comment("Call binds pos and kw to the parameters of inst's method and calls it: the only path by which a call reaches a backend.")
	f.Func().Id("Call").Params(
		jen.Id("inst").Qual(simPkg, "Instance"),
		jen.Id("method").String(),
		jen.Id("pos").Index().Qual(pyvalPkg, "Value"),
		jen.Id("kw").Index().Qual(pyvalPkg, "KV"),
	).Params(jen.Qual(pyvalPkg, "Value"), jen.Error()).Block(
		jen.Switch(jen.Id("x").Op(":=").Id("inst").Assert(jen.Type())).Block(cases...),
	)
	var hcases []jen.Code
	for _, n := range names {
		hcases = append(hcases, jen.Case(jen.Lit(n)).Block(
			jen.Switch(jen.Id("method")).Block(
				jen.CaseFunc(func(g *jen.Group) {
					for _, m := range reg[n].Methods {
						g.Lit(m.Name)
					}
				}).Block(jen.Return(jen.True())),
			),
		))
	}
	f.Comment("HasMethod reports whether class has the public method.")
	f.Func().Id("HasMethod").Params(jen.List(jen.Id("class"), jen.Id("method")).String()).Bool().Block(
		jen.Switch(jen.Id("class")).Block(hcases...),
		jen.Return(jen.False()),
	)
	return f
}

func hasParam(m sim.Method, name string) bool {
	for _, p := range m.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

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
