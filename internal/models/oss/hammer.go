package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// HammerHandler (local_inference/hammer.py): Hammer 2.1's own task and
// format instructions with the functions converted to its tool format, in
// a user turn after a fixed system turn; system messages of the question
// become user messages.
//
// Its tool conversion (convert_to_format_tool) edits the function
// documents in place: the tool's "parameters" is the document's own
// properties dict, so nested object parameters are replaced by their
// properties, "required": True is added to required parameters, and
// "default is '<default>'" is appended to the description of parameters
// with a default — again at every prompt of the entry, so later prompts of
// a multi-turn entry repeat the default note once more per query. Prompt
// reproduces this on the documents it is given.

// Protocol texts of hammer.py (TASK_INSTRUCTION, FORMAT_INSTRUCTION).
const (
	hammerTaskInstruction   = "You are a tool calling assistant. In order to complete the user's request, you need to select one or more appropriate tools from the following tools and fill in the correct values for the tool parameters. Your specific tasks are:\n1. Make one or more function/tool calls to meet the request based on the question.\n2. If none of the function can be used, point it out and refuse to answer.\n3. If the given question lacks the parameters required by the function, also point it out.\n\nThe following are characters that may interact with you\n1. user: Provides query or additional information.\n2. tool: Returns the results of the tool calling.\n"
	hammerFormatInstruction = "\nThe output MUST strictly adhere to the following JSON format, and NO other text MUST be included.\nThe example format is as follows. Please make sure the parameter type is correct. If no function call is needed, please directly output an empty list '[]'\n```\n[\n    {\"name\": \"func_name1\", \"arguments\": {\"argument1\": \"value1\", \"argument2\": \"value2\"}},\n    ... (more tool calls as required)\n]\n```\n"
)

type hammer struct{ base }

func newHammer(model string) Format { return &hammer{newBase("HammerHandler", model)} }

// Setup is hammer.py's: the first turn's system messages become user
// messages; no system prompt is added.
func (h *hammer) Setup(_ string, _ []pyval.Value, turns [][]Message) ([][]Message, error) {
	out := copyTurns(turns)
	if len(out) > 0 {
		out[0] = systemToUser(out[0])
	}
	return out, nil
}

func (h *hammer) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	tools, err := pyval.MapEach(functions, hammerTool)
	if err != nil {
		return "", err
	}
	toolsJSON, err := dumps(pyval.NewList(tools...))
	if err != nil {
		return "", err
	}
	var query strings.Builder
	for _, m := range msgs {
		query.WriteString("<|im_start|>" + m.Role + "\n" + fstr(m.Content) + "<|im_end|>\n")
	}
	content := "[BEGIN OF TASK INSTRUCTION]\n" + hammerTaskInstruction + "\n[END OF TASK INSTRUCTION]\n\n" +
		"[BEGIN OF AVAILABLE TOOLS]\n" + toolsJSON + "\n[END OF AVAILABLE TOOLS]\n\n" +
		"[BEGIN OF FORMAT INSTRUCTION]\n" + hammerFormatInstruction + "\n[END OF FORMAT INSTRUCTION]\n\n"
	return "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n" + content +
		"<|im_end|>\n" + query.String() + "<|im_start|>assistant\n", nil
}

// hammerTool is convert_to_format_tool on one document (a dict; anything
// else is returned as it is), with its in-place edits.
func hammerTool(tool pyval.Value) (pyval.Value, error) {
	return convertTool(tool, hammerDoc)
}

// hammerDoc is convert_to_format_tool's body on one document's parts.
func hammerDoc(name, desc, params, props pyval.Value) (pyval.Value, error) {
	out := pyval.NewDictCap(3)
	out.SetStr("name", name)
	out.SetStr("description", desc)
	out.SetStr("parameters", props)

	pd, ok := props.(*pyval.Dict)
	if !ok {
		return nil, pyval.NoAttribute(props, "keys")
	}
	// Nested object parameters are replaced by their properties, whose
	// required members get "required": True.
	for _, key := range pd.Keys() {
		p, _ := pd.Get(key)
		sub, has, err := itemIfIn(p, "properties")
		if err != nil {
			return nil, err
		}
		if !has || !isDict(sub) {
			continue
		}
		required, err := get(p, "required", pyval.NewList())
		if err != nil {
			return nil, err
		}
		pd.Set(key, sub)
		if err := markRequired(sub, required); err != nil {
			return nil, err
		}
	}
	required, err := get(params, "required", pyval.NewList())
	if err != nil {
		return nil, err
	}
	if err := markRequired(pd, required); err != nil {
		return nil, err
	}
	for _, key := range pd.Keys() {
		p, _ := pd.Get(key)
		def, has, err := itemIfIn(p, "default")
		if err != nil {
			return nil, err
		}
		if !has {
			continue
		}
		d, err := item(p, "description")
		if err != nil {
			return nil, err
		}
		d, err = strConcat(d, pyval.Str("default is '"+fstr(def)+"'"))
		if err != nil {
			return nil, err
		}
		if err := pyval.SetItem(p, pyval.Str("description"), d); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// markRequired is `for p in required: props[p]["required"] = True`.
func markRequired(props, required pyval.Value) error {
	names, err := pyval.Iterate(required)
	if err != nil {
		return err
	}
	for _, n := range names {
		p, err := pyval.GetItem(props, n)
		if err != nil {
			return err
		}
		if err := pyval.SetItem(p, pyval.Str("required"), pyval.Bool(true)); err != nil {
			return err
		}
	}
	return nil
}
