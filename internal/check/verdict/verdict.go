// Package verdict holds the outcome of checking one entry, the common currency
// of every checker (AST, relevance, multi-turn, agentic), the reporter and the
// score files.
package verdict

import (
	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
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
	// files (ScoreLineTurns derives it from a score-file line).
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

// Field is one ordered key of a score-file line. Value must be
// JSON-marshalable.
type Field = pyval.Field

// Fields is an ordered object (a Python dict in upstream's score files):
// pyval's one model of an ordered JSON object. Score files are written by
// the report package's writer, in upstream's layout.
type Fields = pyval.OrderedObject
