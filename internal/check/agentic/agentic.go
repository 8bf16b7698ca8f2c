// Package agentic scores the agentic categories (memory_kv, memory_vector,
// memory_rec_sum, web_search_base, web_search_no_snippet) as upstream does
// (bfcl_eval/eval_checker/eval_runner.py _evaluate_single_agentic_entry and
// bfcl_eval/eval_checker/agentic_eval/agentic_checker.py):
//
//  1. the result must be a list of exactly one turn, else
//     agentic:inference_error;
//  2. every step of that turn is decoded with the handler's decode_execute;
//     the last step that fails to decode (or decodes to nothing) is the
//     model's final answer; when there is none (or it is falsy in Python's
//     sense, e.g. ""), agentic:no_last_message;
//  3. the final answer passes when one of the possible answers, normalised,
//     occurs in the normalised answer text between regex word boundaries
//     (Python's Unicode \b), else agentic:answer_not_found.
//
// The normalisation (StandardizeString) is NOT the AST checker's: it deletes
// , . / - _ * ^ ( ) but keeps spaces. Upstream's docstring says whitespace is
// removed; its regex does not remove it, and this package follows the regex.
//
// Scoring needs nothing from the memory or web-search backends: only the
// result record, the entry's question and its ground-truth list.
package agentic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Error types and messages, byte-identical to upstream
// (bfcl_eval/eval_checker/eval_runner.py and agentic_eval/agentic_checker.py).
const (
	ErrInferenceError = "agentic:inference_error"
	ErrNoLastMessage  = "agentic:no_last_message"
	ErrAnswerNotFound = "agentic:answer_not_found"

	MsgInferenceError = "Error during inference phase. Model did not output a list of model responses."
	MsgNoLastMessage  = "Cannot find the last chat message that is not a function call."
	MsgAnswerNotFound = "None of the expected answers were found in the model response."
)

// Options of the checker.
type Options struct {
	// Spec is how the model's steps are decoded: mode "fc" (upstream's
	// convert_to_function_call; "" means FC) or "prompt"
	// (default_decode_execute_prompting), and the handler class whose
	// decode_execute reads them.
	decode.Spec
}

// Result is the verdict plus what the checker saw.
type Result struct {
	Verdict verdict.Verdict
	// Decoded holds the decoded call strings of the steps that decoded to
	// calls (upstream's model_result_decoded); nil when step 2 was not reached.
	Decoded [][]string
	// LastMessage is the step taken as the final answer (nil when none).
	LastMessage pyval.Value
	// LastStep is LastMessage's index among the turn's steps (-1 when none).
	LastStep int
	// Match is the answer check (nil when step 3 was not reached).
	Match *AnswerCheck
}

// AnswerCheck is agentic_checker's outcome with its details.
type AnswerCheck struct {
	Valid bool
	// ModelResponse is the answer text after upstream's coercion (the first
	// item of a list, str() of a non-str).
	ModelResponse string
	// PossibleAnswers are the ground-truth answers as given.
	PossibleAnswers []string
	// StandardizedModelResponse and StandardizedPossibleAnswers are the
	// normalised texts that were compared.
	StandardizedModelResponse   string
	StandardizedPossibleAnswers []string
	// Matched is the index in PossibleAnswers of the first answer found; -1
	// when none.
	Matched int
}

// stripped are the characters StandardizeString deletes
// (agentic_checker.standardize_string's regex class [\,\.\/\-\_\*\^\(\)]).
const stripped = ",./-_*^()"

// StandardizeString is upstream agentic_checker.standardize_string: delete
// every , . / - _ * ^ ( ), lower-case with Python's str.lower (full case
// mapping: "İ" becomes "i̇", a final capital sigma becomes "ς"), then replace
// every ' by ". Whitespace is kept.
func StandardizeString(s string) string {
	rs := make([]rune, 0, len(s))
	for _, r := range s {
		if strings.ContainsRune(stripped, r) {
			continue
		}
		rs = append(rs, r)
	}
	return strings.ReplaceAll(pyval.Lower(string(rs)), "'", `"`)
}

// ContainsWord reports whether re.search(rf"\b{re.escape(needle)}\b",
// haystack) matches: an occurrence of needle (overlapping occurrences
// included) with a Python word boundary right before and right after it.
// Positions are code points, as in Python's re on str.
func ContainsWord(haystack, needle string) bool {
	h := []rune(haystack)
	n := []rune(needle)
	boundary := func(i int) bool {
		before := i > 0 && pyval.IsWord(h[i-1])
		after := i < len(h) && pyval.IsWord(h[i])
		return before != after
	}
	for start := 0; start+len(n) <= len(h); start++ {
		if !boundary(start) {
			continue
		}
		ok := true
		for j, r := range n {
			if h[start+j] != r {
				ok = false
				break
			}
		}
		if ok && boundary(start+len(n)) {
			return true
		}
	}
	return false
}

// CheckAnswer is upstream's agentic_checker(model_response,
// possible_answer_list). A list response is replaced by its first item and
// a non-str by its Python str(); an empty list raises IndexError upstream
// and is an error here.
func CheckAnswer(modelResponse pyval.Value, possible []string) (AnswerCheck, error) {
	if l, ok := modelResponse.(*pyval.List); ok {
		if len(l.Items) == 0 {
			return AnswerCheck{}, fmt.Errorf("agentic checker: the final answer is an empty list (IndexError upstream)")
		}
		modelResponse = l.Items[0]
	}
	var text string
	if s, ok := modelResponse.(pyval.Str); ok {
		text = string(s)
	} else {
		text = pyval.StrOf(modelResponse)
	}
	c := AnswerCheck{
		ModelResponse:               text,
		PossibleAnswers:             append([]string{}, possible...),
		StandardizedModelResponse:   StandardizeString(text),
		StandardizedPossibleAnswers: make([]string, len(possible)),
		Matched:                     -1,
	}
	for i, p := range possible {
		c.StandardizedPossibleAnswers[i] = StandardizeString(p)
	}
	for i, p := range c.StandardizedPossibleAnswers {
		if ContainsWord(c.StandardizedModelResponse, p) {
			c.Valid, c.Matched = true, i
			break
		}
	}
	return c, nil
}

// Check scores one entry's record. e is the entry as dataset.Load returns it
// (ground truth attached, no inference-time additions).
func Check(e *dataset.Entry, rec results.Record, o Options) (Result, error) {
	var possible []string
	if err := json.Unmarshal(e.Answer, &possible); err != nil {
		return Result{}, fmt.Errorf("ground truth of %s is not a list of strings: %w", e.ID, err)
	}
	result, err := decode.ParseResult(rec.Result)
	if err != nil {
		return Result{}, fmt.Errorf("result of %s (line %d) is not JSON: %w", e.ID, rec.Line, err)
	}
	turns, isList := result.(*pyval.List)
	if !isList || len(turns.Items) != 1 {
		prompt, err := promptEntry(e)
		if err != nil {
			return Result{}, err
		}
		return Result{LastStep: -1, Verdict: fail(e, ErrInferenceError, MsgInferenceError,
			field("prompt", verdict.Python(prompt)),
			field("model_result", rec.Result),
			field("possible_answer", e.Answer),
			inferenceLog(rec))}, nil
	}
	steps, err := pyval.Iterate(turns.Items[0])
	if err != nil {
		return Result{}, fmt.Errorf("result of %s: the turn cannot be iterated (upstream raises %s: %v)", e.ID, typeNameOf(err), err)
	}
	dopts := decode.Options{Spec: o.Spec}
	if dopts.Mode == "" {
		dopts.Mode = decode.ModeFC
	}
	res := Result{Decoded: [][]string{}, LastStep: -1}
	var last pyval.Value
	for i, st := range steps {
		calls, err := decode.DecodeExecuteValue(st, dopts)
		if err != nil || isEmptyExecute(calls) {
			last, res.LastStep = st, i
			continue
		}
		res.Decoded = append(res.Decoded, calls)
	}
	res.LastMessage = last
	if last == nil || !pyval.Truthy(last) {
		prompt, err := promptEntry(e)
		if err != nil {
			return Result{}, err
		}
		res.Verdict = fail(e, ErrNoLastMessage, MsgNoLastMessage,
			field("prompt", verdict.Python(prompt)),
			field("model_result", rec.Result),
			field("model_result_decoded", res.Decoded),
			field("possible_answer", e.Answer),
			inferenceLog(rec))
		return res, nil
	}
	c, err := CheckAnswer(last, possible)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", e.ID, err)
	}
	res.Match = &c
	if c.Valid {
		res.Verdict = verdict.Verdict{ID: e.ID, Category: e.Category, Valid: true}
		return res, nil
	}
	prompt, err := promptEntry(e)
	if err != nil {
		return Result{}, err
	}
	question, _ := prompt.GetStr("question")
	res.Verdict = fail(e, ErrAnswerNotFound, MsgAnswerNotFound,
		field("details", verdict.Fields{
			field("model_response", c.ModelResponse),
			field("possible_answers", c.PossibleAnswers),
			field("standardized_model_response", c.StandardizedModelResponse),
			field("standardized_possible_answers", c.StandardizedPossibleAnswers),
		}),
		field("prompt", verdict.Python(question)),
		field("model_result_raw", rec.Result),
		field("last_non_fc_message", verdict.Python(last)),
		field("possible_answer", e.Answer),
		inferenceLog(rec))
	return res, nil
}

func isEmptyExecute(calls []string) bool {
	return len(calls) == 0 || (len(calls) == 1 && len(calls[0]) == 0)
}

func typeNameOf(err error) string {
	if ex, ok := err.(*pyval.Exception); ok {
		return ex.Type
	}
	return "an error"
}

func fail(e *dataset.Entry, typ, msg string, detail ...verdict.Field) verdict.Verdict {
	return verdict.Verdict{ID: e.ID, Category: e.Category, ErrorType: typ, Errors: []string{msg}, Detail: detail}
}

func field(k string, v any) verdict.Field { return verdict.Field{Key: k, Value: v} }

// inferenceLog is the field agentic_runner appends to every failed entry.
func inferenceLog(rec results.Record) verdict.Field {
	if len(rec.InferenceLog) > 0 {
		return field("inference_log", rec.InferenceLog)
	}
	return field("inference_log", "")
}

// PromptEntry is the entry as upstream's evaluator holds it
// (load_dataset_entry(include_prereq=False, include_language_specific_hint=False)
// with "function" deleted): the question line with its id rewritten, the
// agentic response-format system message first, and for memory entries
// involved_classes set to the backend class and depends_on appended.
func PromptEntry(e *dataset.Entry) (*pyval.Dict, error) { return promptEntry(e) }

func promptEntry(e *dataset.Entry) (*pyval.Dict, error) {
	v, err := pyval.FromJSON(e.Raw)
	if err != nil {
		return nil, fmt.Errorf("question line of %s: %w", e.Where(), err)
	}
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("question line of %s is not an object", e.Where())
	}
	d.SetStr("id", pyval.Str(e.ID))
	view, err := dataset.InferenceView(e)
	if err != nil {
		return nil, err
	}
	q := pyval.NewList()
	for _, turn := range view.Question {
		t := pyval.NewList()
		for _, m := range turn {
			md := pyval.NewDict()
			md.SetStr("role", pyval.Str(m.Role))
			md.SetStr("content", pyval.Str(m.Content))
			t.Items = append(t.Items, md)
		}
		q.Items = append(q.Items, t)
	}
	d.SetStr("question", q)
	if e.Category.IsMemory() {
		ic := pyval.NewList()
		for _, c := range e.InvolvedClasses {
			ic.Items = append(ic.Items, pyval.Str(c))
		}
		d.SetStr("involved_classes", ic)
		dep := pyval.NewList()
		for _, id := range e.DependsOn {
			dep.Items = append(dep.Items, pyval.Str(id))
		}
		d.Delete(pyval.Str("depends_on"))
		d.SetStr("depends_on", dep)
	}
	d.Delete(pyval.Str("function"))
	return d, nil
}
