package score

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	agenticcheck "github.com/bfcl-go/bfcl/internal/check/agentic"
	"github.com/bfcl-go/bfcl/internal/check/astcheck"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// registry maps each category to its checker; categories absent here are
// reported as not scorable yet.
func registry() map[category.Category]Checker {
	m := map[category.Category]Checker{}
	for _, c := range category.SingleTurn() {
		m[c] = singleTurn
	}
	for _, c := range category.MultiTurn() {
		m[c] = multiTurn
	}
	m[category.FormatSensitivity] = formatSensitivity
	for _, c := range category.Agentic() {
		m[c] = agenticEntry
	}
	return m
}

// checkers is registry(), built once per process (it was built for every
// entry scored).
var checkers = sync.OnceValue(registry)

// agenticEntry is upstream's agentic checker: the final answer text must
// contain an accepted answer (the backends play no part in scoring).
func agenticEntry(e *dataset.Entry, rec results.Record, o Options) (verdict.Verdict, error) {
	m := o.Mode
	if m == "" {
		m = multiTurnMode(rec.Result)
	}
	r, err := agenticcheck.Check(e, rec, agenticcheck.Options{Spec: o.Spec.WithMode(m)})
	if err != nil {
		return verdict.Verdict{}, err
	}
	return r.Verdict, nil
}

// formatSensitivity scores one prompt-format variant as upstream's
// format_sensitivity_runner does: decoded in the configuration's return
// format (and tool-call tag), checked by the AST checker of the source
// entry's category, in Python.
func formatSensitivity(e *dataset.Entry, rec results.Record, o Options) (verdict.Verdict, error) {
	_, cfg, srcID, err := prompt.SplitFormatSensitivityID(e.ID)
	if err != nil {
		return verdict.Verdict{}, err
	}
	srcCat, err := category.FromEntryID(srcID)
	if err != nil {
		return verdict.Verdict{}, err
	}
	result, err := pyval.FromJSON(rec.Result)
	if err != nil {
		return verdict.Verdict{}, fmt.Errorf("result is not JSON: %w", err)
	}
	funcs := pyval.NewList()
	for _, d := range e.Functions {
		v, err := pyval.FromJSON(d)
		if err != nil {
			return verdict.Verdict{}, fmt.Errorf("function document: %w", err)
		}
		funcs.Items = append(funcs.Items, v)
	}
	gt, err := pyval.FromJSON(e.Answer)
	if err != nil {
		return verdict.Verdict{}, fmt.Errorf("ground truth: %w", err)
	}
	v, err := astcheck.ScoreValues(srcCat, e.ID, e.Raw, funcs, gt, result,
		decode.Options{Spec: o.Spec.WithMode(decode.ModePrompt), Language: cfg.ReturnFormat, ToolCallTag: cfg.ToolCallTag})
	if err != nil {
		return verdict.Verdict{}, err
	}
	return v, nil
}

// mode returns the decoding mode of a record: the configured one, else FC
// when the result is a list (of {name: args}) and prompt when it is text.
func mode(o Options, result json.RawMessage) string {
	if o.Mode != "" {
		return o.Mode
	}
	var s string
	if json.Unmarshal(result, &s) == nil {
		return decode.ModePrompt
	}
	return decode.ModeFC
}

func singleTurn(e *dataset.Entry, rec results.Record, o Options) (verdict.Verdict, error) {
	line := rec.Raw
	if len(line) == 0 {
		var err error
		if line, err = json.Marshal(rec); err != nil {
			return verdict.Verdict{}, err
		}
	}
	var answer []byte
	if len(e.Answer) > 0 {
		answer = append(append([]byte(`{"ground_truth": `), e.Answer...), '}')
	}
	// astcheck.ScoreEntry parses only what the verdict needs (the function
	// documents the answer names, not every document of the entry).
	return astcheck.ScoreEntry(e.Category, e.Raw, answer, line,
		decode.Options{Spec: o.Spec.WithMode(mode(o, rec.Result))})
}

func multiTurn(e *dataset.Entry, rec results.Record, o Options) (verdict.Verdict, error) {
	if o.LongContext == nil && e.LongContext() {
		return verdict.Verdict{}, fmt.Errorf("scoring %s needs the long-context data (score.Options.LongContext)", e.ID)
	}
	m := o.Mode
	if m == "" {
		m = multiTurnMode(rec.Result)
	}
	r, err := multiturn.Check(e, rec, multiturn.Options{
		Spec: o.Spec.WithMode(m), ModelName: o.ModelName, LongContext: o.LongContext,
		CheckIrrelevance: o.StrictIrrelevance,
	})
	if err != nil {
		return verdict.Verdict{}, err
	}
	return r.Verdict, nil
}

// multiTurnMode detects the mode of a multi-turn record: FC when any step is
// a list of calls, prompt when every step is text.
func multiTurnMode(result json.RawMessage) string {
	var turns [][]json.RawMessage
	if json.Unmarshal(result, &turns) != nil {
		return decode.ModeFC
	}
	sawText := false
	for _, t := range turns {
		for _, st := range t {
			var s string
			if json.Unmarshal(st, &s) == nil {
				sawText = true
				continue
			}
			return decode.ModeFC
		}
	}
	if sawText {
		return decode.ModePrompt
	}
	return decode.ModeFC
}
