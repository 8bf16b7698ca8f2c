// Package reqparity compares the requests bfcl-go sends to a hosted model
// API with the requests upstream's handler classes sent for the same
// entries and replies (the generation reference,
// $BFCL_REFERENCE_DIR/requests/upstream_requests.jsonl.gz; its README
// explains the rows).
//
// A Server is a recording fake of one API (OpenAI chat completions, OpenAI
// Responses, Anthropic messages, Gemini generateContent) that answers as the
// reference's stand-ins did: a request whose conversation is a strict prefix
// of a reference row's gets the assistant turn that row shows next; a
// request equal to a chat row gets that row's answer; every other request
// gets the text "I have completed the request." Compare then tells, row by
// row, whether some request the server saw equals the row's body in value
// (key order aside, numbers compared as written).
package reqparity

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// The APIs of the reference rows.
const (
	APIChat      = "chat.completions"
	APIResponses = "responses"
	APIAnthropic = "anthropic.messages"
	APIGemini    = "gemini.generateContent"
	// APICompletions are the raw prompts of the local-model handlers.
	APICompletions = "completions"
)

// DefaultText is the reply the reference's stand-ins gave to every request
// but the first of three multi-turn entries.
const DefaultText = "I have completed the request."

// Row is one reference request.
type Row struct {
	HandlerKey string          `json:"handler_key"`
	EntryID    string          `json:"entry_id"`
	Turn       int             `json:"turn"`
	Step       int             `json:"step"`
	Call       int             `json:"call"`
	API        string          `json:"api"`
	Body       json.RawMessage `json:"body"`
	Answer     json.RawMessage `json:"answer"`
	// The local-model handlers' rows (APICompletions) also hold the exact
	// prompt and what the formatter was given.
	FormattedPrompt  string          `json:"formatted_prompt"`
	OSSMessages      json.RawMessage `json:"oss_messages"`
	OSSFunctionNames []string        `json:"oss_function_names"`
}

// File is the reference file inside the reference folder.
const File = "requests/upstream_requests.jsonl.gz"

// Load reads the rows of one handler configuration (handler_key).
func Load(refDir, key string) ([]Row, error) {
	out, err := scan(refDir, []byte(`"handler_key": "`+key+`"`), func(r Row) bool { return r.HandlerKey == key })
	if err == nil && len(out) == 0 {
		err = fmt.Errorf("%s: no rows of %s", File, key)
	}
	return out, err
}

// LoadAPI reads the rows of every configuration of one API (APICompletions,
// APIChat, ...), in file order.
func LoadAPI(refDir, api string) ([]Row, error) {
	out, err := scan(refDir, []byte(`"api": "`+api+`"`), func(r Row) bool { return r.API == api })
	if err == nil && len(out) == 0 {
		err = fmt.Errorf("%s: no rows of API %s", File, api)
	}
	return out, err
}

// scan decodes the lines of the reference that contain hint and that keep
// accepts.
func scan(refDir string, hint []byte, keep func(Row) bool) ([]Row, error) {
	f, err := os.Open(filepath.Join(refDir, File))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	var out []Row
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, hint) {
			continue
		}
		var r Row
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", File, err)
		}
		if keep(r) {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// EntryIDs are the entries of rows, in their order, once each.
func EntryIDs(rows []Row) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		if !seen[r.EntryID] {
			seen[r.EntryID] = true
			out = append(out, r.EntryID)
		}
	}
	return out
}

// decode parses JSON keeping numbers as written.
func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Equal reports whether two decoded JSON values are equal in value: maps
// key order aside, numbers by their written form.
func Equal(a, b any) bool { return Diff(a, b) == "" }

// Diff names the first place where a and b differ ("" when equal).
func Diff(a, b any) string { return diff("$", a, b) }

func diff(path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: object vs %s", path, short(b))
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		ks := make([]string, 0, len(keys))
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			av, aok := x[k]
			bv, bok := y[k]
			switch {
			case !aok:
				return fmt.Sprintf("%s.%s: missing, want %s", path, k, short(bv))
			case !bok:
				return fmt.Sprintf("%s.%s: unexpected %s", path, k, short(av))
			}
			if d := diff(path+"."+k, av, bv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok {
			return fmt.Sprintf("%s: array vs %s", path, short(b))
		}
		for i := 0; i < len(x) && i < len(y); i++ {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
		if len(x) != len(y) {
			return fmt.Sprintf("%s: %d items, want %d", path, len(x), len(y))
		}
		return ""
	case json.Number:
		if y, ok := b.(json.Number); !ok || x != y {
			return fmt.Sprintf("%s: %s, want %s", path, short(a), short(b))
		}
		return ""
	default:
		if a != b {
			return fmt.Sprintf("%s: %s, want %s", path, short(a), short(b))
		}
		return ""
	}
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 160 {
		return string(b[:160]) + "..."
	}
	return string(b)
}

// Server is a recording fake of one API.
type Server struct {
	API   string
	Model string
	*httptest.Server

	rows    []Row
	decoded []any
	// defaultChat is the chat answer for text replies (the most common
	// answer of the rows: it carries the configuration's extra fields).
	defaultChat json.RawMessage

	mu     sync.Mutex
	seen   []any         // request bodies, decoded (Gemini: {"model", "body"})
	header []http.Header // their headers
}

// NewServer starts a fake of rows' API answering as described in the
// package comment. model is what its model list shows.
func NewServer(rows []Row, model string) (*Server, error) {
	s := &Server{API: rows[0].API, Model: model, rows: rows}
	count := map[string]int{}
	for _, r := range rows {
		v, err := decode(r.Body)
		if err != nil {
			return nil, fmt.Errorf("row %s call %d: %w", r.EntryID, r.Call, err)
		}
		s.decoded = append(s.decoded, v)
		if len(r.Answer) > 0 && bytes.Contains(r.Answer, []byte(DefaultText)) {
			count[string(r.Answer)]++
		}
	}
	best := 0
	for a, n := range count {
		if n > best {
			best, s.defaultChat = n, json.RawMessage(a)
		}
	}
	if s.defaultChat == nil {
		s.defaultChat = json.RawMessage(`{"role":"assistant","content":"` + DefaultText + `"}`)
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s, nil
}

// Requests returns the decoded request bodies seen so far.
func (s *Server) Requests() []any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]any(nil), s.seen...)
}

// Headers returns the headers of the requests seen so far.
func (s *Server) Headers() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.header...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	if r.Method == http.MethodGet {
		s.list(w, r)
		return
	}
	v, err := decode(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if s.API == APIGemini {
		// .../models/<model>:generateContent
		p := r.URL.Path
		model := p[strings.LastIndex(p, "/models/")+len("/models/"):]
		model, _, _ = strings.Cut(model, ":")
		v = map[string]any{"model": model, "body": v}
	}
	if isProbe(v) {
		s.reply(w, v, true)
		return
	}
	s.mu.Lock()
	s.seen = append(s.seen, v)
	s.header = append(s.header, r.Header.Clone())
	if p := os.Getenv("REQPARITY_DUMP"); p != "" {
		if f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			b, _ := json.Marshal(v)
			f.Write(append(b, '\n'))
			f.Close()
		}
	}
	s.mu.Unlock()
	s.reply(w, v, false)
}

// isProbe tells a driver's pre-run probe (a one-token "Say OK.") from an
// entry's request.
func isProbe(v any) bool {
	b, _ := json.Marshal(v)
	return bytes.Contains(b, []byte(`Say OK.`))
}

func (s *Server) list(w http.ResponseWriter, _ *http.Request) {
	switch s.API {
	case APIGemini:
		fmt.Fprintf(w, `{"models":[{"name":"models/%s","supportedGenerationMethods":["generateContent"]}]}`, s.Model)
	case APIAnthropic:
		fmt.Fprintf(w, `{"data":[{"type":"model","id":%q}],"has_more":false}`, s.Model)
	default:
		fmt.Fprintf(w, `{"object":"list","data":[{"id":%q,"object":"model"}]}`, s.Model)
	}
}

// history is the conversation of a request body, with Anthropic's
// cache_control marks removed (they move as the conversation grows).
func (s *Server) history(v any) []any {
	m, _ := v.(map[string]any)
	var h []any
	switch s.API {
	case APIChat, APIAnthropic:
		h, _ = m["messages"].([]any)
	case APIResponses:
		h, _ = m["input"].([]any)
	case APIGemini:
		b, _ := m["body"].(map[string]any)
		h, _ = b["contents"].([]any)
	}
	if s.API == APIAnthropic {
		out := make([]any, len(h))
		for i, x := range h {
			out[i] = stripCache(x)
		}
		return out
	}
	return h
}

func stripCache(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k != "cache_control" {
				out[k] = stripCache(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = stripCache(e)
		}
		return out
	}
	return v
}

func isAssistantItem(api string, v any) bool {
	m, _ := v.(map[string]any)
	switch api {
	case APIResponses:
		t, _ := m["type"].(string)
		return t == "function_call" || t == "reasoning" || (t == "message" && m["role"] == "assistant")
	case APIGemini:
		return m["role"] == "model"
	}
	return m["role"] == "assistant"
}

// rest is a request body without its conversation (and, for Anthropic,
// without cache_control marks).
func (s *Server) rest(v any) any {
	m, _ := v.(map[string]any)
	out := map[string]any{}
	for k, x := range m {
		out[k] = x
	}
	switch s.API {
	case APIChat, APIAnthropic:
		delete(out, "messages")
	case APIResponses:
		delete(out, "input")
	case APIGemini:
		b, _ := m["body"].(map[string]any)
		nb := map[string]any{}
		for k, x := range b {
			if k != "contents" {
				nb[k] = x
			}
		}
		out["body"] = nb
	}
	if s.API == APIAnthropic {
		return stripCache(out)
	}
	return out
}

// next returns the assistant items that follow history h in a row whose
// conversation h is a strict prefix of and whose other fields (model,
// tools, system prompt) equal q's. Entries that send the same first
// request (multi_turn_base_42 and multi_turn_long_context_42) cannot be
// told apart: a reply with a function call is preferred, so the entry the
// reference gave one gets it.
func (s *Server) next(q any, h []any) []any {
	var first []any
	rq := s.rest(q)
	for i := range s.rows {
		rh := s.history(s.decoded[i])
		if len(rh) <= len(h) || !Equal(h, rh[:len(h)]) || !Equal(rq, s.rest(s.decoded[i])) {
			continue
		}
		var out []any
		for _, x := range rh[len(h):] {
			if !isAssistantItem(s.API, x) {
				break
			}
			out = append(out, x)
		}
		if len(out) == 0 {
			continue
		}
		if !isDefault(out) {
			return out
		}
		if first == nil {
			first = out
		}
	}
	return first
}

// isDefault reports whether reply items are the stand-ins' default text.
func isDefault(items []any) bool {
	b, _ := json.Marshal(items)
	return bytes.Contains(b, []byte(DefaultText))
}

func (s *Server) reply(w http.ResponseWriter, v any, probe bool) {
	h := s.history(v)
	var items []any
	if !probe {
		items = s.next(v, h)
	}
	var answer json.RawMessage
	if s.API == APIChat && !probe {
		for i, r := range s.rows {
			if len(r.Answer) > 0 && Equal(v, s.decoded[i]) {
				answer = r.Answer
				if !bytes.Contains(r.Answer, []byte(DefaultText)) {
					break
				}
			}
		}
	}
	var out any
	switch s.API {
	case APIChat:
		msg := any(s.defaultChat)
		switch {
		case answer != nil:
			msg = answer
		case len(items) > 0:
			msg = items[0]
		}
		out = map[string]any{"id": "chatcmpl-reqparity", "object": "chat.completion", "created": 0, "model": s.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
	case APIResponses:
		if len(items) == 0 {
			// The stand-ins gave every text reply the same id.
			items = []any{map[string]any{"type": "message", "id": "msg_reqparity_1", "role": "assistant", "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": DefaultText, "annotations": []any{}}}}}
		}
		out = map[string]any{"id": "resp_reqparity", "object": "response", "created_at": 0, "status": "completed", "model": s.Model,
			"output": items, "usage": map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}
	case APIAnthropic:
		content := []any{map[string]any{"type": "text", "text": DefaultText}}
		stop := "end_turn"
		if len(items) > 0 {
			m := items[0].(map[string]any)
			switch c := m["content"].(type) {
			case string:
				content = []any{map[string]any{"type": "text", "text": c}}
			case []any:
				content = c
				for _, b := range c {
					if bm, _ := b.(map[string]any); bm["type"] == "tool_use" {
						stop = "tool_use"
					}
				}
			}
		}
		out = map[string]any{"id": "msg_reqparity", "type": "message", "role": "assistant", "model": s.Model,
			"content": content, "stop_reason": stop, "usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}
	case APIGemini:
		content := any(map[string]any{"role": "model", "parts": []any{map[string]any{"text": DefaultText}}})
		if len(items) > 0 {
			content = items[0]
		}
		out = map[string]any{"candidates": []any{map[string]any{"content": content, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
			"modelVersion":  s.Model}
	}
	b, err := json.Marshal(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Write(b)
}

// Result is the comparison of one configuration.
type Result struct {
	Equal, Total int
	// Failures describe the rows no request equals: the row and the first
	// difference from the closest request (same first message, longest
	// common history).
	Failures []string
}

// Compare checks every row against the requests the server saw.
func (s *Server) Compare() Result {
	seen := s.Requests()
	res := Result{Total: len(s.rows)}
	for i, r := range s.rows {
		ok := false
		for _, q := range seen {
			if Equal(q, s.decoded[i]) {
				ok = true
				break
			}
		}
		if ok {
			res.Equal++
			continue
		}
		res.Failures = append(res.Failures, fmt.Sprintf("%s turn %d step %d: %s", r.EntryID, r.Turn, r.Step, s.closest(seen, s.decoded[i])))
	}
	return res
}

func (s *Server) closest(seen []any, want any) string {
	wh := s.history(want)
	best, bestScore := -1, 0
	for j, q := range seen {
		qh := s.history(q)
		n := 0
		for n < len(qh) && n < len(wh) && Equal(qh[n], wh[n]) {
			n++
		}
		score := 4 * n
		if len(qh) > 0 && len(wh) > 0 && Equal(qh[len(qh)-1], wh[len(wh)-1]) {
			score += 2
		}
		if len(qh) == len(wh) {
			score++
		}
		if score > bestScore {
			best, bestScore = j, score
		}
	}
	if best < 0 {
		return "no request with this conversation was sent"
	}
	return Diff(seen[best], want)
}
