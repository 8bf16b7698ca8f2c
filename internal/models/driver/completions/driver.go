package completions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/oss"
)

// Driver runs a model through one of upstream's local-model handler
// classes: the class's Format (internal/models/oss) writes every prompt,
// and the Client sends it. The inference loop asks it for the Format and
// calls CompletePrompt with each formatted prompt.
type Driver struct {
	client *Client
	format oss.Format
	cfg    core.Config

	// window is the context window in tokens (0: unknown); Probe learns
	// it from the server before the run when it was not configured. It is
	// never fetched from the request path, where a shared wait would hold
	// the run's CPU slots (internal/run/sched) while the fetch needs one.
	window atomic.Int64
}

// ErrNoPrompt is what Complete answers to a request without a prompt: a
// local-model handler's requests are formatted prompts, never chat
// messages.
var ErrNoPrompt = errors.New("completions driver: a local-model handler's request is a formatted prompt (Request.Prompt), not chat messages")

// NewDriver returns a driver for format served at cfg.BaseURL. cfg.Model
// is the served model name ("" means the format's, upstream's
// model_path_or_id); contextWindow is the model's context window in tokens
// (upstream: max_position_embeddings; 0: asked from the server, vLLM's
// max_model_len, or Ollama's num_ctx).
func NewDriver(cfg core.Config, format oss.Format, dialect string, contextWindow int) (*Driver, error) {
	if format == nil {
		return nil, fmt.Errorf("completions driver: no handler format")
	}
	if _, err := format.Prompt([]oss.Message{oss.Text("user", "Hi")}, nil); errors.Is(err, oss.ErrNeedsChatTemplate) {
		return nil, fmt.Errorf("%s cannot be run: %w", format.Class(), err)
	}
	if cfg.Model == "" {
		cfg.Model = format.ServedModel()
	}
	c, err := New(cfg, dialect)
	if err != nil {
		return nil, err
	}
	d := &Driver{client: c, format: format, cfg: c.cfg}
	if contextWindow == 0 && dialect == DialectOllama {
		contextWindow = c.cfg.NumCtx
	}
	d.window.Store(int64(contextWindow))
	return d, nil
}

// Name identifies the driver in logs.
func (d *Driver) Name() string {
	return d.client.dialect + "-raw:" + d.format.Class() + ":" + d.cfg.Model
}

// Format is the handler class that writes the prompts.
func (d *Driver) Format() oss.Format { return d.format }

// Complete sends req.Prompt (see CompletePrompt); req.MaxTokens, when
// positive, replaces upstream's computed max_tokens (the user's
// max_tokens setting).
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	if req.Prompt == "" {
		return core.Response{}, ErrNoPrompt
	}
	return d.complete(ctx, req.Prompt, req.Temperature, req.MaxTokens)
}

// CompletePrompt sends prompt as upstream's OSSHandler._query_prompting
// does: the format's served model and extra body, the temperature, and
// max_tokens = min(4096, window - prompt tokens - 2) (1000 when the prompt
// overflows). The prompt's tokens are counted by the server only when it
// matters: a prompt of B bytes has at most B+1 tokens, so when the window
// leaves 4096 tokens beyond that, max_tokens is 4096 without asking. When
// the window is unknown, it is 4096, upstream's value for every prompt that
// leaves room for a full answer; when the server cannot count, it is the
// largest value that surely fits the window (then not upstream's).
func (d *Driver) CompletePrompt(ctx context.Context, prompt string, temperature float64) (core.Response, error) {
	return d.complete(ctx, prompt, temperature, 0)
}

func (d *Driver) complete(ctx context.Context, prompt string, temperature float64, maxTokens int) (core.Response, error) {
	if maxTokens <= 0 {
		var err error
		if maxTokens, err = d.maxTokens(ctx, prompt); err != nil {
			return core.Response{}, err
		}
	}
	req := oss.Request{Model: d.cfg.Model, Prompt: prompt, Temperature: temperature, MaxTokens: maxTokens, Extras: d.format.Extras()}
	out, err := d.client.Complete(ctx, req)
	if err != nil {
		return core.Response{}, err
	}
	return core.Response{Text: out.Text, InputTokens: out.PromptTokens, OutputTokens: out.OutputTokens,
		Latency: out.Latency, Raw: out.Raw, Request: out.Request}, nil
}

func (d *Driver) maxTokens(ctx context.Context, prompt string) (int, error) {
	window := int(d.window.Load())
	if window > 0 && window-(len(prompt)+1)-2 >= oss.DefaultMaxTokens {
		return oss.DefaultMaxTokens, nil
	}
	n, err := d.client.CountTokens(ctx, prompt)
	if err != nil {
		return 0, err
	}
	if window == 0 {
		window = n.ContextLen
	}
	switch {
	case window <= 0:
		return oss.DefaultMaxTokens, nil
	case n.Tokens < 0:
		// The server cannot count: the largest value that surely fits
		// (a prompt of B bytes has at most B+1 tokens), else upstream's
		// 1000 for a prompt that may not fit at all.
		if m := window - (len(prompt) + 1) - 2; m > 0 {
			return m, nil
		}
		return oss.MaxTokens(window, window), nil
	}
	return oss.MaxTokens(n.Tokens, window), nil
}

// LearnWindow asks the server for the model's context window (vLLM's
// max_model_len under GET <base>/models) when none was configured; Probe
// calls it before the run.
func (d *Driver) LearnWindow(ctx context.Context) error {
	if d.window.Load() > 0 || d.client.dialect != DialectOpenAI {
		return nil
	}
	n, err := d.client.servedWindow(ctx)
	if err != nil {
		return err
	}
	d.window.Store(int64(n))
	return nil
}

// servedWindow reads max_model_len of the client's model from GET
// <base>/models (0 when the server does not list it, or has no list).
func (c *Client) servedWindow(ctx context.Context) (int, error) {
	url := strings.TrimRight(c.cfg.BaseURL, "/") + "/models"
	return core.Retry(ctx, c.cfg, c.provider(), func(ctx context.Context) (int, error) {
		hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return 0, err
		}
		if c.cfg.APIKey != "" {
			hreq.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
		}
		ctx, ex := core.WithExchange(ctx)
		resp, err := c.http.Do(hreq.WithContext(ctx))
		if err != nil {
			return 0, core.TransportError(ctx, c.provider(), err)
		}
		resp.Body.Close()
		if ex.Status == http.StatusNotFound || ex.Status == http.StatusMethodNotAllowed || ex.Status == http.StatusNotImplemented {
			return 0, nil
		}
		if ex.Status < 200 || ex.Status > 299 {
			return 0, core.HTTPError(c.provider()+" models", ex.Status, ex.Header, ex.Body)
		}
		var w struct {
			Data []struct {
				ID          string `json:"id"`
				MaxModelLen int    `json:"max_model_len"`
			} `json:"data"`
		}
		if json.Unmarshal(ex.Body, &w) != nil {
			return 0, nil
		}
		for _, m := range w.Data {
			if m.ID == c.cfg.Model {
				return m.MaxModelLen, nil
			}
		}
		return 0, nil
	})
}

// Probe checks before a run that the server answers, takes the key and
// serves the model: a one-token completion of "Hi" (OpenAI-compatible), or
// Ollama's POST /api/show of the model.
func (d *Driver) Probe(ctx context.Context) error {
	c := d.client
	base := c.cfg.BaseURL
	var url string
	var body []byte
	if c.dialect == DialectOllama {
		url = strings.TrimSuffix(strings.TrimRight(base, "/"), "/v1") + "/api/show"
		body, _ = json.Marshal(map[string]string{"model": c.cfg.Model})
	} else {
		url = c.endpoint()
		var err error
		if body, err = (oss.Request{Model: c.cfg.Model, Prompt: "Hi", MaxTokens: 1, Extras: d.format.Extras()}).MarshalJSON(); err != nil {
			return err
		}
	}
	ex, _, err := c.post(ctx, url, body)
	if pe := core.ClassifyProbe(ctx, c.provider(), base, c.cfg.Model, "POST "+url, ex, err); pe != nil {
		return pe
	}
	if c.dialect == DialectOpenAI {
		if _, err := c.parse(ex.Body); err != nil {
			return &core.ProbeError{Provider: c.provider(), Base: base, Model: c.cfg.Model, Kind: "server",
				Cause: fmt.Sprintf("%s answered a one-token completion (POST %s) with something that is not a text completion: %v; base_url must be the API root of an OpenAI-compatible server with /completions (vLLM, SGLang, llama.cpp), e.g. http://host:8000/v1", base, url, err)}
		}
	}
	return d.LearnWindow(ctx)
}
