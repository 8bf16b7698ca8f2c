package cohere_test

// The expected requests follow upstream's CohereHandler
// (bfcl_eval/model_handler/api_inference/cohere.py at 6ea57973c7a6):
// generate_with_backoff calls cohere.ClientV2.chat with model (without
// "-FC"), messages, tools (load_cohere_tool: type function, name,
// description, parameters), citation_options mode OFF and temperature; the
// SDK posts them to /v2/chat with "stream": false. _query_FC prepends the
// extracted system message and appends the assistant turn (tool_calls,
// tool_plan, content items); _add_execution_results_FC sends each result as
// a tool message whose text is the result, or, when it is a Python dict
// literal, its json.dumps with "id" renamed "ID". _parse_query_response_FC
// stores [{"tool_name","parameters"}] or the joined texts. No recording of
// a real Cohere exchange exists in the reference data.

import (
	"context"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/cohere"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func newDriver(base string, mutate ...func(*core.Config)) core.Driver {
	return drivertest.NewDriver(core.Config{Provider: core.ProviderCohere, Model: "command-a-03-2025-FC", BaseURL: base, APIKey: "test-key"}, mutate...)
}

const callAnswer = `{"id":"c1","message":{"role":"assistant","tool_plan":"I will compute the area.","tool_calls":[{"id":"calculate_triangle_area_5kq4","type":"function","function":{"name":"calculate_triangle_area","arguments":"{\"base\":10,\"height\":5}"}}]},"finish_reason":"TOOL_CALL","usage":{"billed_units":{"input_tokens":62,"output_tokens":28},"tokens":{"input_tokens":1004,"output_tokens":61}}}`

var _ = Describe("cohere driver", func() {
	drivertest.DescribeBodyLimit(core.ProviderCohere)
	It("sends simple_python_0 as CohereHandler does and stores [{tool_name, parameters}]", func(ctx SpecContext) {
		rec, _, got := drivertest.Infer(ctx, newDriver, drivertest.SimplePython0(), infer.Options{Spec: decode.Spec{Mode: "fc", Handler: "CohereHandler"}, Temperature: 0.001}, drivertest.JSON(200, callAnswer))
		Expect(got).To(HaveLen(1))
		Expect(got[0].Path).To(Equal("/v2/chat"))
		Expect(got[0].Header.Get("Authorization")).To(Equal("Bearer test-key"))
		Expect(string(got[0].Body)).To(MatchJSON(`{"stream":false,"model":"command-a-03-2025",
			"messages":[{"role":"user","content":"Find the area of a triangle with a base of 10 units and height of 5 units."}],
			"tools":[{"type":"function","function":{"name":"calculate_triangle_area","description":"Calculate the area of a triangle given its base and height. Note that the provided function is in Python 3 syntax.","parameters":{"type":"object","properties":{"base":{"type":"integer","description":"The base of the triangle."},"height":{"type":"integer","description":"The height of the triangle."},"unit":{"type":"string","description":"The unit of measure (defaults to 'units' if not specified)"}},"required":["base","height"]}}}],
			"citation_options":{"mode":"OFF"},"temperature":0.001}`))
		Expect(string(rec.Result)).To(MatchJSON(`[{"tool_name": "calculate_triangle_area", "parameters": {"base": 10, "height": 5}}]`))
		Expect(string(rec.InputTokenCount)).To(Equal("62"))
		Expect(string(rec.OutputTokenCount)).To(Equal("28"))
	})

	It("puts the system message first, echoes the assistant turn and renders dict results with ID in a multi-turn step", func(ctx SpecContext) {
		cd := `{"message":{"role":"assistant","tool_plan":"Change to documents.","tool_calls":[{"id":"cd_x1","type":"function","function":{"name":"cd","arguments":"{\"folder\":\"documents\"}"}}]},"usage":{"billed_units":{"input_tokens":300,"output_tokens":20}}}`
		done := `{"message":{"role":"assistant","content":[{"type":"thinking","thinking":"All set."},{"type":"text","text":"Done."}]},"usage":{"billed_units":{"input_tokens":330,"output_tokens":2}}}`
		thanks := `{"message":{"role":"assistant","content":[{"type":"text","text":"You're welcome."}]},"usage":{"billed_units":{"input_tokens":340,"output_tokens":4}}}`
		exec := &drivertest.CannedExecutor{Results: []string{`{'id': 7, 'name': 'documents'}`}}
		rec, _, got := drivertest.Infer(ctx, newDriver, drivertest.FileSystemEntry(), drivertest.WithExecutor(infer.Options{Spec: decode.Spec{Mode: "fc", Handler: "CohereHandler"}}, exec), drivertest.JSON(200, cd), drivertest.JSON(200, done), drivertest.JSON(200, thanks))
		Expect(exec.Calls).To(Equal([][]string{{"cd(folder='documents')"}}))
		Expect(got).To(HaveLen(3))
		Expect(drivertest.MessagesOf(got[1].Body)).To(MatchJSON(`[{"role":"system","content":"You are a file assistant."},
			{"role":"user","content":"Go to the documents folder and list it."},
			{"role":"assistant","tool_calls":[{"id":"cd_x1","type":"function","function":{"name":"cd","arguments":"{\"folder\":\"documents\"}"}}],"tool_plan":"Change to documents."},
			{"role":"tool","tool_call_id":"cd_x1","content":[{"type":"text","text":"{\"name\": \"documents\", \"ID\": 7}"}]}]`))
		Expect(drivertest.MessagesOf(got[2].Body)).To(ContainSubstring(`{"role":"assistant","content":[{"thinking":"All set.","type":"thinking"},{"type":"text","text":"Done."}]}`))
		Expect(string(rec.Result)).To(MatchJSON(`[[[{"tool_name": "cd", "parameters": {"folder": "documents"}}], "Done."], ["You're welcome."]]`))
		Expect(string(rec.ReasoningContent)).To(MatchJSON(`[["", "All set."], [""]]`))
	})

	It("renders execution results as upstream: dicts as JSON with id renamed ID, anything else as the text", func() {
		Expect(cohere.RenderResult(`{'id': 1, 'ok': True}`)).To(Equal(`{"ok": true, "ID": 1}`))
		Expect(cohere.RenderResult(`{"current_working_directory": "documents"}`)).To(Equal(`{"current_working_directory": "documents"}`))
		Expect(cohere.RenderResult(`{"ok": true}`)).To(Equal(`{"ok": true}`)) // JSON true is not a Python literal
		Expect(cohere.RenderResult(`['a', 'b']`)).To(Equal(`['a', 'b']`))
		Expect(cohere.RenderResult(`None`)).To(Equal(`None`))
		Expect(cohere.RenderResult(`Error during execution: boom`)).To(Equal(`Error during execution: boom`))
	})

	It("stores null for an answer without content and the joined texts otherwise", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(
			drivertest.JSON(200, `{"message":{"role":"assistant"},"usage":{"billed_units":{"input_tokens":1,"output_tokens":0}}}`),
			drivertest.JSON(200, `{"message":{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"usage":{"billed_units":{"input_tokens":1,"output_tokens":2}}}`)))
		defer srv.Close()
		d := newDriver(srv.URL)
		rec, _, err := infer.Run(ctx, d, drivertest.SimplePython0(), infer.Options{Spec: decode.Spec{Mode: "fc"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(rec.Result)).To(Equal(`null`))
		rec, _, err = infer.Run(ctx, d, drivertest.SimplePython0(), infer.Options{Spec: decode.Spec{Mode: "fc"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(rec.Result)).To(Equal(`"a\nb"`))
	})

	It("is FC only, as upstream forces it", func() {
		_, err := driver.New(core.Config{Provider: core.ProviderCohere, Model: "command-a-03-2025", Mode: core.ModePrompt})
		Expect(err).To(MatchError(ContainSubstring("FC mode")))
	})

	It("names COHERE_API_KEY when it is unset: at the probe at once, and in a 401", func(ctx SpecContext) {
		GinkgoT().Setenv("COHERE_API_KEY", "")
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(401, `{"message":"no api key supplied"}`)))
		defer srv.Close()
		d := newDriver(srv.URL, func(c *core.Config) { c.APIKey = "" })
		start := time.Now()
		Expect(driver.Probe(ctx, d, 0)).To(MatchError(ContainSubstring("environment variable COHERE_API_KEY is not set")))
		Expect(time.Since(start)).To(BeNumerically("<", time.Second))
		_, err := d.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(ContainSubstring("cohere: HTTP 401")))
		Expect(err).To(MatchError(ContainSubstring("COHERE_API_KEY is not set")))
		Expect(core.IsRetryable(err)).To(BeFalse())
	})

	It("retries 429 and 500 as the project's retry loop does", func() {
		srv := drivertest.Serve(drivertest.Answers(
			drivertest.JSON(429, `{"message":"You are using a Trial key, which is limited to 10 API calls / minute."}`),
			drivertest.JSON(500, `{"message":"internal server error"}`),
			drivertest.JSON(200, callAnswer)))
		defer srv.Close()
		resp, err := newDriver(srv.URL).Complete(context.Background(), core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(srv.Received()).To(HaveLen(3))
		Expect(resp.ToolCalls).To(Equal([]core.ToolCall{{ID: "calculate_triangle_area_5kq4", Name: "calculate_triangle_area", Arguments: `{"base":10,"height":5}`}}))
	})
})
