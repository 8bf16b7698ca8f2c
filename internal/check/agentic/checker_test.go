package agentic_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/agentic"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

func entry(cat string, answers ...string) *dataset.Entry {
	a, _ := json.Marshal(answers)
	id := cat + "_0"
	raw := `{"id": "web_search_0", "question": [[{"role": "user", "content": "Q?"}]], "involved_classes": ["WebSearchAPI"]}`
	e := &dataset.Entry{ID: id, Category: category.Category(cat), File: "test.json", Line: 1, Answer: a, Raw: json.RawMessage(raw),
		Question: [][]dataset.Message{{{Role: "user", Content: "Q?"}}}, InvolvedClasses: []string{"WebSearchAPI"}}
	if cat == "memory_kv" {
		e.ID = "memory_kv_0-customer-0"
		e.Raw = json.RawMessage(`{"id": "memory_0-customer-0", "question": [[{"role": "user", "content": "Q?"}]], "involved_classes": ["MemoryAPI"], "scenario": "customer"}`)
		e.InvolvedClasses = []string{"MemoryAPI_kv"}
		e.Scenario = "customer"
		e.DependsOn = []string{"memory_kv_prereq_0-customer-0"}
	}
	return e
}

func rec(id, result string) results.Record {
	return results.Record{ID: id, Result: json.RawMessage(result)}
}

func detail(v verdict.Verdict, key string) (any, bool) {
	for _, f := range v.Detail {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

func keys(v verdict.Verdict) []string {
	var out []string
	for _, f := range v.Detail {
		out = append(out, f.Key)
	}
	return out
}

var _ = Describe("StandardizeString", func() {
	DescribeTable("deletes , . / - _ * ^ ( ), lower-cases, turns ' into \" and keeps spaces",
		func(in, want string) { Expect(agentic.StandardizeString(in)).To(Equal(want)) },
		Entry("date", "April 1, 2024", "april 1 2024"),
		Entry("parens and dash", "(Dong-Sup) Yoon", "dongsup yoon"),
		Entry("quote", "It's", `it"s`),
		Entry("spaces kept (unlike the AST checker)", "New  York", "new  york"),
		Entry("kept punctuation", "a!?:;#", "a!?:;#"),
		Entry("all stripped", "1.5*2^3/4_5-6,7", "15234567"),
		Entry("dotted capital I (Python full lowercase)", "İstanbul", "i\u0307stanbul"),
		Entry("final sigma", "ΟΔΟΣ ΣΑ", "οδος σα"),
		Entry("non-final sigma", "ΣΑΣ", "σας"),
	)
})

var _ = Describe("ContainsWord (re.search(\\b…\\b) with Python's Unicode \\w)", func() {
	DescribeTable("cases",
		func(hay, needle string, want bool) { Expect(agentic.ContainsWord(hay, needle)).To(Equal(want)) },
		Entry("whole word", "i am 35 years old", "35", true),
		Entry("part of a number", "i am 350 years old", "35", false),
		Entry("at the ends", "35", "35", true),
		Entry("second occurrence is the good one", "350 and 35", "35", true),
		Entry("overlapping occurrences", "aaa aa", "aa", true),
		Entry("multi-word", "the answer: new york city", "new york", true),
		Entry("Unicode letters are word characters", "café", "caf", false),
		Entry("accented whole word", "le café noir", "café", true),
		Entry("digit in other script is a word char", "x٣", "x", false),
		Entry("needle starting with non-word needs a word char before it", `say "hi"`, `"hi"`, false),
		Entry("needle starting with non-word after a word char", `say"hi"`, `"hi"`, false),
		Entry("needle ending with non-word followed by non-word", `a"hi" `, `"hi"`, false),
		Entry("empty needle on text with a word char", "abc", "", true),
		Entry("empty needle on empty text", "", "", false),
		Entry("empty needle on spaces", "   ", "", false),
		Entry("combining mark is not a word char", "e\u0301x", "e", true),
	)
})

var _ = Describe("Check", func() {
	It("passes when a possible answer is found in the last text step", func() {
		e := entry("web_search_base", "Zhang Yiming")
		r, err := agentic.Check(e, rec(e.ID, `[["The answer is ZHANG YIMING (Forbes)."]]`), agentic.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Verdict.Valid).To(BeTrue())
		Expect(r.Match.Matched).To(Equal(0))
	})

	It("fails with answer_not_found and upstream's detail fields, in order", func() {
		e := entry("memory_kv", "35", "thirty five")
		r, err := agentic.Check(e, rec(e.ID, `[["I am 350."]]`), agentic.Options{Spec: decode.Spec{Mode: "fc"}})
		Expect(err).NotTo(HaveOccurred())
		v := r.Verdict
		Expect(v.Valid).To(BeFalse())
		Expect(v.ErrorType).To(Equal("agentic:answer_not_found"))
		Expect(v.Errors).To(Equal([]string{"None of the expected answers were found in the model response."}))
		Expect(keys(v)).To(Equal([]string{"details", "prompt", "model_result_raw", "last_non_fc_message", "possible_answer", "inference_log"}))
		d, _ := detail(v, "details")
		Expect(d).To(Equal(verdict.Fields{
			{Key: "model_response", Value: "I am 350."},
			{Key: "possible_answers", Value: []string{"35", "thirty five"}},
			{Key: "standardized_model_response", Value: "i am 350"},
			{Key: "standardized_possible_answers", Value: []string{"35", "thirty five"}},
		}))
		p, _ := detail(v, "prompt")
		Expect(p).To(HaveLen(1))
		first := p.([]any)[0].([]any)[0].(verdict.Fields)
		Expect(first[0].Value).To(Equal("system"))
		Expect(first[1].Value).To(Equal(dataset.AgenticResponseFormatPrompt))
	})

	It("takes the last step that is not a function call, even before later calls", func() {
		e := entry("web_search_base", "Paris")
		res := `[["Paris, I think", [{"search_engine_query": "{\"keywords\": \"x\"}"}], "London", [{"fetch_url_content": "{\"url\": \"u\"}"}]]]`
		r, err := agentic.Check(e, rec(e.ID, res), agentic.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.LastMessage).To(Equal(pyval.Str("London")))
		Expect(r.LastStep).To(Equal(2))
		Expect(r.Decoded).To(Equal([][]string{{"search_engine_query(keywords='x')"}, {"fetch_url_content(url='u')"}}))
		Expect(r.Verdict.Valid).To(BeFalse())
	})

	It("fails with no_last_message when every step is a call", func() {
		e := entry("web_search_base", "Paris")
		r, err := agentic.Check(e, rec(e.ID, `[[[{"search_engine_query": "{\"keywords\": \"x\"}"}]]]`), agentic.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Verdict.ErrorType).To(Equal("agentic:no_last_message"))
		Expect(r.Verdict.Errors).To(Equal([]string{"Cannot find the last chat message that is not a function call."}))
		Expect(keys(r.Verdict)).To(Equal([]string{"prompt", "model_result", "model_result_decoded", "possible_answer", "inference_log"}))
	})

	It("treats a falsy last message (\"\") as missing, as Python's `not` does", func() {
		e := entry("web_search_base", "Paris")
		r, err := agentic.Check(e, rec(e.ID, `[["Paris", ""]]`), agentic.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Verdict.ErrorType).To(Equal("agentic:no_last_message"))
	})

	It("fails with inference_error unless the result is a list of exactly one turn", func() {
		e := entry("memory_kv", "Paris")
		for _, res := range []string{`"Error during inference: boom"`, `[["Paris"], ["Paris"]]`, `[]`} {
			r, err := agentic.Check(e, rec(e.ID, res), agentic.Options{})
			Expect(err).NotTo(HaveOccurred())
			Expect(r.Verdict.ErrorType).To(Equal("agentic:inference_error"), res)
			Expect(r.Verdict.Errors).To(Equal([]string{"Error during inference phase. Model did not output a list of model responses."}))
			Expect(keys(r.Verdict)).To(Equal([]string{"prompt", "model_result", "possible_answer", "inference_log"}))
			p, _ := detail(r.Verdict, "prompt")
			var ks []string
			for _, f := range p.(verdict.Fields) {
				ks = append(ks, f.Key)
			}
			Expect(ks).To(Equal([]string{"id", "question", "involved_classes", "scenario", "depends_on"}))
			Expect(p.(verdict.Fields)[0].Value).To(Equal("memory_kv_0-customer-0"))
		}
	})

	It("uses str() of a non-text final step and the first item of a list", func() {
		e := entry("web_search_base", "Paris")
		// a dict whose value is not JSON fails to decode, so it is the final answer
		r, err := agentic.Check(e, rec(e.ID, `[[{"answer": "Paris"}]]`), agentic.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Match.ModelResponse).To(Equal("{'answer': 'Paris'}"))
		Expect(r.Verdict.Valid).To(BeTrue())
		r, err = agentic.Check(e, rec(e.ID, `[[["Paris is the answer", "x"]]]`), agentic.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Match.ModelResponse).To(Equal("Paris is the answer"))
		Expect(r.Verdict.Valid).To(BeTrue())
	})
})

var _ = It("does not match answers whose spacing differs (spaces are kept)", func() {
	e := entry("web_search_base", "Zhang Yiming")
	r, err := agentic.Check(e, rec(e.ID, `[["ZHANG-YIMING"]]`), agentic.Options{})
	Expect(err).NotTo(HaveOccurred())
	Expect(r.Verdict.Valid).To(BeFalse())
})

var _ = It("iterates a text turn character by character, as Python iterates a str", func() {
	e := entry("web_search_base", "s")
	r, err := agentic.Check(e, rec(e.ID, `["Paris"]`), agentic.Options{})
	Expect(err).NotTo(HaveOccurred())
	Expect(r.LastMessage).To(Equal(pyval.Str("s")))
	Expect(r.LastStep).To(Equal(4))
	Expect(r.Verdict.Valid).To(BeTrue())
})
