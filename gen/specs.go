package main

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/bfcl-go/bfcl/internal/category"
	"github.com/bfcl-go/bfcl/internal/dataset"
)

const specsPkg = "github.com/bfcl-go/bfcl/internal/specs"

// goPackage is the Go package name of a suite group's generated specs.
func goPackage(group string) string {
	return map[string]string{
		"non_live": "nonlive", "live": "live", "irrelevance": "irrelevance",
		"multi_turn": "multiturn", "agentic": "agentic",
	}[group]
}

func member(g category.Collection, c category.Category) bool {
	ms, _ := category.Members(g)
	for _, m := range ms {
		if m == c {
			return true
		}
	}
	return false
}

// labels of a category: its own name, every upstream test group it belongs
// to (so --label-filter mirrors --test-category, e.g. "python" is upstream's
// python group), and its language as a label set ("lang:java", filter with
// `lang: containsAny java`).
func categoryLabels(c category.Category) []string {
	out := []string{string(c)}
	for _, g := range category.Collections() {
		if g == category.CollAll || g == category.CollAllScoring {
			continue
		}
		if member(g, c) {
			out = append(out, string(g))
		}
	}
	out = append(out, "lang:"+string(c.Language()))
	return dedupe(out)
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// specFile renders generated/specs/<group>/zz_<category>.go.
//
//	var _ = specs.Category(specs.CategorySpec{
//		Category: "multi_turn_base",
//		Labels:   []string{"multi_turn_base", "multi_turn"},
//		Source:   "BFCL_v4_multi_turn_base.json",
//		Entries:  []specs.Entry{{ID: "multi_turn_base_0", Line: 1, Classes: []string{...}}, ...},
//	})
func specFile(c category.Category, entries []*dataset.Entry) (*jen.File, error) {
	group := string(c.SpecLabel())
	if group == "" {
		return nil, fmt.Errorf("category %s has no suite group", c)
	}
	f := jen.NewFile(goPackage(group))
	header(f, "source: bfcl_eval/data/"+filepath.Base(sourceFile(entries)))
	rows := make([]jen.Code, 0, len(entries))
	for _, e := range entries {
		fields := []jen.Code{
			jen.Id("ID").Op(":").Lit(e.ID),
			jen.Id("Line").Op(":").Lit(e.Line),
		}
		if len(e.InvolvedClasses) > 0 {
			classes := append([]string(nil), e.InvolvedClasses...)
			sort.Strings(classes)
			fields = append(fields, jen.Id("Classes").Op(":").Index().String().ValuesFunc(func(g *jen.Group) {
				for _, cl := range classes {
					g.Lit(cl)
				}
			}))
		}
		rows = append(rows, jen.Values(fields...))
	}
	f.Var().Id("_").Op("=").Qual(specsPkg, "Category").Call(
		jen.Qual(specsPkg, "CategorySpec").Values(jen.Dict{
			jen.Id("Category"): jen.Lit(string(c)),
			jen.Id("Labels"): jen.Index().String().ValuesFunc(func(g *jen.Group) {
				for _, l := range categoryLabels(c) {
					g.Lit(l)
				}
			}),
			jen.Id("Source"):  jen.Lit(filepath.Base(sourceFile(entries))),
			jen.Id("Entries"): jen.Index().Qual(specsPkg, "Entry").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, rows...),
		}),
	)
	return f, nil
}

func sourceFile(entries []*dataset.Entry) string {
	if len(entries) == 0 {
		return ""
	}
	return entries[0].File
}
