package report

import (
	"bytes"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("usage members", func() {
	It("reads lists of per-turn number lists as the decoder does", func() {
		for _, raw := range []string{
			`[[1.5, 0, 2], [], [3e-2, 0.0, 7]]`, ` [ [ 1 ] , [ 2 , 3 ] ] `, `[]`, `[[]]`,
			`[[1], 2]`, `[[true, 1]]`, `[[1e400]]`, `[["1"]]`, `[[null, 4]]`, `[[[1]]]`, `3`, `0`, `true`,
			`[[1,]]`, `[[1] [2]]`, `[[1]`, `[[1 2]]`, `[[-0.5e-3, 12]]`, `[[01]]`, `[ ]`, `[[ ]]`, `[[1], [ ]]`,
		} {
			dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
			dec.UseNumber()
			var v any
			var u Usage
			if err := dec.Decode(&v); err != nil {
				Expect(u.addUsage([]byte(raw), nil, nil)).NotTo(Succeed(), raw)
				continue
			}
			want := appendUsage(nil, v)
			Expect(u.addUsage([]byte(raw), nil, nil)).To(Succeed(), raw)
			Expect(u.Latencies).To(Equal(want), raw)
		}
		xs, ok := plainNumberLists([]byte(`[[1.5, 0], [2]]`))
		Expect(ok).To(BeTrue())
		Expect(xs).To(Equal([]float64{1.5, 0, 2}))
		_, ok = plainNumberLists([]byte(`[[1], 2]`))
		Expect(ok).To(BeFalse())
	})
})
