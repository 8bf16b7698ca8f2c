package bedrock_test

// The expected requests follow upstream's NovaHandler
// (bfcl_eval/model_handler/api_inference/nova.py at 6ea57973c7a6): boto3's
// bedrock-runtime converse with modelId, messages (texts as [{"text"}],
// consecutive user prompts combined), system ([{"text"}] or []),
// inferenceConfig {temperature}, toolConfig {tools} only with tools
// (convert_to_tool's AMAZON style: {"toolSpec":{name, description,
// inputSchema:{json}}}), and for nova-2-lite additionalModelRequestFields;
// output.message is appended to the history as returned; the results of a
// step go back as one user message of toolResult blocks. The stored answer
// is [{name: input}] or the list of texts. boto3 posts to
// /model/{modelId}/converse signed with SigV4 (service bedrock); no
// recording of a real Bedrock exchange exists in the reference data.

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// isolate keeps the SDK's credential chain to the environment set here.
func isolate(keyID, secret string) {
	t := GinkgoT()
	for _, k := range []string{"AWS_PROFILE", "AWS_SSO_PROFILE_NAME", "AWS_SESSION_TOKEN", "AWS_REGION", "AWS_DEFAULT_REGION",
		"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN"} {
		t.Setenv(k, "")
	}
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent/bfcl-test/config")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/bfcl-test/credentials")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_ACCESS_KEY_ID", keyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
}

func newDriver(base string, mutate ...func(*core.Config)) core.Driver {
	return drivertest.NewDriver(core.Config{Provider: core.ProviderBedrock, Model: "us.amazon.nova-pro-v1:0", BaseURL: base}, mutate...)
}

const callAnswer = `{"output":{"message":{"role":"assistant","content":[{"text":"<thinking>I need the triangle's area.</thinking>\n"},{"toolUse":{"toolUseId":"tooluse_Zk1","name":"calculate_triangle_area","input":{"height":5,"base":10}}}]}},"stopReason":"tool_use","usage":{"inputTokens":452,"outputTokens":41,"totalTokens":493},"metrics":{"latencyMs":812}}`

var _ = Describe("bedrock driver", func() {
	BeforeEach(func() { isolate("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY") })
	drivertest.DescribeBodyLimit(core.ProviderBedrock)

	It("sends simple_python_0 as NovaHandler does, SigV4-signed, and stores [{name: input}] in the wire's key order", func(ctx SpecContext) {
		rec, _, got := drivertest.Infer(ctx, newDriver, drivertest.SimplePython0(), infer.Options{Spec: decode.Spec{Mode: "fc", Handler: "NovaHandler"}, Temperature: 0.001}, drivertest.JSON(200, callAnswer))
		Expect(got).To(HaveLen(1))
		Expect(got[0].Path).To(Equal("/model/us.amazon.nova-pro-v1:0/converse"))
		auth := got[0].Header.Get("Authorization")
		Expect(auth).To(HavePrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"))
		Expect(auth).To(ContainSubstring("/us-east-1/bedrock/aws4_request"))
		Expect(auth).To(ContainSubstring("SignedHeaders="))
		Expect(auth).To(ContainSubstring("Signature="))
		Expect(got[0].Header.Get("X-Amz-Date")).NotTo(BeEmpty())
		Expect(string(got[0].Body)).To(MatchJSON(`{"messages":[{"role":"user","content":[{"text":"Find the area of a triangle with a base of 10 units and height of 5 units."}]}],
			"system":[],"inferenceConfig":{"temperature":0.001},
			"toolConfig":{"tools":[{"toolSpec":{"name":"calculate_triangle_area","description":"Calculate the area of a triangle given its base and height. Note that the provided function is in Python 3 syntax.","inputSchema":{"json":{"type":"object","properties":{"base":{"type":"integer","description":"The base of the triangle."},"height":{"type":"integer","description":"The height of the triangle."},"unit":{"type":"string","description":"The unit of measure (defaults to 'units' if not specified)"}},"required":["base","height"]}}}}]}}`))
		Expect(string(rec.Result)).To(Equal(`[{"calculate_triangle_area": {"height": 5, "base": 10}}]`))
		Expect(string(rec.InputTokenCount)).To(Equal("452"))
		Expect(string(rec.OutputTokenCount)).To(Equal("41"))
	})

	It("moves the system prompt out, echoes output.message and sends the step's results in one user message", func(ctx SpecContext) {
		cd := `{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_cd","name":"cd","input":{"folder":"documents"}}}]}},"usage":{"inputTokens":300,"outputTokens":20}}`
		done := `{"output":{"message":{"role":"assistant","content":[{"text":"Done."}]}},"usage":{"inputTokens":330,"outputTokens":2}}`
		thanks := `{"output":{"message":{"role":"assistant","content":[{"text":"You're welcome."}]}},"usage":{"inputTokens":340,"outputTokens":4}}`
		exec := &drivertest.CannedExecutor{Results: []string{`{"current_working_directory": "documents"}`}}
		rec, _, got := drivertest.Infer(ctx, newDriver, drivertest.FileSystemEntry(), drivertest.WithExecutor(infer.Options{Spec: decode.Spec{Mode: "fc", Handler: "NovaHandler"}}, exec), drivertest.JSON(200, cd), drivertest.JSON(200, done), drivertest.JSON(200, thanks))
		Expect(exec.Calls).To(Equal([][]string{{"cd(folder='documents')"}}))
		Expect(got).To(HaveLen(3))
		var body struct {
			Messages json.RawMessage `json:"messages"`
			System   json.RawMessage `json:"system"`
		}
		Expect(json.Unmarshal(got[1].Body, &body)).To(Succeed())
		Expect(string(body.System)).To(MatchJSON(`[{"text":"You are a file assistant."}]`))
		Expect(string(body.Messages)).To(MatchJSON(`[{"role":"user","content":[{"text":"Go to the documents folder and list it."}]},
			{"role":"assistant","content":[{"toolUse":{"toolUseId":"tooluse_cd","name":"cd","input":{"folder":"documents"}}}]},
			{"role":"user","content":[{"toolResult":{"toolUseId":"tooluse_cd","content":[{"text":"{\"current_working_directory\": \"documents\"}"}]}}]}]`))
		Expect(string(rec.Result)).To(MatchJSON(`[[[{"cd": {"folder": "documents"}}], ["Done."]], [["You're welcome."]]]`))
	})

	It("asks nova-2-lite for medium reasoning and keeps its reasoning text apart", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(200, `{"output":{"message":{"role":"assistant","content":[{"reasoningContent":{"reasoningText":{"text":"Area is half base times height."}}},{"text":"25 square units."}]}},"usage":{"inputTokens":100,"outputTokens":30}}`)))
		defer srv.Close()
		d := newDriver(srv.URL, func(c *core.Config) { c.Model = "us.amazon.nova-2-lite-v1:0" })
		rec, _, err := infer.Run(ctx, d, drivertest.SimplePython0(), infer.Options{Spec: decode.Spec{Mode: "fc"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(srv.Received()[0].Body)).To(ContainSubstring(`"additionalModelRequestFields":{"reasoningConfig":{"type":"enabled","maxReasoningEffort":"medium"}}`))
		Expect(string(rec.Result)).To(Equal(`["25 square units."]`))
		Expect(string(rec.ReasoningContent)).To(Equal(`"Area is half base times height."`))
	})

	It("names the missing AWS credential at the probe within a second, and sends nothing", func(ctx SpecContext) {
		isolate("", "")
		srv := drivertest.Serve(drivertest.Answers())
		defer srv.Close()
		d := newDriver(srv.URL)
		start := time.Now()
		err := driver.Probe(ctx, d, 0)
		Expect(err).To(MatchError(ContainSubstring("no AWS credentials (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_SSO_PROFILE_NAME")))
		Expect(strings.Count(err.Error(), "\n")).To(BeZero())
		Expect(time.Since(start)).To(BeNumerically("<", time.Second))
		_, err = d.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(ContainSubstring("no AWS credentials")))
		Expect(srv.Received()).To(BeEmpty())
	})

	It("names the credential chain on a 403 and does not retry it", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.Exchange{Status: 403, ResponseText: ptr(`{"message":"The security token included in the request is invalid."}`),
			ResponseHeaders: map[string]string{"X-Amzn-Errortype": "UnrecognizedClientException:http://internal.amazon.com/coral/com.amazon.coral.service/"}}))
		defer srv.Close()
		_, err := newDriver(srv.URL).Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(ContainSubstring("bedrock: HTTP 403 Forbidden: UnrecognizedClientException: ")))
		Expect(err).To(MatchError(ContainSubstring("AWS_SSO_PROFILE_NAME is not set")))
		Expect(core.IsRetryable(err)).To(BeFalse())
		Expect(srv.Received()).To(HaveLen(1))
	})

	It("is safe for concurrent use: credentials are loaded once and every request is signed", func(ctx SpecContext) {
		answers := make([]drivertest.Exchange, 16)
		for i := range answers {
			answers[i] = drivertest.JSON(200, callAnswer)
		}
		srv := drivertest.Serve(drivertest.Answers(answers...))
		defer srv.Close()
		d := newDriver(srv.URL)
		errs := make(chan error, len(answers))
		for range answers {
			go func() {
				_, err := d.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
				errs <- err
			}()
		}
		for range answers {
			Expect(<-errs).NotTo(HaveOccurred())
		}
		for _, r := range srv.Received() {
			Expect(r.Header.Get("Authorization")).To(HavePrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"))
		}
	})

	It("retries throttling (429) and 500 as the project's retry loop does", func() {
		srv := drivertest.Serve(drivertest.Answers(
			drivertest.Exchange{Status: 429, ResponseText: ptr(`{"message":"Too many requests, please wait before trying again."}`),
				ResponseHeaders: map[string]string{"X-Amzn-Errortype": "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/"}},
			drivertest.JSON(500, `{"message":"internal"}`),
			drivertest.JSON(200, callAnswer)))
		defer srv.Close()
		resp, err := newDriver(srv.URL).Complete(context.Background(), core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(srv.Received()).To(HaveLen(3))
		Expect(resp.ToolCalls).To(Equal([]core.ToolCall{{ID: "tooluse_Zk1", Name: "calculate_triangle_area", Arguments: `{"height":5,"base":10}`}}))
	})
})

func ptr(s string) *string { return &s }
