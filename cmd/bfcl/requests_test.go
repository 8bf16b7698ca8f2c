package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/testkit/reqparity"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
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

// fakeCompletions is an OpenAI-compatible /v1/completions server that
// answers each prompt of the reference with the reply upstream's handler
// was given for it, every other prompt with the reference's ending reply,
// and records every body it receives.
type fakeCompletions struct {
	mu      sync.Mutex
	answers map[string]string // formatted prompt -> reply
	bodies  []map[string]any
}

func (f *fakeCompletions) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/completions" {
		http.NotFound(w, r) // no /models, no /tokenize: max_tokens is upstream's 4096
		return
	}
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p, _ := body["prompt"].(string)
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	text, ok := f.answers[p]
	f.mu.Unlock()
	if !ok {
		text = reqparity.DefaultText
	}
	out, _ := json.Marshal(map[string]any{"object": "text_completion",
		"choices": []any{map[string]any{"index": 0, "text": text, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5}})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

var _ = Describe("bfcl generate with upstream's local-model handlers", Label("e2e", "reference"), func() {
	It("sends upstream's formatted prompts byte for byte, and its request bodies, for every local configuration of the reference", func() {
		data, ref := needData(), needReference()
		rows, err := reqparity.LoadAPI(ref, reqparity.APICompletions)
		Expect(err).NotTo(HaveOccurred())
		byKey := map[string][]reqparity.Row{}
		for _, r := range rows {
			byKey[r.HandlerKey] = append(byKey[r.HandlerKey], r)
		}
		Expect(len(byKey)).To(BeNumerically(">=", 24), "the reference's local configurations")
		var report []string
		for _, key := range slices.Sorted(maps.Keys(byKey)) {
			kept := byKey[key]
			// Entries whose first prompts are equal (multi_turn_base_42 and
			// multi_turn_long_context_42) got different replies upstream,
			// so they run in separate batches; a batch's fake server
			// knows each prompt's reply.
			sent := map[string]map[string]any{}
			for _, batch := range promptBatches(kept) {
				fake := &fakeCompletions{answers: map[string]string{}}
				ids := map[string]bool{}
				for _, r := range batch {
					var answer string
					Expect(json.Unmarshal(r.Answer, &answer)).To(Succeed(), "%s %s: a completions answer is a text", key, r.EntryID)
					fake.answers[r.FormattedPrompt] = answer
					ids[r.EntryID] = true
				}
				srv := httptest.NewServer(fake)
				dir := GinkgoT().TempDir()
				yaml := fmt.Sprintf("models:\n  - name: local-under-test\n    provider: completions\n    upstream: %s\n    base_url: %s/v1\n", key, srv.URL)
				Expect(os.WriteFile(filepath.Join(dir, "models.yaml"), []byte(yaml), 0o644)).To(Succeed())
				idList := make([]string, 0, len(ids))
				for id := range ids {
					idList = append(idList, id)
				}
				sort.Strings(idList)
				res := bfcl(dir, cliEnv(data, "BFCL_MODELS_FILE="+filepath.Join(dir, "models.yaml"),
					"BFCL_WEBSEARCH=offline:"+filepath.Join(testenv.ModuleRoot(), "fixtures", "agentic", "websearch")),
					"generate", "--model", "local-under-test", "--ids", strings.Join(idList, ","),
					"--result-dir", filepath.Join(dir, "result"), "--score-dir", filepath.Join(dir, "score"))
				srv.Close()
				Expect(res.exit).To(Equal(0), "%s: %s\n%s", key, res.stdout, res.stderr)
				for _, b := range fake.bodies {
					sent[b["prompt"].(string)] = b
				}
			}
			f, err := oss.ForRegistry(key)
			Expect(err).NotTo(HaveOccurred())
			equal := 0
			var missing []string
			for _, r := range kept {
				got, ok := sent[r.FormattedPrompt]
				if !ok {
					missing = append(missing, fmt.Sprintf("%s turn %d step %d: %s", r.EntryID, r.Turn, r.Step, closestPrompt(r.FormattedPrompt, sent)))
					continue
				}
				var want map[string]any
				Expect(json.Unmarshal(r.Body, &want)).To(Succeed())
				delete(want, "timeout") // an SDK option, not part of the body
				for k, v := range want {
					if k == "extra_body" {
						for ek, ev := range v.(map[string]any) {
							Expect(got).To(HaveKeyWithValue(ek, ev), "%s %s: extra body %s", key, r.EntryID, ek)
						}
						continue
					}
					Expect(got).To(HaveKeyWithValue(k, v), "%s %s turn %d step %d: body field %s", key, r.EntryID, r.Turn, r.Step, k)
				}
				equal++
			}
			report = append(report, fmt.Sprintf("%s (%s): %d/%d prompts equal", key, f.Class(), equal, len(kept)))
			Expect(missing).To(BeEmpty(), "%s: prompts upstream sent that bfcl-go did not send byte for byte", key)
		}
		AddReportEntry("local-model prompts", strings.Join(report, "\n"))
	})
})

// closestPrompt says where the sent prompt sharing the longest prefix with
// want departs from it.
func closestPrompt(want string, sent map[string]map[string]any) string {
	best, bestN := "", -1
	for p := range sent {
		n := 0
		for n < len(p) && n < len(want) && p[n] == want[n] {
			n++
		}
		if n > bestN {
			best, bestN = p, n
		}
	}
	clip := func(s string, at int) string {
		lo, hi := max(0, at-80), min(len(s), at+160)
		return fmt.Sprintf("%q", s[lo:hi])
	}
	return fmt.Sprintf("the closest prompt sent departs at byte %d of %d:\n  upstream: %s\n  bfcl-go:  %s", bestN, len(want), clip(want, bestN), clip(best, bestN))
}

// promptBatches splits a configuration's kept requests by entry into
// batches in which no prompt has two different replies.
func promptBatches(kept []reqparity.Row) [][]reqparity.Row {
	byEntry := map[string][]reqparity.Row{}
	var order []string
	for _, r := range kept {
		if _, ok := byEntry[r.EntryID]; !ok {
			order = append(order, r.EntryID)
		}
		byEntry[r.EntryID] = append(byEntry[r.EntryID], r)
	}
	var batches [][]reqparity.Row
	var replies []map[string]string
next:
	for _, id := range order {
		for i := range batches {
			fits := true
			for _, r := range byEntry[id] {
				if a, ok := replies[i][r.FormattedPrompt]; ok && a != string(r.Answer) {
					fits = false
				}
			}
			if fits {
				for _, r := range byEntry[id] {
					replies[i][r.FormattedPrompt] = string(r.Answer)
				}
				batches[i] = append(batches[i], byEntry[id]...)
				continue next
			}
		}
		m := map[string]string{}
		for _, r := range byEntry[id] {
			m[r.FormattedPrompt] = string(r.Answer)
		}
		batches, replies = append(batches, byEntry[id]), append(replies, m)
	}
	return batches
}
