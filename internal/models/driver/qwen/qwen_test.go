package qwen_test

// The expected requests follow upstream's QwenAPIHandler
// (bfcl_eval/model_handler/api_inference/qwen.py at 6ea57973c7a6):
// _query_FC calls the openai SDK's chat.completions.create with messages,
// model (without "-FC"), tools, parallel_tool_calls=True,
// extra_body={"enable_thinking": True}, stream=True and
// stream_options={"include_usage": True} (no temperature);
// _query_prompting the same without tools and parallel_tool_calls and with
// the model name as is. _parse_query_response_FC folds the deltas and
// keeps reasoning_content in the history message; tool results are
// OpenAICompletionsHandler's {"role":"tool","content","tool_call_id"}.
// The streams below are in DashScope's compatible-mode chunk format; no
// recording of a real DashScope exchange exists in the reference data.

import (
	"context"
	"encoding/json"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func newDriver(base string, mutate ...func(*core.Config)) core.Driver {
	return drivertest.NewDriver(core.Config{Provider: core.ProviderQwen, Model: "qwen3-8b-FC", BaseURL: base, APIKey: "test-key"}, mutate...)
}

// a streamed call of calculate_triangle_area, arguments in three pieces,
// after some reasoning; usage in the last chunk (its choices empty)
var callStream = drivertest.SSE(
	`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":"The user wants "}}],"object":"chat.completion.chunk","usage":null}`,
	`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":null,"reasoning_content":"a triangle area."}}],"object":"chat.completion.chunk","usage":null}`,
	`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"index":0,"id":"call_0a1b","type":"function","function":{"name":"calculate_triangle_area","arguments":"{\"base\": "}}]}}],"object":"chat.completion.chunk","usage":null}`,
	`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"index":0,"id":"","type":"function","function":{"arguments":"10, \"height\""}}]}}],"object":"chat.completion.chunk","usage":null}`,
	`{"id":"chatcmpl-1","choices":[{"index":0,"delta":{"content":null,"tool_calls":[{"index":0,"id":"","type":"function","function":{"arguments":": 5}"}}]},"finish_reason":"tool_calls"}],"object":"chat.completion.chunk","usage":null}`,
	`{"id":"chatcmpl-1","choices":[],"object":"chat.completion.chunk","usage":{"prompt_tokens":240,"completion_tokens":41,"total_tokens":281}}`,
)

var _ = Describe("qwen driver", func() {
	drivertest.DescribeBodyLimit(core.ProviderQwen)
	It("sends simple_python_0 as QwenAPIHandler does and folds the stream into the stored calls and reasoning", func(ctx SpecContext) {
		rec, _, got := drivertest.Infer(ctx, newDriver, drivertest.SimplePython0(), infer.Options{Spec: decode.Spec{Mode: "fc"}, Temperature: 0.001}, callStream)
		Expect(got).To(HaveLen(1))
		Expect(got[0].Path).To(Equal("/chat/completions"))
		Expect(got[0].Header.Get("Authorization")).To(Equal("Bearer test-key"))
		Expect(string(got[0].Body)).To(MatchJSON(`{"messages":[{"role":"user","content":"Find the area of a triangle with a base of 10 units and height of 5 units."}],
			"model":"qwen3-8b",
			"tools":[{"type":"function","function":{"name":"calculate_triangle_area","description":"Calculate the area of a triangle given its base and height. Note that the provided function is in Python 3 syntax.","parameters":{"type":"object","properties":{"base":{"type":"integer","description":"The base of the triangle."},"height":{"type":"integer","description":"The height of the triangle."},"unit":{"type":"string","description":"The unit of measure (defaults to 'units' if not specified)"}},"required":["base","height"]}}}],
			"parallel_tool_calls":true,"enable_thinking":true,"stream":true,"stream_options":{"include_usage":true}}`))
		Expect(string(rec.Result)).To(MatchJSON(`[{"calculate_triangle_area": "{\"base\": 10, \"height\": 5}"}]`))
		Expect(string(rec.ReasoningContent)).To(Equal(`"The user wants a triangle area."`))
		Expect(string(rec.InputTokenCount)).To(Equal("240"))
		Expect(string(rec.OutputTokenCount)).To(Equal("41"))
	})

	It("sends the reasoning back with the calls, and tool results by id, in a multi-turn step", func(ctx SpecContext) {
		cd := drivertest.SSE(
			`{"choices":[{"index":0,"delta":{"reasoning_content":"Change directory first."}}]}`,
			`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_cd","type":"function","function":{"name":"cd","arguments":"{\"folder\": \"documents\"}"}}]}}]}`,
			`{"choices":[],"usage":{"prompt_tokens":300,"completion_tokens":20}}`)
		done := drivertest.SSE(`{"choices":[{"index":0,"delta":{"content":"Done"}}]}`, `{"choices":[{"index":0,"delta":{"content":"."}}],"usage":{"prompt_tokens":330,"completion_tokens":2}}`)
		thanks := drivertest.SSE(`{"choices":[{"index":0,"delta":{"content":"You're welcome."}}],"usage":{"prompt_tokens":340,"completion_tokens":4}}`)
		exec := &drivertest.CannedExecutor{Results: []string{`{"current_working_directory": "documents"}`}}
		rec, _, got := drivertest.Infer(ctx, newDriver, drivertest.FileSystemEntry(), drivertest.WithExecutor(infer.Options{Spec: decode.Spec{Mode: "fc"}}, exec), cd, done, thanks)
		Expect(got).To(HaveLen(3))
		Expect(drivertest.MessagesOf(got[1].Body)).To(MatchJSON(`[{"role":"system","content":"You are a file assistant."},
			{"role":"user","content":"Go to the documents folder and list it."},
			{"role":"assistant","content":null,"tool_calls":[{"id":"call_cd","type":"function","function":{"name":"cd","arguments":"{\"folder\": \"documents\"}"}}],"reasoning_content":"Change directory first."},
			{"role":"tool","content":"{\"current_working_directory\": \"documents\"}","tool_call_id":"call_cd"}]`))
		Expect(drivertest.MessagesOf(got[2].Body)).To(ContainSubstring(`{"role":"assistant","content":"Done."}`))
		Expect(string(rec.Result)).To(MatchJSON(`[[[{"cd": "{\"folder\": \"documents\"}"}], "Done."], ["You're welcome."]]`))
	})

	It("in prompt mode sends the model name as is, no tools and no parallel_tool_calls", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.SSE(
			`{"choices":[{"index":0,"delta":{"reasoning_content":"Easy."}}]}`,
			`{"choices":[{"index":0,"delta":{"content":"[calculate_triangle_area(base=10, height=5)]"}}]}`,
			`{"choices":[],"usage":{"prompt_tokens":600,"completion_tokens":30}}`)))
		defer srv.Close()
		d := newDriver(srv.URL, func(c *core.Config) { c.Mode, c.Model = core.ModePrompt, "qwen3-8b" })
		rec, _, err := infer.Run(ctx, d, drivertest.SimplePython0(), infer.Options{Spec: decode.Spec{Mode: "prompt"}})
		Expect(err).NotTo(HaveOccurred())
		var body map[string]json.RawMessage
		Expect(json.Unmarshal(srv.Received()[0].Body, &body)).To(Succeed())
		Expect(body).NotTo(HaveKey("tools"))
		Expect(body).NotTo(HaveKey("parallel_tool_calls"))
		Expect(body).NotTo(HaveKey("temperature"))
		Expect(string(body["model"])).To(Equal(`"qwen3-8b"`))
		Expect(string(body["stream"])).To(Equal(`true`))
		Expect(string(rec.Result)).To(Equal(`"[calculate_triangle_area(base=10, height=5)]"`))
		Expect(string(rec.ReasoningContent)).To(Equal(`"Easy."`))
	})

	It("fails, without retrying, on a stream whose last chunk has no usage (upstream reads it)", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.SSE(`{"choices":[{"index":0,"delta":{"content":"hi"}}]}`)))
		defer srv.Close()
		_, err := newDriver(srv.URL).Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(ContainSubstring("no usage")))
		Expect(srv.Received()).To(HaveLen(1))
	})

	It("names QWEN_API_KEY when it is unset: at the probe at once, and in a 401", func(ctx SpecContext) {
		GinkgoT().Setenv("QWEN_API_KEY", "")
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(401, `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`)))
		defer srv.Close()
		d := newDriver(srv.URL, func(c *core.Config) { c.APIKey = "" })
		start := time.Now()
		Expect(driver.Probe(ctx, d, 0)).To(MatchError(ContainSubstring("environment variable QWEN_API_KEY is not set")))
		Expect(time.Since(start)).To(BeNumerically("<", time.Second))
		_, err := d.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(ContainSubstring("qwen: HTTP 401")))
		Expect(err).To(MatchError(ContainSubstring("QWEN_API_KEY is not set")))
		Expect(core.IsRetryable(err)).To(BeFalse())
	})

	It("retries 429 and 500 as the project's retry loop does", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(
			drivertest.JSON(429, `{"error":{"message":"Requests rate limit exceeded","code":"Throttling.RateQuota"}}`),
			drivertest.JSON(500, `{"error":{"message":"internal error"}}`),
			callStream))
		defer srv.Close()
		resp, err := newDriver(srv.URL).Complete(context.Background(), core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(srv.Received()).To(HaveLen(3))
		Expect(resp.ToolCalls).To(Equal([]core.ToolCall{{ID: "call_0a1b", Name: "calculate_triangle_area", Arguments: `{"base": 10, "height": 5}`}}))
		Expect(json.Valid(resp.Raw)).To(BeTrue())
	})
})
