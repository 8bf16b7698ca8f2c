package report_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/scores/report"
)

var _ = Describe("reading outcomes from score files", func() {
	It("returns the header and the failed ids of every category", func() {
		root := GinkgoT().TempDir()
		_, err := report.WriteScoreDirFile(root, "m", category.LiveParallel, []verdict.Verdict{
			{ID: "live_parallel_1", Valid: true}, {ID: "live_parallel_0", ErrorType: "x"}, {ID: "live_parallel_10", ErrorType: "y"},
		})
		Expect(err).NotTo(HaveOccurred())
		out, err := report.ReadModelOutcomes(root, "m")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(HaveLen(1))
		o := out[category.LiveParallel]
		Expect(o.Score.Correct).To(Equal(1))
		Expect(o.Score.Total).To(Equal(3))
		Expect(o.Failed).To(Equal([]string{"live_parallel_0", "live_parallel_10"}))
	})

	DescribeTable("names the file and the cause of bad content",
		func(content, want string) {
			path := filepath.Join(GinkgoT().TempDir(), "BFCL_v4_live_parallel_score.json")
			Expect(os.WriteFile(path, []byte(content), 0o644)).To(Succeed())
			_, err := report.VisitScoreFile(path, category.LiveParallel, func(string, []byte) error { return nil })
			Expect(err).To(MatchError(And(ContainSubstring(path), ContainSubstring(want))))
		},
		Entry("count mismatch", `{"accuracy": 0.5, "correct_count": 1, "total_count": 2}`+"\n", "counts 1 failed entries but 0 are listed"),
		Entry("id of another category", `{"accuracy": 0.5, "correct_count": 1, "total_count": 2}`+"\n"+`{"id": "live_simple_0"}`+"\n", `"live_simple_0" is not an entry of live_parallel`),
		Entry("no id", `{"accuracy": 0.5, "correct_count": 1, "total_count": 2}`+"\n"+`{"valid": false}`+"\n", ":2: a failed-entry line must be a JSON object with an id"),
		Entry("repeated id", `{"accuracy": 0.0, "correct_count": 0, "total_count": 2}`+"\n"+`{"id": "live_parallel_0"}`+"\n"+`{"id": "live_parallel_0"}`+"\n", "listed twice"),
		Entry("empty", ``, "empty score file"),
	)
})
