// Package cost is the expected number of model calls of a data-set entry,
// turn by turn: the one cost model behind the partition of a run into
// shards and its longest-first order (internal/run/shard), and behind the
// priority of an entry's next request (internal/run/sched, set by the
// inference loop), so that the entry with the most calls still ahead is
// never kept waiting.
//
// The figures are estimates; they need the right proportions, not exact
// counts:
//
//   - a single-turn entry (and a format-sensitivity one) makes one call;
//   - a multi-turn turn makes one step of calls (FC models send a turn's
//     independent calls together) and the text answer that ends it, one
//     call when its ground truth has no call (StepsPerTurn per turn when
//     the ground truth is absent);
//   - a web-search turn searches and fetches a few times (WebSearchSteps);
//   - a memory question reads the memory a few times (MemorySteps), and a
//     prerequisite conversation stores what each turn tells it
//     (PrereqSteps per turn).
package cost

import (
	"encoding/json"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
)

// Calls per turn of the entries whose ground truth does not tell.
const (
	StepsPerTurn   = 2
	WebSearchSteps = 6
	MemorySteps    = 4
	PrereqSteps    = 2
)

// Turns is the expected model calls of each of e's turns (at least one
// turn).
func Turns(e *dataset.Entry) []int {
	n := max(len(e.Question), 1)
	per := func(c int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = c
		}
		return out
	}
	cat := e.Category
	switch {
	case cat.IsMemory() && category.IsMemoryPrereqID(e.ID):
		return per(PrereqSteps)
	case cat.IsMemory():
		return per(MemorySteps)
	case cat.IsWebSearch():
		return per(WebSearchSteps)
	case cat.IsMultiTurn():
		var gt [][]json.RawMessage
		if len(e.Answer) == 0 || json.Unmarshal(e.Answer, &gt) != nil || len(gt) != len(e.Question) {
			return per(StepsPerTurn)
		}
		out := per(1)
		for i, calls := range gt {
			if len(calls) > 0 {
				out[i]++
			}
		}
		return out
	}
	return per(1)
}

// Total is the sum of Turns.
func Total(e *dataset.Entry) int {
	t := 0
	for _, c := range Turns(e) {
		t += c
	}
	return t
}

// Ahead is the expected calls still to come at step step of turn turn,
// that step's call included: the rest of the turn (at least this call)
// and the turns after it.
func Ahead(turns []int, turn, step int) int {
	if turn >= len(turns) {
		return 1
	}
	a := max(turns[turn]-step, 1)
	for _, c := range turns[turn+1:] {
		a += c
	}
	return a
}
