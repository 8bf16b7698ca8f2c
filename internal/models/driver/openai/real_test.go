package openai_test

import (
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/models/driver/openai"
	"github.com/bfcl-go/bfcl/internal/testkit/tinygguf"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Specs against a real Ollama server's OpenAI-compatible /v1 endpoint,
// serving the scripted tiny model (.ci/ollama.sh start). They run only when
// BFCL_OLLAMA_URL is set.
var _ = Describe("real Ollama server, /v1/chat/completions", Label("real-ollama"), Ordered, func() {
	var d *openai.Driver
	BeforeAll(func() {
		base, model, skip, err := drivertest.RealOllama()
		Expect(err).NotTo(HaveOccurred())
		if skip != "" {
			Skip(skip)
		}
		d, err = openai.New(core.Config{Model: model, BaseURL: base + "/v1", APIKey: "ollama", MaxRetries: 1})
		Expect(err).NotTo(HaveOccurred())
	})

	It("gets real tool_calls, then a text answer to the tool result, then the second turn's call", func(ctx SpecContext) {
		functions, err := drivertest.FileSystemFunctions()
		Expect(err).NotTo(HaveOccurred())
		history := []core.Message{{Role: "system", Content: "You manage files."}, {Role: "user", Content: "Go to the document folder."}}
		r, err := d.Complete(ctx, core.Request{Messages: history, Functions: functions})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.ToolCalls).To(HaveLen(1))
		Expect(r.ToolCalls[0].Name).To(Equal("cd"))
		Expect(r.ToolCalls[0].Arguments).To(MatchJSON(`{"folder": "document"}`))
		Expect(r.ToolCalls[0].ID).NotTo(BeEmpty())
		Expect(r.InputTokens).To(BeNumerically(">", 0))
		Expect(string(r.Raw)).To(ContainSubstring(`"finish_reason":"tool_calls"`))

		history = append(history,
			core.Message{Role: "assistant", Content: r.Text, ToolCalls: r.ToolCalls},
			core.Message{Role: "tool", Content: "{'current_working_directory': 'document'}", ToolCallID: r.ToolCalls[0].ID})
		r, err = d.Complete(ctx, core.Request{Messages: history, Functions: functions})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.ToolCalls).To(BeEmpty())
		Expect(r.Text).To(Equal(tinygguf.DefaultAfterTool))

		history = append(history, core.Message{Role: "assistant", Content: r.Text}, core.Message{Role: "user", Content: "Now list it."})
		r, err = d.Complete(ctx, core.Request{Messages: history, Functions: functions})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.ToolCalls).To(HaveLen(1))
		Expect(r.ToolCalls[0].Name).To(Equal("ls"))
		Expect(r.ToolCalls[0].Arguments).To(MatchJSON(`{"a": true}`))
	})

	It("passes the pre-run probe, tool calling included", func(ctx SpecContext) {
		Expect(d.Probe(ctx)).To(Succeed())
	})

	It("answers plain text when no tools are offered", func(ctx SpecContext) {
		r, err := d.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Text).To(Equal(tinygguf.DefaultText))
	})

	It("reports a missing model as a non-retryable 404", func(ctx SpecContext) {
		base, _, _, _ := drivertest.RealOllama()
		bad, err := openai.New(core.Config{Model: "no-such-model", BaseURL: base + "/v1"})
		Expect(err).NotTo(HaveOccurred())
		_, err = bad.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(ContainSubstring("openai: HTTP 404")))
		Expect(core.IsRetryable(err)).To(BeFalse())
	})
})
