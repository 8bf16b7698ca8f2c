package cost_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/run/cost"
)

func turns(n int) [][]dataset.Message {
	return make([][]dataset.Message, n)
}

func TestTurns(t *testing.T) {
	for _, c := range []struct {
		name string
		e    dataset.Entry
		want []int
	}{
		{"single-turn", dataset.Entry{Category: "simple_python", Question: turns(1)}, []int{1}},
		{"multi-turn: a step and the answer per turn with calls, the answer alone otherwise",
			dataset.Entry{Category: "multi_turn_base", Question: turns(3), Answer: json.RawMessage(`[["cd(folder='a')","ls()"],[],["pwd()"]]`)}, []int{2, 1, 2}},
		{"multi-turn without a usable ground truth", dataset.Entry{Category: "multi_turn_miss_param", Question: turns(2), Answer: json.RawMessage(`[["x()"]]`)}, []int{2, 2}},
		{"web search", dataset.Entry{Category: "web_search_base", Question: turns(1)}, []int{cost.WebSearchSteps}},
		{"memory question", dataset.Entry{ID: "memory_kv_3-customer-0", Category: "memory_kv", Question: turns(1)}, []int{cost.MemorySteps}},
		{"memory prerequisite", dataset.Entry{ID: "memory_kv_prereq_0-customer-0", Category: "memory_kv", Question: turns(2)}, []int{cost.PrereqSteps, cost.PrereqSteps}},
		{"no turns counts as one", dataset.Entry{Category: "simple_python"}, []int{1}},
	} {
		if got := cost.Turns(&c.e); !slices.Equal(got, c.want) {
			t.Errorf("%s: Turns = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestAhead(t *testing.T) {
	ts := []int{2, 1, 2}
	for _, c := range []struct{ turn, step, want int }{
		{0, 0, 5}, {0, 1, 4}, {0, 5, 4}, // a turn running over its estimate still counts this call
		{1, 0, 3}, {2, 0, 2}, {2, 1, 1}, {3, 0, 1},
	} {
		if got := cost.Ahead(ts, c.turn, c.step); got != c.want {
			t.Errorf("Ahead(%v, %d, %d) = %d, want %d", ts, c.turn, c.step, got, c.want)
		}
	}
	e := dataset.Entry{Category: "multi_turn_base", Question: turns(3), Answer: json.RawMessage(`[["a()"],[],["b()"]]`)}
	if got := cost.Total(&e); got != 5 {
		t.Errorf("Total = %d, want 5", got)
	}
}
