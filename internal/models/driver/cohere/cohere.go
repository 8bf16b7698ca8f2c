// Package cohere drives Cohere's v2 chat API (POST
// https://api.cohere.com/v2/chat) with net/http, the way upstream's
// CohereHandler does through the cohere SDK's ClientV2.chat
// (bfcl_eval/model_handler/api_inference/cohere.py): model (the registry's
// name without "-FC"), messages, tools as {"type":"function","function":
// {name, description, parameters}}, citation_options {"mode":"OFF"},
// temperature, and "stream": false as the SDK sends for a non-streamed
// chat. FC only (upstream forces is_fc_model). The key is COHERE_API_KEY.
//
// The conversation is upstream's: the first turn's system message first
// as {"role":"system"}, user texts as {"role":"user","content":text}, the
// model's turn echoed as an assistant message of its tool_calls, tool_plan
// and content items (text and thinking), and each tool result as
// {"role":"tool","tool_call_id","content":[{"type":"text","text"}]} where
// a result that is a Python dict literal is re-rendered as JSON with its
// "id" key renamed "ID" (upstream's _add_execution_results_FC).
//
// The stored answer (Response.Result) is upstream's model_responses: a
// list of {"tool_name", "parameters"} when the model called tools, else
// the text items joined with newlines (thinking goes to the reasoning), or
// null when the answer had no content.
package cohere

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// DefaultBaseURL is the SDK's API root.
const DefaultBaseURL = "https://api.cohere.com"

// KeyEnv is the variable upstream's handler reads the key from.
const KeyEnv = "COHERE_API_KEY"

// Driver is the Cohere v2 chat driver.
type Driver struct{ core.KeyedAPI }

// New returns a driver for cfg.
func New(cfg core.Config) (*Driver, error) {
	api, err := core.NewKeyedAPI(cfg, core.ProviderCohere, KeyEnv, DefaultBaseURL, "/v2/chat")
	if err != nil {
		return nil, err
	}
	if api.Cfg.Mode != core.ModeFC {
		return nil, fmt.Errorf("cohere driver: mode %q: upstream's CohereHandler runs every model in FC mode", api.Cfg.Mode)
	}
	return &Driver{api}, nil
}

type wireTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        json.RawMessage `json:"name"`
		Description json.RawMessage `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

type textItem struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    any             `json:"content,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	ToolCalls  json.RawMessage `json:"tool_calls,omitempty"`
}

type wireRequest struct {
	Stream          bool              `json:"stream"`
	Model           string            `json:"model"`
	Messages        []json.RawMessage `json:"messages"`
	Tools           []wireTool        `json:"tools"`
	CitationOptions struct {
		Mode string `json:"mode"`
	} `json:"citation_options"`
	Temperature float64 `json:"temperature"`
}

// BuildRequest is the body Complete sends.
func (d *Driver) BuildRequest(req core.Request) ([]byte, error) {
	w := wireRequest{Model: strings.ReplaceAll(d.Cfg.Model, "-FC", ""), Temperature: req.Temperature, Tools: []wireTool{}}
	w.CitationOptions.Mode = "OFF"
	tools, err := core.ConvertFunctions(req.Functions, core.ProviderCohere, d.Cfg.ToolNamesUnderscored())
	if err != nil {
		return nil, fmt.Errorf("cohere driver: %w", err)
	}
	for i, t := range tools {
		// load_cohere_tool keeps name, description and parameters
		var conv struct {
			Function struct {
				Name        json.RawMessage `json:"name"`
				Description json.RawMessage `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if err := json.Unmarshal(t, &conv); err != nil {
			return nil, fmt.Errorf("cohere driver: tool %d: %w", i, err)
		}
		wt := wireTool{Type: "function"}
		wt.Function.Name, wt.Function.Description, wt.Function.Parameters = conv.Function.Name, conv.Function.Description, conv.Function.Parameters
		w.Tools = append(w.Tools, wt)
	}
	msgs := req.Messages
	// the first system message goes first (extract_system_prompt of the first turn)
	for i, m := range msgs {
		if m.Role == core.RoleSystem {
			raw, err := core.MarshalRequest("cohere", wireMessage{Role: core.RoleSystem, Content: m.Content})
			if err != nil {
				return nil, err
			}
			w.Messages = append(w.Messages, raw)
			msgs = append(append([]core.Message{}, msgs[:i]...), msgs[i+1:]...)
			break
		}
	}
	for i, m := range msgs {
		var raw []byte
		switch m.Role {
		case core.RoleUser, core.RoleSystem:
			raw, err = core.MarshalRequest("cohere", wireMessage{Role: m.Role, Content: m.Content})
		case core.RoleAssistant:
			if len(m.Replay) > 0 {
				raw = m.Replay
				break
			}
			wm := wireMessage{Role: core.RoleAssistant}
			if m.Content != "" {
				wm.Content = []textItem{{Type: "text", Text: m.Content}}
			}
			if len(m.ToolCalls) > 0 {
				var calls []map[string]any
				for _, tc := range m.ToolCalls {
					calls = append(calls, map[string]any{"id": tc.ID, "type": "function",
						"function": map[string]string{"name": tc.Name, "arguments": tc.Arguments}})
				}
				wm.ToolCalls, err = json.Marshal(calls)
			}
			if err == nil {
				raw, err = core.MarshalRequest("cohere", wm)
			}
		case core.RoleTool:
			raw, err = core.MarshalRequest("cohere", wireMessage{Role: core.RoleTool, ToolCallID: m.ToolCallID,
				Content: []textItem{{Type: "text", Text: RenderResult(m.Content)}}})
		default:
			return nil, fmt.Errorf("cohere driver: message %d has unknown role %q", i, m.Role)
		}
		if err != nil {
			return nil, fmt.Errorf("cohere driver: message %d: %w", i, err)
		}
		w.Messages = append(w.Messages, raw)
	}
	return core.MarshalRequest("cohere", w)
}

// RenderResult is how upstream sends an execution result to Cohere:
// ast.literal_eval of the text, and when that is a dict, its JSON
// (json.dumps) with an "id" key moved to the end as "ID"; anything else
// as the text itself.
func RenderResult(s string) string {
	e, err := pyexpr.Parse(strings.TrimLeft(s, " \t"))
	if err != nil {
		return s
	}
	v, err := pyexpr.LiteralEval(e)
	if err != nil {
		return s
	}
	d, ok := v.(*pyval.Dict)
	if !ok {
		return s
	}
	if id, ok := d.GetStr("id"); ok {
		d.SetStr("ID", id)
		d.Delete(pyval.Str("id"))
	}
	out, err := pyval.JSONDumps(d)
	if err != nil {
		return s
	}
	return out
}

// Complete sends one chat request, retrying retryable failures.
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	return d.Call(ctx, "application/json", body, parseResponse)
}

type wireResponse struct {
	Message *struct {
		ToolPlan  string            `json:"tool_plan"`
		ToolCalls []json.RawMessage `json:"tool_calls"`
		Content   []json.RawMessage `json:"content"`
		Citations json.RawMessage   `json:"citations"`
	} `json:"message"`
	Usage *struct {
		BilledUnits *struct {
			InputTokens  float64 `json:"input_tokens"`
			OutputTokens float64 `json:"output_tokens"`
		} `json:"billed_units"`
	} `json:"usage"`
}

type contentItem struct {
	Type     string  `json:"type"`
	Text     *string `json:"text"`
	Thinking *string `json:"thinking"`
}

func parseResponse(body []byte, latency time.Duration) (core.Response, error) {
	fail := func(err error) (core.Response, error) {
		return core.Response{}, core.DecodeError(core.ProviderCohere, body, err)
	}
	var w wireResponse
	if err := json.Unmarshal(body, &w); err != nil {
		return fail(err)
	}
	if w.Message == nil {
		return fail(fmt.Errorf("no message"))
	}
	out := core.Response{Latency: latency, Raw: json.RawMessage(body)}
	if w.Usage != nil && w.Usage.BilledUnits != nil {
		out.InputTokens, out.OutputTokens = int(w.Usage.BilledUnits.InputTokens), int(w.Usage.BilledUnits.OutputTokens)
	}
	// the assistant turn upstream appends to its chat turns
	replay := map[string]json.RawMessage{}
	order := []string{"role"}
	replay["role"] = json.RawMessage(`"assistant"`)
	stored := []byte{'['}
	if len(w.Message.ToolCalls) > 0 {
		raw, _ := json.Marshal(w.Message.ToolCalls)
		replay["tool_calls"], order = raw, append(order, "tool_calls")
		for i, rc := range w.Message.ToolCalls {
			var c core.ChatToolCall
			if err := json.Unmarshal(rc, &c); err != nil {
				return fail(fmt.Errorf("tool call %d: %w", i, err))
			}
			params, err := pyval.FromJSON([]byte(c.Function.Arguments))
			if err != nil {
				// upstream's json.loads raises here
				return fail(fmt.Errorf("tool call %d (%s): arguments are not JSON: %w", i, c.Function.Name, err))
			}
			item := pyval.NewDict()
			item.SetStr("tool_name", pyval.Str(c.Function.Name))
			item.SetStr("parameters", params)
			js, err := pyval.JSONDumps(item)
			if err != nil {
				return fail(err)
			}
			if i > 0 {
				stored = append(stored, ", "...)
			}
			stored = append(stored, js...)
			out.ToolCalls = append(out.ToolCalls, core.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: c.Function.Arguments})
		}
	}
	if w.Message.ToolPlan != "" {
		raw, _ := json.Marshal(w.Message.ToolPlan)
		replay["tool_plan"], order = raw, append(order, "tool_plan")
	}
	var texts, thinking []string
	var items []any
	for i, rc := range w.Message.Content {
		var c contentItem
		if err := json.Unmarshal(rc, &c); err != nil {
			return fail(fmt.Errorf("content item %d: %w", i, err))
		}
		switch {
		case c.Type == "thinking" || (c.Thinking != nil && c.Text == nil):
			t := ""
			if c.Thinking != nil {
				t = *c.Thinking
			}
			thinking = append(thinking, t)
			items = append(items, map[string]string{"type": "thinking", "thinking": t})
		default:
			t := ""
			if c.Text != nil {
				t = *c.Text
			}
			texts = append(texts, t)
			items = append(items, textItem{Type: "text", Text: t})
		}
	}
	if len(items) > 0 {
		raw, _ := json.Marshal(items)
		replay["content"], order = raw, append(order, "content")
	}
	if c := bytes.TrimSpace(w.Message.Citations); len(c) > 0 && string(c) != "null" && string(c) != "[]" {
		replay["citations"], order = c, append(order, "citations")
	}
	var rb []byte
	rb = append(rb, '{')
	for i, k := range order {
		if i > 0 {
			rb = append(rb, ',')
		}
		kb, _ := json.Marshal(k)
		rb = append(append(append(rb, kb...), ':'), replay[k]...)
	}
	out.Replay = append(rb, '}')
	out.Reasoning = strings.Join(thinking, "")
	out.Text = strings.Join(texts, "\n")
	switch {
	case len(out.ToolCalls) > 0:
		out.Result = append(stored, ']')
	case len(items) == 0:
		out.Result = json.RawMessage("null") // model_responses None
	default:
		r, err := json.Marshal(out.Text)
		if err != nil {
			return fail(err)
		}
		out.Result = r
	}
	return out, nil
}
