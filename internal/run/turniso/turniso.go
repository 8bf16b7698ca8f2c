// Package turniso is the turn-isolated mode of multi-turn evaluation: each
// turn t of an entry is asked on its own, with the ground-truth
// conversation up to it as history: the user messages of turns 0..t-1, the
// ground-truth calls as the assistant's calls, and their real execution
// results on the model's own backend instances, so the backend state at
// turn t is the ground truth's. The turn is then scored with upstream's
// multi-turn state and response checks on the entry cut after turn t (the
// ground-truth prefix passes them by construction). One early mistake thus
// fails only its turn, not every later one.
//
// This is a diagnostic of our own, never an official number: its records
// and scores live in their own folders (IsolatedRoot), with one record per
// (entry, turn) under the id "<entry id>:turn_<t>".
package turniso

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/gold"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// IsolatedRoot is the result or score root of the turn-isolated mode of a
// run whose ordinary root is root: the sibling "<root>_turn_isolated".
func IsolatedRoot(root string) string { return filepath.Clean(root) + "_turn_isolated" }

const turnSep = ":turn_"

// ID is the record id of turn t of an entry.
func ID(entryID string, t int) string { return entryID + turnSep + strconv.Itoa(t) }

// ParseID splits a record id into the entry id and the turn.
func ParseID(id string) (entryID string, t int, err error) {
	i := strings.LastIndex(id, turnSep)
	if i < 0 {
		return "", 0, fmt.Errorf("turniso: id %q has no %q suffix", id, turnSep)
	}
	t, err = strconv.Atoi(id[i+len(turnSep):])
	if err != nil || t < 0 {
		return "", 0, fmt.Errorf("turniso: id %q: bad turn", id)
	}
	return id[:i], t, nil
}

// groundTruth is the entry's ground truth, one call list per turn.
func groundTruth(e *dataset.Entry) ([][]string, error) {
	var gt [][]string
	if err := json.Unmarshal(e.Answer, &gt); err != nil {
		return nil, fmt.Errorf("turniso: %s: ground truth is not a list of call lists: %w", e.ID, err)
	}
	if len(gt) != len(e.Question) {
		return nil, fmt.Errorf("turniso: %s: %d ground-truth turns for %d question turns", e.ID, len(gt), len(e.Question))
	}
	return gt, nil
}

// Turns is the number of turns of a multi-turn entry.
func Turns(e *dataset.Entry) (int, error) {
	gt, err := groundTruth(e)
	return len(gt), err
}

// Truncate is e cut after turn t: its first t+1 question turns and
// ground-truth turns, and the held-out function documents of those turns.
func Truncate(e *dataset.Entry, t int) (*dataset.Entry, error) {
	if !e.Category.IsMultiTurn() {
		return nil, fmt.Errorf("turniso: %s is not a multi-turn entry", e.ID)
	}
	gt, err := groundTruth(e)
	if err != nil {
		return nil, err
	}
	if t < 0 || t >= len(gt) {
		return nil, fmt.Errorf("turniso: %s has %d turns, no turn %d", e.ID, len(gt), t)
	}
	x := *e
	x.Question = e.Question[:t+1]
	ans, err := json.Marshal(gt[:t+1])
	if err != nil {
		return nil, err
	}
	x.Answer = ans
	x.MissedFuncDocs, x.MissedFunction = nil, nil
	for turn, docs := range e.MissedFuncDocs {
		if turn <= t {
			if x.MissedFuncDocs == nil {
				x.MissedFuncDocs = map[int][]json.RawMessage{}
			}
			x.MissedFuncDocs[turn] = docs
		}
	}
	for turn, names := range e.MissedFunction {
		if turn <= t {
			if x.MissedFunction == nil {
				x.MissedFunction = map[int][]string{}
			}
			x.MissedFunction[turn] = names
		}
	}
	return &x, nil
}

// prefixDriver answers the turns before turn with the ground truth (all
// of the turn's calls in one step, then a text answer that ends the turn),
// and turn itself with the model.
type prefixDriver struct {
	entry *dataset.Entry
	turn  int
	gt    [][]string
	gold  *gold.Driver // the ground-truth answers
	mode  string
	model driver.Driver
	// Prompt mode: the prefix turn the loop is in, and whether its calls
	// were answered (the driver serves one sequential run).
	cur     int
	stepped bool
}

func (p *prefixDriver) Name() string { return p.model.Name() }

func (p *prefixDriver) Complete(ctx context.Context, req driver.Request) (driver.Response, error) {
	if p.mode != "prompt" {
		// FC: results come back as tool messages, so the user messages
		// count the turns.
		t := gold.TurnOf(p.entry, req)
		if t < 0 {
			return driver.Response{}, fmt.Errorf("turniso: %s: request beyond the last turn", p.entry.ID)
		}
		if t >= p.turn {
			return p.model.Complete(ctx, req)
		}
		return p.gold.Complete(ctx, req)
	}
	// Prompt mode: execution results come back as user messages too, so
	// the driver follows the loop instead: the first request of a prefix
	// turn gets the turn's calls as the Python list the prompt asks for
	// (gold.PromptAnswer),
	// the next one (after their results) the text that ends the turn; a
	// turn without ground-truth calls gets the text at once.
	if p.cur >= p.turn {
		return p.model.Complete(ctx, req)
	}
	if !p.stepped && len(p.gt[p.cur]) > 0 {
		p.stepped = true
		text, err := p.gold.PromptAnswer(p.cur)
		if err != nil {
			return driver.Response{}, err
		}
		return driver.Response{Text: text}, nil
	}
	p.cur++
	p.stepped = false
	return driver.Response{Text: "Done."}, nil
}

// Driver wraps model so that the turns before t are answered with the
// ground truth; mode is "fc" or "prompt".
func Driver(e *dataset.Entry, t int, model driver.Driver, mode string) (driver.Driver, error) {
	gt, err := groundTruth(e)
	if err != nil {
		return nil, err
	}
	g, err := gold.New(e)
	if err != nil {
		return nil, err
	}
	return &prefixDriver{entry: e, turn: t, gt: gt, gold: g, mode: mode, model: model}, nil
}

// Run asks turn t of e in isolation and returns its record (id ID(e.ID,
// t)): the result holds turns 0..t, the ground-truth prefix then the
// model's turn; token counts and latency are the model's (the prefix costs
// nothing).
func Run(ctx context.Context, model driver.Driver, e *dataset.Entry, t int, opts infer.Options) (results.Record, infer.Stats, error) {
	x, err := Truncate(e, t)
	if err != nil {
		return results.Record{}, infer.Stats{}, err
	}
	mode := opts.Mode
	if mode == "" {
		mode = "fc"
	}
	d, err := Driver(x, t, model, mode)
	if err != nil {
		return results.Record{}, infer.Stats{}, err
	}
	rec, st, err := infer.Run(ctx, d, x, opts)
	if err != nil {
		return results.Record{}, st, err
	}
	rec.ID = ID(e.ID, t)
	return rec, st, nil
}

// Verdict is the verdict of one isolated turn.
type Verdict struct {
	verdict.Verdict // ID is ID(entry, turn); the checker's error type and details
	Entry           string
	Turn            int
	// PrefixFailed: the checker failed a ground-truth turn before Turn (a
	// data-set oddity, see gold.KnownFailures); the turn's own outcome is
	// then unknown and Valid is false.
	PrefixFailed bool
}

// Score scores the record of turn t of e with upstream's multi-turn checker
// on e cut after turn t.
func Score(e *dataset.Entry, t int, rec results.Record, o multiturn.Options) (Verdict, error) {
	x, err := Truncate(e, t)
	if err != nil {
		return Verdict{}, err
	}
	r, err := multiturn.Check(x, rec, o)
	if err != nil {
		return Verdict{}, fmt.Errorf("turniso: %s turn %d: %w", e.ID, t, err)
	}
	v := Verdict{Verdict: r.Verdict, Entry: e.ID, Turn: t}
	v.ID = ID(e.ID, t)
	if !v.Valid && len(r.Executed) > 0 && len(r.Executed)-1 < t {
		v.PrefixFailed = true
	}
	return v, nil
}
