package main

import (
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
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

var _ = Describe("bfcl repeats (built binary)", Label("reference"), func() {
	It("finds the entries that flip between two repeats in the <score>_repeat_<k> layout", func() {
		ref := testenv.NeedReferenceDir(GinkgoT(), "reference results")
		data := testenv.NeedDataDir(GinkgoT(), "BFCL data set")
		const model = "openai_gpt-oss-120b"
		tmp := GinkgoT().TempDir()
		result1 := filepath.Join(ref, "results", "results", "2025-11-12-harmony-fixes-2", "result")
		result2 := filepath.Join(tmp, "result_repeat_2")
		Expect(os.CopyFS(result2, os.DirFS(result1))).To(Succeed())
		// Repeat 2 fails the first four simple_python entries (an empty
		// call list); those of them that repeat 1 passes flip.
		path := filepath.Join(result2, model, "non_live", "BFCL_v4_simple_python_result.json")
		raw, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
		var edited []string
		for i := range lines[:4] {
			var m map[string]json.RawMessage
			Expect(json.Unmarshal([]byte(lines[i]), &m)).To(Succeed())
			var id string
			Expect(json.Unmarshal(m["id"], &id)).To(Succeed())
			edited = append(edited, id)
			m["result"] = json.RawMessage("[]")
			b, _ := json.Marshal(m)
			lines[i] = string(b)
		}
		Expect(os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)).To(Succeed())
		score := filepath.Join(tmp, "score")
		for _, run := range [][2]string{{result1, score}, {result2, score + "_repeat_2"}} {
			cmd := exec.Command(bfclBinary(), "evaluate", "--model", model, "--result-dir", run[0], "--score-dir", run[1],
				"--mode", "fc", "--underscore-to-dot=true", "--test-category", "non_live", "--data-dir", data)
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
		}
		first, err := report.ReadModelOutcomes(score, model)
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
