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
	"github.com/bfcl-go/bfcl/internal/models/oss"
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

// recordingServer is a test server answering from a new recorder, closed
// after the spec.
func recordingServer() (*httptest.Server, *recorder) {
	rec := &recorder{answers: map[string][]answer{}}
	srv := httptest.NewServer(rec)
	DeferCleanup(srv.Close)
	return srv, rec
}

func fast(cfg core.Config) core.Config {
	cfg.RetryBaseDelay, cfg.RetryMaxDelay = time.Millisecond, 5*time.Millisecond
	return cfg
}

var _ = Describe("the OpenAI-compatible /completions transport", func() {
	var srv *httptest.Server
	var rec *recorder
	BeforeEach(func() { srv, rec = recordingServer() })

	It("sends upstream's body with the handler's extra body and reads the text and usage", func() {
		rec.answers["/v1/completions"] = []answer{{200, `{"id":"c","object":"text_completion","choices":[{"index":0,"text":"[f(a=1)]","finish_reason":"stop"}],"usage":{"prompt_tokens":57,"completion_tokens":6}}`}}
		c, err := completions.New(core.Config{Model: "Qwen/Qwen3-8B", BaseURL: srv.URL + "/v1", APIKey: "EMPTY"}, completions.DialectOpenAI)
		Expect(err).NotTo(HaveOccurred())
		skip := false
		out, err := c.Complete(context.Background(), oss.Request{Model: "Qwen/Qwen3-8B", Prompt: "<|im_start|>user\nhi<|im_end|>\n",
			Temperature: 0.001, MaxTokens: 4096, Extras: oss.Extras{StopTokenIDs: []int{151329, 151336}, SkipSpecialTokens: &skip}})
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
		_, err = c.Complete(context.Background(), oss.Request{Prompt: "p", Temperature: 0.001, MaxTokens: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.got[0].Body).To(HaveLen(4))
		Expect(rec.got[0].Body).NotTo(HaveKey("stop_token_ids"))
		Expect(rec.got[0].Body).NotTo(HaveKey("skip_special_tokens"))
	})

	It("retries 429, 500 and a 200 whose body is not JSON, then succeeds", func() {
		rec.answers["/v1/completions"] = []answer{{429, `{"error":"slow down"}`}, {500, `oops`}, {200, `<html>proxy</html>`}, {200, `{"choices":[{"text":"done"}]}`}}
		c, err := completions.New(fast(core.Config{Model: "m", BaseURL: srv.URL + "/v1"}), completions.DialectOpenAI)
		Expect(err).NotTo(HaveOccurred())
		out, err := c.Complete(context.Background(), oss.Request{Prompt: "p", MaxTokens: 10})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("done"))
		Expect(rec.got).To(HaveLen(4))
	})

	It("names the server's refusal: a 400 is not retried", func() {
		rec.answers["/v1/completions"] = []answer{{400, `{"object":"error","message":"This model's maximum context length is 4096 tokens"}`}}
		c, err := completions.New(fast(core.Config{Model: "m", BaseURL: srv.URL + "/v1"}), completions.DialectOpenAI)
		Expect(err).NotTo(HaveOccurred())
		_, err = c.Complete(context.Background(), oss.Request{Prompt: "p", MaxTokens: 10})
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
		out, err := c.Complete(context.Background(), oss.Request{Model: "Qwen/Qwen3-8B", Prompt: "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n",
			Temperature: 0.001, MaxTokens: 4096, Extras: oss.Extras{StopTokenIDs: []int{1}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Text).To(Equal("[f()]"))
		Expect(out.PromptTokens).To(Equal(12))
		Expect(rec.got[0].Body).To(Equal(map[string]any{
			"model": "qwen3:8b", "prompt": "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n", "raw": true, "stream": false,
			"options": map[string]any{"temperature": 0.001, "num_predict": 4096.0, "num_ctx": 16384.0},
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
		_, err = c.Complete(context.Background(), oss.Request{Prompt: "p"})
		Expect(err).To(MatchError(ContainSubstring("not found")))
	})
})

var _ = Describe("the local-model driver", func() {
	var srv *httptest.Server
	var rec *recorder
	BeforeEach(func() { srv, rec = recordingServer() })
	paths := func() []string {
		var out []string
		for _, g := range rec.got {
			out = append(out, g.Path)
		}
		return out
	}

	It("sends upstream's body for the class (GLM's stop_token_ids) and 4096 without counting when the window leaves room", func() {
		f, err := oss.ForRegistry("THUDM/glm-4-9b-chat")
		Expect(err).NotTo(HaveOccurred())
		rec.answers["/v1/completions"] = []answer{{200, `{"choices":[{"text":"ok"}],"usage":{"prompt_tokens":5,"completion_tokens":1}}`}}
		d, err := completions.NewDriver(core.Config{BaseURL: srv.URL + "/v1"}, f, completions.DialectOpenAI, 131072)
		Expect(err).NotTo(HaveOccurred())
		resp, err := d.CompletePrompt(context.Background(), "[gMASK]<sop><|user|>\nhi", oss.DefaultTemperature)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("ok"))
		Expect(paths()).To(Equal([]string{"/v1/completions"}), "no tokenize request")
		want, err := oss.Request{Model: f.ServedModel(), Prompt: "[gMASK]<sop><|user|>\nhi", Temperature: oss.DefaultTemperature,
			MaxTokens: 4096, Extras: f.Extras()}.MarshalJSON()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(resp.Request)).To(Equal(string(want)))
		Expect(rec.got[0].Body).To(HaveKey("stop_token_ids"))
		_, err = d.Complete(context.Background(), core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(completions.ErrNoPrompt))
	})

	It("counts the prompt's tokens with the server when the window is tight, and learns the window from /models", func() {
		f, err := oss.ForRegistry("Qwen/Qwen3-8B-FC")
		Expect(err).NotTo(HaveOccurred())
		rec.answers["/v1/models"] = []answer{{200, `{"object":"list","data":[{"id":"Qwen/Qwen3-8B","max_model_len":4100}]}`}}
		rec.answers["/tokenize"] = []answer{{200, `{"count":1200,"max_model_len":4100,"tokens":[]}`}}
		rec.answers["/v1/completions"] = []answer{{200, `{"choices":[{"text":"ok"}]}`}}
		d, err := completions.NewDriver(core.Config{BaseURL: srv.URL + "/v1"}, f, completions.DialectOpenAI, 0) // window from the probe
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Probe(context.Background())).To(Succeed())
		Expect(paths()).To(Equal([]string{"/v1/completions", "/v1/models"}), "the probe: a one-token completion, then the window")
		_, err = d.CompletePrompt(context.Background(), "a prompt", 0.001)
		Expect(err).NotTo(HaveOccurred())
		Expect(paths()[2:]).To(Equal([]string{"/tokenize", "/v1/completions"}))
		Expect(rec.got[3].Body).To(HaveKeyWithValue("max_tokens", float64(4100-1200-2)))
		Expect(rec.got[3].Body).To(HaveKeyWithValue("model", "Qwen/Qwen3-8B"))
		_, err = d.CompletePrompt(context.Background(), "again", 0.001)
		Expect(err).NotTo(HaveOccurred())
		Expect(paths()[4:]).To(Equal([]string{"/tokenize", "/v1/completions"}), "the window is asked once, before the run")
	})

	It("asks for 1000 tokens when the prompt overflows the window, as upstream", func() {
		f, _ := oss.ForRegistry("Qwen/Qwen3-8B-FC")
		rec.answers["/tokenize"] = []answer{{200, `{"count":5000}`}}
		rec.answers["/v1/completions"] = []answer{{200, `{"choices":[{"text":"ok"}]}`}}
		d, err := completions.NewDriver(core.Config{BaseURL: srv.URL + "/v1", Model: "my-lora"}, f, completions.DialectOpenAI, 4096)
		Expect(err).NotTo(HaveOccurred())
		_, err = d.CompletePrompt(context.Background(), "p", 0.001)
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.got[1].Body).To(HaveKeyWithValue("max_tokens", 1000.0))
		Expect(rec.got[1].Body).To(HaveKeyWithValue("model", "my-lora"), "a configured served name (a LoRA adapter) wins")
	})

	It("sends the same prompt to Ollama raw, its window being num_ctx", func() {
		f, _ := oss.ForRegistry("Qwen/Qwen3-8B-FC")
		rec.answers["/api/generate"] = []answer{{200, `{"response":"ok","prompt_eval_count":3,"eval_count":1}`}}
		d, err := completions.NewDriver(core.Config{BaseURL: srv.URL, Model: "qwen3:8b", NumCtx: 32768}, f, completions.DialectOllama, 0)
		Expect(err).NotTo(HaveOccurred())
		resp, err := d.CompletePrompt(context.Background(), "<|im_start|>user\nhi<|im_end|>\n", 0.001)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.InputTokens).To(Equal(3))
		Expect(paths()).To(Equal([]string{"/api/generate"}))
		Expect(rec.got[0].Body).To(HaveKeyWithValue("raw", true))
		Expect(rec.got[0].Body).To(HaveKeyWithValue("prompt", "<|im_start|>user\nhi<|im_end|>\n"))
	})
})
