package ollama_test

import (
	"context"
	"errors"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/models/driver/ollama"
	"github.com/bfcl-go/bfcl/internal/testkit/tinygguf"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Specs against a real Ollama server serving the scripted tiny model
// (.ci/ollama.sh start). They run only when BFCL_OLLAMA_URL is set.
var _ = Describe("real Ollama server, /api/chat", Label("real-ollama"), Ordered, func() {
	var (
		base, model string
	)
	BeforeAll(func() {
		var skip string
		var err error
		base, model, skip, err = drivertest.RealOllama()
		Expect(err).NotTo(HaveOccurred())
		if skip != "" {
			Skip(skip)
		}
	})

	newDriver := func(mode string, numCtx int) *ollama.Driver {
		d, err := ollama.New(core.Config{Model: model, BaseURL: base, Mode: mode, NumCtx: numCtx, MaxRetries: 1})
		Expect(err).NotTo(HaveOccurred())
		return d
	}

	It("probes the model: it exists and renders tools", func(ctx SpecContext) {
		Expect(newDriver("fc", 4096).Probe(ctx)).To(Succeed())
		d, err := ollama.New(core.Config{Model: "no-such-model", BaseURL: base})
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Probe(ctx)).To(MatchError(ContainSubstring(`model "no-such-model" not found`)))
	})

	It("runs a two-turn tool-calling conversation with real tool_calls from Ollama's parser", func(ctx SpecContext) {
		history := []core.Message{{Role: "user", Content: "Go to the document folder."}}
		r := drivertest.ScriptedConversation(ctx, newDriver("fc", 4096), history, "List everything, hidden files too.")
		Expect(r.Raw).NotTo(BeEmpty())
	})

	It("answers text without tools (prompt mode)", func(ctx SpecContext) {
		functions, err := drivertest.FileSystemFunctions()
		Expect(err).NotTo(HaveOccurred())
		r, err := newDriver("prompt", 4096).Complete(ctx, core.Request{Messages: []core.Message{{Role: "system", Content: "sys"}, {Role: "user", Content: "hi"}}, Functions: functions, Temperature: 0.7})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Text).To(Equal(tinygguf.DefaultText))
		Expect(r.ToolCalls).To(BeEmpty())
	})

	It("refuses a prompt that does not fit num_ctx instead of truncating it", func(ctx SpecContext) {
		_, err := newDriver("prompt", 32).Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "this prompt is far longer than thirty-two byte-level tokens, so it cannot fit"}}})
		Expect(err).To(HaveOccurred())
		Expect(errors.Is(err, ollama.ErrContextOverflow)).To(BeTrue(), "%v", err)
		Expect(core.IsRetryable(err)).To(BeFalse())
	})

	It("stops promptly when cancelled", func() {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := newDriver("fc", 4096).Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(errors.Is(err, context.Canceled)).To(BeTrue())
	})
})
