package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Issue 26, item 2: a service setting that names no service, or a service
// that cannot be reached, stops generate before anything runs, naming the
// flag or variable used; --skip-unavailable runs the rest and names what
// was skipped and why in the table and summary.json.
var _ = Describe("service settings", Label("e2e"), func() {
	It("refuse a mistyped embedder or web-search provider, naming the flag or variable used", func() {
		data := needData()
		w := GinkgoT().TempDir()
		r := bfcl(w, cliEnv(data), "generate", "--ids", "memory_vector_0-customer-0", "--embedder", "foo")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring(`-embedder="foo": not an embedder (minilm, ollama, hashed or off)`))
		Expect(r.stderr).NotTo(ContainSubstring("BFCL_EMBEDDER"))
		r = bfcl(w, cliEnv(data, "BFCL_EMBEDDER=foo"), "generate", "--ids", "memory_vector_0-customer-0")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring(`BFCL_EMBEDDER="foo": not an embedder`))
		r = bfcl(w, cliEnv(data), "generate", "--ids", "web_search_base_0", "--websearch", "bing")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring(`-websearch="bing": not a web-search provider`))
		r = bfcl(w, cliEnv(data), "generate", "--ids", "web_search_base_0", "--websearch", "offline:nowhere")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring(`-websearch="offline:nowhere": ` + filepath.Join(w, "nowhere") + ` is not a folder of recorded searches`))
		Expect(filepath.Join(w, "result")).NotTo(BeADirectory(), "nothing ran")
	})

	It("stop on an unreachable embedder unless --skip-unavailable, which names the skipped category everywhere", func() {
		data := needData()
		w := GinkgoT().TempDir()
		args := []string{"generate", "--test-category", "memory_vector,simple_javascript", "--embedder", "ollama", "--embed-url", "http://127.0.0.1:9"}
		r := bfcl(w, cliEnv(data), args...)
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("gold: 1 category cannot run with these services; nothing was run"))
		Expect(r.stderr).NotTo(ContainSubstring("1 entries"))
		Expect(r.stderr).To(ContainSubstring("memory_vector is N/A: embedder"))
		Expect(r.stderr).To(ContainSubstring("server from -embed-url"))
		Expect(r.stderr).To(ContainSubstring("--skip-unavailable"))
		Expect(results.Path(filepath.Join(w, "result"), "gold", category.SimpleJavaScript)).NotTo(BeAnExistingFile())

		r = bfcl(w, cliEnv(data), append(args, "--skip-unavailable")...)
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stdout).To(ContainSubstring("Not run for gold (N/A, counted as 0 in the overall):\n  memory_vector: memory_vector is N/A: embedder"))
		Expect(r.stderr).To(ContainSubstring("50/50 entries"), "the progress line counts only what runs")
		var sum struct {
			Models []struct {
				Model string            `json:"model"`
				Notes map[string]string `json:"notes"`
			} `json:"models"`
		}
		b, err := os.ReadFile(filepath.Join(w, "score", "summary.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(b, &sum)).To(Succeed())
		Expect(sum.Models).To(HaveLen(1))
		Expect(sum.Models[0].Notes).To(HaveKeyWithValue("not_run_memory_vector", ContainSubstring("--skip-unavailable")))
	})
})

// Issue 26, item 6: --strict-irrelevance marks the table, summary.json and
// the score folder (which keeps the mark when other evaluations refresh it).
var _ = Describe("--strict-irrelevance", Label("e2e"), func() {
	It("marks every number it touches, and an official evaluation clears the mark", func() {
		data := needData()
		w := GinkgoT().TempDir()
		env := cliEnv(data)
		r := bfcl(w, env, "generate", "--ids", "multi_turn_base_0,simple_python_0")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stdout).NotTo(ContainSubstring("NOT the official"))
		r = bfcl(w, env, "evaluate", "--strict-irrelevance", "--partial-eval")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stdout).To(ContainSubstring("NOT the official score: --strict-irrelevance (multi_turn_base)"))
		Expect(r.stderr).To(ContainSubstring("--strict-irrelevance (NOT the official score)"))
		b, err := os.ReadFile(filepath.Join(w, "score", "summary.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(ContainSubstring(`"not_official": "NOT the official score: --strict-irrelevance (multi_turn_base)"`))
		Expect(string(b)).To(ContainSubstring("except for the models whose notes.not_official says otherwise"))
		// scoring another category officially keeps multi_turn_base's mark
		r = bfcl(w, env, "evaluate", "--test-category", "simple_python", "--partial-eval")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stdout).To(ContainSubstring("NOT the official score: --strict-irrelevance (multi_turn_base)"))
		// re-scoring it officially clears it
		r = bfcl(w, env, "evaluate", "--partial-eval")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stdout).NotTo(ContainSubstring("NOT the official"))
		Expect(filepath.Join(w, "score", "gold", "not_official.json")).NotTo(BeAnExistingFile())
	})
})

// Issue 26, item 9: gold's web-search recordings are built in, so a run
// outside the repository answers web search instead of skipping it.
var _ = Describe("gold outside the repository", Label("e2e"), func() {
	It("answers web search from the built-in recordings", func() {
		data := needData()
		w := GinkgoT().TempDir()
		r := bfcl(w, cliEnv(data), "generate", "--ids", "web_search_base_0,web_search_no_snippet_1")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stdout).NotTo(ContainSubstring("Not run"))
		Expect(ids(results.Path(filepath.Join(w, "result"), "gold", category.WebSearchBase))).To(Equal([]string{"web_search_base_0"}))
		Expect(r.stdout).To(MatchRegexp(`web_search_base\s+\S+\s+1\s+`))
	})
})

// Issue 26, item 12: a memory run leaves no empty *.lock file in the
// result folder.
var _ = Describe("memory prerequisites", Label("e2e"), func() {
	It("leave no lock files in the result folder", func() {
		w := GinkgoT().TempDir()
		r := bfcl(w, cliEnv(needData()), "generate", "--test-category", "memory_kv")
		Expect(r.exit).To(Equal(0), r.stderr)
		var locks []string
		Expect(filepath.WalkDir(filepath.Join(w, "result"), func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".lock") {
				locks = append(locks, p)
			}
			return err
		})).To(Succeed())
		Expect(locks).To(BeEmpty())
	})
})
