package score_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

var _ = Describe("long_context.py in multi-turn scoring", Label("dataset"), func() {
	It("is needed by long-context entries only", func() {
		src := testenv.OpenDataSet(GinkgoT())
		opts := score.Options{ModelName: "m", Spec: decode.Spec{Mode: "fc"}} // no long-context data
		for _, c := range []category.Category{category.MultiTurnBase, category.MultiTurnLongContext} {
			entries, err := src.Load(c)
			Expect(err).NotTo(HaveOccurred())
			e := entries[0]
			v, err := score.Entry(e, results.Record{ID: e.ID, Result: []byte(`[[]]`)}, opts)
			if c.IsLongContext() {
				Expect(err).To(MatchError(ContainSubstring("needs the long-context data")), e.ID)
				continue
			}
			Expect(err).NotTo(HaveOccurred(), e.ID)
			Expect(v.Valid).To(BeFalse(), e.ID)
		}
	})
})
