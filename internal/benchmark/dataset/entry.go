package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/store/jsonscan"
)

// Message is one chat message of a question.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Entry is one test entry as the data set states it (no inference-time
// additions such as language hints; see InferenceView).
type Entry struct {
	ID       string            // as upstream names it in result files (memory_kv_..., web_search_base_...)
	Category category.Category // the scoring category, e.g. "memory_kv"
	File     string            // data-set file it came from, for messages
	Line     int               // 1-based line in File

	Question  [][]Message       // turns of messages
	Functions []json.RawMessage // function documents offered to the model (multi-turn: filled from multi_turn_func_doc)

	// Multi-turn and agentic fields.
	InvolvedClasses  []string
	InitialConfig    json.RawMessage           // multi-turn only
	Path             []string                  // multi-turn only
	MissedFunction   map[int][]string          // miss_func: turn index -> held-out function names
	MissedFuncDocs   map[int][]json.RawMessage // miss_func: the held-out documents, added at that turn
	ExcludedFunction []string                  // present in the data, unused upstream (see README)
	Scenario         string                    // memory only
	DependsOn        []string                  // memory: prerequisite ids

	// Ground truth (nil for categories without one: irrelevance, live_irrelevance, live_relevance).
	Answer json.RawMessage

	// Raw is the question-file line as read (ids not rewritten).
	Raw json.RawMessage
}

// Where names the entry for error messages: file:line (id).
func (e *Entry) Where() string {
	return fmt.Sprintf("%s:%d (%s)", e.File, e.Line, e.ID)
}

// rawEntry mirrors a question-file line.
type rawEntry struct {
	ID               string              `json:"id"`
	Question         [][]Message         `json:"question"`
	Function         []json.RawMessage   `json:"function"`
	InvolvedClasses  []string            `json:"involved_classes"`
	InitialConfig    json.RawMessage     `json:"initial_config"`
	Path             []string            `json:"path"`
	MissedFunction   map[string][]string `json:"missed_function"`
	ExcludedFunction []string            `json:"excluded_function"`
	Scenario         string              `json:"scenario"`
	Raw              json.RawMessage     `json:"-"`
}

type rawAnswer struct {
	ID          string          `json:"id"`
	GroundTruth json.RawMessage `json:"ground_truth"`
}

// jsonLines calls fn for each non-blank line of path with its 1-based
// number. The file is read once per Source (readFile); b is a slice of
// those bytes, valid for as long as the Source.
func (s *Source) jsonLines(path, name string, fn func(line int, b []byte) error) error {
	data, err := s.readFile(path)
	if err != nil {
		return err
	}
	n := 0
	for len(data) > 0 {
		n++
		var b []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			b, data = data[:i], data[i+1:]
		} else {
			b, data = data, nil
		}
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			continue
		}
		if err := fn(n, b[:len(b):len(b)]); err != nil {
			return err
		}
	}
	return nil
}

// idOf extracts the id of a malformed line for error messages, best effort.
func idOf(b []byte) string {
	var v struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(b, &v) == nil && v.ID != "" {
		return v.ID
	}
	i := bytes.Index(b, []byte(`"id"`))
	if i < 0 {
		return "no id"
	}
	rest := string(b[i:])
	if len(rest) > 60 {
		rest = rest[:60]
	}
	return rest
}

func (s *Source) readEntries(file string) ([]rawEntry, []int, error) {
	p := s.Path(file)
	name := s.relName(p)
	var out []rawEntry
	var lines []int
	seen := map[string]int{}
	err := s.jsonLines(p, name, func(line int, b []byte) error {
		r, err := decodeEntry(b)
		if err != nil {
			return fmt.Errorf("dataset: %s:%d (%s): malformed entry: %v", name, line, idOf(b), err)
		}
		if r.ID == "" {
			return fmt.Errorf("dataset: %s:%d: entry has no id", name, line)
		}
		r.Raw = b
		if len(r.Question) == 0 {
			return fmt.Errorf("dataset: %s:%d (%s): entry has no question", name, line, r.ID)
		}
		if prev, dup := seen[r.ID]; dup {
			return fmt.Errorf("dataset: %s:%d (%s): duplicate id, first seen on line %d", name, line, r.ID, prev)
		}
		seen[r.ID] = line
		out = append(out, r)
		lines = append(lines, line)
		return nil
	})
	return out, lines, err
}

func (s *Source) readAnswers(file string) (map[string]json.RawMessage, error) {
	p := s.Path("possible_answer", file)
	name := s.relName(p)
	out := map[string]json.RawMessage{}
	err := s.jsonLines(p, name, func(line int, b []byte) error {
		r, ok := decodeAnswer(b)
		if !ok {
			r = rawAnswer{}
			if err := json.Unmarshal(b, &r); err != nil {
				return fmt.Errorf("dataset: %s:%d (%s): malformed answer: %v", name, line, idOf(b), err)
			}
		}
		if r.ID == "" || len(r.GroundTruth) == 0 {
			return fmt.Errorf("dataset: %s:%d (%s): answer line needs id and ground_truth", name, line, idOf(b))
		}
		if _, dup := out[r.ID]; dup {
			return fmt.Errorf("dataset: %s:%d (%s): duplicate answer id", name, line, r.ID)
		}
		out[r.ID] = r.GroundTruth
		return nil
	})
	return out, err
}

func toEntry(r rawEntry, c category.Category, file string, line int) (*Entry, error) {
	e := &Entry{
		ID: r.ID, Category: c, File: file, Line: line,
		Question: r.Question, Functions: r.Function,
		InvolvedClasses: r.InvolvedClasses, InitialConfig: r.InitialConfig,
		Path: r.Path, ExcludedFunction: r.ExcludedFunction, Scenario: r.Scenario,
		Raw: r.Raw,
	}
	if len(r.MissedFunction) > 0 {
		e.MissedFunction = map[int][]string{}
		for k, v := range r.MissedFunction {
			t, err := strconv.Atoi(k)
			if err != nil || t < 0 {
				return nil, fmt.Errorf("dataset: %s:%d (%s): missed_function key %q is not a turn index", file, line, r.ID, k)
			}
			e.MissedFunction[t] = v
		}
	}
	return e, nil
}

// sortedTurns returns the keys of m in increasing order.
func sortedTurns[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// docName reads the "name" of a function document.
func docName(doc json.RawMessage) (string, error) {
	var v struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(doc, &v); err != nil {
		return "", err
	}
	if v.Name == "" {
		return "", fmt.Errorf("function document without a name: %.80s", strings.TrimSpace(string(doc)))
	}
	return v.Name, nil
}

// decodeEntry decodes a question-file line: the members are located with
// the fast scanner and decoded one by one (function documents stay raw).
func decodeEntry(b []byte) (rawEntry, error) {
	var r rawEntry
	var firstErr error
	dec := func(key []byte, v []byte, into any) {
		if firstErr == nil {
			if err := json.Unmarshal(v, into); err != nil {
				firstErr = fmt.Errorf("%s: %w", key, err)
			}
		}
	}
	err := jsonscan.ObjectMembers(b, func(key, v []byte) {
		switch string(key) {
		case `"id"`:
			if str, ok := jsonscan.PlainString(v); ok {
				r.ID = str
				return
			}
			dec(key, v, &r.ID)
		case `"question"`:
			if q, ok := decodeQuestion(v); ok {
				r.Question = q
				return
			}
			dec(key, v, &r.Question)
		case `"function"`:
			elems, err := jsonscan.ArrayElements(v)
			if err != nil {
				if firstErr == nil {
					firstErr = fmt.Errorf("function: %w", err)
				}
				return
			}
			r.Function = make([]json.RawMessage, len(elems))
			for i, e := range elems {
				r.Function[i] = json.RawMessage(e)
			}
		case `"involved_classes"`:
			dec(key, v, &r.InvolvedClasses)
		case `"initial_config"`:
			r.InitialConfig = json.RawMessage(v)
		case `"path"`:
			dec(key, v, &r.Path)
		case `"missed_function"`:
			dec(key, v, &r.MissedFunction)
		case `"excluded_function"`:
			dec(key, v, &r.ExcludedFunction)
		case `"scenario"`:
			dec(key, v, &r.Scenario)
		}
	})
	if err != nil {
		return r, err
	}
	return r, firstErr
}

// The data set's lines are decoded with encoding/json's semantics; the
// common shapes (plain strings, a question of role/content messages, an
// answer line of id and ground_truth) are read directly, and anything else
// goes through encoding/json, which then decides (and reports errors).

// jsonString decodes the JSON string literal v (plainString, else
// encoding/json for escapes); ok is false when v is not a valid string.
func jsonString(v []byte) (string, bool) {
	if s, ok := jsonscan.PlainString(v); ok {
		return s, true
	}
	var s string
	if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// decodeQuestion reads a question value of the usual shape, an array of
// arrays of objects whose members are exactly "role" and "content" with
// string values, as encoding/json decodes it into [][]Message (empty
// arrays as empty slices, a repeated key's last value). ok is false for
// anything else (other keys, nulls, other types, malformed JSON): the
// caller then decodes with encoding/json.
func decodeQuestion(v []byte) ([][]Message, bool) {
	p := strictScanner{b: v}
	out := [][]Message{}
	ok := p.array(func() bool {
		turn := []Message{}
		ok := p.array(func() bool {
			var m Message
			ok := p.object(func(key string, val []byte) bool {
				s, ok := jsonString(val)
				if !ok {
					return false
				}
				switch key {
				case "role":
					m.Role = s
				case "content":
					m.Content = s
				default:
					return false
				}
				return true
			})
			turn = append(turn, m)
			return ok
		})
		out = append(out, turn)
		return ok
	})
	if !ok || p.ws() != len(v) {
		return nil, false
	}
	return out, true
}

// decodeAnswer reads a possible-answer line of the usual shape, an object
// with a plain string "id" and a "ground_truth" (any valid JSON but
// null), besides keys encoding/json would not map onto rawAnswer; the
// line must be valid JSON. ok is false for anything else.
func decodeAnswer(b []byte) (rawAnswer, bool) {
	var r rawAnswer
	if !json.Valid(b) {
		return r, false
	}
	ok := true
	err := jsonscan.ObjectMembers(b, func(key, val []byte) {
		k, isPlain := jsonscan.PlainString(key)
		switch {
		case !isPlain:
			ok = false
		case k == "id":
			id, isStr := jsonscan.PlainString(val)
			r.ID, ok = id, ok && isStr && id != ""
		case k == "ground_truth":
			if string(val) == "null" {
				ok = false
			}
			r.GroundTruth = json.RawMessage(val)
		case strings.EqualFold(k, "id") || strings.EqualFold(k, "ground_truth"):
			ok = false // encoding/json matches keys case-insensitively
		}
	})
	if err != nil || !ok || r.ID == "" || len(r.GroundTruth) == 0 {
		return rawAnswer{}, false
	}
	return r, true
}

// strictScanner walks JSON arrays and objects whose scalar values are
// strings, validating what it reads as encoding/json would.
type strictScanner struct {
	b []byte
	i int
}

// ws skips whitespace and returns the position.
func (p *strictScanner) ws() int {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return p.i
		}
	}
	return p.i
}

// array reads "[" elem ("," elem)* "]" (or "[]"), calling elem at each
// element's start.
func (p *strictScanner) array(elem func() bool) bool {
	return p.seq('[', ']', elem)
}

// seq reads open, then elem's items separated by "," (none allowed), then
// close; elem reads one item (white space before it skipped by its own
// reads).
func (p *strictScanner) seq(open, close byte, elem func() bool) bool {
	if p.ws() >= len(p.b) || p.b[p.i] != open {
		return false
	}
	p.i++
	if p.ws() < len(p.b) && p.b[p.i] == close {
		p.i++
		return true
	}
	for {
		if !elem() {
			return false
		}
		if p.ws() >= len(p.b) {
			return false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case close:
			p.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string literal (structure only: its end) and returns it.
func (p *strictScanner) str() ([]byte, bool) {
	if p.ws() >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	start := p.i
	for j := p.i + 1; j < len(p.b); j++ {
		switch p.b[j] {
		case '\\':
			j++
		case '"':
			p.i = j + 1
			return p.b[start:p.i], true
		}
	}
	return nil, false
}

// object reads "{" key ":" string ("," ...)* "}" (or "{}"), calling member
// with each raw key (quotes removed; keys with escapes are refused) and
// raw string value, which member validates.
func (p *strictScanner) object(member func(key string, val []byte) bool) bool {
	return p.seq('{', '}', func() bool {
		k, ok := p.str()
		if !ok {
			return false
		}
		key, ok := jsonscan.PlainString(k)
		if !ok {
			return false
		}
		if p.ws() >= len(p.b) || p.b[p.i] != ':' {
			return false
		}
		p.i++
		v, ok := p.str()
		return ok && member(key, v)
	})
}
