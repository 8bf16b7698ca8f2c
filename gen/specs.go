package main

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/dave/jennifer/jen"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
)

const specsPkg = "github.com/bfcl-go/bfcl/suites/specs"

// goPackage is the Go package name of a suite group's generated specs.
func goPackage(group string) string {
	return map[string]string{
		"non_live": "nonlive", "live": "live", "irrelevance": "irrelevance",
		"multi_turn": "multiturn", "agentic": "agentic", "format_sensitivity": "formatsensitivity",
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
// python group), its leaderboard group and its language as label sets
// ("group:irrelevance", "lang:java"; filter with `group: containsAny
// irrelevance`). The leaderboard group is a key:value label because
// "irrelevance" alone already names upstream's category of that name.
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
	out = append(out, "group:"+string(c.SpecLabel()), "lang:"+string(c.Language()))
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
	source := filepath.Base(sourceFile(entries))
	if c.IsFormatSensitivity() {
		source = "BFCL_v4_format_sensitivity.json"
	}
	header(f, "source: bfcl_eval/data/"+source)
	rows := make([]jen.Code, 0, len(entries))
	for _, e := range entries {
		fields := []jen.Code{jen.Id("ID").Op(":").Lit(e.ID)}
		line := e.Line
		if c.IsFormatSensitivity() {
			line = 0 // the entry is a variant; its source line is in another file
		}
		if line > 0 {
			fields = append(fields, jen.Id("Line").Op(":").Lit(line))
		}
		if labels := entryLabels(c, e); len(labels) > 0 {
			fields = append(fields, jen.Id("Labels").Op(":").Index().String().ValuesFunc(func(g *jen.Group) {
				for _, l := range labels {
					g.Lit(l)
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
			jen.Id("Source"):  jen.Lit(source),
			jen.Id("Entries"): jen.Index().Qual(specsPkg, "Entry").Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, rows...),
		}),
	)
	return f, nil
}

// entryLabels are an entry's own labels: its backend classes (sorted), or
// for format sensitivity its prompt configuration as key:value labels.
func entryLabels(c category.Category, e *dataset.Entry) []string {
	if c.IsFormatSensitivity() {
		_, cfg, src, err := prompt.SplitFormatSensitivityID(e.ID)
		if err != nil {
			return nil
		}
		srcCat, _ := category.FromEntryID(src)
		return []string{
			"ret_fmt:" + cfg.ReturnFormat,
			fmt.Sprintf("tool_call_tag:%t", cfg.ToolCallTag),
			"func_doc_fmt:" + cfg.FuncDocFormat,
			"prompt_fmt:" + cfg.PromptFormat,
			"style:" + cfg.Style,
			"source:" + string(srcCat),
		}
	}
	classes := append([]string(nil), e.InvolvedClasses...)
	sort.Strings(classes)
	return classes
}

func sourceFile(entries []*dataset.Entry) string {
	if len(entries) == 0 {
		return ""
	}
	return entries[0].File
}
