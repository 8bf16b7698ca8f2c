package completions_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/completions"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// recorder is a fake server that records every request and answers from a
// script of (status, body) pairs per path; the last answer repeats.
type recorder struct {
	mu      sync.Mutex
	answers map[string][]answer
	got     []request
}

type answer struct {
	status int
	body   string
}

type request struct {
	Path string
	Body map[string]any
	Auth string
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	b, _ := io.ReadAll(req.Body)
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	r.mu.Lock()
	r.got = append(r.got, request{Path: req.URL.Path, Body: body, Auth: req.Header.Get("Authorization")})
	as := r.answers[req.URL.Path]
	var a answer
	switch {
	case len(as) == 0:
		a = answer{404, `{"detail":"Not Found"}`}
	case len(as) == 1:
		a = as[0]
	default:
		a, r.answers[req.URL.Path] = as[0], as[1:]
	}
	r.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	_, _ = io.WriteString(w, a.body)
}

func fast(cfg core.Config) core.Config {
	cfg.RetryBaseDelay, cfg.RetryMaxDelay = time.Millisecond, 5*time.Millisecond
	return cfg
}

var _ = Describe("max_tokens as upstream computes it", func() {
	It("is min(4096, window - prompt - 2), 1000 past the window, the cap when unknown", func() {
		Expect(completions.MaxTokens(40960, 100)).To(Equal(4096))
		Expect(completions.MaxTokens(4196, 100)).To(Equal(4094))
		Expect(completions.MaxTokens(4098, 0)).To(Equal(4096))
		Expect(completions.MaxTokens(102, 100)).To(Equal(0))
		Expect(completions.MaxTokens(101, 100)).To(Equal(1000))
		Expect(completions.MaxTokens(0, 100)).To(Equal(4096))
		Expect(completions.MaxTokens(8192, -1)).To(Equal(4096))
	})
})

var _ = Describe("the OpenAI-compatible /completions transport", func() {
	var srv *httptest.Server
	var rec *recorder
	BeforeEach(func() {
		rec = &recorder{answers: map[string][]answer{}}
		srv = httptest.NewServer(rec)
		DeferCleanup(srv.Close)
	})

	It("sends upstream's body with the handler's extra body and reads the text and usage", func() {
		rec.answers["/v1/completions"] = []answer{{200, `{"id":"c","object":"text_completion","choices":[{"index":0,"text":"[f(a=1)]","finish_reason":"stop"}],"usage":{"prompt_tokens":57,"completion_tokens":6}}`}}
		c, err := completions.New(core.Config{Model: "Qwen/Qwen3-8B", BaseURL: srv.URL + "/v1", APIKey: "EMPTY"}, completions.DialectOpenAI)
		Expect(err).NotTo(HaveOccurred())
		skip := false
		out, err := c.Complete(context.Background(), "<|im_start|>user\nhi<|im_end|>\n", completions.Params{
			Temperature: 0.001, MaxTokens: 4096, StopTokenIDs: []int{151329, 151336}, SkipSpecialTokens: &skip})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("[f(a=1)]"))
		Expect(out.PromptTokens).To(Equal(57))
		Expect(out.OutputTokens).To(Equal(6))
		Expect(rec.got).To(HaveLen(1))
		Expect(rec.got[0].Auth).To(Equal("Bearer EMPTY"))
		Expect(rec.got[0].Body).To(Equal(map[string]any{
			"model": "Qwen/Qwen3-8B", "temperature": 0.001, "prompt": "<|im_start|>user\nhi<|im_end|>\n",
			"max_tokens": 4096.0, "stop_token_ids": []any{151329.0, 151336.0}, "skip_special_tokens": false,
		}))
		Expect(string(out.Request)).To(ContainSubstring(`"prompt":"<|im_start|>user\nhi<|im_end|>\n"`), "no HTML escaping of < and >")
	})

	It("sends no extra body when the handler defines none", func() {
		rec.answers["/v1/completions"] = []answer{{200, `{"choices":[{"text":"ok"}]}`}}
		c, err := completions.New(core.Config{Model: "m", BaseURL: srv.URL + "/v1"}, completions.DialectOpenAI)
		Expect(err).NotTo(HaveOccurred())
		_, err = c.Complete(context.Background(), "p", completions.Params{Temperature: 0.001, MaxTokens: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.got[0].Body).To(HaveLen(4))
		Expect(rec.got[0].Body).NotTo(HaveKey("stop_token_ids"))
		Expect(rec.got[0].Body).NotTo(HaveKey("skip_special_tokens"))
	})

	It("retries 429, 500 and a 200 whose body is not JSON, then succeeds", func() {
		rec.answers["/v1/completions"] = []answer{{429, `{"error":"slow down"}`}, {500, `oops`}, {200, `<html>proxy</html>`}, {200, `{"choices":[{"text":"done"}]}`}}
		c, err := completions.New(fast(core.Config{Model: "m", BaseURL: srv.URL + "/v1"}), completions.DialectOpenAI)
		Expect(err).NotTo(HaveOccurred())
		out, err := c.Complete(context.Background(), "p", completions.Params{MaxTokens: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("done"))
		Expect(rec.got).To(HaveLen(4))
	})

	It("names the server's refusal: a 400 is not retried", func() {
		rec.answers["/v1/completions"] = []answer{{400, `{"object":"error","message":"This model's maximum context length is 4096 tokens"}`}}
		c, err := completions.New(fast(core.Config{Model: "m", BaseURL: srv.URL + "/v1"}), completions.DialectOpenAI)
		Expect(err).NotTo(HaveOccurred())
		_, err = c.Complete(context.Background(), "p", completions.Params{MaxTokens: 10})
		Expect(err).To(MatchError(ContainSubstring("HTTP 400")))
		Expect(err).To(MatchError(ContainSubstring("maximum context length")))
		Expect(rec.got).To(HaveLen(1))
	})

	It("counts tokens with vLLM's /tokenize (count and max_model_len)", func() {
		rec.answers["/tokenize"] = []answer{{200, `{"count":3,"max_model_len":40960,"tokens":[1,2,3]}`}}
		c, err := completions.New(core.Config{Model: "m", BaseURL: srv.URL + "/v1"}, completions.DialectOpenAI)
		Expect(err).NotTo(HaveOccurred())
		n, err := c.CountTokens(context.Background(), "a b c")
		Expect(err).NotTo(HaveOccurred())
		Expect(n).To(Equal(completions.TokenCount{Tokens: 3, ContextLen: 40960}))
		Expect(rec.got[0].Body).To(HaveKeyWithValue("prompt", "a b c"))
		Expect(rec.got[0].Body).To(HaveKeyWithValue("add_special_tokens", false))
	})

	It("counts tokens with llama.cpp's /tokenize (a token list)", func() {
		rec.answers["/tokenize"] = []answer{{200, `{"tokens":[10,11,12,13]}`}}
		c, err := completions.New(core.Config{Model: "m", BaseURL: srv.URL + "/v1"}, completions.DialectOpenAI)
		Expect(err).NotTo(HaveOccurred())
		n, err := c.CountTokens(context.Background(), "a b c d")
		Expect(err).NotTo(HaveOccurred())
		Expect(n.Tokens).To(Equal(4))
		Expect(rec.got[0].Body).To(HaveKeyWithValue("content", "a b c d"))
	})

	It("reports an unknown count when the server has no tokenize endpoint", func() {
		c, err := completions.New(core.Config{Model: "m", BaseURL: srv.URL + "/v1"}, completions.DialectOpenAI)
		Expect(err).NotTo(HaveOccurred())
		n, err := c.CountTokens(context.Background(), "x")
		Expect(err).NotTo(HaveOccurred())
		Expect(n.Tokens).To(Equal(-1))
	})
})

var _ = Describe("Ollama's raw generate", func() {
	It("sends the same prompt raw, with the options and stop strings, and reads response and counts", func() {
		rec := &recorder{answers: map[string][]answer{"/api/generate": {{200, `{"model":"m","response":"[f()]","done":true,"prompt_eval_count":12,"eval_count":4}`}}}}
		srv := httptest.NewServer(rec)
		defer srv.Close()
		c, err := completions.New(core.Config{Model: "qwen3:8b", BaseURL: srv.URL, NumCtx: 16384}, completions.DialectOllama)
		Expect(err).NotTo(HaveOccurred())
		out, err := c.Complete(context.Background(), "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", completions.Params{
			Temperature: 0.001, MaxTokens: 4096, Stop: []string{"<|im_end|>"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("[f()]"))
		Expect(out.PromptTokens).To(Equal(12))
		Expect(rec.got[0].Body).To(Equal(map[string]any{
			"model": "qwen3:8b", "prompt": "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", "raw": true, "stream": false,
			"options": map[string]any{"temperature": 0.001, "num_predict": 4096.0, "num_ctx": 16384.0, "stop": []any{"<|im_end|>"}},
		}))
		n, err := c.CountTokens(context.Background(), "x")
		Expect(err).NotTo(HaveOccurred())
		Expect(n.Tokens).To(Equal(-1), "Ollama has no tokenize endpoint")
	})

	It("turns Ollama's error object into an error naming it", func() {
		rec := &recorder{answers: map[string][]answer{"/api/generate": {{404, `{"error":"model 'qwen3:8b' not found"}`}}}}
		srv := httptest.NewServer(rec)
		defer srv.Close()
		c, err := completions.New(core.Config{Model: "qwen3:8b", BaseURL: srv.URL}, completions.DialectOllama)
		Expect(err).NotTo(HaveOccurred())
		_, err = c.Complete(context.Background(), "p", completions.Params{})
		Expect(err).To(MatchError(ContainSubstring("not found")))
	})
})
