// Package verdict holds the outcome of checking one entry, the common currency
// of every checker (AST, relevance, multi-turn, agentic), the reporter and the
// score files.
package verdict

// Verdict is the checker's judgement of one entry. For failed entries,
// Detail carries the extra fields upstream writes into the score file, in
// upstream's key order.
type Verdict struct {
	ID        string   // dataset entry id
	Category  string   // test category, e.g. "simple_python"
	Valid     bool     // the entry passed
	ErrorType string   // upstream's error_type, e.g. "type_error:simple"; empty when valid
	Errors    []string // upstream's "error" list (messages); empty when valid
	Detail    []Field  // further score-file fields for failed entries, ordered
}

// Field is one ordered key of a score-file line. Value must be JSON-marshalable.
type Field struct {
	Key   string
	Value any
}
