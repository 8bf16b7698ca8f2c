package results_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/store/results"
)

var _ = Describe("RepeatRoot", func() {
	It("keeps repeat 1 in the ordinary root and puts the others in sibling roots", func() {
		for k, want := range map[int]string{1: "out/result/", 2: "out/result_repeat_2", 10: "out/result_repeat_10"} {
			got, err := results.RepeatRoot("out/result/", k)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		}
		_, err := results.RepeatRoot("result", 0)
		Expect(err).To(HaveOccurred())
		r, s, err := results.RepeatRoots("result", "score", 3)
		Expect(err).NotTo(HaveOccurred())
		Expect([]string{r, s}).To(Equal([]string{"result_repeat_3", "score_repeat_3"}))
	})
})

var _ = Describe("FileCategory", func() {
	It("reads the category name of a result file's name, prerequisites included", func() {
		for name, want := range map[string]string{
			"BFCL_v4_simple_python_result.json":    "simple_python",
			"BFCL_v4_memory_kv_prereq_result.json": "memory_kv_prereq",
			"BFCL_v4_multi_turn_base_result.json":  "multi_turn_base",
		} {
			got, ok := results.FileCategory(name)
			Expect(ok).To(BeTrue(), name)
			Expect(got).To(Equal(want), name)
		}
		for _, name := range []string{"BFCL_v4_simple_python_score.json", "BFCL_v3_simple_python_result.json", "simple_python_result.json", "BFCL_v4_simple_python_result.json.tmp"} {
			_, ok := results.FileCategory(name)
			Expect(ok).To(BeFalse(), name)
		}
	})
})
