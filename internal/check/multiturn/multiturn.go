// Package multiturn scores the multi-turn categories as upstream's
// multi_turn_checker does (bfcl_eval/eval_checker/multi_turn_eval/
// multi_turn_checker.py, with eval_runner._evaluate_single_multi_turn_entry
// around it): decode each step, execute the model's calls and the ground
// truth turn by turn on separate instances, then per non-empty ground-truth
// turn a state check and a response check. Error types and messages are
// upstream's, byte for byte.
package multiturn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/store/jsonscan"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/sim"
)

// Error types (upstream's strings; their home is verdict, beside the
// reading of a score-file line's turns).
const (
	ErrInferenceError   = verdict.ErrInferenceError
	ErrForceTerminated  = verdict.ErrForceTerminated
	ErrEmptyTurn        = verdict.ErrEmptyTurn
	ErrStateMismatch    = verdict.ErrStateMismatch
	ErrResponseMismatch = verdict.ErrResponseMismatch
)

// Options of the checker.
type Options struct {
	// ModelName is the model's result-folder name (upstream's model_name in
	// the evaluator); instance names derive from it.
	ModelName string
	// Spec is how the steps are decoded (mode "" detects per step).
	decode.Spec
	// LongContext is the pristine long-context data; each entry works on a
	// clone of it.
	LongContext *longcontext.Data
	// CheckIrrelevance is a stricter, non-default rule: a turn whose ground
	// truth is empty (the function is missing, or a parameter) fails when the
	// model made a decodable call in it, with upstream's own
	// multi_turn_irrelevance_checker message. Upstream defines that checker
	// but never calls it, so the official score does not apply it; neither
	// does this package unless asked.
	CheckIrrelevance bool
}

// ErrIrrelevance is the error type of the optional irrelevance rule.
const ErrIrrelevance = verdict.ErrIrrelevance

// Result is a verdict plus what the checker saw, for tests and reports.
type Result struct {
	Verdict verdict.Verdict
	// Decoded holds, per turn, per step, the decoded call strings (steps that
	// failed to decode or decoded to nothing are dropped); nil when the
	// checker was not reached.
	Decoded [][][]string
	// Executed records what ran, per turn, up to the turn where the checker
	// returned.
	Executed []TurnExecution
}

// TurnExecution is what one turn executed on each side.
type TurnExecution struct {
	ModelSteps []StepExecution
	GTCalls    []string
	GTResults  []string
}

// StepExecution is one model step's calls and results.
type StepExecution struct {
	Calls   []string
	Results []string
}

// Check scores one entry's record.
func Check(e *dataset.Entry, rec results.Record, o Options) (Result, error) {
	gt, err := groundTruth(e)
	if err != nil {
		return Result{}, err
	}
	if !json.Valid(rec.Result) {
		var raw any
		err := json.Unmarshal(rec.Result, &raw)
		return Result{}, fmt.Errorf("result of %s is not JSON: %w", e.ID, err)
	}
	if b := bytes.TrimLeft(rec.Result, " \t\r\n"); len(b) == 0 || b[0] != '[' {
		return withGroundTruth(e, gt, o, Result{Verdict: fail(e, ErrInferenceError,
			[]string{"Error during inference phase. Model did not output a list of model responses."},
			field("prompt", promptOf(e)), field("model_result", rec.Result), field("possible_answer", e.Answer), inferenceLog(rec))})
	}
	// A valid JSON array: its turns and steps are split without decoding
	// (each step is parsed once, by the decoder).
	rawTurns, err := jsonscan.ArrayElements(rec.Result)
	if err != nil {
		return Result{}, err
	}
	if len(rawTurns) != len(gt) {
		return withGroundTruth(e, gt, o, Result{Verdict: fail(e, ErrForceTerminated,
			[]string{fmt.Sprintf("Model was force-terminated during inference phase. The length of the model result turns (%d) does not match the length of the ground truth turns (%d).", len(rawTurns), len(gt))},
			field("prompt", promptOf(e)), field("model_result", rec.Result), field("possible_answer", e.Answer), inferenceLog(rec))})
	}
	dopts := decode.Options{Spec: o.Spec}
	decoded := make([][][]string, len(rawTurns))
	for t, rt := range rawTurns {
		decoded[t] = [][]string{}
		steps, err := jsonscan.ArrayElements(rt)
		if err != nil {
			continue // upstream iterates the turn; a non-list turn yields no decodable step
		}
		for _, st := range steps {
			calls, err := decode.DecodeExecute(st, dopts)
			if err != nil || isEmptyExecute(calls) {
				continue
			}
			decoded[t] = append(decoded[t], calls)
		}
	}
	res := Result{Decoded: decoded}
	v, err := run(e, gt, decoded, o, &res)
	if err != nil {
		return Result{}, err
	}
	if !v.Valid {
		v.Detail = append(v.Detail,
			field("prompt", promptOf(e)),
			field("model_result_raw", rec.Result),
			field("model_result_decoded", decoded),
			field("possible_answer", e.Answer),
		)
		v.Detail = append(v.Detail, inferenceLog(rec))
	}
	res.Verdict = v
	return res, nil
}

func run(e *dataset.Entry, gt [][]string, decoded [][][]string, o Options, res *Result) (verdict.Verdict, error) {
	cfg, err := e.InitialConfigDict()
	if err != nil {
		return verdict.Verdict{}, err
	}
	env := sim.NewEnv(o.LongContext)
	longContext := e.LongContext()
	model := engine.New(env, engine.Config{ModelName: o.ModelName + "_eval", EntryID: e.ID, Involved: e.InvolvedClasses, InitialConfig: cfg, LongContext: longContext})
	truth := engine.New(env, engine.Config{ModelName: o.ModelName + "_ground_truth_eval", EntryID: e.ID, Involved: e.InvolvedClasses, InitialConfig: cfg, LongContext: longContext})

	// The ground truth's results of every turn are recorded in the verdict
	// (for reports), also of the turns after the one the checker stopped at,
	// and so are the turns passed before it.
	var gtResults [][]string
	finish := func(v verdict.Verdict, passed int) (verdict.Verdict, error) {
		for t := len(gtResults); t < len(gt); t++ {
			gtResults = append(gtResults, nonNil(truth.Execute(gt[t])))
		}
		v.GroundTruthResults = gtResults
		v.Turns = &verdict.TurnOutcome{Turns: len(gt), Checked: true, Passed: passed}
		return v, nil
	}
	var allModel []string
	var execLog []any
	for t, gtCalls := range gt {
		steps := decoded[t]
		var turnModel []string
		var uncombined [][]string
		te := TurnExecution{GTCalls: gtCalls}
		for _, st := range steps {
			out := model.Execute(st)
			turnModel = append(turnModel, out...)
			uncombined = append(uncombined, out)
			te.ModelSteps = append(te.ModelSteps, StepExecution{Calls: st, Results: out})
		}
		gtOut := truth.Execute(gtCalls)
		te.GTResults = gtOut
		gtResults = append(gtResults, nonNil(gtOut))
		res.Executed = append(res.Executed, te)
		allModel = append(allModel, turnModel...)
		if uncombined == nil {
			uncombined = [][]string{}
		}
		execLog = append(execLog, verdict.Fields{{Key: "model", Value: uncombined}, {Key: "ground_truth", Value: nonNil(gtOut)}})

		if len(gtCalls) > 0 && len(steps) == 0 {
			return finish(fail(e, ErrEmptyTurn, []string{fmt.Sprintf("Model response list is empty for turn %d", t)},
				field("details", verdict.Fields{{Key: "execution_result", Value: execLog}})), t)
		}
		if len(gtCalls) == 0 {
			if o.CheckIrrelevance && len(steps) > 0 {
				return finish(fail(e, ErrIrrelevance, []string{fmt.Sprintf("Model outputs valid function calls when it should not for turn %d.", t)},
					field("details", verdict.Fields{{Key: "model response decoded", Value: steps}})), t)
			}
			continue
		}
		if v, bad := stateCheck(e, model, truth, execLog); bad {
			return finish(v, t)
		}
		missing := missingUnordered(gtOut, allModel)
		if len(missing) > 0 {
			return finish(fail(e, ErrResponseMismatch,
				[]string{fmt.Sprintf("Model response execution results so far does not contain all the ground truth response execution results for turn %d.", t)},
				field("details", verdict.Fields{
					{Key: "missing_items", Value: missing},
					{Key: "model_response (including all previous turns)", Value: nonNil(allModel)},
					{Key: "ground_truth_response (only the current turn)", Value: nonNil(gtOut)},
				})), t)
		}
	}
	return finish(verdict.Verdict{ID: e.ID, Category: e.Category, Valid: true}, len(gt))
}

// groundTruth is the entry's ground truth, a list of call lists per turn.
func groundTruth(e *dataset.Entry) ([][]string, error) {
	if gt, ok := jsonscan.PlainStringLists(e.Answer); ok {
		return gt, nil
	}
	var gt [][]string
	if err := json.Unmarshal(e.Answer, &gt); err != nil {
		return nil, fmt.Errorf("ground truth of %s is not a list of call lists: %w", e.ID, err)
	}
	return gt, nil
}

// withGroundTruth records the ground truth's results in a verdict the
// checker reached without executing anything (no turn checked).
func withGroundTruth(e *dataset.Entry, gt [][]string, o Options, res Result) (Result, error) {
	r, err := executeGroundTruth(e, gt, o.LongContext, o.ModelName+"_ground_truth_eval")
	if err != nil {
		return Result{}, err
	}
	res.Verdict.GroundTruthResults = r
	res.Verdict.Turns = &verdict.TurnOutcome{Turns: len(gt)}
	return res, nil
}

// GroundTruthOf is GroundTruthResults for the entries of src, run with
// src's long_context.py (the HTML report's GroundTruth).
func GroundTruthOf(src *dataset.Source) func(*dataset.Entry) ([][]string, error) {
	return func(e *dataset.Entry) ([][]string, error) {
		lc, err := src.LongContext()
		if err != nil {
			return nil, err
		}
		return GroundTruthResults(e, lc)
	}
}

// GroundTruthResults executes a multi-turn entry's ground truth turn by
// turn on fresh backends, as the checker's ground-truth side does, and
// returns each turn's execution results. Scoring records the same in
// verdict.Verdict.GroundTruthResults; this is for entries no scoring
// reached (a report of a folder scored by an earlier process).
func GroundTruthResults(e *dataset.Entry, lc *longcontext.Data) ([][]string, error) {
	gt, err := groundTruth(e)
	if err != nil {
		return nil, err
	}
	return executeGroundTruth(e, gt, lc, "report_ground_truth")
}

func executeGroundTruth(e *dataset.Entry, gt [][]string, lc *longcontext.Data, name string) ([][]string, error) {
	cfg, err := e.InitialConfigDict()
	if err != nil {
		return nil, err
	}
	s := engine.New(sim.NewEnv(lc), engine.Config{ModelName: name, EntryID: e.ID,
		Involved: e.InvolvedClasses, InitialConfig: cfg, LongContext: e.LongContext()})
	out := make([][]string, len(gt))
	for t, calls := range gt {
		out[t] = nonNil(s.Execute(calls))
	}
	return out, nil
}

// stateCheck compares, class by class in involved order, every public
// attribute of the ground-truth instance with the model's (Python !=).
func stateCheck(e *dataset.Entry, model, truth *engine.Session, execLog []any) (verdict.Verdict, bool) {
	for _, cl := range truth.Classes() {
		gi, _ := truth.Instance(cl)
		mi, ok := model.Instance(cl)
		if !ok {
			continue // unreachable: an empty model turn fails before
		}
		gs, ms := gi.State(), mi.State()
		var diffs verdict.Fields
		for _, kv := range gs.Items() {
			name := string(kv.Key.(pyval.Str))
			mv, _ := ms.Get(kv.Key)
			if mv == nil || !pyval.Equal(mv, kv.Value) {
				diffs = append(diffs, verdict.Field{Key: name, Value: verdict.Fields{
					{Key: "model", Value: verdict.Python(mv)}, {Key: "ground_truth", Value: verdict.Python(kv.Value)},
				}})
			}
		}
		if len(diffs) > 0 {
			return fail(e, ErrStateMismatch,
				[]string{fmt.Sprintf("Model instance for %s does not match the state with ground truth instance.", cl)},
				field("details", verdict.Fields{
					{Key: "differences", Value: diffs},
					{Key: "model_instance_state", Value: verdict.Python(ms)},
					{Key: "ground_truth_instance_state", Value: verdict.Python(gs)},
					{Key: "execution_result", Value: execLog},
				})), true
		}
	}
	return verdict.Verdict{}, false
}

// missingUnordered is upstream's _is_subsequence_unordered: each expected
// item consumes one equal item of got; the unmatched expected items, in
// order.
func missingUnordered(expected, got []string) []string {
	pool := map[string]int{}
	for _, g := range got {
		pool[g]++
	}
	missing := []string{}
	for _, x := range expected {
		if pool[x] > 0 {
			pool[x]--
			continue
		}
		missing = append(missing, x)
	}
	return missing
}

// DifferingAttributes lists, sorted, the attribute names of a state-mismatch
// verdict's details.
func DifferingAttributes(v verdict.Verdict) []string {
	var out []string
	for _, f := range v.Detail {
		if f.Key != "details" {
			continue
		}
		for _, d := range f.Value.(verdict.Fields) {
			if d.Key == "differences" {
				for _, a := range d.Value.(verdict.Fields) {
					out = append(out, a.Key)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// MissingItems lists the missing ground-truth results of a response-mismatch verdict.
func MissingItems(v verdict.Verdict) []string {
	for _, f := range v.Detail {
		if f.Key != "details" {
			continue
		}
		for _, d := range f.Value.(verdict.Fields) {
			if d.Key == "missing_items" {
				return d.Value.([]string)
			}
		}
	}
	return nil
}

func isEmptyExecute(calls []string) bool {
	return len(calls) == 0 || (len(calls) == 1 && len(calls[0]) == 0)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func fail(e *dataset.Entry, typ string, msgs []string, detail ...verdict.Field) verdict.Verdict {
	return verdict.Verdict{ID: e.ID, Category: e.Category, Valid: false, ErrorType: typ, Errors: msgs, Detail: detail}
}

func field(k string, v any) verdict.Field { return verdict.Field{Key: k, Value: v} }

// inferenceLog is the field multi_turn_runner (eval_runner.py) appends to
// every failed entry, the early inference_error and force_terminated
// verdicts included: the record's inference_log, "" when it has none.
func inferenceLog(rec results.Record) verdict.Field {
	if len(rec.InferenceLog) > 0 {
		return field("inference_log", rec.InferenceLog)
	}
	return field("inference_log", "")
}

// promptOf is the entry as upstream stores it in a score file: the question
// line without its function documents, its id the entry's. The line's
// members are cut out of the raw text (the score-file writer re-spaces it
// as json.dumps would write the parsed value); a line the cut cannot take
// as it is (a key spelled with an escape, a key twice) goes through the
// Python value model.
func promptOf(e *dataset.Entry) any {
	if p, ok := promptRaw(e); ok {
		return p
	}
	v, err := pyval.FromJSON(e.Raw)
	if err != nil {
		return json.RawMessage(e.Raw)
	}
	d, ok := v.(*pyval.Dict)
	if !ok {
		return json.RawMessage(e.Raw)
	}
	d.Delete(pyval.Str("function"))
	d.SetStr("id", pyval.Str(e.ID))
	return verdict.Python(d)
}

// promptRaw is promptOf on the raw line: its members in order, "function"
// left out, "id" holding e.ID (appended when the line has none).
func promptRaw(e *dataset.Entry) (json.RawMessage, bool) {
	id, err := json.Marshal(e.ID)
	if err != nil {
		return nil, false
	}
	out := make([]byte, 0, len(e.Raw))
	out = append(out, '{')
	var keys [][]byte
	ok, hasID := true, false
	err = jsonscan.ObjectMembers(e.Raw, func(key, val []byte) {
		if bytes.IndexByte(key, '\\') >= 0 {
			ok = false
		}
		for _, k := range keys {
			if bytes.Equal(k, key) {
				ok = false
			}
		}
		keys = append(keys, key)
		switch string(key) {
		case `"function"`:
			return
		case `"id"`:
			val, hasID = id, true
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, key...)
		out = append(out, ':')
		out = append(out, val...)
	})
	if err != nil || !ok {
		return nil, false
	}
	if !hasID {
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, `"id":`...)
		out = append(out, id...)
	}
	return append(out, '}'), true
}
