// Package score judges one result record of one entry with the checker of
// its category, exactly as upstream's eval_runner dispatches: the AST
// checker for single-turn categories, the relevance runner for irrelevance
// and relevance, the multi-turn checker, the agentic checker. Live runs
// (the suites) and `bfcl evaluate` (result files) both come through here.
package score

import (
	"errors"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Options say how result records are decoded and checked.
type Options struct {
	ModelName string // model (result folder) name; multi-turn instance names derive from it
	// Spec is how the results are decoded: mode ("" = detect per record:
	// a list of {name: args} is fc, a string is prompt), underscore_to_dot
	// and the upstream handler class whose decode_ast / decode_execute
	// read them.
	decode.Spec
	// LongContext is the pristine long-context data (multi-turn scoring of
	// long-context entries; nil is enough for the others, whose backends
	// never read it).
	LongContext *longcontext.Data
	// StrictIrrelevance applies upstream's (uncalled) multi-turn irrelevance
	// checker: not part of the official score; off by default.
	StrictIrrelevance bool
}

// ErrNoChecker is returned for categories whose checker has not landed.
var ErrNoChecker = errors.New("no checker for this category yet")

// ErrNotApplicable is returned for entries a model does not take part in
// (format sensitivity for FC models, as upstream).
var ErrNotApplicable = errors.New("not applicable to this model")

// Checker scores one entry of one category.
type Checker func(e *dataset.Entry, rec results.Record, opts Options) (verdict.Verdict, error)

// checkerFor returns the checker of a category, or ErrNoChecker with the
// reason.
func checkerFor(c category.Category) (Checker, error) {
	if ck, ok := checkers()[c]; ok {
		return ck, nil
	}
	return nil, fmt.Errorf("%w: %s (checker not implemented in this build)", ErrNoChecker, c)
}

// Supported reports whether category c can be scored, and why not.
func Supported(c category.Category) (bool, string) {
	if _, err := checkerFor(c); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// Entry scores rec (the model's record for e).
func Entry(e *dataset.Entry, rec results.Record, opts Options) (verdict.Verdict, error) {
	c := e.Category
	ck, err := checkerFor(c)
	if err != nil {
		return verdict.Verdict{}, err
	}
	if err := CheckHandler(opts.Handler); err != nil {
		return verdict.Verdict{}, err
	}
	if rec.ID != e.ID {
		return verdict.Verdict{}, fmt.Errorf("score: record %s does not belong to entry %s", rec.ID, e.ID)
	}
	v, err := ck(e, rec, opts)
	if err != nil {
		return verdict.Verdict{}, fmt.Errorf("score: %s: %w", e.Where(), err)
	}
	v.ID, v.Category = e.ID, e.Category
	return v, nil
}

// ErrHandlerUnusable is returned for a handler class upstream's evaluator
// cannot use at all (its constructor fails), so no score exists upstream.
var ErrHandlerUnusable = errors.New("upstream's evaluator cannot use this handler")

// CheckHandler validates an upstream handler class name for Options.Handler:
// "" and the classes of decode are accepted, except those upstream's
// evaluator cannot construct (ErrHandlerUnusable, with the reason).
func CheckHandler(class string) error {
	if err := decode.CheckHandler(class); err != nil {
		return err
	}
	if h, ok := decode.LookupHandler(class); ok && h.Unconstructible {
		return fmt.Errorf("%w: %s: %s", ErrHandlerUnusable, class, h.Note)
	}
	return nil
}

// LongContextOf is the data set's long_context.py, parsed once per
// process (dataset.Source.LongContext).
func LongContextOf(src *dataset.Source) (*longcontext.Data, error) {
	return src.LongContext()
}
