package turniso

import (
	"context"
	"fmt"
	"sort"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// RunEntry asks every turn of e in isolation and stores each record in
// store (whose root should be IsolatedRoot of the ordinary result root);
// turns already stored are not asked again, so an interrupted run resumes.
// newModel returns the model's driver for one isolated run (drivers that
// keep per-conversation state need a fresh one; stateless ones may return
// the same). It returns the records of all turns, in turn order.
func RunEntry(ctx context.Context, newModel func() (driver.Driver, error), e *dataset.Entry, opts infer.Options, store *results.Store) ([]results.Record, infer.Stats, error) {
	var total infer.Stats
	n, err := Turns(e)
	if err != nil {
		return nil, total, err
	}
	c := e.Category
	out := make([]results.Record, 0, n)
	for t := 0; t < n; t++ {
		id := ID(e.ID, t)
		if rec, ok, err := store.Lookup(c, id); err != nil {
			return nil, total, err
		} else if ok {
			out = append(out, rec)
			continue
		}
		m, err := newModel()
		if err != nil {
			return nil, total, err
		}
		rec, st, err := Run(ctx, m, e, t, opts)
		total.Calls += st.Calls
		total.InputTokens += st.InputTokens
		total.OutputTokens += st.OutputTokens
		total.Latency += st.Latency
		if err != nil {
			return nil, total, err
		}
		if err := store.Append(c, rec); err != nil {
			return nil, total, err
		}
		out = append(out, rec)
	}
	return out, total, nil
}

// TurnScore is the isolated-turn accuracy of one category at one turn
// index.
type TurnScore struct {
	Turn    int `json:"turn"`
	Correct int `json:"correct"`
	Total   int `json:"total"`
}

// Summary is the turn-isolated score of one category: the fraction of
// isolated turns passed, overall and by turn index.
type Summary struct {
	Category     category.Category `json:"category"`
	Turns        int               `json:"turns"`
	Passed       int               `json:"passed"`
	Accuracy     float64           `json:"turn_accuracy"`
	ByTurn       []TurnScore       `json:"by_turn"`
	PrefixFailed []string          `json:"prefix_failed"` // turns whose ground-truth prefix itself fails (data-set oddities)
	Missing      int               `json:"missing"`       // turns of the entries without a record
	Note         string            `json:"note"`
}

// Evaluate scores the isolated records of one category (ids ID(entry,
// turn); turns without a record, e.g. of an interrupted run, are counted in
// Missing and left out; a record that is no turn of entries is an error).
// It returns the summary and a verdict per isolated turn, for a score file
// under IsolatedRoot of the ordinary score root in upstream's score-file
// format (report.WriteScoreDirFile: the header then counts isolated turns,
// the failed lines are the failed turns).
func Evaluate(cat category.Category, entries []*dataset.Entry, recs []results.Record, o multiturn.Options) (Summary, []verdict.Verdict, error) {
	byID := map[string]results.Record{}
	for _, r := range recs {
		if _, dup := byID[r.ID]; dup {
			return Summary{}, nil, fmt.Errorf("turniso: %s: two records for %s", cat, r.ID)
		}
		byID[r.ID] = r
	}
	sum := Summary{Category: cat, PrefixFailed: []string{}, Note: "turn-isolated diagnostics: not part of the official score"}
	var vs []verdict.Verdict
	seen := 0
	for _, e := range entries {
		n, err := Turns(e)
		if err != nil {
			return Summary{}, nil, err
		}
		for t := 0; t < n; t++ {
			id := ID(e.ID, t)
			rec, ok := byID[id]
			if !ok {
				sum.Missing++
				continue
			}
			seen++
			v, err := Score(e, t, rec, o)
			if err != nil {
				return Summary{}, nil, err
			}
			for len(sum.ByTurn) <= t {
				sum.ByTurn = append(sum.ByTurn, TurnScore{Turn: len(sum.ByTurn)})
			}
			sum.ByTurn[t].Total++
			sum.Turns++
			if v.Valid {
				sum.ByTurn[t].Correct++
				sum.Passed++
			}
			if v.PrefixFailed {
				sum.PrefixFailed = append(sum.PrefixFailed, id)
			}
			vs = append(vs, v.Verdict)
		}
	}
	if seen != len(byID) {
		var extra []string
		for id := range byID {
			if entry, t, err := ParseID(id); err != nil || !known(entries, entry, t) {
				extra = append(extra, id)
			}
		}
		sort.Strings(extra)
		return Summary{}, nil, fmt.Errorf("turniso: %s: records that are no turn of the entries: %v", cat, extra)
	}
	if sum.Turns == 0 {
		return Summary{}, nil, fmt.Errorf("turniso: %s: no isolated record", cat)
	}
	if sum.Turns > 0 {
		sum.Accuracy = float64(sum.Passed) / float64(sum.Turns)
	}
	return sum, vs, nil
}

func known(entries []*dataset.Entry, id string, t int) bool {
	for _, e := range entries {
		if e.ID == id {
			n, err := Turns(e)
			return err == nil && t < n
		}
	}
	return false
}
