// Package openai drives any OpenAI-compatible /chat/completions endpoint
// (OpenAI, vLLM, SGLang, llama.cpp server, LiteLLM, Ollama's /v1) with plain
// net/http, shaped like upstream's OpenAICompletionsHandler
// (bfcl_eval/model_handler/api_inference/openai_completion.py): messages and
// temperature, store=false, tools only when there are some; tool_calls
// decide between calls (a list, also an empty one, as upstream's parser
// reads it) and a text answer (absent or null); the assistant message goes
// back into the history exactly as the server returned it
// (Response.Replay: a vLLM reasoning_content, an empty tool_calls list,
// refusal and the like included), and tool results carry tool_call_id but
// no name, as upstream's handler sends them.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unsafe"

	"github.com/bfcl-go/bfcl/internal/cache/memo"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
)

// DefaultBaseURL is used when Config.BaseURL is empty.
const DefaultBaseURL = "https://api.openai.com/v1"

// Driver is the OpenAI-compatible driver.
type Driver struct {
	cfg      core.Config
	endpoint string
	http     *http.Client
}

// New returns a driver for cfg (Provider is not checked). BaseURL is the
// API root that /chat/completions is appended to, e.g.
// http://127.0.0.1:11434/v1.
func New(cfg core.Config) (*Driver, error) {
	cfg, base, hc, err := core.Endpoint(cfg, core.ProviderOpenAI, DefaultBaseURL)
	if err != nil {
		return nil, err
	}
	return &Driver{cfg: cfg, endpoint: base + "/chat/completions", http: hc}, nil
}

// Name is "openai:<model>".
func (d *Driver) Name() string { return core.ProviderOpenAI + ":" + d.cfg.Model }

// wire types (request)

type wireMessage struct {
	Role       string              `json:"role"`
	Content    *string             `json:"content"`
	ToolCalls  []core.ChatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string              `json:"tool_call_id,omitempty"`
}

type wireRequest struct {
	Model       string            `json:"model"`
	Messages    []wireMessage     `json:"messages"`
	Temperature float64           `json:"temperature"`
	Store       bool              `json:"store"`
	Tools       []json.RawMessage `json:"tools,omitempty"`
	MaxTokens   int               `json:"max_tokens,omitempty"`
	Seed        *int64            `json:"seed,omitempty"`
}

// wire types (response)

type wireResponse struct {
	Choices []struct {
		Message struct {
			Content          *string               `json:"content"`
			ReasoningContent *string               `json:"reasoning_content"`
			Reasoning        *string               `json:"reasoning"`
			ToolCalls        []core.AnswerToolCall `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// wireHead and wireTail are wireRequest without its tools, which
// BuildRequest splices in already encoded (the same documents go out at
// every step of a multi-turn entry; re-encoding them was most of the
// request's cost).
type wireHead struct {
	Model       string        `json:"model"`
	Messages    []wireMessage `json:"messages"`
	Temperature float64       `json:"temperature"`
	Store       bool          `json:"store"`
}

type wireTail struct {
	MaxTokens int    `json:"max_tokens,omitempty"`
	Seed      *int64 `json:"seed,omitempty"`
}

// BuildRequest is the request body Complete sends (exported for tests and
// input logs): the JSON of a wireRequest, compact, HTML characters not
// escaped.
func (d *Driver) BuildRequest(req core.Request) ([]byte, error) {
	size := 128 + len(d.cfg.Model)
	for _, m := range req.Messages {
		size += 64 + len(m.Content) + len(m.ToolCallID) + len(m.Replay)
		for _, tc := range m.ToolCalls {
			size += 64 + len(tc.ID) + len(tc.Name) + len(tc.Arguments)
		}
	}
	// The head is wireHead's encoding, written field by field so that each
	// message can come from messageEncodings.
	body := make([]byte, 0, size)
	body = append(body, `{"model":`...)
	model := d.cfg.Model
	lingPrompt := d.cfg.Handler == "LingAPIHandler" && d.cfg.Mode == core.ModePrompt
	if lingPrompt {
		// LingAPIHandler._query_prompting: the one model it serves, under
		// its API name.
		if !strings.Contains(model, "Ling/ling-lite-v1.5") {
			return nil, fmt.Errorf("openai driver: LingAPIHandler serves Ling/ling-lite-v1.5 only, not %q (as upstream)", model)
		}
		model = "Ling-lite-1.5-250604"
	}
	var err error
	if body, err = appendNoHTML(body, model); err != nil {
		return nil, fmt.Errorf("openai driver: encode request: %w", err)
	}
	body = append(body, `,"messages":[`...)
	msgs := req.Messages
	fireworks, nanbeige, nemotron := d.fireworksFC(), d.nanbeigeFC(), d.nemotronFC()
	if nemotron {
		if msgs, _, err = nemotronMessages(msgs, req.Functions); err != nil {
			return nil, err
		}
	}
	if fireworks {
		// FireworksHandler._add_execution_results_FC: tool results carry
		// no tool_call_id
		msgs = withoutToolCallIDs(msgs)
	}
	deepSeekPrompt := d.cfg.Handler == "DeepSeekAPIHandler" && d.cfg.Mode == core.ModePrompt
	if deepSeekPrompt || lingPrompt || (d.cfg.Handler == "NvidiaHandler" && d.cfg.Mode == core.ModePrompt) {
		msgs = combineUserMessages(msgs)
	}
	for i, m := range msgs {
		if i > 0 {
			body = append(body, ',')
		}
		if body, err = appendMessage(body, i, m); err != nil {
			return nil, err
		}
	}
	body = append(body, ']')
	// The subclasses' own queries: GLMAPIHandler._query_FC lets glm-4.6
	// think instead of sending a temperature; DeepSeekAPIHandler's prompt
	// queries (deepseek-reasoner) and LingAPIHandler's send none either;
	// NovitaHandler's, DeepSeekAPIHandler's and LingAPIHandler's prompt
	// queries send no store.
	thinking := d.cfg.Handler == "GLMAPIHandler" && d.cfg.Mode == core.ModeFC && strings.Contains(d.cfg.Model, "glm-4.6")
	// NanbeigeAPIHandler._query_FC sends no temperature and no store,
	// FireworksHandler._query_FC no store.
	if !thinking && !deepSeekPrompt && !lingPrompt && !nanbeige {
		body = append(body, `,"temperature":`...)
		if body, err = appendNoHTML(body, req.Temperature); err != nil {
			return nil, fmt.Errorf("openai driver: encode request: %w", err)
		}
	}
	if d.cfg.Handler != "NovitaHandler" && d.cfg.Handler != "DeepSeekAPIHandler" && !lingPrompt && !fireworks && !nanbeige {
		body = append(body, `,"store":false`...)
	}
	if thinking {
		body = append(body, `,"thinking":{"type":"enabled"}`...)
	}
	// NanbeigeAPIHandler._query_FC sends its tools also when there are none.
	if d.cfg.Mode == core.ModeFC && (len(req.Functions) > 0 || nanbeige) && !nemotron {
		var err error
		style, underscored := core.ProviderOpenAI, d.cfg.ToolNamesUnderscored()
		switch {
		case d.cfg.Handler == "NovitaHandler":
			style = core.StyleNovita
		case fireworks:
			// ModelStyle.FIREWORK_AI: the response folded into the
			// description, the dots of names kept
			style, underscored = core.StyleFireworks, false
		}
		body = append(body, `,"tools":`...)
		if body, err = core.AppendToolsJSON(body, req.Functions, style, underscored); err != nil {
			return nil, fmt.Errorf("openai driver: %w", err)
		}
	}
	if req.MaxTokens != 0 || req.Seed != nil {
		tail, err := json.Marshal(wireTail{MaxTokens: req.MaxTokens, Seed: req.Seed})
		if err != nil {
			return nil, fmt.Errorf("openai driver: encode request: %w", err)
		}
		body = append(body, ',')
		body = append(body, tail[1:]...)
	} else {
		body = append(body, '}')
	}
	return body, nil
}

// combineUserMessages is upstream's combine_consecutive_user_prompts
// (DeepSeekAPIHandler's, NvidiaHandler's and LingAPIHandler's prompt
// mode): consecutive user
// messages become one,
// their contents joined by a blank line. In the history they only follow
// each other within one turn's question, where upstream combines them.
func combineUserMessages(msgs []core.Message) []core.Message {
	out := make([]core.Message, 0, len(msgs))
	for _, m := range msgs {
		if n := len(out); m.Role == core.RoleUser && n > 0 && out[n-1].Role == core.RoleUser {
			out[n-1].Content += "\n\n" + m.Content
			continue
		}
		out = append(out, m)
	}
	return out
}

// AppendMessages appends the JSON array of msgs as the chat driver sends
// them (system and user messages as given, an assistant turn as the server
// returned it, tool results with tool_call_id and no name). The writer
// driver sends its history with it (WriterHandler keeps
// OpenAICompletionsHandler's history methods).
func AppendMessages(b []byte, msgs []core.Message) ([]byte, error) {
	b = append(b, '[')
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendMessage(b, i, m); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendMessage appends the wire encoding of message i.
func appendMessage(b []byte, i int, m core.Message) ([]byte, error) {
	content := m.Content
	wm := wireMessage{Role: m.Role, Content: &content}
	switch m.Role {
	case core.RoleSystem, core.RoleUser:
	case core.RoleAssistant:
		if len(m.Replay) > 0 {
			// The message as the server returned it, as upstream's handler
			// sends it back (reasoning_content, tool_calls: [], refusal, ...).
			return append(b, m.Replay...), nil
		}
		if len(m.ToolCalls) > 0 {
			if content == "" {
				wm.Content = nil
			}
			wm.ToolCalls = core.ChatToolCalls(m.ToolCalls)
		}
	case core.RoleTool:
		wm.ToolCallID = m.ToolCallID // upstream sends no name
	default:
		return nil, fmt.Errorf("openai driver: message %d has unknown role %q", i, m.Role)
	}
	if len(wm.ToolCalls) > 0 || len(content) < minRememberedContent {
		b, err := appendNoHTML(b, wm)
		if err != nil {
			return nil, fmt.Errorf("openai driver: encode request: %w", err)
		}
		return b, nil
	}
	k := messageKey{role: wm.Role, toolCallID: wm.ToolCallID, content: unsafe.StringData(content), n: len(content)}
	if r, ok := messageEncodings.Get(k); ok {
		return append(b, r.enc...), nil
	}
	start := len(b)
	b, err := appendNoHTML(b, wm)
	if err != nil {
		return nil, fmt.Errorf("openai driver: encode request: %w", err)
	}
	messageEncodings.Put(k, rememberedMessage{content: content, enc: bytes.Clone(b[start:])}, len(b)-start)
	return b, nil
}

// appendNoHTML appends v as encoding/json writes it without HTML escaping
// (no trailing newline).
func appendNoHTML(b []byte, v any) ([]byte, error) { return core.AppendJSON(b, v) }

// Every step of a multi-turn entry resends the whole conversation; its
// long messages (tool results above all) are encoded once and remembered
// by the identity of their content string (its bytes' address and length,
// the string kept alive so the address stays its own: Go strings do not
// change). The memory is bounded: everything is forgotten past
// maxRememberedBytes.
const (
	minRememberedContent = 1024
	maxRememberedBytes   = 64 << 20
)

type messageKey struct {
	role, toolCallID string
	content          *byte
	n                int
}

type rememberedMessage struct {
	content string // keeps the content, and so its address, alive
	enc     []byte
}

var messageEncodings = memo.Recent[messageKey, rememberedMessage]{Max: maxRememberedBytes}

// Complete sends one chat completion request, retrying retryable failures.
func (d *Driver) Complete(ctx context.Context, req core.Request) (core.Response, error) {
	body, err := d.BuildRequest(req)
	if err != nil {
		return core.Response{}, err
	}
	out, err := core.Retry(ctx, d.cfg, core.ProviderOpenAI, func(ctx context.Context) (core.Response, error) {
		return d.attempt(ctx, body)
	})
	if err == nil && d.nemotronFC() {
		// the answer goes back as returned, with the count of the entry's
		// first functions that its system prompt lists
		_, n, _ := nemotronMessages(req.Messages, req.Functions)
		out.Replay, err = core.MarshalJSON(nemotronReplay{Message: out.Replay, Functions: n})
	}
	return out, err
}

func (d *Driver) attempt(ctx context.Context, body []byte) (core.Response, error) {
	out, err := core.PostAnswer(ctx, d.http, core.ProviderOpenAI, d.endpoint, d.cfg.APIKey, body, parseResponse)
	switch {
	case err != nil:
	case d.fireworksFC():
		out.Replay, err = fireworksHistory(out.Replay)
	case d.nanbeigeFC():
		out, err = nanbeigeAnswer(out)
	case d.miningPrompt():
		out, err = miningAnswer(out, d.cfg.Handler)
	case d.cfg.StripReasoning:
		out.Replay, err = stripReasoning(out.Replay, d.cfg.Mode)
	}
	return out, err
}

// fireworksFC and nanbeigeFC tell the subclasses whose FC methods change
// the request and the history (fireworks.py, nanbeige.py).
func (d *Driver) fireworksFC() bool {
	return d.cfg.Handler == "FireworksHandler" && d.cfg.Mode == core.ModeFC
}

func (d *Driver) nanbeigeFC() bool {
	return d.cfg.Handler == "NanbeigeAPIHandler" && d.cfg.Mode == core.ModeFC
}

// withoutToolCallIDs is msgs with the tool results' ids dropped.
func withoutToolCallIDs(msgs []core.Message) []core.Message {
	out := msgs
	for i, m := range msgs {
		if m.Role == core.RoleTool && m.ToolCallID != "" {
			if &out[0] == &msgs[0] {
				out = append([]core.Message(nil), msgs...)
			}
			out[i].ToolCallID = ""
		}
	}
	return out
}

// fireworksHistory is FireworksHandler's assistant message: content "" and
// the answer's tool calls as the SDK dumps them (each as the server sent
// it), an empty list when it made none (its parser's except branch).
func fireworksHistory(msg json.RawMessage) (json.RawMessage, error) {
	var m struct {
		ToolCalls []json.RawMessage `json:"tool_calls"`
	}
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, core.DecodeError(core.ProviderOpenAI, msg, err)
	}
	if m.ToolCalls == nil {
		m.ToolCalls = []json.RawMessage{}
	}
	return appendNoHTML(nil, struct {
		Role      string            `json:"role"`
		Content   string            `json:"content"`
		ToolCalls []json.RawMessage `json:"tool_calls"`
	}{core.RoleAssistant, "", m.ToolCalls})
}

// nanbeigeAnswer is NanbeigeAPIHandler._parse_query_response_FC: calls
// only when tool_calls is a non-empty list (else the content is the
// answer), and the history message rebuilt from them: role, content null
// and the calls (id, type "function", name, arguments), or role and the
// content as it came; either with reasoning_content when there is some.
func nanbeigeAnswer(out core.Response) (core.Response, error) {
	var m struct {
		Content          json.RawMessage `json:"content"`
		ReasoningContent *string         `json:"reasoning_content"`
	}
	if err := json.Unmarshal(out.Replay, &m); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderOpenAI, out.Replay, err)
	}
	reasoning := ""
	if m.ReasoningContent != nil {
		reasoning = *m.ReasoningContent
	}
	content := m.Content
	if len(content) == 0 {
		content = json.RawMessage("null")
	}
	if len(out.ToolCalls) == 0 {
		out.ToolCalls = nil
	}
	type fn struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type call struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function fn     `json:"function"`
	}
	hist := struct {
		Role             string          `json:"role"`
		Content          json.RawMessage `json:"content"`
		ToolCalls        []call          `json:"tool_calls,omitempty"`
		ReasoningContent string          `json:"reasoning_content,omitempty"`
	}{Role: core.RoleAssistant, Content: content, ReasoningContent: reasoning}
	if out.ToolCalls != nil {
		hist.Content = json.RawMessage("null")
		for _, tc := range out.ToolCalls {
			hist.ToolCalls = append(hist.ToolCalls, call{ID: tc.ID, Type: "function", Function: fn{Name: tc.Name, Arguments: tc.Arguments}})
		}
	}
	var err error
	out.Replay, err = appendNoHTML(nil, hist)
	return out, err
}

// stripReasoning is upstream's _add_reasoning_content_if_available_FC /
// _prompting (openai_completion.py): in FC mode a message with tool calls
// goes back as role, content and the calls (id, type, function name and
// arguments) only, a message without calls but with a reasoning_content key
// as role and content; in prompt mode a message with reasoning_content goes
// back as role and the answer as str() would print it. Other messages are
// sent back as returned.
func stripReasoning(msg json.RawMessage, mode string) (json.RawMessage, error) {
	var m struct {
		Content   json.RawMessage     `json:"content"`
		ToolCalls []core.ChatToolCall `json:"tool_calls"`
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(msg, &m); err != nil {
		return nil, core.DecodeError(core.ProviderOpenAI, msg, err)
	}
	if err := json.Unmarshal(msg, &keys); err != nil {
		return nil, core.DecodeError(core.ProviderOpenAI, msg, err)
	}
	_, hasReasoning := keys["reasoning_content"] // present, even null (hasattr)
	content := m.Content
	if len(content) == 0 {
		content = json.RawMessage("null")
	}
	switch {
	case mode == core.ModeFC && len(m.ToolCalls) > 0:
		return appendNoHTML(nil, struct {
			Role      string              `json:"role"`
			Content   json.RawMessage     `json:"content"`
			ToolCalls []core.ChatToolCall `json:"tool_calls"`
		}{core.RoleAssistant, content, m.ToolCalls})
	case !hasReasoning:
		return msg, nil
	case mode == core.ModePrompt:
		text := "None" // str(None)
		var s *string
		if json.Unmarshal(content, &s) == nil && s != nil {
			text = *s
		}
		content, _ = appendNoHTML(nil, text)
	}
	return appendNoHTML(nil, struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}{core.RoleAssistant, content})
}

func parseResponse(body []byte, latency time.Duration) (core.Response, error) {
	return ParseChat(core.ProviderOpenAI, body, latency)
}

// ParseChat reads a chat completion answer the way the chat driver does
// (see the package doc): Replay is the choice's message as returned,
// tool_calls decide between calls and a text. provider names the errors.
// The writer driver reads Writer's /v1/chat answers with it (the same
// shape, read by the same OpenAICompletionsHandler methods upstream).
func ParseChat(provider string, body []byte, latency time.Duration) (core.Response, error) {
	var w wireResponse
	if err := json.Unmarshal(body, &w); err != nil {
		return core.Response{}, core.DecodeError(provider, body, err)
	}
	if w.Error != nil {
		return core.Response{}, &core.Error{Provider: provider, Body: "error in a 2xx response: " + core.Excerpt(body)}
	}
	if len(w.Choices) == 0 {
		return core.Response{}, core.DecodeError(provider, body, fmt.Errorf("no choices"))
	}
	msg := w.Choices[0].Message
	out := core.Response{Latency: latency, Raw: json.RawMessage(body)}
	var raw struct {
		Choices []struct {
			Message json.RawMessage `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(body, &raw); err == nil && len(raw.Choices) > 0 {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw.Choices[0].Message); err == nil {
			out.Replay = buf.Bytes()
		}
	}
	if msg.Content != nil {
		out.Text = *msg.Content
	}
	switch {
	case msg.ReasoningContent != nil:
		out.Reasoning = *msg.ReasoningContent
	case msg.Reasoning != nil:
		out.Reasoning = *msg.Reasoning
	}
	if msg.ToolCalls != nil {
		// `tool_calls: []` is an empty call list, as upstream's parser reads
		// it (the empty-tool-calls correction makes it a text turn; see
		// internal/run/infer); absent or null is a text answer
		out.ToolCalls = make([]core.ToolCall, 0, len(msg.ToolCalls))
	}
	for i, tc := range msg.ToolCalls {
		args, err := core.ArgumentsText(tc.Function.Arguments, "")
		if err != nil {
			return core.Response{}, core.DecodeError(provider, body, fmt.Errorf("tool call %d arguments: %w", i, err))
		}
		out.ToolCalls = append(out.ToolCalls, core.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
	}
	if w.Usage != nil {
		out.InputTokens, out.OutputTokens = w.Usage.PromptTokens, w.Usage.CompletionTokens
	}
	return out, nil
}

// Probe checks, before a run, that the server answers, accepts the key and
// serves the model: GET <base>/models must list the model id. A server
// without /models (404) is asked for a one-token completion instead, which
// tells a wrong base URL from a missing list. OpenAI-compatible servers do
// not say whether a model supports tools, so that is not checked.
func (d *Driver) Probe(ctx context.Context) error {
	if err := d.probeServer(ctx); err != nil {
		return err
	}
	if d.cfg.Mode == core.ModeFC && !d.nemotronFC() { // NemotronHandler sends no tools
		return d.probeTools(ctx)
	}
	return nil
}

// probeTool is the function document of the tool probe.
var probeTool = json.RawMessage(`{"name":"ping","description":"Answer a ping.","parameters":{"type":"dict","properties":{},"required":[]}}`)

// probeTools sends one one-token completion offering one tool: a server
// that refuses tools (vLLM without --enable-auto-tool-choice, llama.cpp
// without --jinja, an Ollama model without tool support) says so at once,
// where a run would fail every entry on the same refusal. Only a refusal
// that names tools fails the probe; any other answer is left to the run.
func (d *Driver) probeTools(ctx context.Context) error {
	base := strings.TrimSuffix(d.endpoint, "/chat/completions")
	ctx, ex, err := d.probeSay(ctx, []json.RawMessage{probeTool})
	if ex == nil {
		return err
	}
	what := "POST " + d.endpoint + " with a tool"
	switch {
	case ex.Status == http.StatusBadRequest || ex.Status == http.StatusUnprocessableEntity:
		if strings.Contains(strings.ToLower(string(ex.Body)), "tool") {
			return &core.ProbeError{Provider: core.ProviderOpenAI, Base: base, Model: d.cfg.Model, Kind: "tools",
				Cause: fmt.Sprintf("%s does not take tool calls for model %q (%s: HTTP %d: %s); enable tool calling on the server (vLLM: --enable-auto-tool-choice --tool-call-parser NAME; llama.cpp: --jinja), or run the model with mode: prompt",
					base, d.cfg.Model, what, ex.Status, core.Excerpt(ex.Body))}
		}
	case ex.Status == 0 || ex.Status == http.StatusUnauthorized || ex.Status == http.StatusForbidden:
		if pe := core.ClassifyProbe(ctx, core.ProviderOpenAI, base, d.cfg.Model, what, ex, err); pe != nil {
			return pe
		}
	}
	return nil
}

// probeSay posts a one-token completion of "Say OK." offering functions,
// and returns what the exchange saw and the transport's error. A nil
// exchange means the request could not be built (err says why).
func (d *Driver) probeSay(ctx context.Context, functions []json.RawMessage) (context.Context, *core.Exchange, error) {
	body, err := d.BuildRequest(core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "Say OK."}}, Functions: functions, MaxTokens: 1})
	if err != nil {
		return ctx, nil, err
	}
	ctx, ex := core.WithExchange(ctx)
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, d.endpoint, bytes.NewReader(body))
	if err != nil {
		return ctx, nil, fmt.Errorf("openai driver: %w", err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	if d.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+d.cfg.APIKey)
	}
	resp, err := d.http.Do(hreq)
	if err == nil {
		resp.Body.Close()
	}
	return ctx, ex, err
}

func (d *Driver) probeServer(ctx context.Context) error {
	base := strings.TrimSuffix(d.endpoint, "/chat/completions")
	url := base + "/models"
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("openai driver: %w", err)
	}
	hreq.Header.Set("Accept", "application/json")
	if d.cfg.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+d.cfg.APIKey)
	}
	ctx, ex := core.WithExchange(ctx)
	resp, err := d.http.Do(hreq.WithContext(ctx))
	if err == nil {
		resp.Body.Close()
	}
	if ex.Status == http.StatusNotFound || ex.Status == http.StatusMethodNotAllowed {
		return d.probeCompletion(ctx, base)
	}
	if pe := core.ClassifyProbe(ctx, core.ProviderOpenAI, base, d.cfg.Model, "GET "+url, ex, err); pe != nil {
		return pe
	}
	var list struct {
		Data *[]struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if json.Unmarshal(ex.Body, &list) != nil || list.Data == nil {
		return nil // not a model list: nothing to check against
	}
	var ids []string
	for _, m := range *list.Data {
		if sameModel(m.ID, d.cfg.Model) {
			return nil
		}
		ids = append(ids, m.ID)
	}
	return &core.ProbeError{Provider: core.ProviderOpenAI, Base: base, Model: d.cfg.Model, Kind: "model",
		Cause: fmt.Sprintf("model %q is not served by %s (GET %s lists: %s); set the registry's model to one of them", d.cfg.Model, base, url, core.JoinNames(ids))}
}

func (d *Driver) probeCompletion(ctx context.Context, base string) error {
	ctx, ex, err := d.probeSay(ctx, nil)
	if ex == nil {
		return err
	}
	if ex.Status == http.StatusNotFound && !strings.Contains(strings.ToLower(string(ex.Body)), "model") {
		return &core.ProbeError{Provider: core.ProviderOpenAI, Base: base, Model: d.cfg.Model, Kind: "unreachable",
			Cause: fmt.Sprintf("%s has neither /models nor /chat/completions (HTTP 404): base_url must be the API root, e.g. http://host:8000/v1", base)}
	}
	if pe := core.ClassifyProbe(ctx, core.ProviderOpenAI, base, d.cfg.Model, "POST "+d.endpoint, ex, err); pe != nil {
		return pe
	}
	if _, err := parseResponse(ex.Body, 0); err != nil {
		return &core.ProbeError{Provider: core.ProviderOpenAI, Base: base, Model: d.cfg.Model, Kind: "server",
			Cause: fmt.Sprintf("%s answered a one-token completion with something that is not a chat completion: %v", base, err)}
	}
	return nil
}

// sameModel reports whether a served model id names the configured model.
// Ollama's OpenAI-compatible /v1/models lists "name:latest" for a model
// requested as "name" (the tag defaults to latest), so the default tag is
// ignored on either side.
func sameModel(served, want string) bool {
	trim := func(s string) string { return strings.TrimSuffix(s, ":latest") }
	return served == want || trim(served) == trim(want)
}
