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
