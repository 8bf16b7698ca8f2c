package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Issue 26, item 10: evaluate on damaged result files names every damage
// and gives advice that points the right way.
var _ = Describe("evaluate on damaged results", Label("e2e"), func() {
	var w string
	var env []string
	var sp, sj string
	BeforeEach(func() {
		w, env = GinkgoT().TempDir(), cliEnv(needData())
		r := bfcl(w, env, "generate", "--test-category", "simple_python,simple_javascript")
		Expect(r.exit).To(Equal(0), r.stderr)
		sp = results.Path(filepath.Join(w, "result"), "gold", category.SimplePython)
		sj = results.Path(filepath.Join(w, "result"), "gold", category.SimpleJavaScript)
	})
	edit := func(path string, f func(lines []string) []string) {
		b, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		Expect(os.WriteFile(path, []byte(strings.Join(f(lines), "\n")+"\n"), 0o644)).To(Succeed())
	}

	It("refuses non-UTF-8 bytes instead of scoring a changed answer", func() {
		edit(sp, func(l []string) []string { l[3] = strings.Replace(l[3], `"result"`, "\"result\xff\"", 1); return l })
		r := bfcl(w, env, "evaluate")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("BFCL_v4_simple_python_result.json:4: malformed result line: not valid UTF-8 (byte 0xff"))
	})

	It("lists every broken line and every broken file", func() {
		edit(sp, func(l []string) []string { l[1], l[6] = "{broken", "{also broken"; return l })
		edit(sj, func(l []string) []string { l[0] = "[1,"; return l })
		r := bfcl(w, env, "evaluate")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("2 malformed result lines"))
		Expect(r.stderr).To(ContainSubstring("BFCL_v4_simple_python_result.json:2:"))
		Expect(r.stderr).To(ContainSubstring("BFCL_v4_simple_python_result.json:7:"))
		Expect(r.stderr).To(ContainSubstring("BFCL_v4_simple_javascript_result.json:1: malformed result line"))
	})

	It("names ids of another category before any --partial-eval advice", func() {
		b, err := os.ReadFile(sj)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(sp, b, 0o644)).To(Succeed()) // simple_javascript's results under simple_python's name
		r := bfcl(w, env, "evaluate", "--test-category", "simple_python")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("50 result ids are not entries of simple_python (a file of another category"))
		Expect(r.stderr).NotTo(ContainSubstring("--partial-eval"))
	})

	It("says a torn last line is not scored", func() {
		b, err := os.ReadFile(sj)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(sj, b[:len(b)-20], 0o644)).To(Succeed())
		r := bfcl(w, env, "evaluate", "--test-category", "simple_javascript", "--partial-eval")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stderr).To(ContainSubstring("BFCL_v4_simple_javascript_result.json:50: the last line has no newline"))
		Expect(r.stderr).To(MatchRegexp(`gold simple_javascript\s+100\.00%\s+\(49/49\)`))
	})
})

// Issue 26, item 9: merging a run of selected ids expects those entries
// only (and the memory prerequisites of their scenarios).
var _ = Describe("bfcl merge of a run of selected ids", Label("e2e"), func() {
	It("reports no missing entries for the ids the run did not select", func() {
		w := GinkgoT().TempDir()
		env := cliEnv(needData())
		sel := "simple_python_0,simple_python_3,memory_kv_0-customer-0"
		for k := 0; k < 2; k++ {
			r := bfcl(w, env, "generate", "--ids", sel, "--shard", fmt.Sprintf("%d/2", k), "--result-dir", fmt.Sprintf("s%d", k), "--score-dir", fmt.Sprintf("t%d", k))
			Expect(r.exit).To(Equal(0), r.stderr)
		}
		r := bfcl(w, env, "merge", "--ids", sel, "merged", "s0", "s1")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stderr).NotTo(ContainSubstring("missing"))
		// without the selection every other entry is missing
		r = bfcl(w, env, "merge", "merged2", "s0", "s1")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("missing gold/simple_python: 398 of 400"))
		// and an entry of the selection that no shard has is still named
		r = bfcl(w, env, "merge", "--ids", sel+",simple_python_9", "merged3", "s0", "s1")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("simple_python_9"))
	})
})
