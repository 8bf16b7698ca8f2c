// Package gold is the built-in "gold" model: it answers every entry with
// its own ground truth, through the same inference path as a real model, so
// the whole pipeline (specs, loop, backends, checkers, reporter) runs without
// any server. It is a pipeline check, not a score.
//
//   - single-turn: one call per ground-truth function, each parameter given
//     its first acceptable value (a first value of "" means "may be
//     omitted", so the parameter is left out);
//   - irrelevance, live_irrelevance: a text answer (no call);
//   - live_relevance (no ground truth upstream): a call of the first
//     offered function without arguments (relevance checks only that a call
//     was made);
//   - multi-turn: at each turn, the turn's ground-truth calls as parallel
//     FC tool calls, then a text answer once their results are back.
package gold

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bfcl-go/bfcl/internal/dataset"
	"github.com/bfcl-go/bfcl/internal/driver"
	"github.com/bfcl-go/bfcl/internal/pyval"
)

// Driver answers one entry. Create one per entry with New.
type Driver struct {
	entry *dataset.Entry
	// turns holds, per turn, the tool calls gold makes (multi-turn), or the
	// single response (single-turn, len 1).
	turns [][]driver.ToolCall
	text  []string // per turn: the text answer after the calls (or instead of them)
}

// New prepares the gold answers of e.
func New(e *dataset.Entry) (*Driver, error) {
	d := &Driver{entry: e}
	var err error
	switch {
	case strings.HasPrefix(e.Category, "multi_turn"):
		err = d.prepareMultiTurn()
	case e.Category == "irrelevance" || e.Category == "live_irrelevance":
		d.turns = [][]driver.ToolCall{nil}
		d.text = []string{"None of the offered functions fits this request."}
	case e.Category == "live_relevance":
		err = d.prepareRelevance()
	case strings.HasPrefix(e.Category, "memory_") || strings.HasPrefix(e.Category, "web_search_"):
		err = fmt.Errorf("gold: %s: agentic categories are not supported yet", e.ID)
	default:
		err = d.prepareSingleTurn()
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Name implements driver.Driver.
func (d *Driver) Name() string { return "gold" }

// Complete implements driver.Driver: the turn is the number of user
// messages so far; after a tool result the turn's text answer follows.
func (d *Driver) Complete(_ context.Context, req driver.Request) (driver.Response, error) {
	turn := -1
	for _, m := range req.Messages {
		if m.Role == "user" {
			turn++
		}
	}
	if turn < 0 || turn >= len(d.turns) {
		return driver.Response{}, fmt.Errorf("gold: %s: no ground truth for turn %d", d.entry.ID, turn)
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role == "user" && len(d.turns[turn]) > 0 {
		calls := make([]driver.ToolCall, len(d.turns[turn]))
		copy(calls, d.turns[turn])
		return driver.Response{ToolCalls: calls}, nil
	}
	return driver.Response{Text: d.text[turn]}, nil
}

func (d *Driver) prepareSingleTurn() error {
	gt, err := pyval.FromJSON(d.entry.Answer)
	if err != nil {
		return fmt.Errorf("gold: %s: ground truth: %w", d.entry.Where(), err)
	}
	list, ok := gt.(*pyval.List)
	if !ok {
		return fmt.Errorf("gold: %s: ground truth is not a list", d.entry.Where())
	}
	var calls []driver.ToolCall
	for i, item := range list.Items {
		fd, ok := item.(*pyval.Dict)
		if !ok || fd.Len() != 1 {
			return fmt.Errorf("gold: %s: ground truth call %d is not {name: params}", d.entry.Where(), i)
		}
		name, params := fd.At(0)
		pd, ok := params.(*pyval.Dict)
		if !ok {
			return fmt.Errorf("gold: %s: parameters of ground truth call %d are not an object", d.entry.Where(), i)
		}
		args := pyval.NewDict()
		for _, kv := range pd.Items() {
			opts, ok := kv.Value.(*pyval.List)
			if !ok || len(opts.Items) == 0 {
				return fmt.Errorf("gold: %s: parameter %s has no options", d.entry.Where(), pyval.Repr(kv.Key))
			}
			if s, isStr := opts.Items[0].(pyval.Str); isStr && s == "" {
				continue
			}
			args.Set(kv.Key, opts.Items[0])
		}
		js, err := pyval.JSONDumps(args)
		if err != nil {
			return fmt.Errorf("gold: %s: %w", d.entry.Where(), err)
		}
		calls = append(calls, driver.ToolCall{ID: fmt.Sprintf("gold_%d", i), Name: string(name.(pyval.Str)), Arguments: js})
	}
	d.turns = [][]driver.ToolCall{calls}
	d.text = []string{"done"}
	return nil
}

func (d *Driver) prepareRelevance() error {
	if len(d.entry.Functions) == 0 {
		return fmt.Errorf("gold: %s: no function offered", d.entry.Where())
	}
	var doc struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(d.entry.Functions[0], &doc); err != nil {
		return fmt.Errorf("gold: %s: %w", d.entry.Where(), err)
	}
	d.turns = [][]driver.ToolCall{{{ID: "gold_0", Name: doc.Name, Arguments: "{}"}}}
	d.text = []string{"done"}
	return nil
}
