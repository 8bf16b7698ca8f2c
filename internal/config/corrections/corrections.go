// Package corrections names the opt-in corrections of known upstream
// defects. By default bfcl-go keeps every defect of the pinned upstream
// commit (the official behaviour); each correction below was proposed
// upstream but not merged there, and is switched on only by name
// (--correction NAME[,NAME] or BFCL_CORRECTIONS). A run with any of them on
// is not the official score: the active list is recorded with the results
// and the scores and shown beside every number they touch.
//
// The package is a leaf (no imports of the project), so every layer that
// applies a correction (drivers, inference loop, simulated backends,
// reports) can read a Set.
package corrections

import (
	"fmt"
	"slices"
	"strings"
)

// ID is a correction's stable name.
type ID string

// The corrections.
const (
	// EmptyToolCalls: an OpenAI-compatible server's `tool_calls: []` is read
	// as a text turn (its content), not as an empty list of calls (gorilla
	// PRs #1316, #1328, #1348, #1351; issue #1331). Pinned upstream stores
	// `[]`, which ends the turn with no answer: vLLM's Qwen3-8B scores 0 %
	// on memory that way.
	EmptyToolCalls ID = "empty-tool-calls"
	// UnderscoreToDotNames: "." in tool names is replaced by "_" only when
	// the model's underscore_to_dot is set, so the names sent and the
	// checker's mapping back agree (gorilla PR #1346). Pinned upstream's
	// convert_to_tool replaces it for every API model style whatever the
	// setting.
	UnderscoreToDotNames ID = "underscore-to-dot-names"
	// MemoryKVKeyPattern: memory_kv keys may hold digits in their first
	// segment (`q1_report`): r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$" instead of
	// r"^[a-z]+(_[a-z0-9]+)*$" (gorilla PR #1327, issue #1272).
	MemoryKVKeyPattern ID = "memory-kv-key-pattern"
	// EmptyMemorySearch: searching an empty memory_kv memory returns no
	// results instead of "Error during execution: division by zero"
	// (gorilla PR #1347).
	EmptyMemorySearch ID = "empty-memory-search"
)

// Correction describes one correction.
type Correction struct {
	ID      ID
	PRs     []int  // the gorilla pull requests that propose it
	Summary string // one line: what changes
}

// All lists the corrections in a fixed order (the order Set.List uses).
var All = []Correction{
	{EmptyToolCalls, []int{1316, 1328, 1348, 1351}, "an empty tool_calls list from an OpenAI-compatible server is a text turn, not an empty call list"},
	{UnderscoreToDotNames, []int{1346}, "'.' in tool names becomes '_' only when the model's underscore_to_dot is set"},
	{MemoryKVKeyPattern, []int{1327}, "memory_kv keys may have digits in their first segment (q1_report)"},
	{EmptyMemorySearch, []int{1347}, "searching an empty memory_kv memory returns no results, not a division by zero"},
}

// Names are the valid IDs, in All's order.
func Names() []string {
	out := make([]string, len(All))
	for i, c := range All {
		out[i] = string(c.ID)
	}
	return out
}

// Lookup returns the correction of id.
func Lookup(id ID) (Correction, bool) {
	for _, c := range All {
		if c.ID == id {
			return c, true
		}
	}
	return Correction{}, false
}

// Set is a set of active corrections. The zero Set is the pinned upstream
// behaviour (none on).
type Set struct {
	on []ID // in All's order, no duplicates
}

// Parse reads names (each may itself be comma-separated; blanks are
// ignored). An unknown name is an error naming it and the valid names; the
// caller adds which setting it came from.
func Parse(names ...string) (Set, error) {
	var want []ID
	for _, n := range names {
		for _, part := range strings.Split(n, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			if _, ok := Lookup(ID(part)); !ok {
				return Set{}, fmt.Errorf("unknown correction %q (valid: %s)", part, strings.Join(Names(), ", "))
			}
			want = append(want, ID(part))
		}
	}
	return Of(want...), nil
}

// Of returns the set of the given (valid) ids.
func Of(ids ...ID) Set {
	var s Set
	for _, c := range All {
		if slices.Contains(ids, c.ID) {
			s.on = append(s.on, c.ID)
		}
	}
	return s
}

// Has reports whether id is on.
func (s Set) Has(id ID) bool { return slices.Contains(s.on, id) }

// Empty reports whether no correction is on (the official behaviour).
func (s Set) Empty() bool { return len(s.on) == 0 }

// List returns the active ids as strings, in All's order (nil when none).
func (s Set) List() []string {
	if len(s.on) == 0 {
		return nil
	}
	out := make([]string, len(s.on))
	for i, id := range s.on {
		out[i] = string(id)
	}
	return out
}

// String is the comma-separated list, "" when none is on.
func (s Set) String() string { return strings.Join(s.List(), ",") }

// Label is how a report marks numbers made with corrections on:
// "corrections: a, b" ("" when none is on).
func (s Set) Label() string {
	if s.Empty() {
		return ""
	}
	return "corrections: " + strings.Join(s.List(), ", ")
}
