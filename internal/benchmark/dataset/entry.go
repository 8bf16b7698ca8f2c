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
		var r rawAnswer
		if err := json.Unmarshal(b, &r); err != nil {
			return fmt.Errorf("dataset: %s:%d (%s): malformed answer: %v", name, line, idOf(b), err)
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
			dec(key, v, &r.ID)
		case `"question"`:
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
