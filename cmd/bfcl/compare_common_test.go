package main

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// dropLines removes the records of ids from a result file.
func dropLines(path string, ids ...string) {
	recs, err := results.Read(path)
	Expect(err).NotTo(HaveOccurred())
	drop := map[string]bool{}
	for _, id := range ids {
		drop[id] = true
	}
	var keep []results.Record
	for _, r := range recs {
		if !drop[r.ID] {
			keep = append(keep, r)
		}
	}
	Expect(results.WriteFile(path, keep)).To(Succeed())
}

// Issue 26, item 3: compare works on what both runs scored.
var _ = Describe("bfcl compare on runs of different or partial entries", Label("e2e"), func() {
	var w string
	var env []string
	gen := func(name string, args ...string) {
		r := bfcl(w, env, append([]string{"generate", "--result-dir", name + "/result", "--score-dir", name + "/score"}, args...)...)
		Expect(r.exit).To(Equal(0), r.stderr)
	}
	BeforeEach(func() {
		w, env = GinkgoT().TempDir(), cliEnv(needData())
	})

	It("compares score folders that both lack the same entries, saying so, without group rows", func() {
		gen("a", "--test-category", "simple_javascript,multi_turn_base")
		gen("b", "--test-category", "simple_javascript,multi_turn_base")
		for _, run := range []string{"a", "b"} {
			dropLines(results.Path(filepath.Join(w, run, "result"), "gold", category.SimpleJavaScript), "simple_javascript_7", "simple_javascript_9")
			r := bfcl(w, env, "evaluate", "--result-dir", run+"/result", "--score-dir", run+"/score", "--partial-eval")
			Expect(r.exit).To(Equal(0), r.stderr)
		}
		r := bfcl(w, env, "compare", "a/score/gold", "b/score/gold")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stdout).To(ContainSubstring("note: simple_javascript: 48 of 50 entries on every side"))
		Expect(r.stdout).To(ContainSubstring("note: no row for"))
		Expect(r.stdout).NotTo(MatchRegexp(`(?m)^\s*overall\s`))
		Expect(r.stdout).To(MatchRegexp(`(?m)^\s*multi_turn_base\s+200\s`))
		// --test-category selects without --from-results
		r = bfcl(w, env, "compare", "--test-category", "multi_turn_base", "a/score/gold", "b/score/gold")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stdout).NotTo(ContainSubstring("simple_javascript"))
		Expect(r.stdout).To(MatchRegexp(`(?m)^\s*multi_turn_base\s+200\s`))
		Expect(r.stdout).NotTo(MatchRegexp(`(?m)^\s*overall\s`), "a selection that leaves categories out has no overall")
	})

	It("compares result folders of different entries on the entries both have (--from-results)", func() {
		gen("a", "--ids", "simple_javascript_0,simple_javascript_1,simple_javascript_2,simple_javascript_3")
		gen("b", "--ids", "simple_javascript_2,simple_javascript_3,simple_javascript_4")
		r := bfcl(w, env, "compare", "--from-results", "a/result/gold", "b/result/gold")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stderr).NotTo(ContainSubstring("--partial-eval"))
		Expect(r.stdout).To(ContainSubstring("note: simple_javascript: 2 of 50 entries on every side (the entries every run scored, paired by id)"))
		Expect(r.stdout).To(MatchRegexp(`(?m)^\s*simple_javascript\s+2\s`))
		Expect(strings.Count(r.stdout, "simple_javascript")).To(BeNumerically(">=", 2))
		_, err := os.Stat(filepath.Join(w, "a", "score"))
		Expect(err).NotTo(HaveOccurred())
	})
})
