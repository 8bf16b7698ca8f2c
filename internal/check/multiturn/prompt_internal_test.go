package multiturn

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// promptViaPython is promptOf through the Python value model: the line
// parsed, "function" deleted, "id" set.
func promptViaPython(raw []byte, id string) any {
	v, err := pyval.FromJSON(raw)
	Expect(err).NotTo(HaveOccurred())
	d := v.(*pyval.Dict)
	d.Delete(pyval.Str("function"))
	d.SetStr("id", pyval.Str(id))
	return verdict.Python(d)
}

// scoreLine is the score-file line of a failed verdict holding prompt.
func scoreLine(id string, prompt any) string {
	line, err := report.FailedEntryLine("m", category.MultiTurnBase, verdict.Verdict{ID: id, Category: category.MultiTurnBase,
		ErrorType: ErrEmptyTurn, Detail: verdict.Fields{field("prompt", prompt)}})
	Expect(err).NotTo(HaveOccurred())
	return string(line)
}

var _ = Describe("the prompt a score file records", func() {
	It("cut from the raw line is what the Python value model writes, for every multi-turn entry", func() {
		src := testenv.OpenDataSet(GinkgoT())
		n := 0
		for _, c := range category.MultiTurn() {
			entries, err := src.Load(c)
			Expect(err).NotTo(HaveOccurred())
			for _, e := range entries {
				p, ok := promptRaw(e)
				Expect(ok).To(BeTrue(), e.ID)
				Expect(scoreLine(e.ID, p)).To(Equal(scoreLine(e.ID, promptViaPython(e.Raw, e.ID))), e.ID)
				n++
			}
		}
		Expect(n).To(BeNumerically(">=", 800))
	})
	It("writes lines of other shapes as the Python value model does", func() {
		for _, line := range []string{
			`{"question":[[{"role":"user","content":"a \u00e9 \"b\""}]],"function":[{"name":"f"}],"id":"x","n":[-0,1e2,2.50]}`,
			`{"id":"multi_turn_base_0"}`,
			`{"question":[],"function":[]}`,
			`{"function":[], "id" : "y", "z": {"function": 1}}`,
		} {
			e := &dataset.Entry{ID: "multi_turn_base_9", Raw: json.RawMessage(line)}
			Expect(scoreLine(e.ID, promptOf(e))).To(Equal(scoreLine(e.ID, promptViaPython(e.Raw, e.ID))), line)
		}
	})
	It("goes through the Python value model when a key is escaped or repeated", func() {
		for _, line := range []string{`{"id":"a","id":"b"}`, `{"i\u0064":"a","function":[]}`} {
			e := &dataset.Entry{ID: "multi_turn_base_9", Raw: json.RawMessage(line)}
			_, ok := promptRaw(e)
			Expect(ok).To(BeFalse(), line)
			Expect(scoreLine(e.ID, promptOf(e))).To(Equal(scoreLine(e.ID, promptViaPython(e.Raw, e.ID))), line)
		}
	})
})
