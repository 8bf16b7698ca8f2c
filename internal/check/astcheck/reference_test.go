package astcheck_test

import (
	"fmt"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/astcheck"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// first300 cuts a message to the first 300 characters, as the reference
// verdict files do.
func first300(s string) string {
	if utf8.RuneCountInString(s) <= 300 {
		return s
	}
	return string([]rune(s)[:300])
}

var _ = Describe("agreement with upstream on real model outputs (gpt-oss-120b, FC, underscore_to_dot)", Ordered, func() {
	var cats []refCategory

	BeforeAll(func() {
		var err error
		cats, err = loadReference()
		if err != nil {
			skipLoudly("REFERENCE DATA ABSENT — the agreement test did NOT run: " + err.Error())
		}
	})

	It("reproduces every reference verdict, first message and category accuracy", func() {
		opts := decode.Options{Spec: decode.Spec{Mode: decode.ModeFC, UnderscoreToDot: true}}
		var table strings.Builder
		fmt.Fprintf(&table, "%-24s %7s %7s %7s %7s %9s %9s\n", "category", "entries", "valid", "flag=", "type=", "message=", "accuracy")
		var mismatches []string
		total := 0
		for _, c := range cats {
			valid, flagOK, typeOK, msgOK := 0, 0, 0, 0
			for _, tc := range c.cases {
				v, err := astcheck.ScoreEntry(category.Category(tc.category), tc.entry, tc.answer, tc.result, opts)
				Expect(err).NotTo(HaveOccurred(), "entry %s", tc.id)
				total++
				if v.Valid {
					valid++
				}
				wantType, wantMsg := "", ""
				if tc.want.ErrorType != nil {
					wantType = *tc.want.ErrorType
				}
				if tc.want.Error != nil {
					wantMsg = *tc.want.Error
				}
				gotMsg := ""
				if len(v.Errors) > 0 {
					gotMsg = first300(v.Errors[0])
				}
				if v.Valid == tc.want.Valid {
					flagOK++
				}
				if v.ErrorType == wantType {
					typeOK++
				}
				if gotMsg == wantMsg {
					msgOK++
				}
				if v.Valid != tc.want.Valid || v.ErrorType != wantType || gotMsg != wantMsg {
					mismatches = append(mismatches, fmt.Sprintf("%s: got (%v, %q, %q) want (%v, %q, %q)",
						tc.id, v.Valid, v.ErrorType, gotMsg, tc.want.Valid, wantType, wantMsg))
				}
			}
			acc := float64(valid) / float64(len(c.cases))
			fmt.Fprintf(&table, "%-24s %7d %7d %7d %7d %9d %9.4f\n", c.name, len(c.cases), valid, flagOK, typeOK, msgOK, acc)
			Expect(c.hasScores).To(BeTrue(), "official score of %s missing", c.name)
			Expect(valid).To(Equal(c.official.CorrectCount), "correct count of %s", c.name)
			Expect(len(c.cases)).To(Equal(c.official.TotalCount), "total of %s", c.name)
			Expect(acc).To(Equal(c.official.Accuracy), "accuracy of %s", c.name)
		}
		AddReportEntry("per-category agreement", table.String())
		GinkgoWriter.Print(table.String())
		Expect(total).To(Equal(3641))
		Expect(mismatches).To(BeEmpty())
	})

	It("gives the same verdicts from raw lines (skimmed docs) as from fully parsed values", func() {
		opts := decode.Options{Spec: decode.Spec{Mode: decode.ModeFC, UnderscoreToDot: true}}
		n := 0
		for _, c := range cats {
			for _, tc := range c.cases {
				if tc.answer == nil {
					continue
				}
				fromRaw, err := astcheck.ScoreEntry(category.Category(tc.category), tc.entry, tc.answer, tc.result, opts)
				Expect(err).NotTo(HaveOccurred())
				e, err := pyval.FromJSON(tc.entry)
				Expect(err).NotTo(HaveOccurred())
				funcs, _ := e.(*pyval.Dict).GetStr("function")
				a, err := pyval.FromJSON(tc.answer)
				Expect(err).NotTo(HaveOccurred())
				gt, _ := a.(*pyval.Dict).GetStr("ground_truth")
				line, err := pyval.FromJSON(tc.result)
				Expect(err).NotTo(HaveOccurred())
				res, _ := line.(*pyval.Dict).GetStr("result")
				fromValues, err := astcheck.ScoreValues(category.Category(tc.category), tc.id, tc.entry, funcs, gt, res, opts)
				Expect(err).NotTo(HaveOccurred())
				Expect(fromRaw.Valid).To(Equal(fromValues.Valid), tc.id)
				Expect(fromRaw.ErrorType).To(Equal(fromValues.ErrorType), tc.id)
				Expect(fromRaw.Errors).To(Equal(fromValues.Errors), tc.id)
				n++
			}
		}
		Expect(n).To(BeNumerically(">", 2000))
	})
})
