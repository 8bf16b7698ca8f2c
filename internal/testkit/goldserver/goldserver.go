// Package goldserver is an OpenAI-compatible chat-completions server for
// load tests and multi-process tests: it answers every request of a known
// data-set entry with the built-in gold model's answer (internal/models/gold)
// after a fixed latency, and does no other work. An answer is computed
// once per distinct request body and then served from memory, so in a
// repeated run the server costs only its HTTP handling and the latency.
//
// Entries are recognised by their first user message and their first
// function's name, as the inference loop sends them, and among entries
// sharing those (multi_turn_base_3 and multi_turn_miss_param_3) by the
// user messages sent so far.
package goldserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/gold"
	"github.com/bfcl-go/bfcl/internal/run/infer"
)

// Server is a running gold server.
type Server struct {
	// URL is the API root (ends in /v1), the base_url of an openai model.
	URL string

	srv     *httptest.Server
	latency time.Duration
	byKey   map[string][]*dataset.Entry
	seed    maphash.Seed

	mu       sync.Mutex
	golds    map[*dataset.Entry]*gold.Driver
	cache    sync.Map // body hash -> cached
	calls    atomic.Int64
	misses   atomic.Int64
	inflight atomic.Int64
	peak     atomic.Int64
	busy     atomic.Int64 // ns of chat completions in progress, summed
	late     atomic.Int64 // ns: how late the timer wakes, averaged (see wait)
}

type cached struct {
	n    int // body length, a second check against hash collisions
	resp []byte
}

// Key is how the server recognises an entry: its first user message and
// its first function's name ("." and "_" alike).
func Key(firstUser, firstFunction string) string {
	return firstUser + "\x00" + strings.ReplaceAll(firstFunction, ".", "_")
}

// EntryKey is Key of a data-set entry.
func EntryKey(e *dataset.Entry) (string, error) {
	user := ""
	for _, turn := range e.Question {
		for _, m := range turn {
			if m.Role == "user" {
				user = m.Content
				break
			}
		}
		if user != "" {
			break
		}
	}
	name := ""
	if len(e.Functions) > 0 {
		var doc struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(e.Functions[0], &doc); err != nil {
			return "", fmt.Errorf("goldserver: %s: function document: %w", e.Where(), err)
		}
		name = doc.Name
	}
	return Key(user, name), nil
}

// Start serves entries (the first of entries sharing a key wins) with
// the given latency per request.
func Start(entries []*dataset.Entry, latency time.Duration) (*Server, error) {
	s := &Server{latency: latency, byKey: map[string][]*dataset.Entry{}, seed: maphash.MakeSeed(), golds: map[*dataset.Entry]*gold.Driver{}}
	for _, e := range entries {
		k, err := EntryKey(e)
		if err != nil {
			return nil, err
		}
		s.byKey[k] = append(s.byKey[k], e)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	return s, nil
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Calls is the number of chat completions answered.
func (s *Server) Calls() int64 { return s.calls.Load() }

// Misses is the number of answers computed (not served from memory).
func (s *Server) Misses() int64 { return s.misses.Load() }

// Peak is the most chat completions that were in progress at once.
func (s *Server) Peak() int64 { return s.peak.Load() }

// Busy is the time chat completions were in progress, summed over them:
// each one's latency as the server gave it (on average the configured
// latency, see wait).
func (s *Server) Busy() time.Duration { return time.Duration(s.busy.Load()) }

type wireRequest struct {
	Messages []struct {
		Role      string  `json:"role"`
		Content   *string `json:"content"`
		ToolCalls []struct {
			ID       string `json:"id"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
		ToolCallID string `json:"tool_call_id"`
		Name       string `json:"name"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	switch r.URL.Path {
	case "/v1/models":
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"list","data":[{"id":"gold"}]}`))
		return
	case "/v1/chat/completions":
	default:
		http.NotFound(w, r)
		return
	}
	n := s.inflight.Add(1)
	defer s.inflight.Add(-1)
	for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
	}
	defer func() { s.busy.Add(int64(time.Since(start))) }()
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(r.Body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	body := buf.Bytes()
	h := maphash.Bytes(s.seed, body)
	var resp []byte
	if c, ok := s.cache.Load(h); ok && c.(cached).n == len(body) {
		resp = c.(cached).resp
	} else {
		var err error
		if resp, err = s.answer(body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.misses.Add(1)
		s.cache.Store(h, cached{n: len(body), resp: resp})
	}
	s.calls.Add(1)
	s.wait(start)
	w.Header().Set("Content-Type", "application/json")
	w.Write(resp)
}

// wait sleeps until the answer is due, latency after start. Go's timers
// wake late, by up to a millisecond when the process is idle (the
// runtime's poller sleeps in whole milliseconds), and by more on a busy
// machine: a plain sleep made every 40 ms answer take 40.5-41 ms, which
// the throughput benchmark would count against the client. So the server
// sleeps for the latency less its timer's lateness, learnt from every
// answer (an integral controller: each answer moves the correction by
// 1/256 of its own error, small enough for the hundreds of answers in
// flight at once not to overshoot), and its answers average the
// configured latency; Busy shows what they took.
func (s *Server) wait(start time.Time) {
	late := min(max(time.Duration(s.late.Load()), 0), s.latency/2)
	d := s.latency - time.Since(start) - late
	if d <= 0 {
		return
	}
	time.Sleep(d)
	s.late.Add(int64(time.Since(start)-s.latency) / 256)
}

func (s *Server) answer(body []byte) ([]byte, error) {
	var req wireRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("goldserver: request: %w", err)
	}
	var msgs []driver.Message
	user := ""
	var users []string
	for _, m := range req.Messages {
		dm := driver.Message{Role: m.Role, ToolCallID: m.ToolCallID, Name: m.Name}
		if m.Content != nil {
			dm.Content = *m.Content
		}
		for _, tc := range m.ToolCalls {
			dm.ToolCalls = append(dm.ToolCalls, driver.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		if m.Role == "user" {
			if user == "" {
				user = dm.Content
			}
			users = append(users, dm.Content)
		}
		msgs = append(msgs, dm)
	}
	first := ""
	if len(req.Tools) > 0 {
		first = req.Tools[0].Function.Name
	}
	var e *dataset.Entry
	for _, c := range s.byKey[Key(user, first)] {
		if consistent(c, users) {
			e = c
			break
		}
	}
	if e == nil {
		return nil, fmt.Errorf("goldserver: no entry starts with the user message %.60q and function %q", user, first)
	}
	g, err := s.goldOf(e)
	if err != nil {
		return nil, err
	}
	out, err := g.Complete(context.Background(), driver.Request{Messages: msgs})
	if err != nil {
		return nil, err
	}
	type call struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	}
	msg := struct {
		Role      string  `json:"role"`
		Content   *string `json:"content"`
		ToolCalls []call  `json:"tool_calls,omitempty"`
	}{Role: "assistant"}
	finish := "stop"
	if len(out.ToolCalls) > 0 {
		finish = "tool_calls"
		for i, tc := range out.ToolCalls {
			c := call{ID: fmt.Sprintf("call_%d_%d", len(msgs), i), Type: "function"}
			c.Function.Name, c.Function.Arguments = tc.Name, tc.Arguments
			msg.ToolCalls = append(msg.ToolCalls, c)
		}
	} else {
		msg.Content = &out.Text
	}
	return json.Marshal(map[string]any{
		"id": "gold", "object": "chat.completion", "model": "gold",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]int{"prompt_tokens": len(body) / 4, "completion_tokens": 8},
	})
}

func (s *Server) goldOf(e *dataset.Entry) (*gold.Driver, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g, ok := s.golds[e]; ok {
		return g, nil
	}
	g, err := gold.New(e)
	if err != nil {
		return nil, err
	}
	s.golds[e] = g
	return g, nil
}

// consistent reports whether users (the user messages of a request) are
// the first user messages e's conversation sends.
func consistent(e *dataset.Entry, users []string) bool {
	i := 0
	for turn, msgs := range e.Question {
		if _, held := e.MissedFuncDocs[turn]; held && len(msgs) == 0 {
			if i == len(users) {
				return true
			}
			if users[i] != infer.UserPromptForAdditionalFunctionFC {
				return false
			}
			i++
			continue
		}
		for _, m := range msgs {
			if m.Role != "user" {
				continue
			}
			if i == len(users) {
				return true
			}
			if users[i] != m.Content {
				return false
			}
			i++
		}
	}
	return i == len(users)
}
