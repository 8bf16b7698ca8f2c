package multiturn_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func detailKeys(v verdict.Verdict) []string {
	var out []string
	for _, f := range v.Detail {
		out = append(out, f.Key)
	}
	return out
}

var _ = Describe("the inference log in failed verdicts", func() {
	It("is copied from the record into every failed verdict, early inference_error and force_terminated included, as multi_turn_runner does", func() {
		src := testenv.OpenDataSet(GinkgoT())
		entries, err := src.Load("multi_turn_base")
		Expect(err).NotTo(HaveOccurred())
		e := entries[0]
		log := json.RawMessage(`[{"begin_of_turn_query":[{"role":"user","content":"x"}],"step_0":[]}]`)
		for name, result := range map[string]string{
			"inference_error":  `"Error during inference: boom"`,
			"force_terminated": `[[[]]]`,
			"empty turn":       `[[[]],[[]],[[]],[[]]]`,
		} {
			res, err := multiturn.Check(e, results.Record{ID: e.ID, Result: json.RawMessage(result), InferenceLog: log}, multiturn.Options{})
			Expect(err).NotTo(HaveOccurred(), name)
			Expect(res.Verdict.Valid).To(BeFalse(), name)
			keys := detailKeys(res.Verdict)
			Expect(keys[len(keys)-1]).To(Equal("inference_log"), name)
			Expect(res.Verdict.Detail[len(keys)-1].Value).To(Equal(log), name)

			res, err = multiturn.Check(e, results.Record{ID: e.ID, Result: json.RawMessage(result)}, multiturn.Options{})
			Expect(err).NotTo(HaveOccurred(), name)
			Expect(res.Verdict.Detail[len(res.Verdict.Detail)-1]).To(Equal(verdict.Field{Key: "inference_log", Value: ""}), name)
		}
	})
})
