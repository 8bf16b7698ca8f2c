package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/suites/specs"
)

// whereOf is the "verbs and suites" cell a setting's README row must hold:
// the verbs whose flag sets take it, in verbOrder, then "suites" when the
// test binaries take it.
func whereOf(s *config.Setting) string {
	var where []string
	for _, v := range verbOrder {
		if slices.Contains(verbSettings[v], s) {
			where = append(where, v)
		}
	}
	if slices.Contains(specs.Settings, s) {
		where = append(where, "suites")
	}
	return strings.Join(where, ", ")
}

// settingsTable reads the README's settings table: each row's first
// `--flag` name to the row's last cell.
func settingsTable() map[string]string {
	b, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "README.md"))
	Expect(err).NotTo(HaveOccurred())
	text := string(b)
	start := strings.Index(text, "| what | flag (CLI;")
	Expect(start).To(BeNumerically(">=", 0), "no settings table in README.md")
	flagRe := regexp.MustCompile("`--([a-z0-9-]+)")
	rows := map[string]string{}
	for _, line := range strings.Split(text[start:], "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) < 3 {
			continue
		}
		m := flagRe.FindStringSubmatch(cells[1])
		if m == nil {
			continue
		}
		rows[m[1]] = strings.TrimSpace(cells[len(cells)-1])
	}
	return rows
}

// Issue 26: every setting of the settings table works in every verb and
// suite the table lists, and only there.
var _ = Describe("the README's settings table", func() {
	It("names, for every setting, exactly the verbs and suites that take it", func() {
		rows := settingsTable()
		for _, s := range config.All() {
			Expect(rows).To(HaveKey(s.Name), "README settings table: no row for --%s", s.Name)
			Expect(rows[s.Name]).To(Equal(whereOf(s)), "README settings table, --%s: the verbs and suites cell", s.Name)
		}
	})

	It("matches what each verb of the built binary accepts (its --help)", func() {
		dir := GinkgoT().TempDir()
		for _, verb := range verbOrder {
			r := bfcl(dir, cliEnv(dir), verb, "--help")
			help := r.stdout + r.stderr
			for _, s := range verbSettings[verb] {
				Expect(help).To(MatchRegexp(`(?m)^\s+-`+regexp.QuoteMeta(s.Name)+`\b`), "bfcl %s --help does not list -%s", verb, s.Name)
			}
		}
	})
})
