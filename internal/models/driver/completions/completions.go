// Package completions is the raw-prompt transport of upstream's local-model
// handlers (bfcl_eval/model_handler/local_inference/base_oss_handler.py,
// OSSHandler._query_prompting): the handler formats the whole prompt itself,
// and the server only continues the text. Two wire forms carry it:
//
//   - an OpenAI-compatible POST <base>/completions (vLLM, SGLang, llama.cpp
//     server, LM Studio, TGI's compatible route) with model, temperature,
//     prompt, max_tokens and the handler's extra body (stop_token_ids,
//     skip_special_tokens), the request upstream sends;
//   - Ollama's POST <base>/api/generate with raw: true, so that the same
//     prompt reaches a model served by Ollama without its chat template
//     (stop_token_ids cannot be sent there; stop strings can).
//
// max_tokens follows upstream: min(4096, context window - prompt tokens - 2),
// or 1000 when the prompt leaves less than 2 tokens. Upstream counts the
// prompt's tokens with the model's Hugging Face tokenizer (tokenize(), no
// special tokens added); here the server counts them (POST <root>/tokenize,
// which vLLM, SGLang and llama.cpp answer), and where it cannot, the count is
// unknown and max_tokens is upstream's cap of 4096 — the value upstream
// sends whenever the prompt leaves at least 4098 tokens of the window.
package completions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
)

// Dialects of the transport.
const (
	DialectOpenAI = "openai" // POST <base>/completions
	DialectOllama = "ollama" // POST <base>/api/generate, raw
)

// MaxTokensCap is upstream's cap on the generated tokens of a local model
// (base_oss_handler.py _query_prompting).
const MaxTokensCap = 4096

// overflowMaxTokens is what upstream asks for when the prompt already fills
// the context window ("we will get an error anyway").
const overflowMaxTokens = 1000

// MaxTokens is upstream's max_tokens for a prompt of promptTokens tokens in
// a context window of contextLen tokens. A non-positive contextLen or a
// negative promptTokens means unknown, and gives the cap.
func MaxTokens(contextLen, promptTokens int) int {
	if contextLen <= 0 || promptTokens < 0 {
		return MaxTokensCap
	}
	if contextLen < promptTokens+2 {
		return overflowMaxTokens
	}
	return min(MaxTokensCap, contextLen-promptTokens-2)
}

// Params are the sampling settings and the handler's extra body.
type Params struct {
	Temperature float64
	MaxTokens   int
	// StopTokenIDs and SkipSpecialTokens are vLLM's extra body fields, sent
	// only when the handler defines them (nil: absent).
	StopTokenIDs      []int
	SkipSpecialTokens *bool
	// Stop strings (Ollama's options.stop; OpenAI-compatible "stop").
	Stop []string
}

// Completion is the server's continuation of the prompt.
type Completion struct {
	Text                       string
	PromptTokens, OutputTokens int
	Latency                    time.Duration
	// Raw is the response body; Request the body sent.
	Raw, Request json.RawMessage
}

// Client sends prompts to one server.
type Client struct {
	cfg     core.Config
	dialect string
	http    *http.Client
}

// New returns a client for cfg (BaseURL, Model, APIKey, retries, timeouts).
// dialect is DialectOpenAI or DialectOllama.
func New(cfg core.Config, dialect string) (*Client, error) {
	cfg = cfg.Normalize()
	if cfg.BaseURL == "" {
		return nil, fmt.Errorf("completions: no base URL")
	}
	switch dialect {
	case DialectOpenAI, DialectOllama:
	default:
		return nil, fmt.Errorf("completions: unknown dialect %q (want %s or %s)", dialect, DialectOpenAI, DialectOllama)
	}
	hc, err := core.NewHTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{cfg: cfg, dialect: dialect, http: hc}, nil
}

func (c *Client) provider() string { return "completions(" + c.dialect + ")" }

// openAIBody is the /completions request, in the key order upstream's SDK
// call gives (model, temperature, prompt, max_tokens, then the extra body).
type openAIBody struct {
	Model             string   `json:"model"`
	Temperature       float64  `json:"temperature"`
	Prompt            string   `json:"prompt"`
	MaxTokens         int      `json:"max_tokens"`
	Stop              []string `json:"stop,omitempty"`
	StopTokenIDs      []int    `json:"stop_token_ids,omitempty"`
	SkipSpecialTokens *bool    `json:"skip_special_tokens,omitempty"`
}

type ollamaBody struct {
	Model   string        `json:"model"`
	Prompt  string        `json:"prompt"`
	Raw     bool          `json:"raw"`
	Stream  bool          `json:"stream"`
	Options ollamaOptions `json:"options"`
}

type ollamaOptions struct {
	Temperature float64  `json:"temperature"`
	NumPredict  int      `json:"num_predict"`
	NumCtx      int      `json:"num_ctx,omitempty"`
	Stop        []string `json:"stop,omitempty"`
}

// Body is the request body Complete sends for prompt (exported for tests
// and for the input log).
func (c *Client) Body(prompt string, p Params) ([]byte, error) {
	var v any
	if c.dialect == DialectOllama {
		v = ollamaBody{Model: c.cfg.Model, Prompt: prompt, Raw: true, Options: ollamaOptions{
			Temperature: p.Temperature, NumPredict: p.MaxTokens, NumCtx: c.cfg.NumCtx, Stop: p.Stop}}
	} else {
		v = openAIBody{Model: c.cfg.Model, Temperature: p.Temperature, Prompt: prompt, MaxTokens: p.MaxTokens,
			Stop: p.Stop, StopTokenIDs: p.StopTokenIDs, SkipSpecialTokens: p.SkipSpecialTokens}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func (c *Client) endpoint() string {
	base := strings.TrimRight(c.cfg.BaseURL, "/")
	if c.dialect == DialectOllama {
		return strings.TrimSuffix(base, "/v1") + "/api/generate"
	}
	return base + "/completions"
}

// Complete sends prompt and returns the continuation, retrying retryable
// failures (429, 5xx, timeouts, a 2xx body that is not the expected JSON).
func (c *Client) Complete(ctx context.Context, prompt string, p Params) (Completion, error) {
	body, err := c.Body(prompt, p)
	if err != nil {
		return Completion{}, err
	}
	return core.Retry(ctx, c.cfg, c.provider(), func(ctx context.Context) (Completion, error) {
		return c.attempt(ctx, c.endpoint(), body)
	})
}

func (c *Client) post(ctx context.Context, url string, body []byte) (*core.Exchange, time.Duration, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", c.provider(), err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if c.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
	}
	ctx, ex := core.WithExchange(ctx)
	ex.RequestBody = body
	start := time.Now()
	resp, err := c.http.Do(hreq.WithContext(ctx))
	if err != nil {
		return nil, 0, core.TransportError(ctx, c.provider(), err)
	}
	resp.Body.Close()
	return ex, ex.Latency(start), nil
}

func (c *Client) attempt(ctx context.Context, url string, body []byte) (Completion, error) {
	ex, latency, err := c.post(ctx, url, body)
	if err != nil {
		return Completion{}, err
	}
	if ex.Status < 200 || ex.Status > 299 {
		return Completion{}, core.HTTPError(c.provider(), ex.Status, ex.Header, ex.Body)
	}
	out, err := c.parse(ex.Body)
	if err != nil {
		// A proxy's HTML page or a torn body under a 200 is worth another try.
		e := core.DecodeError(c.provider(), ex.Body, err)
		e.Retryable = true
		return Completion{}, e
	}
	out.Latency, out.Raw, out.Request = latency, json.RawMessage(ex.Body), body
	return out, nil
}

func (c *Client) parse(body []byte) (Completion, error) {
	if c.dialect == DialectOllama {
		var w struct {
			Response        *string `json:"response"`
			PromptEvalCount int     `json:"prompt_eval_count"`
			EvalCount       int     `json:"eval_count"`
			Error           string  `json:"error"`
		}
		if err := json.Unmarshal(body, &w); err != nil {
			return Completion{}, err
		}
		if w.Error != "" {
			return Completion{}, fmt.Errorf("error in a 2xx response: %s", w.Error)
		}
		if w.Response == nil {
			return Completion{}, fmt.Errorf("no response field")
		}
		return Completion{Text: *w.Response, PromptTokens: w.PromptEvalCount, OutputTokens: w.EvalCount}, nil
	}
	var w struct {
		Choices []struct {
			Text *string `json:"text"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     int `json:"prompt_tokens"`
			CompletionTokens int `json:"completion_tokens"`
		} `json:"usage"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return Completion{}, err
	}
	if len(w.Error) > 0 && string(w.Error) != "null" {
		return Completion{}, fmt.Errorf("error in a 2xx response: %s", core.Excerpt(w.Error))
	}
	if len(w.Choices) == 0 || w.Choices[0].Text == nil {
		return Completion{}, fmt.Errorf("no choices[0].text")
	}
	out := Completion{Text: *w.Choices[0].Text}
	if w.Usage != nil {
		out.PromptTokens, out.OutputTokens = w.Usage.PromptTokens, w.Usage.CompletionTokens
	}
	return out, nil
}

// TokenCount is what the server says of a prompt: its token count (-1 when
// the server has no tokenize endpoint) and, when the server tells it, its
// context window (vLLM's max_model_len; 0 when not told).
type TokenCount struct {
	Tokens     int
	ContextLen int
}

// CountTokens asks the server to tokenize prompt without special tokens, as
// upstream's tokenizer.tokenize(prompt) counts. One body serves vLLM and
// SGLang (model, prompt, add_special_tokens) and llama.cpp (content,
// add_special). A server without the endpoint (404, 405, 501) gives
// Tokens -1 and no error; Ollama has none.
func (c *Client) CountTokens(ctx context.Context, prompt string) (TokenCount, error) {
	if c.dialect == DialectOllama {
		return TokenCount{Tokens: -1}, nil
	}
	body, err := json.Marshal(map[string]any{
		"model": c.cfg.Model, "prompt": prompt, "add_special_tokens": false,
		"content": prompt, "add_special": false,
	})
	if err != nil {
		return TokenCount{}, err
	}
	url := strings.TrimSuffix(strings.TrimRight(c.cfg.BaseURL, "/"), "/v1") + "/tokenize"
	return core.Retry(ctx, c.cfg, c.provider(), func(ctx context.Context) (TokenCount, error) {
		ex, _, err := c.post(ctx, url, body)
		if err != nil {
			return TokenCount{}, err
		}
		switch ex.Status {
		case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusNotImplemented:
			return TokenCount{Tokens: -1}, nil
		}
		if ex.Status < 200 || ex.Status > 299 {
			return TokenCount{}, core.HTTPError(c.provider()+" tokenize", ex.Status, ex.Header, ex.Body)
		}
		var w struct {
			Count       *int              `json:"count"`
			Tokens      []json.RawMessage `json:"tokens"`
			MaxModelLen int               `json:"max_model_len"`
		}
		if err := json.Unmarshal(ex.Body, &w); err != nil {
			e := core.DecodeError(c.provider()+" tokenize", ex.Body, err)
			e.Retryable = true
			return TokenCount{}, e
		}
		n := len(w.Tokens)
		if w.Count != nil {
			n = *w.Count
		}
		return TokenCount{Tokens: n, ContextLen: w.MaxModelLen}, nil
	})
}
