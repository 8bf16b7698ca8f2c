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

// BuildRequest is the contents and config Complete sends.
func (d *Driver) BuildRequest(req core.Request) ([]*genai.Content, *genai.GenerateContentConfig, error) {
	temp := float32(req.Temperature)
	noContinuation := false
	cfg := &genai.GenerateContentConfig{
		Temperature:           &temp,
		ThinkingConfig:        &genai.ThinkingConfig{IncludeThoughts: true},
		AutomaticContinuation: &noContinuation,
	}
	if req.MaxTokens > 0 {
		cfg.MaxOutputTokens = int32(req.MaxTokens)
	}
	if req.Seed != nil {
		s := int32(*req.Seed)
		cfg.Seed = &s
	}
	if d.cfg.Mode == core.ModeFC && len(req.Functions) > 0 {
		tools, err := core.ConvertFunctions(req.Functions, core.ProviderGemini, d.cfg.UnderscoreToDot)
		if err != nil {
			return nil, nil, fmt.Errorf("gemini driver: %w", err)
		}
		decls := make([]*genai.FunctionDeclaration, len(tools))
		for i, t := range tools {
			decl, err := declaration(t)
			if err != nil {
				return nil, nil, fmt.Errorf("gemini driver: tool %d: %w", i, err)
			}
			decls[i] = decl
		}
		cfg.Tools = []*genai.Tool{{FunctionDeclarations: decls}}
	}
	msgs := req.Messages
	for i, m := range msgs {
		if m.Role == core.RoleSystem {
			if m.Content != "" {
				cfg.SystemInstruction = &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{{Text: m.Content}}}
			}
			msgs = append(append([]core.Message{}, msgs[:i]...), msgs[i+1:]...)
			break
		}
	}
	var contents []*genai.Content
	for i, m := range msgs {
		switch m.Role {
		case core.RoleUser, core.RoleSystem:
			contents = append(contents, &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{{Text: m.Content}}})
		case core.RoleAssistant:
			c, err := modelContent(m)
			if err != nil {
				return nil, nil, fmt.Errorf("gemini driver: message %d: %w", i, err)
			}
			contents = append(contents, c)
		case core.RoleTool:
			name := m.Name
			if name == "" {
				name = toolNameFor(msgs[:i], m.ToolCallID)
			}
			if name == "" {
				return nil, nil, fmt.Errorf("gemini driver: tool message %d has no function name and call ID %q matches no earlier call", i, m.ToolCallID)
			}
			part := &genai.Part{FunctionResponse: &genai.FunctionResponse{Name: name, Response: map[string]any{"result": m.Content}}}
			if i > 0 && msgs[i-1].Role == core.RoleTool {
				last := contents[len(contents)-1]
				last.Parts = append(last.Parts, part)
				continue
			}
			contents = append(contents, &genai.Content{Role: genai.RoleUser, Parts: []*genai.Part{part}})
		default:
			return nil, nil, fmt.Errorf("gemini driver: message %d has unknown role %q", i, m.Role)
		}
	}
	return contents, cfg, nil
}

func toolNameFor(history []core.Message, id string) string {
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role != core.RoleAssistant {
			continue
		}
		for _, tc := range history[i].ToolCalls {
			if tc.ID == id {
				return tc.Name
			}
		}
		return ""
	}
	return ""
}

func modelContent(m core.Message) (*genai.Content, error) {
	if len(m.Replay) > 0 {
		var c genai.Content
		if err := json.Unmarshal(m.Replay, &c); err != nil {
			return nil, fmt.Errorf("replay is not a Gemini Content: %w", err)
		}
		c.Role = genai.RoleModel
		return &c, nil
	}
	c := &genai.Content{Role: genai.RoleModel}
	if m.Content != "" || len(m.ToolCalls) == 0 {
		c.Parts = append(c.Parts, &genai.Part{Text: m.Content})
	}
	for j, tc := range m.ToolCalls {
		args := map[string]any{}
		text := strings.TrimSpace(tc.Arguments)
		if text != "" {
			if err := json.Unmarshal([]byte(text), &args); err != nil {
				return nil, fmt.Errorf("tool call %d (%s): arguments are not a JSON object: %w", j, tc.Name, err)
			}
		}
		c.Parts = append(c.Parts, &genai.Part{FunctionCall: &genai.FunctionCall{Name: tc.Name, Args: args}})
	}
	return c, nil
}

// declaration turns one converted tool into a FunctionDeclaration, with
// schema types in the API's upper-case spelling (the Python SDK does the
// same through its case-insensitive Type enum).
func declaration(tool json.RawMessage) (*genai.FunctionDeclaration, error) {
	var generic map[string]any
	dec := json.NewDecoder(bytes.NewReader(tool))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	if p, ok := generic["parameters"].(map[string]any); ok {
		upperTypes(p)
	}
	b, err := json.Marshal(generic)
	if err != nil {
		return nil, err
	}
	var decl genai.FunctionDeclaration
	if err := json.Unmarshal(b, &decl); err != nil {
		return nil, fmt.Errorf("does not fit Gemini's schema: %w", err)
	}
	return &decl, nil
}

func upperTypes(schema map[string]any) {
	if t, ok := schema["type"].(string); ok {
		schema["type"] = strings.ToUpper(t)
	}
	if props, ok := schema["properties"].(map[string]any); ok {
		for _, p := range props {
			if pm, ok := p.(map[string]any); ok {
				upperTypes(pm)
			}
		}
	}
	if items, ok := schema["items"].(map[string]any); ok {
		upperTypes(items)
	}
}

// Complete sends one generateContent request, retrying retryable failures.
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	contents, cfg, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	return core.Retry(ctx, d.cfg, core.ProviderGemini, func(ctx context.Context) (core.Response, error) {
		ctx, ex := core.WithExchange(ctx)
		start := time.Now()
		_, err := d.client.Models.GenerateContent(ctx, d.cfg.Model, contents, cfg)
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
