package gold

import (
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// prepareMultiTurn turns each ground-truth call string of each turn into an
// FC tool call: the function name and a JSON object of its arguments.
// Positional arguments are named after the function document's parameter
// order (the ground truth uses them, e.g. sort('final_report.pdf')).
func (d *Driver) prepareMultiTurn() error {
	var gt [][]string
	if err := json.Unmarshal(d.entry.Answer, &gt); err != nil {
		return fmt.Errorf("gold: %s: ground truth is not a list of call lists: %w", d.entry.Where(), err)
	}
	params, err := d.paramOrder()
	if err != nil {
		return err
	}
	d.turns = make([][]driver.ToolCall, len(gt))
	d.text = make([]string, len(gt))
	for t, calls := range gt {
		d.text[t] = "Done."
		for i, c := range calls {
			tc, err := toolCall(c, params)
			if err != nil {
				return fmt.Errorf("gold: %s turn %d: %q: %w", d.entry.Where(), t, c, err)
			}
			tc.ID = fmt.Sprintf("gold_%d_%d", t, i)
			d.turns[t] = append(d.turns[t], tc)
		}
	}
	return nil
}

// paramOrder maps every offered function (held-out ones included) to its
// parameter names in document order.
func (d *Driver) paramOrder() (map[string][]string, error) {
	out := map[string][]string{}
	docs := append([]json.RawMessage(nil), d.entry.Functions...)
	for _, held := range d.entry.MissedFuncDocs {
		docs = append(docs, held...)
	}
	for _, raw := range docs {
		v, err := pyval.FromJSON(raw)
		if err != nil {
			return nil, fmt.Errorf("gold: %s: function document: %w", d.entry.Where(), err)
		}
		doc := v.(*pyval.Dict)
		name, _ := doc.GetStr("name")
		var names []string
		if p, ok := doc.GetStr("parameters"); ok {
			if pd, ok := p.(*pyval.Dict); ok {
				if props, ok := pd.GetStr("properties"); ok {
					if pp, ok := props.(*pyval.Dict); ok {
						for _, k := range pp.Keys() {
							names = append(names, string(k.(pyval.Str)))
						}
					}
				}
			}
		}
		out[string(name.(pyval.Str))] = names
	}
	return out, nil
}

func toolCall(src string, params map[string][]string) (driver.ToolCall, error) {
	e, err := pyexpr.Parse(src)
	if err != nil {
		return driver.ToolCall{}, err
	}
	call, ok := e.(*pyexpr.Call)
	if !ok {
		return driver.ToolCall{}, fmt.Errorf("not a call")
	}
	fn, ok := call.Func.(*pyexpr.Name)
	if !ok {
		return driver.ToolCall{}, fmt.Errorf("callee is not a plain name")
	}
	order, known := params[fn.ID]
	args := pyval.NewDict()
	for i, a := range call.Args {
		if !known || i >= len(order) {
			return driver.ToolCall{}, fmt.Errorf("positional argument %d of %s has no documented name", i, fn.ID)
		}
		v, err := pyexpr.LiteralEval(a)
		if err != nil {
			return driver.ToolCall{}, err
		}
		args.SetStr(order[i], v)
	}
	for _, kw := range call.Keywords {
		if kw.Arg == "" {
			return driver.ToolCall{}, fmt.Errorf("**kwargs in ground truth")
		}
		v, err := pyexpr.LiteralEval(kw.Value)
		if err != nil {
			return driver.ToolCall{}, err
		}
		args.SetStr(kw.Arg, v)
	}
	js, err := pyval.JSONDumps(args)
	if err != nil {
		return driver.ToolCall{}, err
	}
	return driver.ToolCall{Name: fn.ID, Arguments: js}, nil
}

// PromptAnswer renders the ground-truth calls of a multi-turn turn as a
// prompt-mode answer in the default (Python) return format, with keyword
// arguments named after the function documents' parameter order (upstream's
// prompt decoder keeps keyword arguments only); "" for a turn without
// calls.
func (d *Driver) PromptAnswer(turn int) (string, error) {
	if turn < 0 || turn >= len(d.turns) {
		return "", fmt.Errorf("gold: %s: no ground truth for turn %d", d.entry.ID, turn)
	}
	if len(d.turns[turn]) == 0 {
		return "", nil
	}
	calls := make([]call, len(d.turns[turn]))
	for i, tc := range d.turns[turn] {
		v, err := pyval.FromJSON([]byte(tc.Arguments))
		if err != nil {
			return "", fmt.Errorf("gold: %s turn %d: %w", d.entry.ID, turn, err)
		}
		args, ok := v.(*pyval.Dict)
		if !ok {
			return "", fmt.Errorf("gold: %s turn %d: arguments of %s are not an object", d.entry.ID, turn, tc.Name)
		}
		calls[i] = call{name: tc.Name, args: args}
	}
	return renderPrompt(calls, prompt.Config{ReturnFormat: prompt.RetPython})
}
