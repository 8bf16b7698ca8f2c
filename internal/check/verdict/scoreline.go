package verdict

import (
	"encoding/json"
	"fmt"
)

// The error types of upstream's multi-turn checker (multi_turn_checker.py
// and eval_runner.py's runner), as score files carry them.
const (
	ErrInferenceError   = "multi_turn:inference_error"
	ErrForceTerminated  = "multi_turn:force_terminated"
	ErrEmptyTurn        = "multi_turn:empty_turn_model_response"
	ErrStateMismatch    = "multi_turn:instance_state_mismatch"
	ErrResponseMismatch = "multi_turn:execution_response_mismatch"
	// ErrIrrelevance is the error type of the multi-turn checker's optional
	// irrelevance rule (not part of the official score).
	ErrIrrelevance = "multi_turn:irrelevance_error:decoder_success"
)

// ScoreLineTurns derives the turn outcome (Verdict.Turns) of a
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
func ScoreLineTurns(line []byte) (TurnOutcome, string, error) {
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
		return TurnOutcome{}, "", fmt.Errorf("verdict: score line is not a failed multi-turn entry: %w", err)
	}
	if l.PossibleAnswer == nil {
		return TurnOutcome{}, "", fmt.Errorf("verdict: entry %s: score line without possible_answer", l.ID)
	}
	typ := l.Error.Type
	out := TurnOutcome{Turns: len(l.PossibleAnswer)}
	failing := -1
	switch typ {
	case ErrInferenceError, ErrForceTerminated:
		return out, typ, nil
	case ErrEmptyTurn, ErrStateMismatch:
		var log []json.RawMessage
		if err := json.Unmarshal(l.Error.Details["execution_result"], &log); err != nil || len(log) == 0 {
			return TurnOutcome{}, "", fmt.Errorf("verdict: entry %s: %s without an execution log", l.ID, typ)
		}
		failing = len(log) - 1
	case ErrResponseMismatch:
		var so []json.RawMessage
		if err := json.Unmarshal(l.Error.Details["model_response (including all previous turns)"], &so); err != nil || len(so) == 0 {
			return TurnOutcome{}, "", fmt.Errorf("verdict: entry %s: %s without the model's responses", l.ID, typ)
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
		return TurnOutcome{}, "", fmt.Errorf("verdict: entry %s: %q is not a multi-turn error type", l.ID, typ)
	}
	if failing < 0 || failing >= out.Turns {
		return TurnOutcome{}, "", fmt.Errorf("verdict: entry %s: %s at no turn of %d (model_result_decoded and the details disagree)", l.ID, typ, out.Turns)
	}
	out.Checked, out.Passed = true, failing
	return out, typ, nil
}
