package readmetest_test

import (
	"io/fs"
	"os"
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
