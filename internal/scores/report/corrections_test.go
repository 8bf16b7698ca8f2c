package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Results made with opt-in corrections (internal/config/corrections) are
// marked wherever their numbers appear; the official ones are not.
var _ = Describe("the corrections a model's results were made with", func() {
	rowOf := func(corr []string) report.Row {
		r, err := report.Summarize(report.ModelInfo{Name: "m", DisplayName: "M", Corrections: corr}, []report.CategoryScore{
			{Category: category.MemoryKV, Correct: 7, Total: 155, Accuracy: 7.0 / 155},
		}, report.Usage{})
		Expect(err).NotTo(HaveOccurred())
		return r
	}

	It("are said in the table and summary.json, and absent for the official behaviour", func() {
		for _, c := range []struct {
			corr []string
			mark bool
		}{{nil, false}, {[]string{"empty-tool-calls", "empty-memory-search"}, true}} {
			rows := []report.Row{rowOf(c.corr)}
			var buf bytes.Buffer
			Expect(report.WriteTable(&buf, rows)).To(Succeed())
			dir := GinkgoT().TempDir()
			Expect(report.WriteScoreRoot(dir, rows)).To(Succeed())
			raw, err := os.ReadFile(filepath.Join(dir, report.FileSummaryJSON))
			Expect(err).NotTo(HaveOccurred())
			var s report.JSONSummary
			Expect(json.Unmarshal(raw, &s)).To(Succeed())
			if !c.mark {
				Expect(buf.String()).NotTo(ContainSubstring("correct"))
				Expect(string(raw)).NotTo(ContainSubstring("corrections"))
				Expect(s.Models[0].Corrections).To(BeEmpty())
				continue
			}
			Expect(buf.String()).To(MatchRegexp(`Model: M *\nNOT the official score: corrections empty-tool-calls, empty-memory-search on\n`))
			Expect(buf.String()).To(MatchRegexp(`Overall\s+\d+\.\d\d% \(corrected\)`))
			Expect(s.Models[0].Corrections).To(Equal([]string{"empty-tool-calls", "empty-memory-search"}))
			// two models: the comparison line says it too
			buf.Reset()
			Expect(report.WriteTable(&buf, []report.Row{rowOf(nil), rowOf(c.corr)})).To(Succeed())
			Expect(buf.String()).To(ContainSubstring("(corrected: empty-tool-calls, empty-memory-search)"))
		}
	})
})
