package shard

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/bfcl-go/bfcl/internal/category"
	"github.com/bfcl-go/bfcl/internal/dataset"
	"github.com/bfcl-go/bfcl/internal/prompt"
)

// Expected model calls, the cost model of the partition. They are
// estimates (the partition needs proportions, not exact counts):
//
//   - a single-turn entry (and a format-sensitivity one) makes one call;
//   - a multi-turn turn makes one step of calls (FC models send a turn's
//     independent calls together) and the text answer that ends it, one
//     call when its ground truth has no call (stepsPerTurn per turn when
//     the ground truth is absent);
//   - a web-search turn searches and fetches a few times (webSearchSteps);
//   - a memory question reads the memory a few times (memorySteps), and a
//     prerequisite conversation stores what each turn tells it
//     (prereqSteps per turn).
const (
	stepsPerTurn   = 2
	webSearchSteps = 6
	memorySteps    = 4
	prereqSteps    = 2
)

// Costs weighs items from the data set: turn counts and ground-truth
// call counts of the entries, and the prerequisite conversations of each
// memory scenario. It loads each category once and is safe for concurrent
// use.
type Costs struct {
	src *dataset.Source

	mu      sync.Mutex
	entries map[string]map[string]*dataset.Entry
	chains  map[string]float64
}

// NewCosts returns the data-set cost model.
func NewCosts(src *dataset.Source) *Costs {
	return &Costs{src: src, entries: map[string]map[string]*dataset.Entry{}, chains: map[string]float64{}}
}

// Weigh is a Weigher.
func (c *Costs) Weigh(it Item) (Weight, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cat := category.Category(it.Category)
	m, ok := c.entries[it.Category]
	if !ok {
		list, err := prompt.LoadCategory(c.src, it.Category)
		if err != nil {
			return Weight{}, err
		}
		m = make(map[string]*dataset.Entry, len(list))
		for _, e := range list {
			m[e.ID] = e
		}
		c.entries[it.Category] = m
	}
	e, ok := m[it.ID]
	if !ok {
		return Weight{}, fmt.Errorf("no entry %s in category %s", it.ID, it.Category)
	}
	turns := float64(max(len(e.Question), 1))
	switch {
	case cat.IsMemory():
		key := it.Category + "/" + e.Scenario
		cc, ok := c.chains[key]
		if !ok {
			pre, err := c.src.MemoryPrereqs(it.Category, e.Scenario)
			if err != nil {
				return Weight{}, err
			}
			for _, p := range pre {
				cc += float64(max(len(p.Question), 1)) * prereqSteps
			}
			c.chains[key] = cc
		}
		return Weight{Cost: turns * memorySteps, Chain: key, ChainCost: cc}, nil
	case cat.IsWebSearch():
		return Weight{Cost: turns * webSearchSteps}, nil
	case cat.IsMultiTurn():
		return Weight{Cost: multiTurnCost(e)}, nil
	}
	return Weight{Cost: turns}, nil
}

// multiTurnCost is, over the turns, two calls for a turn whose ground
// truth calls functions, one for a turn that only answers.
func multiTurnCost(e *dataset.Entry) float64 {
	var gt [][]string
	if len(e.Answer) > 0 && json.Unmarshal(e.Answer, &gt) == nil && len(gt) == len(e.Question) {
		total := 0.0
		for _, calls := range gt {
			total++
			if len(calls) > 0 {
				total++
			}
		}
		return total
	}
	return float64(max(len(e.Question), 1)) * stepsPerTurn
}
