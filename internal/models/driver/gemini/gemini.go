// Package gemini drives Google's Gemini API (generateContent) through the
// official SDK (google.golang.org/genai), shaping the conversation the way
// upstream's GeminiHandler does (bfcl_eval/model_handler/api_inference/
// gemini.py): the first system message becomes system_instruction, roles
// are user and model, the results of one turn's calls go back in a single
// user Content of function_response parts {"result": <text>} named after
// the function, thoughts are requested (include_thoughts) and kept as
// reasoning, and the model's own Content (with thought signatures) is
// echoed back verbatim through Replay. The response body is read from the
// wire so function-call arguments keep their key order.
package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"google.golang.org/genai"
)

// NoResponseText is what upstream records when Gemini returns no candidate
// content (gemini.py, _parse_query_response_FC / _prompting).
const NoResponseText = "The model did not return any response."

// Driver is the Gemini driver.
type Driver struct {
	cfg    core.Config
	client *genai.Client
}

// New returns a driver for cfg (Provider is not checked). An empty BaseURL
// means the SDK's default endpoint; an empty APIKey falls back to the SDK's
// environment variables (GOOGLE_API_KEY, GEMINI_API_KEY).
func New(cfg core.Config) (*Driver, error) {
	cfg = cfg.Normalize()
	if cfg.Model == "" {
		return nil, fmt.Errorf("gemini driver: model name is empty")
	}
	if cfg.APIKey == "" && os.Getenv("GOOGLE_API_KEY") == "" && os.Getenv("GEMINI_API_KEY") == "" {
		// upstream's GeminiHandler passes GOOGLE_API_KEY; say so in one
		// line rather than the SDK's dump of its configuration
		return nil, core.KeyFrom(cfg, core.ProviderGemini, "GOOGLE_API_KEY").Missing()
	}
	hc, err := core.NewHTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("gemini driver: %w", err)
	}
	cc := &genai.ClientConfig{APIKey: cfg.APIKey, Backend: genai.BackendGeminiAPI, HTTPClient: hc}
	if cfg.BaseURL != "" {
		cc.HTTPOptions.BaseURL = cfg.BaseURL
	}
	client, err := genai.NewClient(context.Background(), cc)
	if err != nil {
		return nil, fmt.Errorf("gemini driver: %w", err)
	}
	return &Driver{cfg: cfg, client: client}, nil
}

// Name is "gemini:<model>".
func (d *Driver) Name() string { return core.ProviderGemini + ":" + d.cfg.Model }

// BuildRequest is the generateContent body Complete sends, as
// google-genai (the Python SDK upstream uses) serialises GeminiHandler's
// call: contents (user and model Contents; a turn's function results in
// one user Content of functionResponse parts {"result": <text>}; in FC mode
// the model's Content as the server returned it, Message.Replay; in prompt
// mode a model Content of the answer text), systemInstruction (the first
// system message as a user Content), generationConfig (temperature,
// thinkingConfig.includeThoughts; maxOutputTokens and seed only when set)
// and tools (one Tool of functionDeclarations: upstream's converted docs
// with the schema types upper-cased, everything else, empty lists and
// objects, nulls and numbers as written, kept as it is).
func (d *Driver) BuildRequest(req core.Request) ([]byte, error) {
	body := orderedJSON{}
	gc := orderedJSON{{"temperature", req.Temperature}, {"thinkingConfig", orderedJSON{{"includeThoughts", true}}}}
	if req.MaxTokens > 0 {
		gc = append(gc, kv{"maxOutputTokens", req.MaxTokens})
	}
	if req.Seed != nil {
		gc = append(gc, kv{"seed", *req.Seed})
	}
	msgs := req.Messages
	var system any
	for i, m := range msgs {
		if m.Role == core.RoleSystem {
			if m.Content != "" {
				system = textContent("user", m.Content)
			}
			msgs = append(append([]core.Message{}, msgs[:i]...), msgs[i+1:]...)
			break
		}
	}
	contents := []any{}
	for i, m := range msgs {
		switch m.Role {
		case core.RoleUser, core.RoleSystem:
			contents = append(contents, textContent("user", m.Content))
		case core.RoleAssistant:
			if d.cfg.Mode == core.ModePrompt {
				contents = append(contents, textContent("model", m.Content))
				continue
			}
			c, err := modelContent(m)
			if err != nil {
				return nil, fmt.Errorf("gemini driver: message %d: %w", i, err)
			}
			contents = append(contents, c)
		case core.RoleTool:
			name := m.Name
			if name == "" {
				name = core.ToolNameFor(msgs[:i], m.ToolCallID)
			}
			if name == "" {
				return nil, fmt.Errorf("gemini driver: tool message %d has no function name and call ID %q matches no earlier call", i, m.ToolCallID)
			}
			part := orderedJSON{{"functionResponse", orderedJSON{{"name", name}, {"response", orderedJSON{{"result", m.Content}}}}}}
			if i > 0 && msgs[i-1].Role == core.RoleTool {
				last := contents[len(contents)-1].(orderedJSON)
				last[1].v = append(last[1].v.([]any), part)
				continue
			}
			contents = append(contents, orderedJSON{{"role", "user"}, {"parts", []any{part}}})
		default:
			return nil, fmt.Errorf("gemini driver: message %d has unknown role %q", i, m.Role)
		}
	}
	body = append(body, kv{"contents", contents})
	if system != nil {
		body = append(body, kv{"systemInstruction", system})
	}
	body = append(body, kv{"generationConfig", gc})
	if d.cfg.Mode == core.ModeFC && len(req.Functions) > 0 {
		tools, err := core.ConvertFunctions(req.Functions, core.ProviderGemini, d.cfg.ToolNamesUnderscored())
		if err != nil {
			return nil, fmt.Errorf("gemini driver: %w", err)
		}
		decls := make([]any, len(tools))
		for i, t := range tools {
			decl, err := upperSchemaTypes(t, false)
			if err != nil {
				return nil, fmt.Errorf("gemini driver: tool %d: %w", i, err)
			}
			decls[i] = decl
		}
		body = append(body, kv{"tools", []any{orderedJSON{{"functionDeclarations", decls}}}})
	}
	b, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("gemini driver: encode request: %w", err)
	}
	return b, nil
}

func textContent(role, text string) orderedJSON {
	return orderedJSON{{"role", role}, {"parts", []any{orderedJSON{{"text", text}}}}}
}

// kv is one member of an orderedJSON object.
type kv struct {
	k string
	v any
}

// orderedJSON is a JSON object that keeps its members' order.
type orderedJSON []kv

func (o orderedJSON) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(m.k)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.v)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// upperSchemaTypes returns a converted tool (or, inSchema, a schema) with
// every schema "type" upper-cased (parameters, properties, items), as
// google-genai's Schema serialises them; members keep their order and
// values their written form.
func upperSchemaTypes(raw json.RawMessage, inSchema bool) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return raw, nil
	}
	return rewriteMembers(dec, func(k string, v json.RawMessage) (json.RawMessage, error) {
		switch {
		case k == "parameters" && !inSchema, k == "items" && inSchema:
			return upperSchemaTypes(v, true)
		case k == "type" && inSchema:
			var s string
			if json.Unmarshal(v, &s) == nil {
				v, _ = json.Marshal(strings.ToUpper(s))
			}
		case k == "properties" && inSchema:
			return eachMember(v, func(p json.RawMessage) (json.RawMessage, error) { return upperSchemaTypes(p, true) })
		}
		return v, nil
	})
}

// eachMember applies fn to every member value of a JSON object.
func eachMember(raw json.RawMessage, fn func(json.RawMessage) (json.RawMessage, error)) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return raw, nil
	}
	return rewriteMembers(dec, func(_ string, v json.RawMessage) (json.RawMessage, error) { return fn(v) })
}

// rewriteMembers reads the members of the object dec has entered, in
// order, and writes them again with the values fn gives.
func rewriteMembers(dec *json.Decoder, fn func(key string, v json.RawMessage) (json.RawMessage, error)) (json.RawMessage, error) {
	var out orderedJSON
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if v, err = fn(k, v); err != nil {
			return nil, err
		}
		out = append(out, kv{k, v})
	}
	return json.Marshal(out)
}

// modelContent is the model turn of the history: the Content the server
// returned (Replay), else one rebuilt from the text and the calls.
func modelContent(m core.Message) (any, error) {
	if len(m.Replay) > 0 {
		if !json.Valid(m.Replay) {
			return nil, fmt.Errorf("replay is not JSON")
		}
		return m.Replay, nil
	}
	var parts []any
	if m.Content != "" || len(m.ToolCalls) == 0 {
		parts = append(parts, orderedJSON{{"text", m.Content}})
	}
	for j, tc := range m.ToolCalls {
		text := strings.TrimSpace(tc.Arguments)
		if text == "" {
			text = "{}"
		}
		var args map[string]json.RawMessage
		if err := json.Unmarshal([]byte(text), &args); err != nil {
			return nil, fmt.Errorf("tool call %d (%s): arguments are not a JSON object: %w", j, tc.Name, err)
		}
		parts = append(parts, orderedJSON{{"functionCall", orderedJSON{{"name", tc.Name}, {"args", json.RawMessage(text)}}}})
	}
	return orderedJSON{{"role", "model"}, {"parts", parts}}, nil
}

// Complete sends one generateContent request, retrying retryable failures.
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	// The SDK sends the body built above: its own (from typed values, which
	// drop empty lists and objects and nulls of the schemas) is replaced.
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return core.Response{}, fmt.Errorf("gemini driver: %w", err)
	}
	cfg := &genai.GenerateContentConfig{HTTPOptions: &genai.HTTPOptions{
		ExtrasRequestProvider: func(map[string]any) map[string]any {
			out := make(map[string]any, len(members))
			for k, v := range members {
				out[k] = v
			}
			return out
		},
	}}
	return core.Retry(ctx, d.cfg, core.ProviderGemini, func(ctx context.Context) (core.Response, error) {
		ctx, ex := core.WithExchange(ctx)
		start := time.Now()
		_, err := d.client.Models.GenerateContent(ctx, d.cfg.Model, nil, cfg)
		latency := ex.Latency(start)
		if ex.Status >= 400 {
			return core.Response{}, core.HTTPError(core.ProviderGemini, ex.Status, ex.Header, ex.Body)
		}
		if err != nil && ex.Status == 0 {
			return core.Response{}, core.TransportError(ctx, core.ProviderGemini, err)
		}
		// A 2xx body the SDK could not convert is still parsed from the
		// wire; parse reports what is really wrong with it.
		out, err := parseResponse(ex.Body, latency)
		out.Request = ex.RequestBody
		return out, err
	})
}

type wirePart struct {
	Text         *string `json:"text"`
	Thought      bool    `json:"thought"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
}

type wireResponse struct {
	Candidates []struct {
		Content *struct {
			Role  string            `json:"role"`
			Parts []json.RawMessage `json:"parts"`
		} `json:"content"`
	} `json:"candidates"`
	UsageMetadata struct {
		PromptTokenCount     int `json:"promptTokenCount"`
		CandidatesTokenCount int `json:"candidatesTokenCount"`
	} `json:"usageMetadata"`
}

func parseResponse(body []byte, latency time.Duration) (core.Response, error) {
	var w wireResponse
	if err := json.Unmarshal(body, &w); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderGemini, body, err)
	}
	out := core.Response{InputTokens: w.UsageMetadata.PromptTokenCount, OutputTokens: w.UsageMetadata.CandidatesTokenCount, Latency: latency, Raw: json.RawMessage(body)}
	if len(w.Candidates) == 0 || w.Candidates[0].Content == nil || len(w.Candidates[0].Content.Parts) == 0 {
		out.Text = NoResponseText
		out.Replay, _ = json.Marshal(map[string]any{"role": "model", "parts": []any{map[string]string{"text": NoResponseText}}})
		return out, nil
	}
	var text, thoughts []string
	for i, raw := range w.Candidates[0].Content.Parts {
		var p wirePart
		if err := json.Unmarshal(raw, &p); err != nil {
			return core.Response{}, core.DecodeError(core.ProviderGemini, body, fmt.Errorf("part %d: %w", i, err))
		}
		switch {
		case p.FunctionCall != nil && p.FunctionCall.Name != "":
			args := bytes.TrimSpace(p.FunctionCall.Args)
			if len(args) == 0 || string(args) == "null" {
				args = []byte("{}")
			}
			var buf bytes.Buffer
			if err := json.Compact(&buf, args); err != nil {
				return core.Response{}, core.DecodeError(core.ProviderGemini, body, fmt.Errorf("part %d args: %w", i, err))
			}
			id := p.FunctionCall.ID
			if id == "" {
				id = fmt.Sprintf("gemini_call_%d", len(out.ToolCalls))
			}
			out.ToolCalls = append(out.ToolCalls, core.ToolCall{ID: id, Name: p.FunctionCall.Name, Arguments: buf.String()})
		case p.Thought:
			if p.Text != nil {
				thoughts = append(thoughts, *p.Text)
			}
		case p.Text != nil:
			text = append(text, *p.Text)
		}
	}
	out.Text = strings.Join(text, "")
	out.Reasoning = strings.Join(thoughts, "\n")
	var buf bytes.Buffer
	content, _ := json.Marshal(w.Candidates[0].Content)
	if err := json.Compact(&buf, content); err == nil {
		out.Replay = buf.Bytes()
	}
	return out, nil
}

// Probe checks, before a run, that the API answers, accepts the key and
// knows the model (the SDK's models get), and that the model generates
// content when the API lists its supported actions.
func (d *Driver) Probe(ctx context.Context) error {
	base := d.cfg.BaseURL
	if base == "" {
		base = "https://generativelanguage.googleapis.com"
	}
	ctx, ex := core.WithExchange(ctx)
	m, err := d.client.Models.Get(ctx, d.cfg.Model, nil)
	if ex.Status == 400 && strings.Contains(string(ex.Body), "API_KEY_INVALID") {
		ex.Status = 401 // Google answers a bad key with 400 INVALID_ARGUMENT
	}
	if pe := core.ClassifyProbe(ctx, core.ProviderGemini, base, d.cfg.Model, "GET models/"+d.cfg.Model, ex, err); pe != nil {
		return pe
	}
	if m != nil && len(m.SupportedActions) > 0 && !slices.Contains(m.SupportedActions, "generateContent") {
		return &core.ProbeError{Provider: core.ProviderGemini, Base: base, Model: d.cfg.Model, Kind: "tools",
			Cause: fmt.Sprintf("model %q does not support generateContent (its actions: %s)", d.cfg.Model, strings.Join(m.SupportedActions, ", "))}
	}
	return nil
}
