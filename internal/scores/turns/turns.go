// Package turns computes turn-level diagnostics of multi-turn runs from
// their ordinary score files: how many turns a model got through before
// upstream's checker failed the entry, and at which turn entries first
// fail. Upstream scores a multi-turn entry as one binary verdict and stops
// at the first failing turn; these numbers give credit for the turns before
// it. They are diagnostics printed beside the official score, never part of
// it.
package turns

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/report"
)

// Turn markers of a failed line.
const (
	// Unchecked: the entry failed before any turn was checked (upstream's
	// inference-phase errors: no list of turns, or fewer turns than the
	// ground truth because inference was force-terminated).
	Unchecked = -1
)

var turnInMessage = regexp.MustCompile(`for turn (\d+)\b`)

// FirstFailingTurn is the 0-based turn at which upstream's multi-turn
// checker failed the entry of a failed score-file line, or Unchecked. The
// checker's execution log ("execution_result" in the error details) holds
// one item per turn up to and including the failing one; a response
// mismatch carries no log, and its message names the turn ("... for turn
// 3."). The error type is returned too.
func FirstFailingTurn(line []byte) (turn int, errorType string, err error) {
	var l struct {
		ID    string          `json:"id"`
		Error json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &l); err != nil {
		return 0, "", fmt.Errorf("turns: score line is not a JSON object: %w", err)
	}
	var e struct {
		Message json.RawMessage `json:"error_message"`
		Type    string          `json:"error_type"`
		Details *struct {
			ExecutionResult []json.RawMessage `json:"execution_result"`
		} `json:"details"`
	}
	if err := json.Unmarshal(l.Error, &e); err != nil {
		return 0, "", fmt.Errorf("turns: entry %s: the error is not a multi-turn error object: %w", l.ID, err)
	}
	switch e.Type {
	case "multi_turn:inference_error", "multi_turn:force_terminated":
		return Unchecked, e.Type, nil
	}
	if e.Details != nil && e.Details.ExecutionResult != nil {
		if len(e.Details.ExecutionResult) == 0 {
			return 0, "", fmt.Errorf("turns: entry %s: empty execution log", l.ID)
		}
		return len(e.Details.ExecutionResult) - 1, e.Type, nil
	}
	var msg string
	if json.Unmarshal(e.Message, &msg) != nil {
		var list []string
		if json.Unmarshal(e.Message, &list) == nil && len(list) == 1 {
			msg = list[0]
		}
	}
	if m := turnInMessage.FindStringSubmatch(msg); m != nil {
		t, _ := strconv.Atoi(m[1])
		return t, e.Type, nil
	}
	return 0, "", fmt.Errorf("turns: entry %s: error %q names no turn", l.ID, e.Type)
}

// Category is the turn-level picture of one multi-turn category.
type Category struct {
	Category category.Category `json:"category"`
	Entries  int               `json:"entries"`
	Passed   int               `json:"passed"` // the official correct count
	// Turns and TurnsPassed count over the entries whose turns were
	// checked (all but the Unchecked ones): every turn of a passed entry
	// passed; a failed entry passed the turns before its first failing one.
	// The turns after it were never checked and count as not passed.
	Turns        int     `json:"turns"`
	TurnsPassed  int     `json:"turns_passed"`
	TurnAccuracy float64 `json:"turn_accuracy"` // TurnsPassed / Turns
	// MeanProgress is the mean over checked entries of the fraction of
	// their turns passed before the first failure (1 for a passed entry).
	MeanProgress float64 `json:"mean_progress"`
	// FirstFailing[t] is the number of entries whose first failing turn is t.
	FirstFailing []int `json:"first_failing_turn"`
	// Unchecked entries failed before any turn was checked, by error type.
	Unchecked      int            `json:"unchecked"`
	UncheckedTypes map[string]int `json:"unchecked_types"`
}

// Diagnose computes the diagnostics of one multi-turn category from its
// score file; turnsOf gives every entry's number of ground-truth turns (the
// data set's, keyed by id) and must cover exactly the scored entries.
func Diagnose(scoreFile string, cat category.Category, turnsOf map[string]int) (Category, error) {
	if !cat.IsMultiTurn() {
		return Category{}, fmt.Errorf("turns: %s is not a multi-turn category", cat)
	}
	out := Category{Category: cat, UncheckedTypes: map[string]int{}}
	first := map[string]int{}
	s, err := report.VisitScoreFile(scoreFile, cat, func(id string, line []byte) error {
		t, typ, err := FirstFailingTurn(line)
		if err != nil {
			return err
		}
		n, ok := turnsOf[id]
		if !ok {
			return fmt.Errorf("entry %s is not in the data set", id)
		}
		if t >= n {
			return fmt.Errorf("entry %s: first failing turn %d of %d turns", id, t, n)
		}
		if t == Unchecked {
			out.UncheckedTypes[typ]++
		}
		first[id] = t
		return nil
	})
	if err != nil {
		return Category{}, err
	}
	if s.Total != len(turnsOf) {
		return Category{}, fmt.Errorf("turns: %s: the score file counts %d entries, the data set has %d; diagnostics need a complete category",
			scoreFile, s.Total, len(turnsOf))
	}
	out.Entries, out.Passed = s.Total, s.Correct
	progress := 0.0
	checked := 0
	maxTurns := 0
	for _, n := range turnsOf {
		maxTurns = max(maxTurns, n)
	}
	out.FirstFailing = make([]int, maxTurns)
	for id, n := range turnsOf {
		t, failed := first[id]
		switch {
		case !failed:
			out.Turns += n
			out.TurnsPassed += n
			progress++
			checked++
		case t == Unchecked:
			out.Unchecked++
		default:
			out.Turns += n
			out.TurnsPassed += t
			progress += float64(t) / float64(n)
			out.FirstFailing[t]++
			checked++
		}
	}
	if out.Turns > 0 {
		out.TurnAccuracy = float64(out.TurnsPassed) / float64(out.Turns)
	}
	if checked > 0 {
		out.MeanProgress = progress / float64(checked)
	}
	for len(out.FirstFailing) > 0 && out.FirstFailing[len(out.FirstFailing)-1] == 0 {
		out.FirstFailing = out.FirstFailing[:len(out.FirstFailing)-1]
	}
	return out, nil
}
