// Package ollama drives an Ollama server through its native /api/chat
// endpoint with the official client (github.com/ollama/ollama/api):
// non-streaming, tools in FC mode (shaped like upstream's OpenAI-completions
// tools), num_ctx always set, and prompt truncation or context shifting
// turned off so that a prompt that does not fit is an error instead of a
// silently shortened conversation. Since Ollama v0.14 tool-call arguments
// arrive as a JSON object; they are taken from the raw response body so
// their key order and number spelling are kept.
package ollama

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/ollama/ollama/api"
)

// DefaultBaseURL is used when Config.BaseURL is empty.
const DefaultBaseURL = "http://127.0.0.1:11434"

// ErrContextOverflow marks a prompt that filled Ollama's context window.
var ErrContextOverflow = errors.New("prompt does not fit the context window")

// Driver is the Ollama /api/chat driver.
type Driver struct {
	cfg    core.Config
	base   *url.URL
	client *api.Client
}

// New returns a driver for cfg (Provider is not checked). BaseURL is the
// server root, e.g. http://127.0.0.1:11434 (a trailing /v1 is refused: use
// the openai driver for that endpoint).
func New(cfg core.Config) (*Driver, error) {
	cfg = cfg.Normalize()
	if cfg.Model == "" {
		return nil, fmt.Errorf("ollama driver: model name is empty")
	}
	raw := cfg.BaseURL
	if raw == "" {
		raw = DefaultBaseURL
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("ollama driver: base URL %q must look like http://host:port", raw)
	}
	if strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/v1") {
		return nil, fmt.Errorf("ollama driver: base URL %q points at the OpenAI-compatible /v1 API; give the server root, or use provider openai", raw)
	}
	hc, err := core.NewHTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("ollama driver: %w", err)
	}
	return &Driver{cfg: cfg, base: u, client: api.NewClient(u, hc)}, nil
}

// Name is "ollama:<model>".
func (d *Driver) Name() string { return core.ProviderOllama + ":" + d.cfg.Model }

// Probe checks that the model exists on the server and, in FC mode, that
// its template supports tools.
func (d *Driver) Probe(ctx context.Context) error {
	ctx, ex := core.WithExchange(ctx)
	show, err := d.client.Show(ctx, &api.ShowRequest{Model: d.cfg.Model})
	pe := func(kind, cause string) error {
		return &core.ProbeError{Provider: core.ProviderOllama, Base: d.base.String(), Model: d.cfg.Model, Kind: kind, Cause: cause}
	}
	if err != nil {
		if ex.Status == 404 {
			return pe("model", fmt.Sprintf("model %q not found on %s (pull or create it first): %s", d.cfg.Model, d.base, core.Excerpt(ex.Body)))
		}
		if p := core.ClassifyProbe(ctx, core.ProviderOllama, d.base.String(), d.cfg.Model, "POST /api/show", ex, err); p != nil {
			return p
		}
		return pe("server", err.Error())
	}
	if d.cfg.Mode == core.ModeFC {
		var caps []string
		for _, c := range show.Capabilities {
			caps = append(caps, string(c))
			if string(c) == "tools" {
				return nil
			}
		}
		return pe("tools", fmt.Sprintf("model %q cannot be used in fc mode: its capabilities are [%s], without \"tools\" (its template does not render tools); use prompt mode", d.cfg.Model, strings.Join(caps, ", ")))
	}
	return nil
}

// BuildRequest is the chat request Complete sends.
func (d *Driver) BuildRequest(req core.Request) (*api.ChatRequest, error) {
	stream, off := false, false
	opts := map[string]any{"temperature": req.Temperature, "num_ctx": d.cfg.NumCtx}
	if req.MaxTokens > 0 {
		opts["num_predict"] = req.MaxTokens
	}
	if req.Seed != nil {
		opts["seed"] = *req.Seed
	}
	cr := &api.ChatRequest{Model: d.cfg.Model, Stream: &stream, Options: opts, Truncate: &off, Shift: &off}
	if d.cfg.Mode == core.ModeFC && len(req.Functions) > 0 {
		tools, err := core.ConvertFunctions(req.Functions, core.ProviderOllama, d.cfg.ToolNamesUnderscored())
		if err != nil {
			return nil, fmt.Errorf("ollama driver: %w", err)
		}
		cr.Tools = make(api.Tools, len(tools))
		for i, t := range tools {
			if err := json.Unmarshal(t, &cr.Tools[i]); err != nil {
				return nil, fmt.Errorf("ollama driver: tool %d does not fit Ollama's tool schema: %w", i, err)
			}
		}
	}
	for i, m := range req.Messages {
		am := api.Message{Role: m.Role, Content: m.Content}
		switch m.Role {
		case core.RoleSystem, core.RoleUser:
		case core.RoleAssistant:
			for j, tc := range m.ToolCalls {
				args := api.NewToolCallFunctionArguments()
				text := strings.TrimSpace(tc.Arguments)
				if text == "" {
					text = "{}"
				}
				if err := args.UnmarshalJSON([]byte(text)); err != nil {
					return nil, fmt.Errorf("ollama driver: message %d tool call %d (%s): arguments are not a JSON object: %w", i, j, tc.Name, err)
				}
				am.ToolCalls = append(am.ToolCalls, api.ToolCall{ID: tc.ID, Function: api.ToolCallFunction{Index: j, Name: tc.Name, Arguments: args}})
			}
		case core.RoleTool:
			am.ToolCallID = m.ToolCallID
			am.ToolName = m.Name
			if am.ToolName == "" {
				am.ToolName = core.ToolNameFor(req.Messages[:i], m.ToolCallID)
			}
		default:
			return nil, fmt.Errorf("ollama driver: message %d has unknown role %q", i, m.Role)
		}
		cr.Messages = append(cr.Messages, am)
	}
	return cr, nil
}

// Complete sends one non-streaming /api/chat request, retrying retryable
// failures.
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	cr, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	return core.Retry(ctx, d.cfg, core.ProviderOllama, func(ctx context.Context) (core.Response, error) {
		return d.attempt(ctx, cr)
	})
}

func (d *Driver) attempt(ctx context.Context, cr *api.ChatRequest) (core.Response, error) {
	ctx, ex := core.WithExchange(ctx)
	start := time.Now()
	err := d.client.Chat(ctx, cr, func(api.ChatResponse) error { return nil })
	latency := ex.Latency(start)
	if ex.Status >= 400 {
		e := core.HTTPError(core.ProviderOllama, ex.Status, ex.Header, ex.Body)
		if bytes.Contains(ex.Body, []byte("exceeds the context length")) {
			e.Err = ErrContextOverflow
			e.Body += fmt.Sprintf(" (num_ctx %d; raise NumCtx)", d.cfg.NumCtx)
		}
		return core.Response{}, e
	}
	if err != nil {
		if ex.Status != 0 {
			// a 2xx response carrying an error line
			return core.Response{}, &core.Error{Provider: core.ProviderOllama, StatusCode: ex.Status, Body: core.Excerpt(ex.Body), Err: err}
		}
		return core.Response{}, core.TransportError(ctx, core.ProviderOllama, err)
	}
	out, err := d.parse(ex.Body, latency)
	out.Request = ex.RequestBody
	return out, err
}

type wireResponse struct {
	Message struct {
		Content   string                `json:"content"`
		Thinking  string                `json:"thinking"`
		ToolCalls []core.AnswerToolCall `json:"tool_calls"`
	} `json:"message"`
	Done            bool   `json:"done"`
	DoneReason      string `json:"done_reason"`
	PromptEvalCount int    `json:"prompt_eval_count"`
	EvalCount       int    `json:"eval_count"`
}

func (d *Driver) parse(body []byte, latency time.Duration) (core.Response, error) {
	// A non-streamed reply is one JSON object; tolerate a trailing newline
	// and, defensively, NDJSON by taking the last line.
	lines := bytes.Split(bytes.TrimSpace(body), []byte("\n"))
	last := lines[len(lines)-1]
	var w wireResponse
	if err := json.Unmarshal(last, &w); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderOllama, body, err)
	}
	if w.PromptEvalCount >= d.cfg.NumCtx {
		return core.Response{}, &core.Error{Provider: core.ProviderOllama, Err: ErrContextOverflow,
			Body: fmt.Sprintf("prompt_eval_count %d reached num_ctx %d: the prompt was truncated or fills the context window; raise NumCtx", w.PromptEvalCount, d.cfg.NumCtx)}
	}
	if w.DoneReason == "length" && w.PromptEvalCount+w.EvalCount >= d.cfg.NumCtx {
		return core.Response{}, &core.Error{Provider: core.ProviderOllama, Err: ErrContextOverflow,
			Body: fmt.Sprintf("generation stopped at the context limit (prompt %d + output %d tokens >= num_ctx %d); raise NumCtx", w.PromptEvalCount, w.EvalCount, d.cfg.NumCtx)}
	}
	out := core.Response{
		Text:         w.Message.Content,
		Reasoning:    w.Message.Thinking,
		InputTokens:  w.PromptEvalCount,
		OutputTokens: w.EvalCount,
		Latency:      latency,
		Raw:          json.RawMessage(last),
	}
	for i, tc := range w.Message.ToolCalls {
		args, err := core.ArgumentsText(tc.Function.Arguments, "{}")
		if err != nil {
			return core.Response{}, core.DecodeError(core.ProviderOllama, body, fmt.Errorf("tool call %d arguments: %w", i, err))
		}
		out.ToolCalls = append(out.ToolCalls, core.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
	}
	return out, nil
}
