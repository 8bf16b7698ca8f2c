package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// ThinkAgentHandler (local_inference/think_agent.py): Llama 3.2 tokens
// with the functions (reduced to name, description and properties, shown
// as Python's str of the list) in the first user message. It keeps
// OSSHandler's Setup, so BFCL's system prompt is in the history — but the
// formatter drops the system message, and everything after the first
// remaining message: every prompt of an entry shows only the first user
// message, whatever the conversation holds.

// Protocol texts of think_agent.py's _format_prompt.
const (
	thinkAgentSystem = "<|start_header_id|>system<|end_header_id|>" +
		"Cutting Knowledge Date: December 2023" +
		"Today Date: 07 Dec 2024" +
		"<|eot_id|>"
	thinkAgentToolsIntro = "<|start_header_id|>user<|end_header_id|>" +
		"Given the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt." +
		"Respond in the format {\"name\": function name, \"parameters\": dictionary of argument name and its value}." +
		"Do not use variables." +
		"Available tools:"
)

type thinkAgent struct{ base }

func newThinkAgent(model string) Format { return &thinkAgent{newBase("ThinkAgentHandler", model)} }

func (t *thinkAgent) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	tools, err := pyval.MapEach(functions, thinkAgentTool)
	if err != nil {
		return "", err
	}
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	rest := msgs
	if msgs[0].Role == RoleSystem {
		rest = msgs[1:]
	}
	var b strings.Builder
	b.WriteString("<|begin_of_text|>" + thinkAgentSystem)
	if len(rest) > 0 {
		c, err := strip(rest[0].Content)
		if err != nil {
			return "", err
		}
		b.WriteString(thinkAgentToolsIntro + pyval.Repr(pyval.NewList(tools...)) + c + "<|eot_id|>")
	}
	b.WriteString("<|start_header_id|>assistant<|end_header_id|>")
	return b.String(), nil
}

// thinkAgentTool is _convert_functions_format on one document: a new dict
// of name, description and (a copy of) the parameters' properties; lists
// are converted item by item, anything else is kept.
func thinkAgentTool(f pyval.Value) (pyval.Value, error) {
	return convertTool(f, func(name, desc, _, props pyval.Value) (pyval.Value, error) {
		pd, ok := props.(*pyval.Dict)
		if !ok {
			return nil, pyval.NoAttribute(props, "items")
		}
		out := pyval.NewDictCap(3)
		out.SetStr("name", name)
		out.SetStr("description", desc)
		out.SetStr("parameters", pd.Copy())
		return out, nil
	})
}
