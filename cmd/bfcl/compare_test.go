package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/compare"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// bfclBinary is the command built once for the suite (cli_test.go).
func bfclBinary() string { return bfclBin }

// referenceModel is the model of the reference run that the compare and
// repeats specs edit.
const referenceModel = "openai_gpt-oss-120b"

// editReferenceRun copies the result folder of the reference run
// (results/results/2025-11-12-harmony-fixes-2/result under ref) to dest and
// gives the first n entries of referenceModel's result file rel whose
// result pick accepts an empty call list ("result": []). It returns the
// original folder and the edited entries' ids, in file order.
func editReferenceRun(ref, dest, rel string, n int, pick func(result json.RawMessage) bool) (string, []string) {
	orig := filepath.Join(ref, "results", "results", "2025-11-12-harmony-fixes-2", "result")
	Expect(os.CopyFS(dest, os.DirFS(orig))).To(Succeed())
	path := filepath.Join(dest, referenceModel, rel)
	raw, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	var edited []string
	for i, l := range lines {
		var m map[string]json.RawMessage
		Expect(json.Unmarshal([]byte(l), &m)).To(Succeed())
		if len(edited) == n || !pick(m["result"]) {
			continue
		}
		var id string
		Expect(json.Unmarshal(m["id"], &id)).To(Succeed())
		edited = append(edited, id)
		m["result"] = json.RawMessage("[]")
		b, _ := json.Marshal(m)
		lines[i] = string(b)
	}
	Expect(os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)).To(Succeed())
	return orig, edited
}

var _ = Describe("bfcl compare (built binary)", Label("reference"), func() {
	It("scores the reference results and an edited copy, and reports exactly the edited entries", func() {
		ref := testenv.NeedReferenceDir(GinkgoT(), "reference results")
		data := testenv.NeedDataDir(GinkgoT(), "BFCL data set")
		tmp := GinkgoT().TempDir()
		bin := bfclBinary()

		// Every live_irrelevance entry that made calls fails; giving the
		// first five such entries no call makes them pass.
		resultB := filepath.Join(tmp, "result_b")
		resultA, fixed := editReferenceRun(ref, resultB, filepath.Join("live", "BFCL_v4_live_irrelevance_result.json"), 5,
			func(result json.RawMessage) bool { return string(result) != "[]" })

		cmd := exec.Command(bin, "compare", "--json", "--from-results", "--mode", "fc", "--underscore-to-dot=true",
			"--data-dir", data, "--test-category", "live", "--resamples", "1000", resultA, filepath.Join(resultB, referenceModel))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		Expect(cmd.Run()).To(Succeed(), stderr.String())
		var res struct {
			A, B       string
			Categories []string `json:"categories_compared"`
			Seed       uint64
			Resamples  int
			Rows       []struct {
				Category string
				Scope    string
				A, B     float64
				Delta    float64
				AOnly    []string `json:"a_only"`
				BOnly    []string `json:"b_only"`
				PValue   *float64 `json:"p_value"`
				CI95     *[2]float64
				Verdict  string
			}
		}
		Expect(json.Unmarshal(stdout.Bytes(), &res)).To(Succeed(), stdout.String())
		Expect(res.Categories).To(HaveLen(6))
		Expect(res.Resamples).To(Equal(1000))
		found := false
		for _, r := range res.Rows {
			switch {
			case r.Category == "live_irrelevance":
				found = true
				Expect(r.AOnly).To(BeEmpty())
				Expect(r.BOnly).To(Equal(fixed))
				Expect(*r.PValue).To(Equal(2.0 / 32)) // 0 vs 5: 2 * 2^-5
				Expect(r.Verdict).To(Equal("no detectable difference"))
			case r.Scope == "category":
				Expect(r.AOnly).To(BeEmpty(), r.Category)
				Expect(r.BOnly).To(BeEmpty(), r.Category)
				Expect(*r.PValue).To(Equal(1.0), r.Category)
				Expect(r.Delta).To(Equal(0.0), r.Category)
			default:
				Expect(r.PValue).To(BeNil(), r.Category)
				Expect(r.CI95).NotTo(BeNil(), r.Category)
			}
		}
		Expect(found).To(BeTrue())

		// The table for people names the verdicts.
		table := exec.Command(bin, "compare", "--from-results", "--mode", "fc", "--underscore-to-dot=true",
			"--data-dir", data, "--test-category", "live_irrelevance", "--resamples", "200", resultA, filepath.Join(resultB, referenceModel))
		out, err := table.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(string(out)).To(MatchRegexp(`live_irrelevance\s+884\s+83\.37\s+83\.94\s+\+0\.57 .*0\.0625\s+0\s+5\s+no detectable difference`))
	})
})

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

var _ = Describe("bfcl repeats (built binary)", Label("reference"), func() {
	It("finds the entries that flip between two repeats in the <score>_repeat_<k> layout", func() {
		ref := testenv.NeedReferenceDir(GinkgoT(), "reference results")
		data := testenv.NeedDataDir(GinkgoT(), "BFCL data set")
		tmp := GinkgoT().TempDir()
		// Repeat 2 fails the first four simple_python entries (an empty
		// call list); those of them that repeat 1 passes flip.
		result2 := filepath.Join(tmp, "result_repeat_2")
		result1, edited := editReferenceRun(ref, result2, filepath.Join("non_live", "BFCL_v4_simple_python_result.json"), 4,
			func(json.RawMessage) bool { return true })
		score := filepath.Join(tmp, "score")
		for _, run := range [][2]string{{result1, score}, {result2, score + "_repeat_2"}} {
			cmd := exec.Command(bfclBinary(), "evaluate", "--model", referenceModel, "--result-dir", run[0], "--score-dir", run[1],
				"--mode", "fc", "--underscore-to-dot=true", "--test-category", "non_live", "--data-dir", data)
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
		}
		first, err := report.ReadModelOutcomes(score, referenceModel)
		Expect(err).NotTo(HaveOccurred())
		failed1 := map[string]bool{}
		for _, id := range first[category.SimplePython].Failed {
			failed1[id] = true
		}
		want := []string{}
		for _, id := range edited {
			if !failed1[id] {
				want = append(want, id)
			}
		}
		Expect(len(want)).To(BeNumerically(">=", 2))
		cmd := exec.Command(bfclBinary(), "repeats", "--json", "--score-dir", score)
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred(), string(out))
		var got []struct {
			Model string
			compare.RepeatSummary
		}
		Expect(json.Unmarshal(out, &got)).To(Succeed(), string(out))
		Expect(got).To(HaveLen(1))
		Expect(got[0].K).To(Equal(2))
		found := false
		for _, c := range got[0].Categories {
			if c.Category != "simple_python" {
				Expect(c.Flipping).To(BeEmpty(), c.Category)
				Expect(c.Std).To(Equal(0.0), c.Category)
				continue
			}
			found = true
			Expect(c.Flipping).To(Equal(want))
			d := float64(len(want)) / 400
			Expect(c.PassAtK - c.PassHatK).To(BeNumerically("~", d, 1e-12))
			Expect(c.Accuracies[0] - c.Accuracies[1]).To(BeNumerically("~", d, 1e-12))
			Expect(c.NoiseFloor).To(BeNumerically(">", 0))
		}
		Expect(found).To(BeTrue())
	})
})
