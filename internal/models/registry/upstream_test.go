package registry_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
)

func env(kv map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := kv[k]; return v, ok }
}

var _ = Describe("FromUpstream", func() {
	It("resolves every entry of upstream's registry to a model: handler class, mode, underscore_to_dot, model id", func() {
		local := 0
		for _, e := range upstream.All() {
			m, err := registry.FromUpstream(e.Name, env(nil))
			Expect(err).NotTo(HaveOccurred(), e.Name)
			Expect(m.Name).To(Equal(e.Name))
			Expect(m.Handler).To(Equal(e.Handler), e.Name)
			Expect(m.Mode).To(Equal(e.Mode()), e.Name)
			Expect(m.UnderscoreToDot).To(Equal(e.UnderscoreToDot), e.Name)
			if f, ok := oss.ForClass(e.Handler, e.ModelName); ok {
				Expect(m.Model).To(Equal(f.ServedModel()), "%s: the served model upstream's local handler names", e.Name)
			} else {
				Expect(m.Model).To(Equal(e.ModelName), e.Name)
			}
			Expect(m.MaxTokens).To(BeZero(), "%s: no max_tokens unless set", e.Name)
			if e.Map == "local_inference" && e.Handler != "OpenAICompletionsHandler" {
				Expect(m.Provider).To(Equal("completions"), e.Name)
				Expect(m.BaseURL).To(Equal("http://localhost:1053/v1"), e.Name)
				Expect(m.APIKey()).To(Equal("EMPTY"), e.Name)
				local++
			}
		}
		Expect(local).To(BeNumerically(">", 70))
	})

	DescribeTable("picks the request format from the handler class and the address from its variables",
		func(name, provider, model, base string, vars map[string]string) {
			m, err := registry.FromUpstream(name, env(vars))
			Expect(err).NotTo(HaveOccurred())
			Expect(m.Provider).To(Equal(provider))
			Expect(m.Model).To(Equal(model))
			Expect(m.BaseURL).To(Equal(base))
		},
		Entry("OpenAI models: the Responses API", "gpt-4o-2024-11-20-FC", "responses", "gpt-4o-2024-11-20", "https://api.openai.com/v1", nil),
		Entry("OPENAI_BASE_URL", "gpt-5-mini-2025-08-07-FC", "responses", "gpt-5-mini-2025-08-07", "http://127.0.0.1:9/v1", map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}),
		Entry("Claude, ANTHROPIC_BASE_URL", "claude-sonnet-4-5-20250929-FC", "anthropic", "claude-sonnet-4-5-20250929", "http://127.0.0.1:8", map[string]string{"ANTHROPIC_BASE_URL": "http://127.0.0.1:8"}),
		Entry("Gemini", "gemini-2.5-flash", "gemini", "gemini-2.5-flash", "https://generativelanguage.googleapis.com/", nil),
		Entry("an OpenAI-compatible subclass: its own address", "DeepSeek-V3.2-Exp-FC", "openai", "deepseek-chat", "https://api.deepseek.com", nil),
		Entry("a local model: REMOTE_OPENAI_BASE_URL", "Qwen/Qwen3-8B-FC", "completions", "Qwen/Qwen3-8B", "http://gpu:8000/v1", map[string]string{"REMOTE_OPENAI_BASE_URL": "http://gpu:8000/v1"}),
		Entry("a local model: LOCAL_SERVER_ENDPOINT and _PORT", "Qwen/Qwen3-8B", "completions", "Qwen/Qwen3-8B", "http://box:2000/v1", map[string]string{"LOCAL_SERVER_ENDPOINT": "box", "LOCAL_SERVER_PORT": "2000"}),
	)

	It("reads OPENAI_DEFAULT_HEADERS as a JSON object and names the variable when it is not one", func() {
		m, err := registry.FromUpstream("gpt-4o-2024-11-20", env(map[string]string{"OPENAI_DEFAULT_HEADERS": `{"X-Team": "bfcl"}`, "OPENAI_ORG_ID": "org-1"}))
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Headers).To(Equal(map[string]string{"X-Team": "bfcl", "OpenAI-Organization": "org-1"}))
		_, err = registry.FromUpstream("gpt-4o-2024-11-20", env(map[string]string{"OPENAI_DEFAULT_HEADERS": `X-Team: bfcl`}))
		Expect(err).To(MatchError(ContainSubstring("OPENAI_DEFAULT_HEADERS")))
	})

	It("refuses a name upstream's registry does not have", func() {
		_, err := registry.FromUpstream("gpt-4o", env(nil))
		Expect(err).To(MatchError(ContainSubstring(`"gpt-4o" is not a model of upstream's registry`)))
	})

	It("lets a models.yaml upstream: entry take the handler's format with its own address", func() {
		r, err := registry.Parse([]byte("models:\n  - name: my-gpt\n    upstream: gpt-4o-2024-11-20-FC\n    base_url: http://proxy:9/v1\n    api_key_env: PROXY_KEY\n    concurrency: 2\n"))
		Expect(err).NotTo(HaveOccurred())
		m, _ := r.Get("my-gpt")
		Expect(m.Provider).To(Equal("responses"))
		Expect(m.Model).To(Equal("gpt-4o-2024-11-20"))
		Expect(m.Handler).To(Equal("OpenAIResponsesHandler"))
		Expect(m.BaseURL).To(Equal("http://proxy:9/v1"))
		Expect(m.APIKeyEnv).To(Equal("PROXY_KEY"))
		Expect(m.MaxTokens).To(BeZero())
	})

	It("gives an upstream: entry without an address of its own the handler's address and key variable, and never the handler's key with another address", func() {
		r, err := registry.Parse([]byte("models:\n  - {name: ds, upstream: DeepSeek-V3.2-Exp-FC, concurrency: 2}\n  - {name: ds-local, upstream: DeepSeek-V3.2-Exp-FC, base_url: http://127.0.0.1:8000/v1}\n"))
		Expect(err).NotTo(HaveOccurred())
		m, _ := r.Get("ds")
		Expect(m.BaseURL).To(Equal("https://api.deepseek.com"))
		Expect(m.APIKeyEnv).To(Equal("DEEPSEEK_API_KEY"))
		Expect(m.StripReasoning).To(BeTrue())
		m, _ = r.Get("ds-local")
		Expect(m.BaseURL).To(Equal("http://127.0.0.1:8000/v1"))
		Expect(m.APIKeyEnv).To(BeEmpty())
	})
})
