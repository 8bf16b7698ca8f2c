// Package sim holds the simulated backends of BFCL's multi-turn categories:
// Go ports of the upstream Python classes under
// bfcl_eval/eval_checker/multi_turn_eval/func_source_code/ that behave
// exactly as the originals (results, errors, state, randomness).
//
// The generated stubs (generated/stubs) are the contract: from the function
// documents and upstream's Python signatures they define, per class, an
// interface whose methods take a generated arguments struct, and each
// backend here implements it (asserted at compile time in registry.go).
// Calls reach a backend only through the stubs, which bind Python-style
// positional and keyword arguments with CPython's rules and fill immutable
// defaults. The struct's fields are typed views (package pyargs) that keep
// the model's dynamic value, so a model passing a string where an int is
// expected gets exactly what upstream would give it; a mutable default
// (post_tweet's tags=[]) is left nil and applied by the backend.
package sim

import (
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/python/pyargs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Instance is one backend object (one per class, per entry, per side).
type Instance interface {
	// ClassName is the upstream class name, e.g. "GorillaFileSystem".
	ClassName() string
	// LoadScenario mirrors upstream's _load_scenario(config, long_context).
	// config is a deep copy owned by the instance.
	LoadScenario(config *pyval.Dict, longContext bool) error
	// State returns the public attributes (vars(instance) without names
	// starting with "_") in insertion order, as the state checker compares
	// them. The returned values may alias the instance's state; callers must
	// not mutate them.
	State() *pyval.Dict
}

// Env is what one evaluation of one entry shares between its instances: the
// module-level data of upstream's modules (long-context distractor data that
// upstream mutates in place, for example). Each entry evaluation gets its own
// Env, so nothing leaks between entries; the model side and the ground-truth
// side of one entry share it, as they share module globals upstream.
type Env struct {
	// LC is this evaluation's private copy of long_context.py's values, set
	// directly or made on first use from the pristine data given to NewEnv.
	// Read it through LongContext.
	LC *longcontext.Data
	// pristine is the shared, never-mutated data LC is cloned from.
	pristine *longcontext.Data

	// Opt-in corrections of upstream defects in the backends (see
	// internal/config/corrections; both off by default, the pinned
	// behaviour): memory_kv's key pattern allows digits in the first
	// segment (memory-kv-key-pattern), and a key search of an empty
	// memory_kv memory returns no results instead of raising
	// ZeroDivisionError (empty-memory-search).
	KVKeyPatternCorrected, EmptyMemorySearchCorrected bool

	// TwitterAPI.post_tweet's mutable default lists (tags=[], mentions=[]),
	// created on first use; see postTweetDefaults.
	tweetTags, tweetMentions *pyval.List
}

// NewEnv returns an Env whose long-context data is a private copy of
// pristine, made only if a backend reads it (most entries never do, and the
// copy is the largest allocation of an evaluation).
func NewEnv(pristine *longcontext.Data) *Env { return &Env{pristine: pristine} }

// LongContext returns this evaluation's long-context data (nil if none was
// given).
func (e *Env) LongContext() *longcontext.Data {
	if e.LC == nil && e.pristine != nil {
		e.LC = e.pristine.Clone()
	}
	return e.LC
}

// postTweetDefaults returns the Env's post_tweet default lists. An Env
// belongs to one entry evaluation, which runs on one goroutine.
func (e *Env) postTweetDefaults() (tags, mentions *pyval.List) {
	if e.tweetTags == nil {
		e.tweetTags, e.tweetMentions = pyval.NewList(), pyval.NewList()
	}
	return e.tweetTags, e.tweetMentions
}

// Param is one parameter of a backend method's Python signature.
type Param = pyargs.Param

// Method is one public method of a backend class, as the generated stubs
// list it (generated/stubs, from upstream's signatures).
type Method = pyargs.Method

// Class describes one backend class.
type Class struct {
	Name      string // upstream class name
	Module    string // upstream module file stem, e.g. "trading_bot"
	Stateless bool   // upstream STATELESS_CLASSES: _load_scenario is never called
	// New returns a fresh instance as upstream's class_() would.
	New func(env *Env) Instance
	// Methods lists every public method (names not starting with "_"),
	// sorted by name as inspect.getmembers returns them.
	Methods []Method
}
