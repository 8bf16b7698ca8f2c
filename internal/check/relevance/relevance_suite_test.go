package relevance_test

import (
	"encoding/json"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/relevance"
	"github.com/bfcl-go/bfcl/internal/models/decode"
)

func TestRelevance(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "relevance suite")
}

var fc = decode.Options{Spec: decode.Spec{Mode: decode.ModeFC}}
var prompt = decode.Options{Spec: decode.Spec{Mode: decode.ModePrompt}}

func check(cat category.Category, raw string, opts decode.Options) (bool, string, []string) {
	v, err := relevance.CheckRaw("x", cat, json.RawMessage(raw), opts)
	Expect(err).NotTo(HaveOccurred())
	return v.Valid, v.ErrorType, v.Errors
}

var _ = Describe("relevance runner", func() {
	DescribeTable("irrelevance passes iff the output decodes to no call",
		func(raw string, opts decode.Options, pass bool) {
			valid, typ, errs := check("irrelevance", raw, opts)
			Expect(valid).To(Equal(pass))
			if !pass {
				Expect(typ).To(Equal("irrelevance_error:decoder_success"))
				Expect(errs).To(Equal([]string{"Valid syntax. Successfully decode AST when it should not."}))
			}
		},
		Entry("text answer (FC decode error)", `"I can't help with that."`, fc, true),
		Entry("empty list", `[]`, fc, true),
		Entry("[{}] is not a call", `[{}]`, fc, true),
		Entry("bad JSON arguments", `[{"f": "{bad"}]`, fc, true),
		Entry("non-string arguments", `[{"f": {"a": 1}}]`, fc, true),
		Entry("arguments not an object", `[{"f": "[1]"}]`, fc, true),
		Entry("a call, even without arguments", `[{"f": "{}"}]`, fc, false),
		Entry("a call with arguments", `[{"f": "{\"a\": 1}"}]`, fc, false),
		Entry("prompt: prose", `"Sorry, no."`, prompt, true),
		Entry("prompt: a call", `"[f(a=1)]"`, prompt, false),
	)

	It("live_relevance passes with any call and reports the decode error otherwise", func() {
		valid, _, _ := check("live_relevance", `[{"f": "{\"anything\": 1}"}]`, fc)
		Expect(valid).To(BeTrue())

		valid, typ, errs := check("live_relevance", `[]`, fc)
		Expect(valid).To(BeFalse())
		Expect(typ).To(Equal("relevance_error:decoder_failed"))
		Expect(errs).To(Equal([]string{"Invalid syntax. Failed to decode AST when it should have. None"}))

		_, _, errs = check("live_relevance", `"no call"`, fc)
		Expect(errs).To(Equal([]string{"Invalid syntax. Failed to decode AST when it should have. 'str' object has no attribute 'keys'"}))

		_, _, errs = check("live_relevance", `[{"f": "{\"a\": 1"}]`, fc)
		Expect(errs).To(Equal([]string{"Invalid syntax. Failed to decode AST when it should have. Expecting ',' delimiter: line 1 column 8 (char 7)"}))
	})

	It("puts the raw and decoded outputs in the detail of a failed entry", func() {
		v, err := relevance.CheckRaw("live_irrelevance_1", "live_irrelevance", json.RawMessage(`[{"f": "{\"a\": 1}"}]`), fc)
		Expect(err).NotTo(HaveOccurred())
		Expect(v.Detail).To(HaveLen(2))
		Expect(v.Detail[0].Key).To(Equal("model_result"))
		Expect(v.Detail[1].Key).To(Equal("decoded_result"))
		b, err := json.Marshal(v.Detail[1].Value)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(`[{"f":{"a":1}}]`))
	})
})
