// Package anthropic drives Anthropic's Messages API through the official
// SDK (github.com/anthropics/anthropic-sdk-go/v2: authentication headers,
// API version, base URL), shaping the conversation the way upstream's
// ClaudeHandler does (bfcl_eval/model_handler/api_inference/claude.py):
// the first system message goes to the top-level "system" field as one text
// block, every user and system text becomes a [{"type":"text"}] content list,
// consecutive user texts are joined with a blank line, the results of one
// assistant turn's tool calls go back in a single user message of
// tool_result blocks, and the assistant's own content blocks are echoed back.
// Retries are ours (the SDK's are switched off) so that every provider obeys
// the same policy.
package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
)

// DefaultMaxTokens is sent when Request.MaxTokens is 0: max_tokens is
// mandatory, and upstream sends 64000 for the models it supports.
const DefaultMaxTokens = 64000

// Driver is the Anthropic Messages driver.
type Driver struct {
	cfg    core.Config
	client anthropic.Client
}

// New returns a driver for cfg (Provider is not checked). An empty BaseURL
// means the SDK's default (api.anthropic.com); an empty APIKey falls back to
// ANTHROPIC_API_KEY as the SDK reads it.
func New(cfg core.Config) (*Driver, error) {
	cfg = cfg.Normalize()
	if cfg.Model == "" {
		return nil, fmt.Errorf("anthropic driver: model name is empty")
	}
	if cfg.APIKey == "" && os.Getenv("ANTHROPIC_API_KEY") == "" && os.Getenv("ANTHROPIC_AUTH_TOKEN") == "" {
		// upstream's ClaudeHandler passes ANTHROPIC_API_KEY; say so in one
		// line rather than the SDK's list of credential sources
		return nil, core.KeyFrom(cfg, core.ProviderAnthropic, "ANTHROPIC_API_KEY").Missing()
	}
	hc, err := core.NewHTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("anthropic driver: %w", err)
	}
	opts := []option.RequestOption{option.WithHTTPClient(hc), option.WithMaxRetries(0)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	return &Driver{cfg: cfg, client: anthropic.NewClient(opts...)}, nil
}

// Name is "anthropic:<model>".
func (d *Driver) Name() string { return core.ProviderAnthropic + ":" + d.cfg.Model }

type textBlock struct {
	Type         string        `json:"type"`
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

// cacheControl is a prompt-cache mark.
type cacheControl struct {
	Type string `json:"type"`
}

// ephemeral is the mark upstream's ClaudeHandler sets.
var ephemeral = &cacheControl{Type: "ephemeral"}

type toolUseBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type toolResultBlock struct {
	Type         string        `json:"type"`
	Content      string        `json:"content"`
	ToolUseID    string        `json:"tool_use_id"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

// wireMessage is one message; Text, when set, is its content as a plain
// string (upstream's prompt-mode assistant turns) and Content is ignored.
type wireMessage struct {
	Role    string
	Content []any
	Text    *string
}

func (m wireMessage) MarshalJSON() ([]byte, error) {
	var content any = m.Content
	if m.Text != nil {
		content = *m.Text
	}
	return marshalNoHTML(struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	}{m.Role, content})
}

func marshalNoHTML(v any) ([]byte, error) { return core.MarshalJSON(v) }

type wireRequest struct {
	Model       string            `json:"model"`
	MaxTokens   int               `json:"max_tokens"`
	Temperature float64           `json:"temperature"`
	Tools       []json.RawMessage `json:"tools,omitempty"`
	Messages    []wireMessage     `json:"messages"`
	System      []textBlock       `json:"system,omitempty"`
}

// BuildRequest is the request body Complete sends.
func (d *Driver) BuildRequest(req core.Request) ([]byte, error) {
	w := wireRequest{Model: d.cfg.Model, MaxTokens: req.MaxTokens, Temperature: req.Temperature}
	if w.MaxTokens <= 0 {
		w.MaxTokens = DefaultMaxTokens
	}
	if d.cfg.Mode == core.ModeFC && len(req.Functions) > 0 {
		tools, err := core.ConvertFunctions(req.Functions, core.ProviderAnthropic, d.cfg.ToolNamesUnderscored())
		if err != nil {
			return nil, fmt.Errorf("anthropic driver: %w", err)
		}
		w.Tools = tools
	}
	msgs := req.Messages
	// upstream's extract_system_prompt: the first system message, removed
	for i, m := range msgs {
		if m.Role == core.RoleSystem {
			w.System = []textBlock{{Type: "text", Text: m.Content}}
			msgs = append(append([]core.Message{}, msgs[:i]...), msgs[i+1:]...)
			break
		}
	}
	lastPlainUser := -1 // index in w.Messages of a user message made of one text block
	for i, m := range msgs {
		switch m.Role {
		case core.RoleUser, core.RoleSystem:
			// a later system message is sent as user text, as upstream's
			// handlers leave only the first one out of the message list
			if lastPlainUser >= 0 && lastPlainUser == len(w.Messages)-1 {
				tb := w.Messages[lastPlainUser].Content[0].(textBlock)
				tb.Text += "\n\n" + m.Content
				w.Messages[lastPlainUser].Content[0] = tb
				continue
			}
			role := m.Role
			if role == core.RoleSystem {
				role = core.RoleUser
			}
			w.Messages = append(w.Messages, wireMessage{Role: role, Content: []any{textBlock{Type: "text", Text: m.Content}}})
			lastPlainUser = len(w.Messages) - 1
		case core.RoleAssistant:
			if d.cfg.Mode == core.ModePrompt {
				// upstream's _add_assistant_message_prompting: the answer text
				text := m.Content
				w.Messages = append(w.Messages, wireMessage{Role: core.RoleAssistant, Text: &text})
				continue
			}
			content, err := assistantContent(m)
			if err != nil {
				return nil, fmt.Errorf("anthropic driver: message %d: %w", i, err)
			}
			w.Messages = append(w.Messages, wireMessage{Role: core.RoleAssistant, Content: content})
		case core.RoleTool:
			block := toolResultBlock{Type: "tool_result", Content: m.Content, ToolUseID: m.ToolCallID}
			if n := len(w.Messages); n > 0 && i > 0 && msgs[i-1].Role == core.RoleTool {
				w.Messages[n-1].Content = append(w.Messages[n-1].Content, block)
				continue
			}
			w.Messages = append(w.Messages, wireMessage{Role: core.RoleUser, Content: []any{block}})
		default:
			return nil, fmt.Errorf("anthropic driver: message %d has unknown role %q", i, m.Role)
		}
	}
	if CachingEnabled(req.EntryID) {
		markCachePoints(&w)
	}
	b, err := marshalNoHTML(w)
	if err != nil {
		return nil, fmt.Errorf("anthropic driver: encode request: %w", err)
	}
	return b, nil
}

// CachingEnabled is upstream's caching_enabled of ClaudeHandler: true for
// entries of multi-turn and agentic categories
// (contain_multi_turn_interaction of the id's category, the id less its
// last "_" part).
func CachingEnabled(entryID string) bool {
	i := strings.LastIndex(entryID, "_")
	if i < 0 {
		return false
	}
	c := entryID[:i]
	return strings.Contains(c, "multi_turn") || strings.Contains(c, "web_search") || strings.Contains(c, "memory")
}

// markCachePoints sets upstream's cache_control marks: on the system
// prompt, on the first block of the last two user messages, and on the
// last tool.
func markCachePoints(w *wireRequest) {
	if len(w.System) > 0 {
		w.System[0].CacheControl = ephemeral
	}
	n := 0
	for i := len(w.Messages) - 1; i >= 0 && n < 2; i-- {
		m := &w.Messages[i]
		if m.Role != core.RoleUser || len(m.Content) == 0 {
			continue
		}
		switch b := m.Content[0].(type) {
		case textBlock:
			b.CacheControl = ephemeral
			m.Content[0] = b
		case toolResultBlock:
			b.CacheControl = ephemeral
			m.Content[0] = b
		}
		n++
	}
	if k := len(w.Tools); k > 0 {
		last := bytes.TrimRight(w.Tools[k-1], " \n")
		tool := make([]byte, 0, len(last)+40)
		tool = append(tool, last[:len(last)-1]...)
		tool = append(tool, `, "cache_control": {"type": "ephemeral"}}`...)
		w.Tools = append(w.Tools[:k-1:k-1], json.RawMessage(tool))
	}
}

// assistantContent is the content list of an assistant turn: its replayed
// blocks when present, else a text block (if any text) and tool_use blocks.
func assistantContent(m core.Message) ([]any, error) {
	if len(m.Replay) > 0 {
		var blocks []json.RawMessage
		if err := json.Unmarshal(m.Replay, &blocks); err != nil {
			return nil, fmt.Errorf("replay is not a content block list: %w", err)
		}
		out := make([]any, len(blocks))
		for i, b := range blocks {
			out[i] = b
		}
		return out, nil
	}
	var out []any
	if m.Content != "" {
		out = append(out, textBlock{Type: "text", Text: m.Content})
	}
	for j, tc := range m.ToolCalls {
		input := strings.TrimSpace(tc.Arguments)
		if input == "" {
			input = "{}"
		}
		if !json.Valid([]byte(input)) {
			return nil, fmt.Errorf("tool call %d (%s): arguments are not JSON: %q", j, tc.Name, tc.Arguments)
		}
		out = append(out, toolUseBlock{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: json.RawMessage(input)})
	}
	if out == nil {
		out = []any{textBlock{Type: "text", Text: ""}}
	}
	return out, nil
}

// Complete sends one Messages request, retrying retryable failures.
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	return core.Retry(ctx, d.cfg, core.ProviderAnthropic, func(ctx context.Context) (core.Response, error) {
		ctx, ex := core.WithExchange(ctx)
		var raw []byte
		start := time.Now()
		err := d.client.Post(ctx, "v1/messages", json.RawMessage(body), &raw)
		latency := ex.Latency(start)
		if ex.Status >= 400 {
			return core.Response{}, core.HTTPError(core.ProviderAnthropic, ex.Status, ex.Header, ex.Body)
		}
		if err != nil {
			return core.Response{}, core.TransportError(ctx, core.ProviderAnthropic, err)
		}
		out, err := parseResponse(ex.Body, latency)
		out.Request = ex.RequestBody
		return out, err
	})
}

type wireResponse struct {
	Type    string            `json:"type"`
	Content []json.RawMessage `json:"content"`
	Usage   struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

type wireBlock struct {
	Type     string          `json:"type"`
	Text     string          `json:"text"`
	Thinking string          `json:"thinking"`
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Input    json.RawMessage `json:"input"`
}

func parseResponse(body []byte, latency time.Duration) (core.Response, error) {
	var w wireResponse
	if err := json.Unmarshal(body, &w); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderAnthropic, body, err)
	}
	if w.Type == "error" || w.Error != nil {
		return core.Response{}, &core.Error{Provider: core.ProviderAnthropic, Body: "error in a 2xx response: " + core.Excerpt(body)}
	}
	out := core.Response{InputTokens: w.Usage.InputTokens, OutputTokens: w.Usage.OutputTokens, Latency: latency, Raw: json.RawMessage(body)}
	var text, thinking []string
	for i, raw := range w.Content {
		var b wireBlock
		if err := json.Unmarshal(raw, &b); err != nil {
			return core.Response{}, core.DecodeError(core.ProviderAnthropic, body, fmt.Errorf("content block %d: %w", i, err))
		}
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "thinking":
			thinking = append(thinking, b.Thinking)
		case "tool_use":
			var buf bytes.Buffer
			input := bytes.TrimSpace(b.Input)
			if len(input) == 0 {
				input = []byte("{}")
			}
			if err := json.Compact(&buf, input); err != nil {
				return core.Response{}, core.DecodeError(core.ProviderAnthropic, body, fmt.Errorf("tool_use %d input: %w", i, err))
			}
			out.ToolCalls = append(out.ToolCalls, core.ToolCall{ID: b.ID, Name: b.Name, Arguments: buf.String()})
		}
	}
	out.Text = strings.Join(text, "")
	out.Reasoning = strings.Join(thinking, "\n")
	replay, err := json.Marshal(replayBlocks(w.Content))
	if err != nil {
		return core.Response{}, core.DecodeError(core.ProviderAnthropic, body, err)
	}
	out.Replay = replay
	return out, nil
}

// replayBlocks keeps, of each response block, the fields a request accepts
// (a response's text blocks carry e.g. "citations": null).
func replayBlocks(blocks []json.RawMessage) []any {
	out := make([]any, 0, len(blocks))
	for _, raw := range blocks {
		var b struct {
			Type      string          `json:"type"`
			Text      string          `json:"text"`
			Thinking  string          `json:"thinking"`
			Signature string          `json:"signature"`
			Data      string          `json:"data"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Input     json.RawMessage `json:"input"`
		}
		if json.Unmarshal(raw, &b) != nil {
			out = append(out, raw)
			continue
		}
		switch b.Type {
		case "text":
			out = append(out, textBlock{Type: "text", Text: b.Text})
		case "tool_use":
			input := bytes.TrimSpace(b.Input)
			if len(input) == 0 {
				input = []byte("{}")
			}
			out = append(out, toolUseBlock{Type: "tool_use", ID: b.ID, Name: b.Name, Input: input})
		case "thinking":
			out = append(out, map[string]string{"type": "thinking", "thinking": b.Thinking, "signature": b.Signature})
		case "redacted_thinking":
			out = append(out, map[string]string{"type": "redacted_thinking", "data": b.Data})
		default:
			out = append(out, raw)
		}
	}
	return out
}

// Probe checks, before a run, that the API answers, accepts the key and
// knows the model (the SDK's models get). The API does not say whether a
// model supports tools (every current Claude model does).
func (d *Driver) Probe(ctx context.Context) error {
	base := d.cfg.BaseURL
	if base == "" {
		base = "https://api.anthropic.com"
	}
	ctx, ex := core.WithExchange(ctx)
	_, err := d.client.Models.Get(ctx, d.cfg.Model, anthropic.ModelGetParams{})
	if pe := core.ClassifyProbe(ctx, core.ProviderAnthropic, base, d.cfg.Model, "GET /v1/models/"+d.cfg.Model, ex, err); pe != nil {
		return pe
	}
	return nil
}
