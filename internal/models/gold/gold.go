// Package gold is the built-in "gold" model: it answers every entry with
// its own ground truth, through the same inference path as a real model, so
// the whole pipeline (specs, loop, backends, checkers, reporter) runs without
// any server. It is a pipeline check, not a score.
//
//   - single-turn: one call per ground-truth function, each parameter given
//     its first acceptable value, or left out when "" (may be omitted) is an
//     option and the schema does not require it; Java and JavaScript values
//     rendered as the string literals those languages' parameters take;
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

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
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
	case e.Category.IsMultiTurn():
		err = d.prepareMultiTurn()
	case e.Category.IsIrrelevance():
		d.turns = [][]driver.ToolCall{nil}
		d.text = []string{"None of the offered functions fits this request."}
	case e.Category == category.LiveRelevance:
		err = d.prepareRelevance()
	case e.Category.IsFormatSensitivity():
		err = d.prepareSingleTurn()
	case e.Category.IsAgentic():
		err = d.prepareAgentic()
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

// Complete implements driver.Driver. The turn is found by TurnOf; after a
// tool result the turn's text answer follows.
func (d *Driver) Complete(_ context.Context, req driver.Request) (driver.Response, error) {
	turn := TurnOf(d.entry, req)
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

// TurnOf is the 0-based turn of e that a request of the multi-turn loop
// belongs to, found by counting the user messages sent so far against the
// entry's turns (a turn may hold several user messages; a held-out turn
// gets one, upstream's fixed message); -1 when there are more user messages
// than turns.
func TurnOf(e *dataset.Entry, req driver.Request) int {
	users := 0
	for _, m := range req.Messages {
		if m.Role == "user" {
			users++
		}
	}
	cum := 0
	for t, msgs := range e.Question {
		n := 0
		for _, m := range msgs {
			if m.Role == "user" {
				n++
			}
		}
		if len(msgs) == 0 {
			n = 1 // held-out turn: the loop sends upstream's fixed user message
		}
		cum += n
		if users <= cum {
			return t
		}
	}
	return -1
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
	schemas, err := d.schemas()
	if err != nil {
		return err
	}
	var calls []driver.ToolCall
	var parsed []call
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
		sc := schemas[pyval.StrOf(name)]
		args := pyval.NewDict()
		for _, kv := range pd.Items() {
			opts, ok := kv.Value.(*pyval.List)
			if !ok {
				return fmt.Errorf("gold: %s: options of parameter %s are not a list", d.entry.Where(), pyval.Repr(kv.Key))
			}
			if len(opts.Items) == 0 {
				continue // no acceptable value at all (a data-set oddity, see KnownFailures)
			}
			pname := pyval.StrOf(kv.Key)
			v, omit := pick(opts.Items, sc.required[pname])
			if omit {
				continue
			}
			v = firstValue(v)
			switch d.entry.Category.Language() {
			case category.JavaScript:
				v = pyval.Str(jsLiteral(v, sc.types[pname]))
			case category.Java:
				v = pyval.Str(javaLiteral(v, sc.types[pname]))
			}
			args.Set(kv.Key, v)
		}
		parsed = append(parsed, call{name: pyval.StrOf(name), args: args})
		js, err := pyval.JSONDumps(args)
		if err != nil {
			return fmt.Errorf("gold: %s: %w", d.entry.Where(), err)
		}
		calls = append(calls, driver.ToolCall{ID: fmt.Sprintf("gold_%d", i), Name: pyval.StrOf(name), Arguments: js})
	}
	if d.entry.Category.IsFormatSensitivity() {
		// Prompt mode: the calls as text in the entry's configured format.
		cfg, err := prompt.ConfigOfEntry(d.entry.ID)
		if err != nil {
			return fmt.Errorf("gold: %s: %w", d.entry.ID, err)
		}
		text, err := renderPrompt(parsed, cfg)
		if err != nil {
			return fmt.Errorf("gold: %s: %w", d.entry.ID, err)
		}
		d.turns = [][]driver.ToolCall{nil}
		d.text = []string{text}
		return nil
	}
	d.turns = [][]driver.ToolCall{calls}
	d.text = []string{"done"}
	return nil
}

// pick chooses an acceptable option: a parameter whose options include ""
// ("may be omitted") is left out unless the schema requires it (the
// checker accepts the omission only then); otherwise the first non-empty
// option.
func pick(opts []pyval.Value, required bool) (v pyval.Value, omit bool) {
	var first pyval.Value
	for _, o := range opts {
		if s, isStr := o.(pyval.Str); isStr && s == "" {
			if !required {
				return nil, true
			}
			continue
		}
		if first == nil {
			first = o
		}
	}
	if first == nil {
		return opts[0], false
	}
	return first, false
}

// schema is what gold needs of a function document.
type schema struct {
	required map[string]bool
	types    map[string]paramType
}

func (d *Driver) schemas() (map[string]schema, error) {
	out := map[string]schema{}
	for _, raw := range d.entry.Functions {
		var doc struct {
			Name       string `json:"name"`
			Parameters struct {
				Properties map[string]struct {
					Type  string `json:"type"`
					Items struct {
						Type string `json:"type"`
					} `json:"items"`
				} `json:"properties"`
				Required []string `json:"required"`
			} `json:"parameters"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, fmt.Errorf("gold: %s: function document: %w", d.entry.Where(), err)
		}
		s := schema{required: map[string]bool{}, types: map[string]paramType{}}
		for _, r := range doc.Parameters.Required {
			s.required[r] = true
		}
		for n, p := range doc.Parameters.Properties {
			s.types[n] = paramType{Type: p.Type, Items: p.Items.Type}
		}
		out[doc.Name] = s
	}
	return out, nil
}

// prepareAgentic answers every turn in text: a memory prerequisite
// conversation is acknowledged, a question is answered with its first
// accepted answer in upstream's requested answer format.
func (d *Driver) prepareAgentic() error {
	n := len(d.entry.Question)
	d.turns = make([][]driver.ToolCall, n)
	d.text = make([]string, n)
	answer := "Noted."
	if !category.IsMemoryPrereqID(d.entry.ID) {
		var gt []string
		if err := json.Unmarshal(d.entry.Answer, &gt); err != nil || len(gt) == 0 {
			return fmt.Errorf("gold: %s: ground truth is not a list of answers", d.entry.Where())
		}
		answer = "{'answer': " + pyval.Repr(pyval.Str(gt[0])) + ", 'context': 'the ground truth'}"
	}
	for i := range d.text {
		d.text[i] = answer
	}
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

// firstValue resolves nested possible answers: a dict option holds, per
// key, its own list of options (take the first, "" meaning omit), and lists
// may hold such dicts.
func firstValue(v pyval.Value) pyval.Value {
	switch x := v.(type) {
	case *pyval.Dict:
		out := pyval.NewDict()
		for _, kv := range x.Items() {
			opts, ok := kv.Value.(*pyval.List)
			if !ok || len(opts.Items) == 0 {
				out.Set(kv.Key, firstValue(kv.Value))
				continue
			}
			if s, isStr := opts.Items[0].(pyval.Str); isStr && s == "" {
				continue
			}
			out.Set(kv.Key, firstValue(opts.Items[0]))
		}
		return out
	case *pyval.List:
		out := pyval.NewList()
		for _, it := range x.Items {
			out.Items = append(out.Items, firstValue(it))
		}
		return out
	}
	return v
}
