package main

import (
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/testkit/reqparity"
)

// hostedConfig is one hosted-API configuration of the generation
// reference (requests/upstream_requests.status.json) and how bfcl-go runs
// it: an upstream registry name with the server given by the handler's
// variable, or a models.yaml entry (upstream's OpenAICompletionsHandler
// has no registry entry for a hosted model).
type hostedConfig struct {
	key, model, yaml, urlEnv, urlPath, serverModel string
}

var hostedConfigs = []hostedConfig{
	{key: "OpenAICompletionsHandler-FC", model: "gpt-4o-chat-FC", serverModel: "gpt-4o-2024-11-20",
		yaml: "- {name: gpt-4o-chat-FC, provider: openai, model: gpt-4o-2024-11-20, mode: fc, handler: OpenAICompletionsHandler, base_url: %s/v1, api_key_env: OPENAI_API_KEY}"},
	{key: "OpenAICompletionsHandler-prompt", model: "gpt-4o-chat", serverModel: "gpt-4o-2024-11-20",
		yaml: "- {name: gpt-4o-chat, provider: openai, model: gpt-4o-2024-11-20, mode: prompt, handler: OpenAICompletionsHandler, base_url: %s/v1}"},
	{key: "OpenAICompletionsHandler-FC+vllm_echo", model: "gpt-oss-vllm-FC", serverModel: "openai/gpt-oss-120b",
		yaml: "- {name: gpt-oss-vllm-FC, upstream: openbmb/MiniCPM-SALA-FC, underscore_to_dot: true, model: openai/gpt-oss-120b, base_url: %s/v1}"},
	{key: "OpenAIResponsesHandler-FC", model: "gpt-4o-2024-11-20-FC", urlEnv: "OPENAI_BASE_URL", urlPath: "/v1", serverModel: "gpt-4o-2024-11-20"},
	{key: "OpenAIResponsesHandler-prompt", model: "gpt-4o-2024-11-20", urlEnv: "OPENAI_BASE_URL", urlPath: "/v1", serverModel: "gpt-4o-2024-11-20"},
	{key: "OpenAIResponsesHandler-FC[gpt-5-mini]", model: "gpt-5-mini-2025-08-07-FC", urlEnv: "OPENAI_BASE_URL", urlPath: "/v1", serverModel: "gpt-5-mini-2025-08-07"},
	{key: "ClaudeHandler-FC", model: "claude-sonnet-4-5-20250929-FC", urlEnv: "ANTHROPIC_BASE_URL", serverModel: "claude-sonnet-4-5-20250929"},
	{key: "ClaudeHandler-prompt", model: "claude-sonnet-4-5-20250929", urlEnv: "ANTHROPIC_BASE_URL", serverModel: "claude-sonnet-4-5-20250929"},
	{key: "GeminiHandler-FC", model: "gemini-2.5-flash-FC", urlEnv: "GOOGLE_GEMINI_BASE_URL", serverModel: "gemini-2.5-flash"},
	{key: "GeminiHandler-prompt", model: "gemini-2.5-flash", urlEnv: "GOOGLE_GEMINI_BASE_URL", serverModel: "gemini-2.5-flash"},
}

var _ = Describe("bfcl generate with an upstream local-model name", func() {
	// serve is a fake vLLM: /v1/completions answers a Qwen tool call, the
	// rest is 404 (no /models, no /tokenize: max_tokens is upstream's 4096).
	serve := func() (*httptest.Server, *fakeCompletions) {
		fake := &fakeCompletions{answers: map[string]string{}}
		return httptest.NewServer(fake), fake
	}
	It("runs upstream's handler against REMOTE_OPENAI_BASE_URL with upstream's spelling of the command", func() {
		data := needData()
		work := GinkgoT().TempDir()
		srv, fake := serve()
		defer srv.Close()
		r := bfcl(work, cliEnv(data, "BFCL_PROJECT_ROOT="+work, "REMOTE_OPENAI_BASE_URL="+srv.URL+"/v1"),
			"generate", "--model", "Qwen/Qwen3-8B-FC", "--backend", "vllm", "--skip-server-setup", "--ids", "simple_python_2",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).To(Equal(0), r.stdout+r.stderr)
		Expect(fake.bodies).NotTo(BeEmpty())
		last := fake.bodies[len(fake.bodies)-1]
		Expect(last).To(HaveKeyWithValue("model", "Qwen/Qwen3-8B"))
		Expect(last).To(HaveKeyWithValue("max_tokens", 4096.0))
		Expect(last["prompt"]).To(HavePrefix("<|im_start|>system\n"))
		Expect(last["prompt"]).To(HaveSuffix("<|im_start|>assistant\n"))
	})

	It("takes LOCAL_SERVER_ENDPOINT/LOCAL_SERVER_PORT, --lora-modules and --local-model-path as upstream does", func() {
		data := needData()
		work := GinkgoT().TempDir()
		srv, fake := serve()
		defer srv.Close()
		host, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
		env := cliEnv(data, "BFCL_PROJECT_ROOT="+work, "LOCAL_SERVER_ENDPOINT="+host, "LOCAL_SERVER_PORT="+port)
		r := bfcl(work, env, "generate", "--model", "Qwen/Qwen3-8B-FC", "--lora-modules", "my-adapter=/ckpt/lora", "--ids", "simple_python_2",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).To(Equal(0), r.stdout+r.stderr)
		Expect(fake.bodies[len(fake.bodies)-1]).To(HaveKeyWithValue("model", "my-adapter"))

		ckpt := filepath.Join(work, "ckpt")
		Expect(os.MkdirAll(ckpt, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(ckpt, "config.json"), []byte(`{"max_position_embeddings": 4200}`), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(ckpt, "tokenizer_config.json"), []byte(`{}`), 0o644)).To(Succeed())
		r = bfcl(work, env, "generate", "--model", "Qwen/Qwen3-8B-FC", "--local-model-path", ckpt, "--ids", "simple_python_3",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).To(Equal(0), r.stdout+r.stderr)
		last := fake.bodies[len(fake.bodies)-1]
		Expect(last).To(HaveKeyWithValue("model", ckpt))
		Expect(last["max_tokens"]).To(BeNumerically("<", 4096), "a 4200-token window leaves less than 4096 after the prompt (the fake server cannot count, so the cap is used only when the window allows it)")

		r = bfcl(work, env, "generate", "--model", "Qwen/Qwen3-8B-FC", "--local-model-path", filepath.Join(work, "nowhere"), "--ids", "simple_python_3")
		Expect(r.exit).NotTo(Equal(0))
		Expect(r.stderr).To(ContainSubstring("local-model-path"))
		Expect(r.stderr).To(ContainSubstring("config.json"))
	})

	It("names the server it cannot reach, before the run", func() {
		data := needData()
		work := GinkgoT().TempDir()
		r := bfcl(work, cliEnv(data, "BFCL_PROJECT_ROOT="+work, "REMOTE_OPENAI_BASE_URL=http://127.0.0.1:9/v1"),
			"generate", "--model", "meta-llama/Llama-3.1-8B-Instruct-FC", "--ids", "simple_python_2", "--result-dir", filepath.Join(work, "result"))
		Expect(r.exit).NotTo(Equal(0))
		Expect(r.stderr).To(ContainSubstring("http://127.0.0.1:9/v1"))
		Expect(r.stderr).To(ContainSubstring("cannot reach"))
	})
})

// The hosted-API requests of `bfcl generate` equal, row by row, those
// upstream's handler classes sent for the same entries and replies.
var _ = Describe("bfcl generate against hosted APIs (requests as upstream's handlers send them)", Label("reference"), func() {
	for _, c := range hostedConfigs {
		It(c.key+" via "+c.model, func() {
			data, ref := needData(), needReference()
			rows, err := reqparity.Load(ref, c.key)
			Expect(err).NotTo(HaveOccurred())
			srv, err := reqparity.NewServer(rows, c.serverModel)
			Expect(err).NotTo(HaveOccurred())
			defer srv.Close()
			work := GinkgoT().TempDir()
			extra := []string{"BFCL_PROJECT_ROOT=" + work, "OPENAI_API_KEY=sk-test", "ANTHROPIC_API_KEY=test", "GOOGLE_API_KEY=test",
				"BFCL_WEBSEARCH=offline:" + work, "BFCL_EMBEDDER=hashed"}
			if c.urlEnv != "" {
				extra = append(extra, c.urlEnv+"="+srv.URL+c.urlPath)
			}
			if c.urlEnv == "OPENAI_BASE_URL" {
				extra = append(extra, `OPENAI_DEFAULT_HEADERS={"X-Bfcl-Test": "yes"}`)
			}
			if c.yaml != "" {
				p := filepath.Join(work, "models.yaml")
				Expect(os.WriteFile(p, []byte("models:\n"+fmt.Sprintf(c.yaml, srv.URL)+"\n"), 0o644)).To(Succeed())
				extra = append(extra, "BFCL_MODELS_FILE="+p)
			}
			r := bfcl(work, cliEnv(data, extra...), "generate", "--model", c.model, "--ids", strings.Join(reqparity.EntryIDs(rows), ","),
				"--result-dir", filepath.Join(work, "result"), "--num-threads", "4")
			Expect(r.exit).To(Equal(0), r.stderr)
			res := srv.Compare()
			AddReportEntry(c.key, fmt.Sprintf("%d/%d rows equal", res.Equal, res.Total))
			fmt.Fprintf(GinkgoWriter, "%s: %d/%d rows equal\n", c.key, res.Equal, res.Total)
			Expect(res.Failures).To(BeEmpty(), "%s: %d/%d rows equal:\n%s", c.key, res.Equal, res.Total, strings.Join(res.Failures, "\n"))
			if c.urlEnv == "OPENAI_BASE_URL" {
				for _, h := range srv.Headers() {
					Expect(h.Get("X-Bfcl-Test")).To(Equal("yes"), "OPENAI_DEFAULT_HEADERS on every request")
					Expect(h.Get("Authorization")).To(Equal("Bearer sk-test"))
				}
			}
		})
	}
})
