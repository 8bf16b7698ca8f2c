// Package relevance is upstream's relevance runner
// (eval_runner._evaluate_single_relevance_entry) for the irrelevance,
// live_irrelevance and live_relevance categories: the model output is
// decoded with the handler's decode_ast (Python return format); an
// irrelevance entry passes iff that yields no call, a relevance entry iff
// it yields one. Arguments are never checked.
package relevance

import (
	"encoding/json"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Error types and messages of eval_runner.py.
const (
	ErrTypeIrrelevance = "irrelevance_error:decoder_success"
	ErrTypeRelevance   = "relevance_error:decoder_failed"
	msgIrrelevance     = "Valid syntax. Successfully decode AST when it should not."
	msgRelevancePrefix = "Invalid syntax. Failed to decode AST when it should have. "
)

// Check judges one entry. result is the parsed "result" field of the
// result line. For a failed entry, Detail holds upstream's model_result
// (the raw result) and decoded_result (the decoded output, or None when
// decoding failed).
func Check(id string, c category.Category, result pyval.Value, opts decode.Options) verdict.Verdict {
	has, decoded, decErr := decode.HasCall(result, opts)
	success := has
	irrelevance := c.IsIrrelevance()
	if irrelevance {
		success = !has
	}
	v := verdict.Verdict{ID: id, Category: c, Valid: success}
	if success {
		return v
	}
	var dec pyval.Value = pyval.None
	if decoded != nil {
		dec = decoded
	}
	v.Detail = verdict.Fields{
		{Key: "model_result", Value: PyJSON{V: result}},
		{Key: "decoded_result", Value: PyJSON{V: dec}},
	}
	if irrelevance {
		v.ErrorType = ErrTypeIrrelevance
		v.Errors = []string{msgIrrelevance}
		return v
	}
	errText := "None"
	if decErr != nil {
		errText = decErr.Error()
	}
	v.ErrorType = ErrTypeRelevance
	v.Errors = []string{msgRelevancePrefix + errText}
	return v
}

// CheckRaw is Check for the raw JSON result field.
func CheckRaw(id string, c category.Category, raw json.RawMessage, opts decode.Options) (verdict.Verdict, error) {
	result, err := decode.ParseResult(raw)
	if err != nil {
		return verdict.Verdict{}, err
	}
	return Check(id, c, result, opts), nil
}

// PyJSON wraps a Python value so that encoding/json writes it as
// json.dumps would (tuples as lists, non-str keys through str()).
type PyJSON struct{ V pyval.Value }

// MarshalJSON implements json.Marshaler.
func (p PyJSON) MarshalJSON() ([]byte, error) {
	s, err := pyval.JSONDumps(p.V)
	if err != nil {
		return json.Marshal(pyval.Repr(p.V))
	}
	return []byte(s), nil
}
