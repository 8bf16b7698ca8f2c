// Package drivertest replays recorded provider exchanges for the driver
// tests: a fixture file (fixtures/drivers/<provider>/<case>.json) holds a
// driver configuration, a provider-neutral request, the exact request
// bodies the driver must send, the responses a fake httptest server answers
// with (status, headers, body, delay), and the Response or error the driver
// must return.
package drivertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
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
		http.Error(w, fmt.Sprintf(`{"error":"fake server: request %d, but only %d are answered"}`, i+1, len(s.fx.Exchanges)), http.StatusTeapot)
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

// FixtureDir is fixtures/drivers/<provider> of the module.
func FixtureDir(provider string) string {
	return filepath.Join(testenv.ModuleRoot(), "fixtures", "drivers", provider)
}

// DescribeFixtures declares one spec per fixture of the provider: the
// provider's driver (driver.New) against a fake server must send exactly
// the recorded request bodies, in order, and return the recorded Response
// or error.
func DescribeFixtures(provider string) {
	fixtures, names, err := Load(FixtureDir(provider))
	if err != nil {
		panic(err)
	}
	Describe("recorded "+provider+" exchanges", func() {
		for _, name := range names {
			fx := fixtures[name]
			It(name+": "+fx.Description, func(ctx SpecContext) {
				RunFixture(ctx, provider, fx)
			}, SpecTimeout(30*time.Second))
		}
	})
}

// DescribeBodyLimit declares the spec that an answer longer than
// Config.MaxResponseBytes is an error of the provider naming the limit,
// not retried, also when the server streams it without a Content-Length.
func DescribeBodyLimit(provider string) {
	It("refuses an answer longer than MaxResponseBytes, without retrying", func(ctx SpecContext) {
		var hits atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"padding": "`)
			for i := 0; i < 8; i++ { // chunked: no Content-Length to go by
				_, _ = io.WriteString(w, strings.Repeat("x", 512))
				w.(http.Flusher).Flush()
			}
			_, _ = io.WriteString(w, `"}`)
		}))
		defer srv.Close()
		d, err := driver.New(core.Config{Provider: provider, Model: "m", APIKey: "test-key", BaseURL: srv.URL,
			MaxResponseBytes: 1024, RetryBaseDelay: time.Millisecond, RetryMaxDelay: time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		_, err = d.Complete(ctx, core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "hi"}}})
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(HavePrefix(provider + ": "))
		Expect(err.Error()).To(ContainSubstring("response body larger than the 1 KiB limit"))
		Expect(errors.Is(err, netguard.ErrTooLarge)).To(BeTrue(), "errors.Is(%v, ErrTooLarge)", err)
		Expect(core.IsRetryable(err)).To(BeFalse())
		Expect(hits.Load()).To(BeEquivalentTo(1))
	}, SpecTimeout(30*time.Second))
}

// RunFixture runs one fixture and asserts everything it records.
func RunFixture(ctx context.Context, provider string, fx *Fixture) {
	srv := Serve(fx)
	defer srv.Close()
	d, err := driver.New(fx.CoreConfig(provider, srv.URL))
	Expect(err).NotTo(HaveOccurred())
	resp, err := d.Complete(ctx, fx.CoreRequest())

	got := srv.Received()
	Expect(got).To(HaveLen(len(fx.Exchanges)), "number of HTTP requests the driver made")
	for i, ex := range fx.Exchanges {
		if ex.Method != "" {
			Expect(got[i].Method).To(Equal(ex.Method), "exchange %d method", i)
		}
		if ex.Path != "" {
			Expect(got[i].Path).To(Equal(ex.Path), "exchange %d path", i)
		}
		for k, v := range ex.Headers {
			Expect(got[i].Header.Get(k)).To(Equal(v), "exchange %d header %s", i, k)
		}
		if dir := os.Getenv("DRIVERTEST_DUMP"); dir != "" {
			// debugging aid: keep what the driver sent
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.json", provider, i)), got[i].Body, 0o644)
		}
		if len(ex.Request) > 0 && string(ex.Request) != "null" {
			Expect(string(got[i].Body)).To(MatchJSON(ex.Request), "exchange %d request body", i)
		}
	}

	if fx.ExpectError != nil {
		Expect(err).To(HaveOccurred(), "the driver must fail")
		for _, s := range fx.ExpectError.Contains {
			Expect(err.Error()).To(ContainSubstring(s))
		}
		Expect(err.Error()).To(HavePrefix(provider))
		var pe *core.Error
		Expect(errors.As(err, &pe)).To(BeTrue(), "error is a *core.Error: %v", err)
		Expect(pe.StatusCode).To(Equal(fx.ExpectError.Status))
		Expect(pe.Retryable).To(Equal(fx.ExpectError.Retryable))
		Expect(core.IsRetryable(err)).To(Equal(fx.ExpectError.Retryable))
		if fx.ExpectError.Attempts > 0 {
			Expect(pe.Attempts).To(Equal(fx.ExpectError.Attempts))
		}
		return
	}
	Expect(err).NotTo(HaveOccurred())
	Expect(fx.Expect).NotTo(BeNil(), "fixture has neither expect nor expect_error")
	Expect(resp.Text).To(Equal(fx.Expect.Text))
	Expect(resp.Reasoning).To(Equal(fx.Expect.Reasoning))
	Expect(resp.InputTokens).To(Equal(fx.Expect.InputTokens))
	Expect(resp.OutputTokens).To(Equal(fx.Expect.OutputTokens))
	var calls []FixtureCall
	for _, c := range resp.ToolCalls {
		calls = append(calls, FixtureCall(c))
	}
	if len(fx.Expect.ToolCalls) == 0 {
		Expect(calls).To(BeEmpty())
	} else {
		Expect(calls).To(Equal(fx.Expect.ToolCalls))
	}
	if len(fx.Expect.Replay) > 0 {
		Expect(string(resp.Replay)).To(MatchJSON(fx.Expect.Replay))
	}
	// The input log: the body of the attempt that succeeded.
	Expect(string(resp.Request)).To(Equal(string(got[len(got)-1].Body)), "Response.Request is the request body sent")
	Expect(resp.Latency).To(BeNumerically(">", 0))
	Expect(json.Valid(resp.Raw)).To(BeTrue())
	Expect(strings.TrimSpace(string(resp.Raw))).To(Equal(strings.TrimSpace(string(srv.LastResponseBody()))))
}
