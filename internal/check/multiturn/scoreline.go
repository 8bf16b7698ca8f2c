package multiturn

import (
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/check/verdict"
)

// ScoreLineTurns derives the turn outcome (verdict.Verdict.Turns) of a
// failed multi-turn entry from the structured fields of its score-file
// line, which upstream's layout writes without a turn number: the turns
// are the possible answer's; the checker stopped at the last turn of its
// execution log (empty turn, state mismatch), at the turn whose model
// results complete the "model_response (including all previous turns)"
// list (response mismatch: every decoded call yields one result, and the
// failing turn has at least one), or at the first turn without ground
// truth that the model answered with calls (the optional irrelevance
// rule). Inference errors check no turn. The line's error type is
// returned too.
func ScoreLineTurns(line []byte) (verdict.TurnOutcome, string, error) {
	var l struct {
		ID    string `json:"id"`
		Error struct {
			Type    string                     `json:"error_type"`
			Details map[string]json.RawMessage `json:"details"`
		} `json:"error"`
		Decoded        [][][]string `json:"model_result_decoded"`
		PossibleAnswer [][]string   `json:"possible_answer"`
	}
	if err := json.Unmarshal(line, &l); err != nil {
		return verdict.TurnOutcome{}, "", fmt.Errorf("multiturn: score line is not a failed multi-turn entry: %w", err)
	}
	if l.PossibleAnswer == nil {
		return verdict.TurnOutcome{}, "", fmt.Errorf("multiturn: entry %s: score line without possible_answer", l.ID)
	}
	typ := l.Error.Type
	out := verdict.TurnOutcome{Turns: len(l.PossibleAnswer)}
	failing := -1
	switch typ {
	case ErrInferenceError, ErrForceTerminated:
		return out, typ, nil
	case ErrEmptyTurn, ErrStateMismatch:
		var log []json.RawMessage
		if err := json.Unmarshal(l.Error.Details["execution_result"], &log); err != nil || len(log) == 0 {
			return verdict.TurnOutcome{}, "", fmt.Errorf("multiturn: entry %s: %s without an execution log", l.ID, typ)
		}
		failing = len(log) - 1
	case ErrResponseMismatch:
		var so []json.RawMessage
		if err := json.Unmarshal(l.Error.Details["model_response (including all previous turns)"], &so); err != nil || len(so) == 0 {
			return verdict.TurnOutcome{}, "", fmt.Errorf("multiturn: entry %s: %s without the model's responses", l.ID, typ)
		}
		results := 0
		for t, steps := range l.Decoded {
			for _, calls := range steps {
				results += len(calls)
			}
			if results == len(so) {
				failing = t
				break
			}
		}
	case ErrIrrelevance:
		for t, steps := range l.Decoded {
			if t < len(l.PossibleAnswer) && len(l.PossibleAnswer[t]) == 0 && len(steps) > 0 {
				failing = t
				break
			}
		}
	default:
		return verdict.TurnOutcome{}, "", fmt.Errorf("multiturn: entry %s: %q is not a multi-turn error type", l.ID, typ)
	}
	if failing < 0 || failing >= out.Turns {
		return verdict.TurnOutcome{}, "", fmt.Errorf("multiturn: entry %s: %s at no turn of %d (model_result_decoded and the details disagree)", l.ID, typ, out.Turns)
	}
	out.Checked, out.Passed = true, failing
	return out, typ, nil
}
