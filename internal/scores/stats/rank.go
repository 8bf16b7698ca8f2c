package stats

import (
	"errors"
	"sort"
)

// Ranked is one item of a ranking with ties.
type Ranked struct {
	Index int // position in the input
	// Rank is 1 + the number of items significantly better than this one, so
	// items whose differences are not significant can share a rank, and a
	// rank may be followed by a gap.
	Rank int
	// TiedWith lists the items (input positions) not significantly
	// different from this one, in ranking order.
	TiedWith []int
}

// Rank orders items by score (descending; ties keep input order) and ranks
// them with ties: better(i, j) reports that item i is significantly better
// than item j. better must be a strict relation: never both better(i, j)
// and better(j, i).
func Rank(scores []float64, better func(i, j int) bool) ([]Ranked, error) {
	n := len(scores)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return scores[order[a]] > scores[order[b]] })
	out := make([]Ranked, 0, n)
	for _, i := range order {
		r := Ranked{Index: i, Rank: 1}
		for _, j := range order {
			if j == i {
				continue
			}
			bj, bi := better(j, i), better(i, j)
			if bi && bj {
				return nil, errors.New("stats: ranking: an item is both better and worse than another")
			}
			if bj {
				r.Rank++
			}
			if !bi && !bj {
				r.TiedWith = append(r.TiedWith, j)
			}
		}
		out = append(out, r)
	}
	// A rank counts significant wins, not score order; keep the list
	// ordered by rank (score order within a rank).
	sort.SliceStable(out, func(a, b int) bool { return out[a].Rank < out[b].Rank })
	return out, nil
}
