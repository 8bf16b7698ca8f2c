package multiturn_test

import (
	"encoding/json"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// promptRecord answers each turn with its ground truth as one prompt-mode
// step ("[f(a=1), g(b=2)]"), plus extra calls in the given turns.
func promptRecord(e *dataset.Entry, extra map[int]string) results.Record {
	var gt [][]string
	Expect(json.Unmarshal(e.Answer, &gt)).To(Succeed())
	turns := make([][]string, len(gt))
	for t, calls := range gt {
		all := append([]string(nil), calls...)
		if x, ok := extra[t]; ok {
			all = append(all, x)
		}
		if len(all) > 0 {
			turns[t] = []string{"[" + strings.Join(all, ", ") + "]"}
		} else {
			turns[t] = []string{"I cannot do that."}
		}
	}
	b, err := json.Marshal(turns)
	Expect(err).NotTo(HaveOccurred())
	return results.Record{ID: e.ID, Result: b}
}

var _ = Describe("the optional irrelevance rule", func() {
	It("is off by default, as in upstream's score, and fails a call made in a turn without ground truth when asked", func() {
		src := testenv.OpenDataSet(GinkgoT())
		lc, err := src.LongContext()
		Expect(err).NotTo(HaveOccurred())
		entries, err := src.Load("multi_turn_miss_func")
		Expect(err).NotTo(HaveOccurred())
		var e *dataset.Entry
		empty := -1
		// Prompt-mode decoding drops positional arguments (as upstream's
		// does), so pick an entry whose ground truth uses keywords only.
		keywordsOnly := regexp.MustCompile(`^\w+\((\)|\w+=)`)
		for _, cand := range entries {
			var gt [][]string
			Expect(json.Unmarshal(cand.Answer, &gt)).To(Succeed())
			usable := true
			for _, calls := range gt {
				for _, c := range calls {
					usable = usable && keywordsOnly.MatchString(c)
				}
			}
			if !usable {
				continue
			}
			for t, calls := range gt {
				if len(calls) == 0 && strings.Contains(strings.Join(cand.InvolvedClasses, ","), "GorillaFileSystem") {
					e, empty = cand, t
					break
				}
			}
			if e != nil {
				break
			}
		}
		Expect(e).NotTo(BeNil())
		opts := multiturn.Options{Spec: decode.Spec{Mode: "prompt"}, ModelName: "m", LongContext: lc}
		r, err := multiturn.Check(e, promptRecord(e, nil), opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Verdict.Valid).To(BeTrue(), "the ground truth itself passes: %s %v %s", e.ID, r.Verdict.Errors, r.Decoded)

		rec := promptRecord(e, map[int]string{empty: "pwd()"})
		r, err = multiturn.Check(e, rec, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Verdict.Valid).To(BeTrue(), "upstream never calls its irrelevance checker")

		opts.CheckIrrelevance = true
		r, err = multiturn.Check(e, rec, opts)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Verdict.Valid).To(BeFalse())
		Expect(r.Verdict.ErrorType).To(Equal(multiturn.ErrIrrelevance))
	})
})

// promptRecordPlain is promptRecord without Gomega (for benchmarks).
func promptRecordPlain(e *dataset.Entry) results.Record {
	var gt [][]string
	if err := json.Unmarshal(e.Answer, &gt); err != nil {
		panic(err)
	}
	turns := make([][]string, len(gt))
	for t, calls := range gt {
		if len(calls) > 0 {
			turns[t] = []string{"[" + strings.Join(calls, ", ") + "]"}
		} else {
			turns[t] = []string{"I cannot do that."}
		}
	}
	b, _ := json.Marshal(turns)
	return results.Record{ID: e.ID, Result: b}
}
