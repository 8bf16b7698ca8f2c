// Package verdict holds the outcome of checking one entry, the common currency
// of every checker (AST, relevance, multi-turn, agentic), the reporter and the
// score files.
package verdict

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
)

// Verdict is the checker's judgement of one entry. For failed entries,
// Detail carries the extra fields upstream writes into the score file, in
// upstream's key order.
type Verdict struct {
	ID        string            // dataset entry id
	Category  category.Category // test category, e.g. "simple_python"
	Valid     bool              // the entry passed
	ErrorType string            // upstream's error_type, e.g. "type_error:simple"; empty when valid
	Errors    []string          // upstream's "error" list (messages); empty when valid
	Detail    Fields            // further score-file fields for failed entries, ordered

	// GroundTruthResults are, for multi-turn entries, the ground truth's
	// execution results per turn (every turn, also past the one a failed
	// entry stopped at), for reports; never written to score files.
	GroundTruthResults [][]string

	// Turns is, for multi-turn entries, how far the checker got through the
	// entry's turns; nil for the other checkers. Never written to score
	// files (multiturn.ScoreLineTurns derives it from a score-file line).
	Turns *TurnOutcome
}

// TurnOutcome is the turn-level outcome of checking one multi-turn entry.
type TurnOutcome struct {
	Turns int // the entry's ground-truth turns
	// Checked is false when the entry failed before any turn was checked
	// (inference errors: no list of turns, or a force-terminated run).
	Checked bool
	// Passed is the number of turns passed before the first failing one:
	// Turns for a passed entry, the 0-based failing turn for a failed one,
	// 0 when unchecked.
	Passed int
}

// FailingTurn is the 0-based turn at which the checker failed the entry,
// and false for a passed or unchecked entry.
func (o TurnOutcome) FailingTurn() (int, bool) {
	if !o.Checked || o.Passed >= o.Turns {
		return 0, false
	}
	return o.Passed, true
}

// Field is one ordered key of a score-file line. Value must be JSON-marshalable.
type Field struct {
	Key   string
	Value any
}

// Fields is an ordered object (a Python dict in upstream's score files): it
// encodes itself as a JSON object with its keys in order, and decodes a JSON
// object keeping the order, each value as the json.RawMessage it was.
type Fields []Field

// MarshalJSON writes {"key": value, ...} in order (no HTML escaping, as
// Python's json.dumps).
func (fs Fields) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i, f := range fs {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(f.Key); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(':')
		if err := enc.Encode(f.Value); err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Key, err)
		}
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads a JSON object in order; values stay json.RawMessage.
func (fs *Fields) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		*fs = nil
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("verdict: fields must be a JSON object, not %v", tok)
	}
	out := Fields{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		out = append(out, Field{Key: kt.(string), Value: raw})
	}
	*fs = out
	return nil
}

// Get returns the value of key.
func (fs Fields) Get(key string) (any, bool) {
	for _, f := range fs {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}
