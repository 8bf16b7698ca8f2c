// Package replay is a driver that answers with the model outputs stored in
// a result record, one request at a time: the inference loop runs for real
// (backends execute, the conversation and the inference log are rebuilt)
// while the model's answers are the recorded ones. It reads our result
// files and upstream's alike.
package replay

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/store/jsonscan"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Driver answers request n with the n-th recorded step. It is not safe for
// concurrent use (one entry's conversation is sequential).
type Driver struct {
	id    string
	steps []core.Response
	next  int
}

// New returns the replay driver of one record: for a multi-turn record
// (multiTurn; result a list per turn of a list per step) every step in
// conversation order, for a single-turn record its one response. A step stored as a list
// of {name: arguments} is answered as those tool calls (arguments that are
// not a string are passed as their JSON text), a string as text; the
// record's reasoning_content goes with its step.
func New(rec results.Record, multiTurn bool) (*Driver, error) {
	d := &Driver{id: rec.ID}
	if multiTurn {
		var turns [][]json.RawMessage
		if err := json.Unmarshal(rec.Result, &turns); err != nil {
			return nil, fmt.Errorf("replay: %s: result is not a list per turn of model outputs: %w", rec.ID, err)
		}
		var reasoning [][]string
		if len(rec.ReasoningContent) > 0 {
			if err := json.Unmarshal(rec.ReasoningContent, &reasoning); err != nil {
				return nil, fmt.Errorf("replay: %s: reasoning_content is not a list per turn of strings: %w", rec.ID, err)
			}
		}
		for t, steps := range turns {
			for s, step := range steps {
				r, err := response(step)
				if err != nil {
					return nil, fmt.Errorf("replay: %s turn %d step %d: %w", rec.ID, t, s, err)
				}
				if t < len(reasoning) && s < len(reasoning[t]) {
					r.Reasoning = reasoning[t][s]
				}
				d.steps = append(d.steps, r)
			}
		}
		return d, nil
	}
	r, err := response(rec.Result)
	if err != nil {
		return nil, fmt.Errorf("replay: %s: %w", rec.ID, err)
	}
	if len(rec.ReasoningContent) > 0 {
		if err := json.Unmarshal(rec.ReasoningContent, &r.Reasoning); err != nil {
			return nil, fmt.Errorf("replay: %s: reasoning_content is not a string: %w", rec.ID, err)
		}
	}
	d.steps = []core.Response{r}
	return d, nil
}

// response turns one stored model output into the driver response that
// produces it.
func response(step json.RawMessage) (core.Response, error) {
	var text string
	if json.Unmarshal(step, &text) == nil {
		return core.Response{Text: text}, nil
	}
	var calls []json.RawMessage
	if err := json.Unmarshal(step, &calls); err != nil {
		return core.Response{}, fmt.Errorf("stored output %s is neither text nor a list of calls", excerpt(step))
	}
	out := core.Response{ToolCalls: []core.ToolCall{}}
	for i, c := range calls {
		var name string
		var args json.RawMessage
		n := 0
		err := jsonscan.ObjectMembers(c, func(k, v []byte) {
			n++
			_ = json.Unmarshal(k, &name)
			args = v
		})
		if err != nil || n != 1 {
			return core.Response{}, fmt.Errorf("call %d %s is not one {name: arguments}", i, excerpt(c))
		}
		var s string
		if json.Unmarshal(args, &s) != nil {
			s = string(args)
		}
		out.ToolCalls = append(out.ToolCalls, core.ToolCall{ID: fmt.Sprintf("call_%d", i), Name: name, Arguments: s})
	}
	return out, nil
}

func excerpt(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// Name implements core.Driver.
func (d *Driver) Name() string { return "replay" }

// Complete answers with the next recorded step. A request beyond the
// recorded steps is an error: the conversation took another course than
// the recorded one.
func (d *Driver) Complete(context.Context, core.Request) (core.Response, error) {
	if d.next >= len(d.steps) {
		return core.Response{}, fmt.Errorf("replay: %s: request %d, but the record holds %d model outputs", d.id, d.next+1, len(d.steps))
	}
	d.next++
	return d.steps[d.next-1], nil
}

// Remaining is the number of recorded steps not asked for yet.
func (d *Driver) Remaining() int { return len(d.steps) - d.next }
