package writer_test

import (
	"context"
	"encoding/json"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/models/driver/writer"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func newDriver(base string, mutate ...func(*core.Config)) core.Driver {
	return drivertest.NewDriver(core.Config{Provider: core.ProviderWriter, Model: "palmyra-x-004", BaseURL: base, APIKey: "wk"}, mutate...)
}

// a Writer chat completion calling calculate_triangle_area
const callReply = `{"id":"chat-1","object":"chat.completion","created":1,"model":"palmyra-x-004","choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"","tool_calls":[{"id":"call_1","type":"function","function":{"name":"calculate_triangle_area","arguments":"{\"base\": 10, \"height\": 5}"},"index":0}],"refusal":null}}],"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`

var _ = Describe("writer driver", func() {
	// upstream's WriterHandler (writer.py) on real entries, through the
	// Writer SDK's client.chat.chat (POST https://api.writer.com/v1/chat)
	drivertest.DescribeUpstreamRun("WriterHandler", writer.DefaultBaseURL, decode.Spec{Mode: "fc", Handler: "WriterHandler"},
		func(url string) core.Driver {
			return newDriver(url, func(c *core.Config) { c.Handler = "WriterHandler" })
		})
	drivertest.DescribeBodyLimit(core.ProviderWriter)

	It("posts to /v1/chat with the bearer key and keeps the dots of function names (ModelStyle.WRITER)", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(200, `{"choices":[{"index":0,"message":{"role":"assistant","content":"","tool_calls":[{"id":"c","type":"function","function":{"name":"math.factorial","arguments":"{\"number\": 5}"}}]}}],"usage":{"prompt_tokens":1,"completion_tokens":2}}`)))
		defer srv.Close()
		rec, _, err := infer.Run(ctx, newDriver(srv.URL), drivertest.DottedEntry(), infer.Options{Spec: decode.Spec{Mode: "fc"}, Temperature: 0.001})
		Expect(err).NotTo(HaveOccurred())
		got := srv.Received()
		Expect(got).To(HaveLen(1))
		Expect(got[0].Path).To(Equal("/v1/chat"))
		Expect(got[0].Header.Get("Authorization")).To(Equal("Bearer wk"))
		Expect(got[0].Header.Get("Content-Type")).To(Equal("application/json"))
		Expect(string(got[0].Body)).To(Equal(`{"messages":[{"role":"user","content":"Calculate the factorial of 5 using math functions."}],"model":"palmyra-x-004","temperature":0.001,"tool_choice":"auto",` +
			`"tools":[{"type":"function","function":{"name":"math.factorial","description":"Calculate the factorial of a given number. Note that the provided function is in Python 3 syntax.","parameters":{"type":"object","properties":{"number":{"type":"integer","description":"The number for which factorial needs to be calculated."}},"required":["number"]}}}]}`))
		Expect(string(rec.Result)).To(MatchJSON(`[{"math.factorial": "{\"number\": 5}"}]`))
		Expect(string(rec.InputTokenCount)).To(Equal("1"))
	})

	It("sends neither tools nor tool_choice without functions", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(200, callReply)))
		defer srv.Close()
		_, err := newDriver(srv.URL).Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}, Temperature: 0.7})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(srv.Received()[0].Body)).To(Equal(`{"messages":[{"role":"user","content":"hi"}],"model":"palmyra-x-004","temperature":0.7}`))
	})

	It("names WRITER_API_KEY when it is unset: at the probe at once, and in a 401", func(ctx SpecContext) {
		GinkgoT().Setenv("WRITER_API_KEY", "")
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(401, `{"errors":[{"description":"Invalid API key","key":"fail.unauthorized"}],"tpe":"fail"}`)))
		defer srv.Close()
		d := newDriver(srv.URL, func(c *core.Config) { c.APIKey = "" })
		start := time.Now()
		Expect(driver.Probe(ctx, d, 0)).To(MatchError(ContainSubstring("environment variable WRITER_API_KEY is not set")))
		Expect(time.Since(start)).To(BeNumerically("<", time.Second))
		Expect(srv.Received()).To(BeEmpty())
		_, err := d.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(ContainSubstring("writer: HTTP 401")))
		Expect(err).To(MatchError(ContainSubstring("WRITER_API_KEY is not set")))
		Expect(core.IsRetryable(err)).To(BeFalse())
	})

	It("retries 429 and 500 as the project's retry loop does", func() {
		srv := drivertest.Serve(drivertest.Answers(
			drivertest.JSON(429, `{"errors":[{"description":"Too many requests"}]}`),
			drivertest.JSON(500, `{"errors":[{"description":"internal"}]}`),
			drivertest.JSON(200, callReply)))
		defer srv.Close()
		resp, err := newDriver(srv.URL).Complete(context.Background(), core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(srv.Received()).To(HaveLen(3))
		Expect(resp.ToolCalls).To(Equal([]core.ToolCall{{ID: "call_1", Name: "calculate_triangle_area", Arguments: `{"base": 10, "height": 5}`}}))
		Expect(json.Valid(resp.Raw)).To(BeTrue())
	})

	It("refuses prompt mode, which upstream's WriterHandler cannot run", func() {
		_, err := writer.New(core.Config{Model: "palmyra-x-004", Mode: core.ModePrompt})
		Expect(err).To(MatchError(ContainSubstring("no prompt mode")))
	})
})
