package score_test

import (
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

var _ = Describe("kept verdicts", func() {
	rec := results.Record{ID: "simple_python_0", Raw: []byte(`{"id": "simple_python_0", "result": "x"}` + "\n")}
	opts := score.Options{ModelName: "m", Spec: decode.Spec{Mode: "fc"}}
	v := verdict.Verdict{ID: "simple_python_0", Category: "simple_python", ErrorType: "e"}

	It("are reused for the same folder, options and record line only", func() {
		k := &score.Kept{}
		k.Add(rec, opts, v)
		got, ok := k.Get(results.Record{ID: rec.ID, Raw: []byte(`{"id": "simple_python_0", "result": "x"}`)}, opts)
		Expect(ok).To(BeTrue(), "the same line without its newline")
		Expect(got).To(Equal(v))
		_, ok = k.Get(results.Record{ID: rec.ID, Raw: []byte(`{"id": "simple_python_0", "result": "y"}`)}, opts)
		Expect(ok).To(BeFalse(), "another record")
		_, ok = k.Get(rec, score.Options{ModelName: "m", Spec: decode.Spec{Mode: "prompt"}})
		Expect(ok).To(BeFalse(), "other options")
		_, ok = k.Get(rec, score.Options{ModelName: "other", Spec: decode.Spec{Mode: "fc"}})
		Expect(ok).To(BeFalse(), "another folder")
		_, ok = k.Get(results.Record{ID: rec.ID}, opts)
		Expect(ok).To(BeFalse(), "a record without its line")
	})

	It("keep nothing for a record without its line, and a nil set keeps nothing", func() {
		k := &score.Kept{}
		k.Add(results.Record{ID: "x"}, opts, v)
		Expect(k.Len()).To(BeZero())
		var none *score.Kept
		none.Add(rec, opts, v)
		_, ok := none.Get(rec, opts)
		Expect(ok).To(BeFalse())
	})

	It("are safe for concurrent use", func() {
		k := &score.Kept{}
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k.Add(rec, opts, v)
				k.Get(rec, opts)
			}()
		}
		wg.Wait()
		Expect(k.Len()).To(Equal(1))
	})
})
