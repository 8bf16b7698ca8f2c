package astcheck

import (
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/relevance"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Error types and messages eval_runner uses for decode failures
// (bfcl_eval/eval_checker/eval_runner.py, _evaluate_single_ast_entry).
const (
	ErrTypeDecoderFailed      = "ast_decoder:decoder_failed"
	ErrTypeDecoderWrongFormat = "ast_decoder:decoder_wrong_output_format"
	msgDecoderFailedPrefix    = "Invalid syntax. Failed to decode AST. "
	msgWrongFormat            = "Did not output in the specified format. Note: the model_result is wrapped in a string to ensure json serializability."
)

// PyJSON is relevance.PyJSON: a Python value that marshals as json.dumps.
type PyJSON = relevance.PyJSON

// ScoreEntry scores one single-turn entry as eval_runner does: relevance
// categories through the relevance runner, the others by decoding the
// result with the handler (opts.Mode; prompt-mode language from the
// category) and running the AST checker. entry is the dataset line,
// answer the possible-answer line (unused, may be nil, for relevance
// categories), resultLine the result-file line. For failed entries the
// verdict's Detail carries upstream's extra score fields (prompt,
// model_result_raw, model_result_decoded, possible_answer — or
// model_result, decoded_result for relevance) in upstream's order.
//
// An error means the inputs are unusable (bad JSON, missing fields) or
// upstream itself raises on this entry (*UpstreamError).
func ScoreEntry(cat category.Category, entry, answer, resultLine json.RawMessage, opts decode.Options) (verdict.Verdict, error) {
	lineV, err := pyval.FromJSON(resultLine)
	if err != nil {
		return verdict.Verdict{}, fmt.Errorf("score %s: result line is not JSON: %w", cat, err)
	}
	idV, err := getItem(lineV, "id")
	if err != nil {
		return verdict.Verdict{}, fmt.Errorf("score %s: result line has no \"id\": %w", cat, err)
	}
	id := pyval.StrOf(idV)
	result, err := getItem(lineV, "result")
	if err != nil {
		return verdict.Verdict{}, fmt.Errorf("score %s: result line %s has no \"result\" field", cat, id)
	}
	if cat.IsRelevanceOrIrrelevance() {
		return ScoreValues(cat, id, entry, nil, nil, result, opts)
	}
	answerV, err := pyval.FromJSON(answer)
	if err != nil {
		return verdict.Verdict{}, fmt.Errorf("score %s entry %s: possible-answer line is not JSON: %w", cat, id, err)
	}
	gt, err := getItem(answerV, "ground_truth")
	if err != nil {
		return verdict.Verdict{}, fmt.Errorf("score %s entry %s: possible-answer line has no ground_truth: %w", cat, id, err)
	}
	funcs, skimmed := neededDocs(cat, entry, gt)
	if !skimmed {
		entryV, err := pyval.FromJSON(entry)
		if err != nil {
			return verdict.Verdict{}, fmt.Errorf("score %s entry %s: dataset entry is not JSON: %w", cat, id, err)
		}
		funcs, err = getItem(entryV, "function")
		if err != nil {
			return verdict.Verdict{}, fmt.Errorf("score %s entry %s: dataset entry has no \"function\" list: %w", cat, id, err)
		}
	}
	return ScoreValues(cat, id, entry, funcs, gt, result, opts)
}

// ScoreValues is ScoreEntry for parsed values: funcs is the entry's
// function list, groundTruth the possible answer's ground_truth, result
// the result field. entry (the raw dataset line) only feeds the verdict's
// "prompt" detail and may be nil.
func ScoreValues(cat category.Category, id string, entry json.RawMessage, funcs, groundTruth, result pyval.Value, opts decode.Options) (verdict.Verdict, error) {
	lang := LanguageOf(cat)
	if cat.IsRelevanceOrIrrelevance() {
		v := relevance.Check(id, cat, result, opts)
		if !v.Valid && entry != nil {
			v.Detail = append(verdict.Fields{{Key: "prompt", Value: entry}}, v.Detail...)
		}
		return v, nil
	}
	o := opts
	if o.Language == "" {
		// The decoder reads the category's language unless the caller names a
		// return format (format sensitivity: json, verbose_xml, concise_xml).
		o.Language = lang
	}
	var details verdict.Fields
	if entry != nil {
		details = append(details, verdict.Field{Key: "prompt", Value: entry})
	}
	decoded, err := decode.DecodeASTValue(result, o)
	if err != nil {
		exc, isExc := err.(*pyval.Exception)
		if !isExc {
			return verdict.Verdict{}, fmt.Errorf("score %s entry %s: %w", cat, id, err)
		}
		return verdict.Verdict{
			ID: id, Category: cat, ErrorType: ErrTypeDecoderFailed,
			Errors: []string{msgDecoderFailedPrefix + exc.Msg},
			Detail: append(details,
				verdict.Field{Key: "model_result_raw", Value: PyJSON{V: result}},
				verdict.Field{Key: "possible_answer", Value: PyJSON{V: groundTruth}}),
		}, nil
	}
	calls, inFormat := decode.Calls(decoded)
	if !inFormat {
		return verdict.Verdict{
			ID: id, Category: cat, ErrorType: ErrTypeDecoderWrongFormat,
			Errors: []string{msgWrongFormat},
			Detail: append(details,
				verdict.Field{Key: "model_result_raw", Value: pyval.StrOf(result)},
				verdict.Field{Key: "model_result_decoded", Value: pyval.StrOf(decoded)},
				verdict.Field{Key: "possible_answer", Value: PyJSON{V: groundTruth}}),
		}, nil
	}
	v, err := CheckValues(ValueInput{
		ID: id, Category: cat, Functions: funcs, PossibleAnswer: groundTruth,
		Decoded: calls, Language: lang, UnderscoreToDot: opts.UnderscoreToDot,
	})
	if err != nil {
		return v, err
	}
	if !v.Valid {
		v.Detail = append(details,
			verdict.Field{Key: "model_result_raw", Value: PyJSON{V: result}},
			verdict.Field{Key: "model_result_decoded", Value: PyJSON{V: decoded}},
			verdict.Field{Key: "possible_answer", Value: PyJSON{V: groundTruth}})
	}
	return v, nil
}
