package shard

import (
	"fmt"
	"sync"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/run/cost"
)

// Costs weighs items from the data set: turn counts and ground-truth
// call counts of the entries, and the prerequisite conversations of each
// memory scenario. The entries come from the data set's own index (each
// category loaded once per process); safe for concurrent use.
type Costs struct {
	src *dataset.Source

	mu     sync.Mutex
	chains map[string]float64
}

// NewCosts returns the data-set cost model.
func NewCosts(src *dataset.Source) *Costs {
	return &Costs{src: src, chains: map[string]float64{}}
}

// Weigh is a Weigher.
func (c *Costs) Weigh(it Item) (Weight, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cat := it.Category
	m, err := c.src.Index(cat)
	if err != nil {
		return Weight{}, err
	}
	e, ok := m[it.ID]
	if !ok {
		return Weight{}, fmt.Errorf("no entry %s in category %s", it.ID, it.Category)
	}
	switch {
	case cat.IsMemory():
		key := string(cat) + "/" + e.Scenario
		cc, ok := c.chains[key]
		if !ok {
			pre, err := c.src.MemoryPrereqs(cat, e.Scenario)
			if err != nil {
				return Weight{}, err
			}
			for _, p := range pre {
				cc += float64(cost.Total(p))
			}
			c.chains[key] = cc
		}
		return Weight{Cost: float64(cost.Total(e)), Chain: key, ChainCost: cc}, nil
	}
	return Weight{Cost: float64(cost.Total(e))}, nil
}
