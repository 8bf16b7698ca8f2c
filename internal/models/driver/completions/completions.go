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
// The request itself (prompt, temperature, max_tokens, extra body) is
// upstream's, built by internal/models/oss; max_tokens needs the prompt's
// token count, which upstream takes from the model's Hugging Face tokenizer
// (tokenize(), no special tokens added): CountTokens asks the server
// (POST <root>/tokenize, which vLLM, SGLang and llama.cpp answer).
package completions

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/oss"
)

// Dialects of the transport.
const (
	DialectOpenAI = "openai" // POST <base>/completions
	DialectOllama = "ollama" // POST <base>/api/generate, raw
)

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

type ollamaBody struct {
	Model   string        `json:"model"`
	Prompt  string        `json:"prompt"`
	Raw     bool          `json:"raw"`
	Stream  bool          `json:"stream"`
	Options ollamaOptions `json:"options"`
}

type ollamaOptions struct {
	Temperature float64 `json:"temperature"`
	NumPredict  int     `json:"num_predict"`
	NumCtx      int     `json:"num_ctx,omitempty"`
}

// Body is the request body Complete sends for r: upstream's body
// (oss.Request) to an OpenAI-compatible server; for Ollama the same prompt,
// temperature and max_tokens (num_predict) in a raw generate request, with
// the client's model name and context window. Ollama cannot take
// stop_token_ids or skip_special_tokens; the model's own stop tokens end
// the text there.
func (c *Client) Body(r oss.Request) ([]byte, error) {
	if c.dialect != DialectOllama {
		if r.Model == "" {
			r.Model = c.cfg.Model
		}
		return r.MarshalJSON()
	}
	return core.MarshalJSON(ollamaBody{Model: c.cfg.Model, Prompt: r.Prompt, Raw: true, Options: ollamaOptions{
		Temperature: r.Temperature, NumPredict: r.MaxTokens, NumCtx: c.cfg.NumCtx}})
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
func (c *Client) Complete(ctx context.Context, r oss.Request) (Completion, error) {
	body, err := c.Body(r)
	if err != nil {
		return Completion{}, err
	}
	return core.Retry(ctx, c.cfg, c.provider(), func(ctx context.Context) (Completion, error) {
		return c.attempt(ctx, c.endpoint(), body)
	})
}

func (c *Client) post(ctx context.Context, url string, body []byte) (*core.Exchange, time.Duration, error) {
	return core.Post(ctx, c.http, c.provider(), url, "application/json", c.cfg.APIKey, body)
}

func (c *Client) attempt(ctx context.Context, url string, body []byte) (Completion, error) {
	ex, latency, err := c.post(ctx, url, body)
	if err != nil {
		return Completion{}, err
	}
	if !ex.OK() {
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
