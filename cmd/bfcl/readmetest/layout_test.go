package readmetest_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

var _ = Describe("README's Layout section", func() {
	It("has one row for every package under internal/, and none for a package that does not exist", func() {
		root := testenv.ModuleRoot()
		b, err := os.ReadFile(filepath.Join(root, "README.md"))
		Expect(err).NotTo(HaveOccurred())
		text := string(b)
		start := strings.Index(text, "\n## Layout\n")
		Expect(start).To(BeNumerically(">=", 0), "README has no Layout section")
		section := text[start+1:]
		if end := strings.Index(section[3:], "\n## "); end >= 0 {
			section = section[:end+3]
		}
		row := regexp.MustCompile("(?m)^\\| `(internal/[^`]+)` \\|")
		var rows []string
		for _, m := range row.FindAllStringSubmatch(section, -1) {
			rows = append(rows, m[1])
		}
		var pkgs []string
		err = filepath.WalkDir(filepath.Join(root, "internal"), func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			files, _ := filepath.Glob(filepath.Join(path, "*.go"))
			for _, f := range files {
				if !strings.HasSuffix(f, "_test.go") {
					rel, _ := filepath.Rel(root, path)
					pkgs = append(pkgs, filepath.ToSlash(rel))
					break
				}
			}
			return nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(rows).To(ConsistOf(pkgs))
	})
})

var _ = Describe("README's Layout claims on the data flow", func() {
	// deps lists the project packages pkgs depend on, by package.
	deps := func(pkgs ...string) map[string][]string {
		cmd := exec.Command("go", append([]string{"list", "-deps", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`}, pkgs...)...)
		cmd.Dir = testenv.ModuleRoot()
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred(), "go list")
		m := map[string][]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Fields(line)
			m[f[0]] = f[1:]
		}
		return m
	}
	const mod = "github.com/bfcl-go/bfcl/"
	It("nothing under internal/run/ imports internal/scores/, and the report imports no backend", func() {
		for pkg, ds := range deps("./internal/run/...") {
			if !strings.HasPrefix(pkg, mod+"internal/run/") {
				continue
			}
			for _, d := range ds {
				Expect(d).NotTo(HavePrefix(mod+"internal/scores/"), pkg)
			}
		}
		for pkg, ds := range deps("./internal/scores/report", "./internal/scores/htmlreport") {
			if pkg != mod+"internal/scores/report" && pkg != mod+"internal/scores/htmlreport" {
				continue
			}
			for _, d := range ds {
				Expect(d).NotTo(Equal(mod+"sim"), pkg)
				Expect(d).NotTo(Equal(mod+"internal/python/engine"), pkg)
				Expect(d).NotTo(Equal(mod+"internal/check/multiturn"), pkg)
			}
		}
	})
})
