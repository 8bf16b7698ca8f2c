// Package mistral drives Mistral's chat completions API
// (POST https://api.mistral.ai/v1/chat/completions) with net/http — Mistral
// publishes no Go SDK — shaped like upstream's MistralHandler
// (bfcl_eval/model_handler/api_inference/mistral.py, which calls the
// mistralai SDK's chat.complete): model, messages, temperature and, in FC
// mode, the tools (always, also an empty list); "stream": false as the
// SDK's request model sends its default. The key is MISTRAL_API_KEY. The
// assistant message of the answer goes back into the history as the API
// sent it (upstream appends the SDK's message object), tool results as
// {"role":"tool","name","content","tool_call_id"} messages.
//
// An answer whose tool_calls is absent or null is a text turn; an empty
// list is an empty list of calls, as upstream's parser reads it (stored as
// [] unless the empty-tool-calls correction is on; see
// internal/config/corrections).
package mistral

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
)

// DefaultBaseURL is the API root used when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.mistral.ai"

// KeyEnv is the variable upstream's handler reads the key from.
const KeyEnv = "MISTRAL_API_KEY"

// Driver is the Mistral driver.
type Driver struct{ core.KeyedAPI }

// New returns a driver for cfg.
func New(cfg core.Config) (*Driver, error) {
	api, err := core.NewKeyedAPI(cfg, core.ProviderMistral, KeyEnv, DefaultBaseURL, "/v1/chat/completions")
	if err != nil {
		return nil, err
	}
	return &Driver{api}, nil
}

type wireMessage struct {
	Role       string              `json:"role"`
	Content    *string             `json:"content"`
	ToolCalls  []core.ChatToolCall `json:"tool_calls,omitempty"`
	Name       string              `json:"name,omitempty"`
	ToolCallID string              `json:"tool_call_id,omitempty"`
}

type wireRequest struct {
	Model       string            `json:"model"`
	Messages    []json.RawMessage `json:"messages"`
	Tools       []json.RawMessage `json:"tools,omitempty"`
	Temperature float64           `json:"temperature"`
	Stream      bool              `json:"stream"`
}

// BuildRequest is the body Complete sends.
func (d *Driver) BuildRequest(req core.Request) ([]byte, error) {
	w := wireRequest{Model: d.Cfg.Model, Temperature: req.Temperature}
	if d.Cfg.Mode == core.ModeFC {
		tools, err := core.ConvertFunctions(req.Functions, core.ProviderMistral, d.Cfg.ToolNamesUnderscored())
		if err != nil {
			return nil, fmt.Errorf("mistral driver: %w", err)
		}
		w.Tools = tools
		if w.Tools == nil {
			w.Tools = []json.RawMessage{}
		}
	}
	for i, m := range req.Messages {
		raw, err := encodeMessage(m)
		if err != nil {
			return nil, fmt.Errorf("mistral driver: message %d: %w", i, err)
		}
		w.Messages = append(w.Messages, raw)
	}
	return core.MarshalRequest("mistral", w)
}

func encodeMessage(m core.Message) (json.RawMessage, error) {
	content := m.Content
	wm := wireMessage{Role: m.Role, Content: &content}
	switch m.Role {
	case core.RoleSystem, core.RoleUser:
	case core.RoleAssistant:
		if len(m.Replay) > 0 {
			return m.Replay, nil // the API's own message, as upstream echoes it
		}
		if len(m.ToolCalls) > 0 && content == "" {
			wm.Content = nil
		}
		wm.ToolCalls = core.ChatToolCalls(m.ToolCalls)
	case core.RoleTool:
		wm.Name, wm.ToolCallID = m.Name, m.ToolCallID
	default:
		return nil, fmt.Errorf("unknown role %q", m.Role)
	}
	return core.MarshalRequest("mistral", wm)
}

// Complete sends one chat completion, retrying retryable failures.
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	return d.Call(ctx, "application/json", body, parseResponse)
}

type wireResponse struct {
	Choices []struct {
		Message json.RawMessage `json:"message"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

type wireAnswer struct {
	Content   json.RawMessage        `json:"content"`
	ToolCalls *[]core.AnswerToolCall `json:"tool_calls"`
}

func parseResponse(body []byte, latency time.Duration) (core.Response, error) {
	var w wireResponse
	if err := json.Unmarshal(body, &w); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderMistral, body, err)
	}
	if len(w.Choices) == 0 || len(w.Choices[0].Message) == 0 {
		return core.Response{}, core.DecodeError(core.ProviderMistral, body, fmt.Errorf("no choices"))
	}
	var a wireAnswer
	if err := json.Unmarshal(w.Choices[0].Message, &a); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderMistral, body, err)
	}
	out := core.Response{Latency: latency, Raw: json.RawMessage(body), Replay: w.Choices[0].Message}
	text, err := contentText(a.Content)
	if err != nil {
		return core.Response{}, core.DecodeError(core.ProviderMistral, body, err)
	}
	out.Text = text
	if a.ToolCalls != nil {
		// upstream: a list (also empty) is the answer; only null falls back to the text
		out.ToolCalls = make([]core.ToolCall, 0, len(*a.ToolCalls))
		for i, tc := range *a.ToolCalls {
			args, err := core.ArgumentsText(tc.Function.Arguments, "")
			if err != nil {
				return core.Response{}, core.DecodeError(core.ProviderMistral, body, fmt.Errorf("tool call %d arguments: %w", i, err))
			}
			out.ToolCalls = append(out.ToolCalls, core.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
		}
	}
	if w.Usage == nil {
		return core.Response{}, core.DecodeError(core.ProviderMistral, body, fmt.Errorf("no usage (upstream reads usage.prompt_tokens)"))
	}
	out.InputTokens, out.OutputTokens = w.Usage.PromptTokens, w.Usage.CompletionTokens
	return out, nil
}

// contentText is a message content: a string, null, or (magistral models)
// a list of chunks whose text chunks are joined.
func contentText(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var chunks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &chunks); err != nil {
		return "", fmt.Errorf("content: %w", err)
	}
	var b strings.Builder
	for _, c := range chunks {
		if c.Type == "text" {
			b.WriteString(c.Text)
		}
	}
	return b.String(), nil
}
