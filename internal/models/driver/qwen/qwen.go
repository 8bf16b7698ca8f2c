// Package qwen drives Alibaba Cloud's DashScope OpenAI-compatible endpoint
// (https://dashscope.aliyuncs.com/compatible-mode/v1) with streamed chat
// completions over net/http, the way upstream's QwenAPIHandler does
// (bfcl_eval/model_handler/api_inference/qwen.py; the openai SDK with
// stream=True): the body is messages, model, in FC mode tools (always, also
// an empty list) and parallel_tool_calls true, then enable_thinking true
// (the SDK's extra_body), stream true and stream_options.include_usage
// true. No temperature is sent (upstream's handler passes none). The key is
// QWEN_API_KEY, as upstream reads it.
//
// The server-sent events are folded as upstream folds them: the
// reasoning_content and content deltas are concatenated; tool-call deltas
// are gathered by index, their id, name and arguments pieces concatenated;
// the token counts are the last chunk's usage. The answer goes back into
// the history with its reasoning_content (upstream passes it to the next
// turn): {"role":"assistant","content":null,"tool_calls":[...]} for calls,
// {"role":"assistant","content":text} otherwise; tool results are
// {"role":"tool","content","tool_call_id"} (OpenAICompletionsHandler).
package qwen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
)

// DefaultBaseURL is upstream's base URL (qwen.py).
const DefaultBaseURL = "https://dashscope.aliyuncs.com/compatible-mode/v1"

// KeyEnv is the variable upstream's handler reads the key from.
const KeyEnv = "QWEN_API_KEY"

// Driver is the streaming Qwen API driver.
type Driver struct{ core.KeyedAPI }

// New returns a driver for cfg. BaseURL is the API root /chat/completions
// is appended to.
func New(cfg core.Config) (*Driver, error) {
	api, err := core.NewKeyedAPI(cfg, core.ProviderQwen, KeyEnv, DefaultBaseURL, "/chat/completions")
	if err != nil {
		return nil, err
	}
	return &Driver{api}, nil
}

type wireMessage struct {
	Role             string              `json:"role"`
	Content          *string             `json:"content"`
	ToolCalls        []core.ChatToolCall `json:"tool_calls,omitempty"`
	ReasoningContent string              `json:"reasoning_content,omitempty"`
	ToolCallID       string              `json:"tool_call_id,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type wireRequest struct {
	Messages          []wireMessage     `json:"messages"`
	Model             string            `json:"model"`
	Tools             []json.RawMessage `json:"tools,omitempty"`
	ParallelToolCalls *bool             `json:"parallel_tool_calls,omitempty"`
	EnableThinking    bool              `json:"enable_thinking"`
	Stream            bool              `json:"stream"`
	StreamOptions     streamOptions     `json:"stream_options"`
}

// BuildRequest is the body Complete sends.
func (d *Driver) BuildRequest(req core.Request) ([]byte, error) {
	w := wireRequest{Model: d.Cfg.Model, EnableThinking: true, Stream: true, StreamOptions: streamOptions{IncludeUsage: true}}
	if d.Cfg.Mode == core.ModeFC {
		// upstream: model_name.replace("-FC", "") in FC mode only
		w.Model = strings.ReplaceAll(d.Cfg.Model, "-FC", "")
		tools, err := core.ConvertFunctions(req.Functions, core.ProviderQwen, d.Cfg.ToolNamesUnderscored())
		if err != nil {
			return nil, fmt.Errorf("qwen driver: %w", err)
		}
		if tools == nil {
			tools = []json.RawMessage{}
		}
		w.Tools = tools
		yes := true
		w.ParallelToolCalls = &yes
	}
	for i, m := range req.Messages {
		content := m.Content
		wm := wireMessage{Role: m.Role, Content: &content}
		switch m.Role {
		case core.RoleSystem, core.RoleUser:
		case core.RoleAssistant:
			wm.ReasoningContent = m.Reasoning
			if len(m.ToolCalls) > 0 {
				wm.Content = nil
				wm.ToolCalls = core.ChatToolCalls(m.ToolCalls)
			}
		case core.RoleTool:
			wm.ToolCallID = m.ToolCallID
		default:
			return nil, fmt.Errorf("qwen driver: message %d has unknown role %q", i, m.Role)
		}
		w.Messages = append(w.Messages, wm)
	}
	return core.MarshalRequest("qwen", w)
}

// Complete sends one streamed chat completion, retrying retryable failures.
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	return d.Call(ctx, "text/event-stream", body, func(b []byte, latency time.Duration) (core.Response, error) {
		out, err := ParseStream(b)
		out.Latency = latency
		return out, err
	})
}

type chunk struct {
	Choices []struct {
		Delta struct {
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"`
			ToolCalls        []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function *struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error *json.RawMessage `json:"error"`
}

// ParseStream folds a server-sent-events body of chat completion chunks
// into a Response (Raw: the chunks as a JSON array).
func ParseStream(body []byte) (core.Response, error) {
	var (
		out               core.Response
		text, reasoning   strings.Builder
		calls             []core.ToolCall
		raw               = []byte{'['}
		last              *chunk
		sawDone, anyChunk bool
	)
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 64<<10), len(body)+1)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		data, ok := strings.CutPrefix(line, "data:")
		if !ok {
			continue // comments, event names, blank separators
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			sawDone = true
			break
		}
		var c chunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			return core.Response{}, core.DecodeError(core.ProviderQwen, body, fmt.Errorf("stream chunk: %w", err))
		}
		if c.Error != nil {
			return core.Response{}, &core.Error{Provider: core.ProviderQwen, Body: "error in the stream: " + core.Excerpt([]byte(data))}
		}
		if anyChunk {
			raw = append(raw, ',')
		}
		raw = append(raw, data...)
		anyChunk = true
		last = &c
		if len(c.Choices) == 0 {
			continue
		}
		delta := c.Choices[0].Delta
		if delta.ReasoningContent != nil {
			reasoning.WriteString(*delta.ReasoningContent)
		}
		if delta.Content != nil {
			text.WriteString(*delta.Content)
		}
		for _, tc := range delta.ToolCalls {
			if tc.Index < 0 || tc.Index > 1<<10 {
				return core.Response{}, core.DecodeError(core.ProviderQwen, body, fmt.Errorf("tool call index %d", tc.Index))
			}
			for len(calls) <= tc.Index {
				calls = append(calls, core.ToolCall{})
			}
			calls[tc.Index].ID += tc.ID
			if tc.Function != nil {
				calls[tc.Index].Name += tc.Function.Name
				calls[tc.Index].Arguments += tc.Function.Arguments
			}
		}
	}
	if err := sc.Err(); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderQwen, body, err)
	}
	if !anyChunk {
		return core.Response{}, core.DecodeError(core.ProviderQwen, body, fmt.Errorf("no data chunks in the stream"))
	}
	_ = sawDone // a stream cut before [DONE] still has its usage chunk or fails below
	if last.Usage == nil {
		// upstream reads chunk.usage of the last chunk (an AttributeError without it)
		e := core.DecodeError(core.ProviderQwen, body, fmt.Errorf("the last chunk has no usage (stream_options.include_usage)"))
		e.Retryable = false // a stream (not JSON) that ended without usage: upstream fails on it too
		return core.Response{}, e
	}
	out.Raw = append(raw, ']')
	out.Text, out.Reasoning = text.String(), reasoning.String()
	out.InputTokens, out.OutputTokens = last.Usage.PromptTokens, last.Usage.CompletionTokens
	if len(calls) > 0 {
		out.ToolCalls = calls
		out.Text = "" // upstream: with calls the answer is the calls, the content is dropped
	}
	return out, nil
}
