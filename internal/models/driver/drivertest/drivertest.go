// Package drivertest replays recorded provider exchanges for the driver
// tests: a fixture file (fixtures/drivers/<provider>/<case>.json) holds a
// driver configuration, a provider-neutral request, the exact request
// bodies the driver must send, the responses a fake httptest server answers
// with (status, headers, body, delay), and the Response or error the driver
// must return.
package drivertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
)

// Fixture is one recorded case.
type Fixture struct {
	Description string          `json:"description"`
	Config      FixtureConfig   `json:"config"`
	Request     FixtureRequest  `json:"request"`
	Exchanges   []Exchange      `json:"exchanges"`
	Expect      *FixtureResult  `json:"expect,omitempty"`
	ExpectError *ExpectedError  `json:"expect_error,omitempty"`
	Extra       json.RawMessage `json:"extra,omitempty"`
}

// FixtureConfig is the driver configuration of a case (BaseURL is the fake
// server's).
type FixtureConfig struct {
	Model           string `json:"model"`
	Mode            string `json:"mode"`
	UnderscoreToDot bool   `json:"underscore_to_dot"`
	NumCtx          int    `json:"num_ctx"`
	TimeoutMS       int    `json:"timeout_ms"`
	MaxRetries      int    `json:"max_retries"`
	APIKey          string `json:"api_key"`
	// BasePath is appended to the fake server's URL to form BaseURL
	// (e.g. "/v1" for OpenAI-compatible servers).
	BasePath string `json:"base_path"`
}

// FixtureMessage is core.Message in JSON.
type FixtureMessage struct {
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	ToolCalls  []FixtureCall   `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Name       string          `json:"name,omitempty"`
	Replay     json.RawMessage `json:"replay,omitempty"`
}

// FixtureCall is core.ToolCall in JSON.
type FixtureCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// FixtureRequest is core.Request in JSON.
type FixtureRequest struct {
	Messages    []FixtureMessage  `json:"messages"`
	Functions   []json.RawMessage `json:"functions,omitempty"`
	Temperature float64           `json:"temperature"`
	MaxTokens   int               `json:"max_tokens,omitempty"`
	Seed        *int64            `json:"seed,omitempty"`
}

// Exchange is one HTTP round trip: what must arrive and what is answered.
type Exchange struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Request is the JSON body the driver must send (compared as JSON
	// values); null means "not checked".
	Request json.RawMessage   `json:"request,omitempty"`
	Headers map[string]string `json:"request_headers,omitempty"`
	Status  int               `json:"status"`
	// ResponseHeaders are set on the answer (Retry-After, ...).
	ResponseHeaders map[string]string `json:"response_headers,omitempty"`
	// Response is a JSON body; ResponseText a verbatim body instead.
	Response     json.RawMessage `json:"response,omitempty"`
	ResponseText *string         `json:"response_text,omitempty"`
	// DelayMS holds the answer back (to trigger the client's timeout).
	DelayMS int `json:"delay_ms,omitempty"`
}

// FixtureResult is the expected core.Response (Latency and Raw excluded;
// Raw is checked to equal the last response body).
type FixtureResult struct {
	Text         string          `json:"text"`
	ToolCalls    []FixtureCall   `json:"tool_calls"`
	Reasoning    string          `json:"reasoning"`
	InputTokens  int             `json:"input_tokens"`
	OutputTokens int             `json:"output_tokens"`
	Replay       json.RawMessage `json:"replay,omitempty"`
}

// ExpectedError describes the error a case must end with.
type ExpectedError struct {
	Contains  []string `json:"contains"`
	Status    int      `json:"status"`
	Retryable bool     `json:"retryable"`
	Attempts  int      `json:"attempts"`
}

// Load reads all fixtures of a provider directory, sorted by file name.
func Load(dir string) (map[string]*Fixture, []string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, nil, err
	}
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("no fixtures in %s", dir)
	}
	sort.Strings(paths)
	out := map[string]*Fixture{}
	var names []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		var f Fixture
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		name := filepath.Base(p)
		out[name] = &f
		names = append(names, name)
	}
	return out, names, nil
}

// CoreConfig is the driver configuration of a fixture, pointed at baseURL,
// with millisecond backoff so retry cases run fast.
func (f *Fixture) CoreConfig(provider, baseURL string) core.Config {
	c := core.Config{
		Provider: provider, Model: f.Config.Model, BaseURL: baseURL + f.Config.BasePath, APIKey: f.Config.APIKey,
		Mode: f.Config.Mode, NumCtx: f.Config.NumCtx,
		MaxRetries: f.Config.MaxRetries, RetryBaseDelay: time.Millisecond, RetryMaxDelay: 5 * time.Millisecond,
	}
	if c.APIKey == "" {
		c.APIKey = "test-key"
	}
	if f.Config.TimeoutMS > 0 {
		c.Timeout = time.Duration(f.Config.TimeoutMS) * time.Millisecond
	}
	return c
}

// CoreRequest is the fixture's request.
func (f *Fixture) CoreRequest() core.Request {
	r := core.Request{Functions: f.Request.Functions, Temperature: f.Request.Temperature, MaxTokens: f.Request.MaxTokens, Seed: f.Request.Seed}
	for _, m := range f.Request.Messages {
		cm := core.Message{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, Name: m.Name, Replay: m.Replay}
		for _, c := range m.ToolCalls {
			cm.ToolCalls = append(cm.ToolCalls, core.ToolCall(c))
		}
		r.Messages = append(r.Messages, cm)
	}
	return r
}

// Received is one request the fake server got.
type Received struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// Server is a fake provider answering a fixture's exchanges in order.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	fx       *Fixture
	next     int
	received []Received
}

// Serve starts a fake server for f.
func Serve(f *Fixture) *Server {
	s := &Server{fx: f}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.received = append(s.received, Received{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	i := s.next
	s.next++
	s.mu.Unlock()
	if i >= len(s.fx.Exchanges) {
		http.Error(w, `{"error":"fake server: unexpected extra request"}`, http.StatusTeapot)
		return
	}
	ex := s.fx.Exchanges[i]
	if ex.DelayMS > 0 {
		select {
		case <-time.After(time.Duration(ex.DelayMS) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range ex.ResponseHeaders {
		w.Header().Set(k, v)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	status := ex.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = w.Write(responseBody(ex))
}

// responseBody is what an exchange answers: ResponseText verbatim, or
// Response as compact JSON (the fixture files are indented; servers such
// as Ollama answer with one JSON object per line).
func responseBody(ex Exchange) []byte {
	if ex.ResponseText != nil {
		return []byte(*ex.ResponseText)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, ex.Response); err != nil {
		return ex.Response
	}
	return buf.Bytes()
}

// Received returns the requests received so far.
func (s *Server) Received() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// LastResponseBody is the body of the last exchange answered.
func (s *Server) LastResponseBody() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next == 0 || s.next > len(s.fx.Exchanges) {
		return nil
	}
	return responseBody(s.fx.Exchanges[s.next-1])
}
