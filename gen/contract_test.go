package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// editedDocs serves a class's function documents with one document edited.
type editedDocs struct {
	docSource
	class, function string
	edit            func(doc map[string]any)
}

func (e editedDocs) FuncDocs(class string) ([]json.RawMessage, error) {
	raws, err := e.docSource.FuncDocs(class)
	if err != nil || class != e.class {
		return raws, err
	}
	out := make([]json.RawMessage, len(raws))
	for i, raw := range raws {
		var d map[string]any
		if err := json.Unmarshal(raw, &d); err != nil {
			return nil, err
		}
		if d["name"] == e.function {
			e.edit(d)
		}
		if out[i], err = json.Marshal(d); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// enclosingFunc is the name of the function declared in file around line.
func enclosingFunc(file string, line int) string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	Expect(err).NotTo(HaveOccurred())
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fset.Position(fd.Pos()).Line <= line && line <= fset.Position(fd.End()).Line {
			return fd.Name.Name
		}
	}
	return ""
}

var _ = Describe("the generated stubs as the backends' contract", Label("build"), func() {
	var (
		src  *dataset.Source
		root string
	)
	build := func(overlay string) (string, error) {
		args := []string{"build"}
		if overlay != "" {
			args = append(args, "-overlay", overlay)
		}
		cmd := exec.Command("go", append(args, "./sim/")...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	BeforeEach(func() {
		src = openDataSet()
		root = testenv.ModuleRoot()
		out, err := build("")
		Expect(err).NotTo(HaveOccurred(), "control: sim/ builds against the committed stubs\n%s", out)
	})

	DescribeTable("a parameter whose documented type changes fails the build in the backend method that reads it",
		func(class, function, param, newType, stubFile string, want ...string) {
			files, err := generateStubs(editedDocs{docSource: src, class: class, function: function, edit: func(d map[string]any) {
				props := d["parameters"].(map[string]any)["properties"].(map[string]any)
				props[param].(map[string]any)["type"] = newType
			}})
			Expect(err).NotTo(HaveOccurred())
			tmp := GinkgoT().TempDir()
			stub := filepath.Join(tmp, stubFile)
			Expect(os.WriteFile(stub, files["stubs/"+stubFile], 0o644)).To(Succeed())
			overlay, err := json.Marshal(map[string]any{"Replace": map[string]string{
				filepath.Join(root, "generated", "stubs", stubFile): stub,
			}})
			Expect(err).NotTo(HaveOccurred())
			ov := filepath.Join(tmp, "overlay.json")
			Expect(os.WriteFile(ov, overlay, 0o644)).To(Succeed())

			out, err := build(ov)
			Expect(err).To(HaveOccurred(), "the build must fail after the document changed")
			errs := regexp.MustCompile(`(?m)^\S*(sim/\w+\.go):(\d+):\d+: (.*)$`).FindAllStringSubmatch(out, -1)
			Expect(errs).NotTo(BeEmpty(), out)
			var where []string
			for _, e := range errs {
				line, _ := strconv.Atoi(e[2])
				where = append(where, e[1]+": "+enclosingFunc(filepath.Join(root, e[1]), line)+": "+e[3])
			}
			Expect(where).To(ConsistOf(want), out)
		},
		Entry("edit_ticket's updates documented as a string: the dict view's keys() and items() are gone",
			"TicketAPI", "edit_ticket", "updates", "string", "zz_ticket_api.go",
			"sim/ticket_api.go: EditTicket: args.Updates.Keys undefined (type pyargs.Str has no field or method Keys)",
			"sim/ticket_api.go: EditTicket: args.Updates.Items undefined (type pyargs.Str has no field or method Items)"),
		Entry("fetch_url_content's url documented as an integer: the str view's startswith is gone",
			"WebSearchAPI", "fetch_url_content", "url", "integer", "zz_web_search.go",
			"sim/web_search.go: FetchURLContent: args.URL.Method undefined (type pyargs.Int has no field or method Method)"),
	)
})
