package core

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// ChatToolCall is a tool call in the chat-completions wire format that
// OpenAI defined and that Mistral's and DashScope's (Qwen) compatible APIs
// speak: the arguments travel as a JSON text.
type ChatToolCall struct {
	ID       string           `json:"id"`
	Type     string           `json:"type"`
	Function ChatFunctionCall `json:"function"`
}

// ChatFunctionCall is the function of a ChatToolCall.
type ChatFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ChatToolCalls is calls in the chat-completions format (type "function"),
// in order; nil when there are none.
func ChatToolCalls(calls []ToolCall) []ChatToolCall {
	if len(calls) == 0 {
		return nil
	}
	out := make([]ChatToolCall, len(calls))
	for i, tc := range calls {
		out[i] = ChatToolCall{ID: tc.ID, Type: "function", Function: ChatFunctionCall{Name: tc.Name, Arguments: tc.Arguments}}
	}
	return out
}

// MarshalRequest is MarshalJSON of a request body; a failure names the
// driver ("<driver> driver: encode request: ...").
func MarshalRequest(driver string, v any) ([]byte, error) {
	b, err := MarshalJSON(v)
	if err != nil {
		return nil, fmt.Errorf("%s driver: encode request: %w", driver, err)
	}
	return b, nil
}

// Call is a keyed API's completion: body (the request, built once) goes to
// the Endpoint with Retry, each attempt a Send whose answer parse turns
// into a Response; the Response records the request as sent.
func (a KeyedAPI) Call(ctx context.Context, accept string, body []byte, parse func(body []byte, latency time.Duration) (Response, error)) (Response, error) {
	return Retry(ctx, a.Cfg, a.Cred.Provider, func(ctx context.Context) (Response, error) {
		ex, latency, err := a.Send(ctx, a.Endpoint, accept, body)
		if err != nil {
			return Response{}, err
		}
		out, err := parse(ex.Body, latency)
		out.Request = ex.RequestBody
		return out, err
	})
}

// AnswerToolCall is a tool call as the chat answers of OpenAI-style APIs
// and Ollama carry it: the arguments are kept raw (a JSON text or, in
// Ollama's answers, an object) for the driver to read.
type AnswerToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// ToolNameFor is the function name of the call with the given ID in the
// latest assistant message of history ("" when that message has none):
// the name of the call a tool message answers, for APIs whose tool results
// carry the name rather than the ID.
func ToolNameFor(history []Message, id string) string {
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role != RoleAssistant {
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

// PostAnswer is one attempt of an API without a keyed Credential: body
// goes to url (Post), a non-2xx answer is HTTPError, and parse turns the
// answer into a Response that records the request as sent.
func PostAnswer(ctx context.Context, hc *http.Client, provider, url, key string, body []byte, parse func(body []byte, latency time.Duration) (Response, error)) (Response, error) {
	ex, latency, err := Post(ctx, hc, provider, url, "application/json", key, body)
	if err != nil {
		return Response{}, err
	}
	if !ex.OK() {
		return Response{}, HTTPError(provider, ex.Status, ex.Header, ex.Body)
	}
	out, err := parse(ex.Body, latency)
	out.Request = ex.RequestBody
	return out, err
}
