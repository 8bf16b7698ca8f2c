package mistral_test

// The expected requests follow upstream's MistralHandler
// (bfcl_eval/model_handler/api_inference/mistral.py at 6ea57973c7a6):
// _query_FC passes model, messages, tools and temperature to the mistralai
// SDK's chat.complete, whose request model adds its default "stream":
// false; _add_assistant_message_FC appends the response message itself;
// _add_execution_results_FC appends {"role":"tool","name","content",
// "tool_call_id"}; convert_to_tool (utils.py) replaces "." in names for the
// MISTRAL style whatever underscore_to_dot says. No recording of a real
// Mistral exchange exists in the reference data.

import (
	"context"
	"time"

	"github.com/bfcl-go/bfcl/internal/config/corrections"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func newDriver(base string, mutate ...func(*core.Config)) core.Driver {
	return drivertest.NewDriver(core.Config{Provider: core.ProviderMistral, Model: "mistral-large-2411", BaseURL: base, APIKey: "test-key"}, mutate...)
}

const callAnswer = `{"id":"cmpl-1","object":"chat.completion","model":"mistral-large-2411","choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"D681PevKs","type":"function","function":{"name":"math_factorial","arguments":"{\"number\": 5}"},"index":0}],"prefix":false},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":91,"completion_tokens":13,"total_tokens":104}}`

var _ = Describe("mistral driver", func() {
	drivertest.DescribeBodyLimit(core.ProviderMistral)
	It("sends simple_python_1 as MistralHandler does (dots replaced, stream false) and stores {name: arguments}", func(ctx SpecContext) {
		rec, _, got := drivertest.Infer(ctx, newDriver, drivertest.DottedEntry(), infer.Options{Spec: decode.Spec{Mode: "fc"}, Temperature: 0.001}, drivertest.JSON(200, callAnswer))
		Expect(got).To(HaveLen(1))
		Expect(got[0].Path).To(Equal("/v1/chat/completions"))
		Expect(got[0].Header.Get("Authorization")).To(Equal("Bearer test-key"))
		Expect(string(got[0].Body)).To(MatchJSON(`{"model":"mistral-large-2411","messages":[{"role":"user","content":"Calculate the factorial of 5 using math functions."}],
			"tools":[{"type":"function","function":{"name":"math_factorial","description":"Calculate the factorial of a given number. Note that the provided function is in Python 3 syntax.","parameters":{"type":"object","properties":{"number":{"type":"integer","description":"The number for which factorial needs to be calculated."}},"required":["number"]}}}],
			"temperature":0.001,"stream":false}`))
		Expect(string(rec.Result)).To(MatchJSON(`[{"math_factorial": "{\"number\": 5}"}]`))
		Expect(string(rec.InputTokenCount)).To(Equal("91"))
		Expect(string(rec.OutputTokenCount)).To(Equal("13"))
	})

	It("keeps the dots with the underscore-to-dot-names correction and underscore_to_dot off (gorilla PR #1346)", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(200, callAnswer)))
		defer srv.Close()
		d := newDriver(srv.URL, func(c *core.Config) { c.Corrections = corrections.Of(corrections.UnderscoreToDotNames) })
		_, _, err := infer.Run(ctx, d, drivertest.DottedEntry(), infer.Options{Spec: decode.Spec{Mode: "fc"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(srv.Received()[0].Body)).To(ContainSubstring(`"name":"math.factorial"`))
	})

	It("echoes the answer message and sends tool results with name and id in a multi-turn step", func(ctx SpecContext) {
		cdAnswer := `{"choices":[{"message":{"role":"assistant","content":"","tool_calls":[{"id":"a1b2c3d4e","type":"function","function":{"name":"cd","arguments":"{\"folder\": \"documents\"}"},"index":0}],"prefix":false}}],"usage":{"prompt_tokens":300,"completion_tokens":20}}`
		exec := &drivertest.CannedExecutor{Results: []string{`{"current_working_directory": "documents"}`}}
		rec, st, got := drivertest.Infer(ctx, newDriver, drivertest.FileSystemEntry(), drivertest.WithExecutor(infer.Options{Spec: decode.Spec{Mode: "fc"}}, exec),
			drivertest.JSON(200, cdAnswer),
			drivertest.JSON(200, `{"choices":[{"message":{"role":"assistant","content":"Done.","tool_calls":null,"prefix":false}}],"usage":{"prompt_tokens":340,"completion_tokens":3}}`),
			drivertest.JSON(200, `{"choices":[{"message":{"role":"assistant","content":"You're welcome.","tool_calls":null,"prefix":false}}],"usage":{"prompt_tokens":350,"completion_tokens":4}}`),
		)
		Expect(st.Calls).To(Equal(3))
		Expect(exec.Calls).To(Equal([][]string{{"cd(folder='documents')"}}))
		Expect(drivertest.MessagesOf(got[1].Body)).To(MatchJSON(`[{"role":"system","content":"You are a file assistant."},
			{"role":"user","content":"Go to the documents folder and list it."},
			{"role":"assistant","content":"","tool_calls":[{"id":"a1b2c3d4e","type":"function","function":{"name":"cd","arguments":"{\"folder\": \"documents\"}"},"index":0}],"prefix":false},
			{"role":"tool","content":"{\"current_working_directory\": \"documents\"}","name":"cd","tool_call_id":"a1b2c3d4e"}]`))
		Expect(string(rec.Result)).To(MatchJSON(`[[[{"cd": "{\"folder\": \"documents\"}"}], "Done."], ["You're welcome."]]`))
	})

	It("stores tool_calls: [] as an empty list (pinned) and as the text with the empty-tool-calls correction", func(ctx SpecContext) {
		answer := `{"choices":[{"message":{"role":"assistant","content":"The area is 25 square units.","tool_calls":[]}}],"usage":{"prompt_tokens":80,"completion_tokens":9}}`
		for _, c := range []struct {
			set  corrections.Set
			want string
		}{{corrections.Set{}, `[]`}, {corrections.Of(corrections.EmptyToolCalls), `"The area is 25 square units."`}} {
			srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(200, answer)))
			rec, _, err := infer.Run(ctx, newDriver(srv.URL), drivertest.SimplePython0(), infer.Options{Spec: decode.Spec{Mode: "fc"}, Corrections: c.set})
			srv.Close()
			Expect(err).NotTo(HaveOccurred())
			Expect(string(rec.Result)).To(MatchJSON(c.want), "corrections %q", c.set.String())
		}
	})

	It("names MISTRAL_API_KEY when it is unset: at the probe at once, and in a 401", func(ctx SpecContext) {
		GinkgoT().Setenv("MISTRAL_API_KEY", "")
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(401, `{"message":"Unauthorized","request_id":"x"}`)))
		defer srv.Close()
		d := newDriver(srv.URL, func(c *core.Config) { c.APIKey = "" })
		start := time.Now()
		err := driver.Probe(ctx, d, 0)
		Expect(err).To(MatchError(ContainSubstring("environment variable MISTRAL_API_KEY is not set")))
		Expect(time.Since(start)).To(BeNumerically("<", time.Second))
		Expect(srv.Received()).To(BeEmpty())
		_, err = d.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(ContainSubstring("HTTP 401")))
		Expect(err).To(MatchError(ContainSubstring("MISTRAL_API_KEY is not set")))
		Expect(core.IsRetryable(err)).To(BeFalse())
		Expect(srv.Received()).To(HaveLen(1))
		Expect(srv.Received()[0].Header.Get("Authorization")).To(BeEmpty())
	})

	It("retries 429 and 500 as the project's retry loop does", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(
			drivertest.JSON(429, `{"message":"Requests rate limit exceeded"}`),
			drivertest.JSON(500, `{"message":"Internal server error"}`),
			drivertest.JSON(200, callAnswer)))
		defer srv.Close()
		resp, err := newDriver(srv.URL).Complete(context.Background(), core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(srv.Received()).To(HaveLen(3))
		Expect(resp.ToolCalls).To(Equal([]core.ToolCall{{ID: "D681PevKs", Name: "math_factorial", Arguments: `{"number": 5}`}}))
		srv2 := drivertest.Serve(drivertest.Answers(drivertest.JSON(500, `{}`), drivertest.JSON(500, `{}`)))
		defer srv2.Close()
		_, err = newDriver(srv2.URL, func(c *core.Config) { c.MaxRetries = 1 }).Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(ContainSubstring("mistral: HTTP 500")))
		Expect(err).To(MatchError(ContainSubstring("after 2 attempts")))
	})

	It("sends no tools in prompt mode", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(200, `{"choices":[{"message":{"role":"assistant","content":"[calculate_triangle_area(base=10, height=5)]"}}],"usage":{"prompt_tokens":500,"completion_tokens":12}}`)))
		defer srv.Close()
		d := newDriver(srv.URL, func(c *core.Config) { c.Mode = core.ModePrompt; c.Model = "mistral-large-2411" })
		rec, _, err := infer.Run(ctx, d, drivertest.SimplePython0(), infer.Options{Spec: decode.Spec{Mode: "prompt"}, Temperature: 0.001})
		Expect(err).NotTo(HaveOccurred())
		body := srv.Received()[0].Body
		Expect(string(body)).NotTo(ContainSubstring(`"tools"`))
		Expect(string(body)).To(ContainSubstring(`"role":"system"`))
		Expect(string(rec.Result)).To(Equal(`"[calculate_triangle_area(base=10, height=5)]"`))
	})
})
