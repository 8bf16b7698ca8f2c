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
		history := []core.Message{{Role: "system", Content: "You manage files."}, {Role: "user", Content: "Go to the document folder."}}
		r := drivertest.ScriptedConversation(ctx, d, history, "Now list it.")
		Expect(string(r.Raw)).To(ContainSubstring(`"finish_reason":"tool_calls"`))
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
