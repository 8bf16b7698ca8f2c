package multiturn_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// refVerdict is one line of ../shared/reference/multi_turn_verdicts.
type refVerdict struct {
	ID           string          `json:"id"`
	Valid        bool            `json:"valid"`
	ErrorType    *string         `json:"error_type"`
	ErrorMessage *string         `json:"error_message"`
	Detail       json.RawMessage `json:"detail"`
	Decoded      [][][]string    `json:"decoded"`
}

const (
	refRun   = "2025-11-12-harmony-fixes-2"
	refModel = "openai_gpt-oss-120b"
)

func clip400(s string) string {
	r := []rune(s)
	if len(r) > 400 {
		return string(r[:400])
	}
	return s
}

// compare returns what differs between our verdict and upstream's.
func compare(r multiturn.Result, want refVerdict) []string {
	var d []string
	v := r.Verdict
	if v.Valid != want.Valid {
		d = append(d, fmt.Sprintf("valid %v, upstream %v", v.Valid, want.Valid))
	}
	if want.ErrorType != nil && v.ErrorType != *want.ErrorType {
		d = append(d, fmt.Sprintf("error_type %q, upstream %q", v.ErrorType, *want.ErrorType))
	}
	if want.ErrorMessage != nil && strings.Join(v.Errors, " ") != *want.ErrorMessage {
		d = append(d, fmt.Sprintf("error_message %q, upstream %q", strings.Join(v.Errors, " "), *want.ErrorMessage))
	}
	if want.Decoded != nil && !reflect.DeepEqual(normDecoded(r.Decoded), normDecoded(want.Decoded)) {
		d = append(d, fmt.Sprintf("decoded calls differ:\n  ours     %v\n  upstream %v", r.Decoded, want.Decoded))
	}
	var detail struct {
		Differing    []string `json:"differing_attributes"`
		MissingCount *int     `json:"missing_count"`
		MissingItems []string `json:"missing_items"`
	}
	_ = json.Unmarshal(want.Detail, &detail)
	if detail.Differing != nil && !reflect.DeepEqual(multiturn.DifferingAttributes(v), detail.Differing) {
		d = append(d, fmt.Sprintf("differing attributes %v, upstream %v", multiturn.DifferingAttributes(v), detail.Differing))
	}
	if detail.MissingCount != nil {
		got := multiturn.MissingItems(v)
		clipped := make([]string, len(got))
		for i, s := range got {
			clipped[i] = clip400(s)
		}
		if len(got) != *detail.MissingCount || !reflect.DeepEqual(clipped, detail.MissingItems) {
			d = append(d, fmt.Sprintf("missing items:\n  ours     %q\n  upstream %q", clipped, detail.MissingItems))
		}
	}
	return d
}

func normDecoded(x [][][]string) [][][]string {
	out := make([][][]string, len(x))
	for i, t := range x {
		out[i] = [][]string{}
		out[i] = append(out[i], t...)
	}
	return out
}

var _ = Describe("verdicts on real model outputs", Label("reference"), func() {
	for _, cat := range []string{"multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param"} {
		cat := cat
		It("reproduces upstream's verdict on every "+cat+" entry of gpt-oss-120b", func() {
			ref := testenv.NeedReferenceDir(GinkgoT(), "reference verdicts")
			src := testenv.OpenDataSet(GinkgoT())
			lc, err := src.LongContext()
			Expect(err).NotTo(HaveOccurred())
			entries, err := src.Load(category.Category(cat))
			Expect(err).NotTo(HaveOccurred())
			recs, err := results.Read(filepath.Join(ref, "results", "results", refRun, "result", refModel, "multi_turn", "BFCL_v4_"+cat+"_result.json"))
			Expect(err).NotTo(HaveOccurred())
			want, err := testenv.ReadJSONL[refVerdict](filepath.Join(ref, "multi_turn_verdicts", refRun, refModel, "BFCL_v4_"+cat+"_verdicts.jsonl"))
			Expect(err).NotTo(HaveOccurred())
			Expect(want).To(HaveLen(200))
			byID := map[string]results.Record{}
			for _, r := range recs {
				byID[r.ID] = r
			}
			agree, valid := 0, 0
			var problems []string
			for i, e := range entries {
				rec, ok := byID[e.ID]
				Expect(ok).To(BeTrue(), e.ID)
				Expect(want[i].ID).To(Equal(e.ID))
				r, err := multiturn.Check(e, rec, multiturn.Options{Spec: decode.Spec{Mode: "fc", UnderscoreToDot: true}, ModelName: refModel, LongContext: lc})
				Expect(err).NotTo(HaveOccurred(), e.ID)
				if r.Verdict.Valid {
					valid++
				}
				// The turns the checker records are those a score file's
				// line gives back.
				o := r.Verdict.Turns
				Expect(o).NotTo(BeNil(), e.ID)
				if r.Verdict.Valid {
					Expect(o.Passed).To(Equal(o.Turns), e.ID)
				} else {
					line, err := report.FailedEntryLine(refModel, e.Category, r.Verdict)
					Expect(err).NotTo(HaveOccurred(), e.ID)
					derived, typ, err := verdict.ScoreLineTurns(line)
					Expect(err).NotTo(HaveOccurred(), e.ID)
					Expect(derived).To(Equal(*o), e.ID)
					Expect(typ).To(Equal(r.Verdict.ErrorType), e.ID)
				}
				if d := compare(r, want[i]); len(d) == 0 {
					agree++
				} else if len(problems) < 10 {
					problems = append(problems, e.ID+": "+strings.Join(d, "; "))
				}
			}
			fmt.Fprintf(GinkgoWriter, "%s: %d/200 verdicts agree; accuracy %.3f\n", cat, agree, float64(valid)/200)
			AddReportEntry(cat+" agreement", fmt.Sprintf("%d/200", agree))
			Expect(problems).To(BeEmpty(), fmt.Sprintf("%s: %d/200 agree", cat, agree))
		})
	}
})
