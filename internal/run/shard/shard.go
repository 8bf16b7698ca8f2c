// Package shard splits one run's ordered selection of entries into N
// deterministic parts, so that N machines (a Kubernetes Indexed Job, a
// Slurm job array, a CI matrix) each run one part and `bfcl merge`
// combines their result folders.
//
// The partition is balanced by expected cost (model calls): a multi-turn
// entry weighs its turns times the steps each is expected to take, a
// single-turn entry one call. A memory scenario is one indivisible unit:
// its prerequisite conversations fill the memory its questions start from
// (see internal/run/agenticsetup), so every question of one memory category and
// scenario lands in the same shard as the chain it depends on.
//
// Every process computes the same partition from the same selection:
// units are placed longest first (ties broken by their key, never by
// input order or map order) on the currently lightest shard (ties: the
// lowest index), the classic LPT rule, whose heaviest shard is within
// 4/3 of the optimum and, with thousands of small units, within one unit
// of the mean.
package shard

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/selection"
)

// Spec names one shard: Index K of Count N (0 <= K < N), numbered as
// Kubernetes numbers completions. The zero Spec (Count 0) means the run
// is not sharded.
type Spec struct {
	Index, Count int
}

// Sharded reports whether s selects a part of the run.
func (s Spec) Sharded() bool { return s.Count > 0 }

// String is "K/N", or "" for the zero Spec.
func (s Spec) String() string {
	if !s.Sharded() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Parse reads "K/N".
func Parse(text string) (Spec, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(text), "/")
	if !ok {
		return Spec{}, fmt.Errorf("shard %q: want K/N, e.g. 0/4 (K from 0 to N-1)", text)
	}
	ki, err1 := strconv.Atoi(strings.TrimSpace(k))
	ni, err2 := strconv.Atoi(strings.TrimSpace(n))
	if err1 != nil || err2 != nil {
		return Spec{}, fmt.Errorf("shard %q: K and N must be integers (want K/N, e.g. 0/4)", text)
	}
	return check(Spec{ki, ni}, "shard "+strconv.Quote(text))
}

func check(s Spec, where string) (Spec, error) {
	if s.Count < 1 {
		return Spec{}, fmt.Errorf("%s: the shard count must be at least 1, not %d", where, s.Count)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return Spec{}, fmt.Errorf("%s: shard index %d is outside 0..%d", where, s.Index, s.Count-1)
	}
	return s, nil
}

// Item is one entry of the selection (the selection's own item: a plan
// is a reordered part of it, no conversion either way).
type Item = selection.Item

// itemName names an item in messages: category/id.
func itemName(it Item) string { return string(it.Category) + "/" + it.ID }

// Weight is what the partition knows of an item: its expected cost in
// model calls and, for a memory question, the key of the chain it belongs
// to with the chain's own cost (its prerequisite conversations), counted
// once per chain.
type Weight struct {
	Cost      float64
	Chain     string
	ChainCost float64
}

// Weigher returns the weight of an item (see Costs for the data-set one).
type Weigher func(Item) (Weight, error)

// unit is what is placed: one item, or a memory chain with its questions.
type unit struct {
	key   string
	cost  float64
	items []int // indexes into the selection
}

func units(items []Item, weigh Weigher) ([]unit, error) {
	var out []unit
	chains := map[string]int{}
	seen := make(map[Item]bool, len(items))
	for i, it := range items {
		if seen[it] {
			return nil, fmt.Errorf("shard: %s is selected twice", itemName(it))
		}
		seen[it] = true
		w, err := weigh(it)
		if err != nil {
			return nil, fmt.Errorf("shard: %s: %w", itemName(it), err)
		}
		if w.Cost < 0 || w.ChainCost < 0 {
			return nil, fmt.Errorf("shard: %s: negative cost", itemName(it))
		}
		if w.Chain == "" {
			out = append(out, unit{key: "1\x00" + string(it.Category) + "\x00" + it.ID, cost: w.Cost, items: []int{i}})
			continue
		}
		j, ok := chains[w.Chain]
		if !ok {
			j = len(out)
			chains[w.Chain] = j
			out = append(out, unit{key: "0\x00" + w.Chain, cost: w.ChainCost})
		}
		out[j].cost += w.Cost
		out[j].items = append(out[j].items, i)
	}
	return out, nil
}

// Partition splits items into n parts. Each part keeps the selection's
// order; every item is in exactly one part; the items of one chain share
// a part. The result depends only on the set of items and their weights.
func Partition(items []Item, n int, weigh Weigher) ([][]Item, error) {
	if n < 1 {
		return nil, fmt.Errorf("shard: the shard count must be at least 1, not %d", n)
	}
	us, err := units(items, weigh)
	if err != nil {
		return nil, err
	}
	sort.Slice(us, func(a, b int) bool {
		if us[a].cost != us[b].cost {
			return us[a].cost > us[b].cost
		}
		return us[a].key < us[b].key
	})
	owner := make([]int, len(items))
	load := make([]float64, n)
	for _, u := range us {
		best := 0
		for s := 1; s < n; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += u.cost
		for _, i := range u.items {
			owner[i] = best
		}
	}
	parts := make([][]Item, n)
	for i, it := range items {
		parts[owner[i]] = append(parts[owner[i]], it)
	}
	return parts, nil
}

// Select returns the part of items that shard s runs (all of them when s
// is the zero Spec).
func Select(items []Item, s Spec, weigh Weigher) ([]Item, error) {
	if !s.Sharded() {
		return items, nil
	}
	if _, err := check(s, "shard "+s.String()); err != nil {
		return nil, err
	}
	parts, err := Partition(items, s.Count, weigh)
	if err != nil {
		return nil, err
	}
	return parts[s.Index], nil
}

// LongestFirst orders items for a pool of workers so the makespan
// approaches its bound: the most expensive units start first (a memory
// chain counts whole, its items kept in selection order, since its
// questions wait for its prerequisites anyway); ties keep the selection's
// order.
func LongestFirst(items []Item, weigh Weigher) ([]Item, error) {
	us, err := units(items, weigh)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(us, func(a, b int) bool { return us[a].cost > us[b].cost })
	out := make([]Item, 0, len(items))
	for _, u := range us {
		for _, i := range u.items {
			out = append(out, items[i])
		}
	}
	return out, nil
}

// Plan is what a runner does with its selection: shard s's part (all of
// it for the zero Spec), longest expected first.
func Plan(items []Item, s Spec, weigh Weigher) ([]Item, error) {
	part, err := Select(items, s, weigh)
	if err != nil {
		return nil, err
	}
	return LongestFirst(part, weigh)
}
