package openai

// The Responses API driver, shaped like upstream's OpenAIResponsesHandler
// (bfcl_eval/model_handler/api_inference/openai_response.py), the handler
// of every OpenAI model in upstream's registry.
//
// It speaks plain net/http rather than the openai-go SDK: the history must
// carry the server's output items back exactly as they came (reasoning
// items with their encrypted content, function calls with their ids), which
// the SDK's typed parameters would re-encode; a raw-body call through the
// SDK would leave it only the URL joining, which the chat driver next door
// already does with the same retry loop and exchange recorder.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
)

// Responses drives an OpenAI Responses endpoint (<base>/responses).
type Responses struct {
	cfg      core.Config
	endpoint string
	http     *http.Client
	chat     *Driver // the probe asks the same server's model list
}

// NewResponses returns a Responses driver for cfg (BaseURL is the API root,
// default https://api.openai.com/v1).
func NewResponses(cfg core.Config) (*Responses, error) {
	chat, err := New(cfg)
	if err != nil {
		return nil, fmt.Errorf("responses driver: %w", err)
	}
	base := strings.TrimSuffix(chat.endpoint, "/chat/completions")
	return &Responses{cfg: chat.cfg, endpoint: base + "/responses", http: chat.http, chat: chat}, nil
}

// Name is "responses:<model>".
func (d *Responses) Name() string { return core.ProviderResponses + ":" + d.cfg.Model }

// IsReasoningModel is upstream's test for the OpenAI reasoning models,
// which refuse temperature and are asked for reasoning summaries and their
// encrypted reasoning: the model id contains o3, o4-mini or gpt-5.
func IsReasoningModel(model string) bool {
	return strings.Contains(model, "o3") || strings.Contains(model, "o4-mini") || strings.Contains(model, "gpt-5")
}

// Protocol values of OpenAIResponsesHandler's requests.
var (
	responsesInclude   = []string{"reasoning.encrypted_content"}
	responsesReasoning = map[string]string{"summary": "auto"}
)

type responsesRequest struct {
	Input       []json.RawMessage `json:"input"`
	Model       string            `json:"model"`
	Store       bool              `json:"store"`
	Include     []string          `json:"include,omitempty"`
	Reasoning   map[string]string `json:"reasoning,omitempty"`
	Temperature *float64          `json:"temperature,omitempty"`
	Tools       []json.RawMessage `json:"tools,omitempty"`
	MaxOutput   int               `json:"max_output_tokens,omitempty"`
}

type inputMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type functionCallItem struct {
	Type      string `json:"type"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type functionCallOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output string `json:"output"`
}

// BuildRequest is the request body Complete sends: the history as input
// items (a system message as role developer; an assistant turn as the
// output items the server returned, Message.Replay; a tool result as a
// function_call_output), store false, and for reasoning models include and
// reasoning instead of temperature. Upstream sends no token limit; a
// configured MaxTokens goes out as max_output_tokens.
func (d *Responses) BuildRequest(req core.Request) ([]byte, error) {
	if req.Seed != nil {
		return nil, fmt.Errorf("responses driver: the Responses API takes no seed (model %s): remove seed from its models.yaml entry", d.cfg.Model)
	}
	w := responsesRequest{Model: d.cfg.Model, MaxOutput: req.MaxTokens}
	if IsReasoningModel(d.cfg.Model) {
		w.Include, w.Reasoning = responsesInclude, responsesReasoning
	} else {
		t := req.Temperature
		w.Temperature = &t
	}
	if d.cfg.Mode == core.ModeFC && len(req.Functions) > 0 {
		tools, err := core.ConvertFunctions(req.Functions, core.ProviderResponses, d.cfg.ToolNamesUnderscored())
		if err != nil {
			return nil, fmt.Errorf("responses driver: %w", err)
		}
		w.Tools = tools
	}
	w.Input = []json.RawMessage{}
	add := func(v any) error {
		b, err := marshalNoHTML(v)
		if err != nil {
			return fmt.Errorf("responses driver: encode request: %w", err)
		}
		w.Input = append(w.Input, b)
		return nil
	}
	for i, m := range req.Messages {
		var err error
		switch m.Role {
		case core.RoleSystem:
			err = add(inputMessage{Role: "developer", Content: m.Content})
		case core.RoleUser:
			err = add(inputMessage{Role: m.Role, Content: m.Content})
		case core.RoleAssistant:
			if len(m.Replay) > 0 {
				var items []json.RawMessage
				if err := json.Unmarshal(m.Replay, &items); err != nil {
					return nil, fmt.Errorf("responses driver: message %d: replay is not an output item list: %w", i, err)
				}
				w.Input = append(w.Input, items...)
				continue
			}
			if m.Content != "" || len(m.ToolCalls) == 0 {
				err = add(inputMessage{Role: m.Role, Content: m.Content})
			}
			for _, tc := range m.ToolCalls {
				if err == nil {
					err = add(functionCallItem{Type: "function_call", CallID: tc.ID, Name: tc.Name, Arguments: tc.Arguments})
				}
			}
		case core.RoleTool:
			err = add(functionCallOutput{Type: "function_call_output", CallID: m.ToolCallID, Output: m.Content})
		default:
			return nil, fmt.Errorf("responses driver: message %d has unknown role %q", i, m.Role)
		}
		if err != nil {
			return nil, err
		}
	}
	return marshalNoHTML(w)
}

func marshalNoHTML(v any) ([]byte, error) { return core.MarshalJSON(v) }

// Complete sends one Responses request, retrying retryable failures.
func (d *Responses) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	return core.Retry(ctx, d.cfg, core.ProviderResponses, func(ctx context.Context) (core.Response, error) {
		return core.PostAnswer(ctx, d.http, core.ProviderResponses, d.endpoint, d.cfg.APIKey, body, parseResponses)
	})
}

type responsesReply struct {
	Status string            `json:"status"`
	Output []json.RawMessage `json:"output"`
	Usage  *struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

type outputItem struct {
	Type      string `json:"type"`
	Role      string `json:"role"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Content   []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Summary []struct {
		Text string `json:"text"`
	} `json:"summary"`
}

// parseResponses reads a Responses reply as upstream's
// _parse_query_response_*: the function calls (name, arguments, call_id),
// else the output text (the SDK's output_text: every output_text part of
// every message item); the reasoning summaries, each followed by a line
// break; and the output items, verbatim, for the history.
func parseResponses(body []byte, latency time.Duration) (core.Response, error) {
	var w responsesReply
	if err := json.Unmarshal(body, &w); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderResponses, body, err)
	}
	if w.Error != nil && w.Error.Message != "" {
		return core.Response{}, &core.Error{Provider: core.ProviderResponses, Body: "error in a 2xx response: " + core.Excerpt(body)}
	}
	if w.Output == nil {
		return core.Response{}, core.DecodeError(core.ProviderResponses, body, fmt.Errorf("no output"))
	}
	out := core.Response{Latency: latency, Raw: json.RawMessage(body)}
	var text, reasoning strings.Builder
	for i, raw := range w.Output {
		var it outputItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return core.Response{}, core.DecodeError(core.ProviderResponses, body, fmt.Errorf("output item %d: %w", i, err))
		}
		switch it.Type {
		case "function_call":
			out.ToolCalls = append(out.ToolCalls, core.ToolCall{ID: it.CallID, Name: it.Name, Arguments: it.Arguments})
		case "message":
			for _, c := range it.Content {
				if c.Type == "output_text" {
					text.WriteString(c.Text)
				}
			}
		case "reasoning":
			for _, s := range it.Summary {
				reasoning.WriteString(s.Text)
				reasoning.WriteString("\n")
			}
		}
	}
	if len(out.ToolCalls) == 0 {
		out.Text = text.String()
	}
	out.Reasoning = reasoning.String()
	replay, err := json.Marshal(w.Output)
	if err != nil {
		return core.Response{}, core.DecodeError(core.ProviderResponses, body, err)
	}
	out.Replay = replay
	if w.Usage != nil {
		out.InputTokens, out.OutputTokens = w.Usage.InputTokens, w.Usage.OutputTokens
	}
	return out, nil
}

// Probe checks that the server answers, accepts the key and lists the
// model (GET <base>/models, as the chat driver does).
func (d *Responses) Probe(ctx context.Context) error { return d.chat.probeServer(ctx) }
