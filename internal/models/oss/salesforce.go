package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// SalesforceLlamaHandler (local_inference/salesforce_llama.py) and
// SalesforceQwenHandler (local_inference/salesforce_qwen.py): xLAM-2's
// system prompt with the functions as json.dumps(indent=4) documents, in
// Llama 3 or ChatML tokens. BitAgentHandler (local_inference/bitagent.py)
// is SalesforceLlamaHandler's template with its own default system
// message.

// Protocol texts of salesforce_llama.py / salesforce_qwen.py / bitagent.py.
const (
	xlamDefaultSystem     = "You are a helpful assistant that can use tools. You are developed by Salesforce xLAM team."
	bitAgentDefaultSystem = "You are a helpful Assistant named BitAgent that is designed to use tools."
	xlamInstructions      = "You have access to a set of tools. When using tools, make calls in a single JSON array: \n\n" +
		"[{\"name\": \"tool_call_name\", \"arguments\": {\"arg1\": \"value1\", \"arg2\": \"value2\"}}, ... (additional parallel tool calls as needed)]\n\n" +
		"If no tool is suitable, state that explicitly. If the user's input lacks required parameters, ask for clarification. " +
		"Do not interpret or respond until tool results are returned. Once they are available, process them or make additional calls if needed. " +
		"For tasks that don't require tools, such as casual conversation or general advice, respond directly in plain text. The available tools are:\n\n"
)

// xlamTokens are the chat tokens of one variant: a turn is
// open(role) + text + close.
type xlamTokens struct {
	begin     string
	open      func(role string) string
	close     string
	toolRole  string // the role tool results are shown in
	generator string
}

var (
	xlamLlamaTokens = xlamTokens{
		begin:     "<|begin_of_text|>",
		open:      func(role string) string { return "<|start_header_id|>" + role + "<|end_header_id|>\n\n" },
		close:     "<|eot_id|>",
		toolRole:  "ipython",
		generator: "<|start_header_id|>assistant<|end_header_id|>\n\n",
	}
	xlamQwenTokens = xlamTokens{
		open:      func(role string) string { return "<|im_start|>" + role + "\n" },
		close:     "<|im_end|>",
		toolRole:  "tool",
		generator: "<|im_start|>assistant\n",
	}
)

type xlam struct {
	base
	tokens        xlamTokens
	defaultSystem string
}

func newSalesforceLlama(model string) Format {
	return &xlam{base: newBase("SalesforceLlamaHandler", model).ownSystemPrompt(), tokens: xlamLlamaTokens, defaultSystem: xlamDefaultSystem}
}

func newSalesforceQwen(model string) Format {
	return &xlam{base: newBase("SalesforceQwenHandler", model).ownSystemPrompt(), tokens: xlamQwenTokens, defaultSystem: xlamDefaultSystem}
}

func newBitAgent(model string) Format {
	return &xlam{base: newBase("BitAgentHandler", model).ownSystemPrompt(), tokens: xlamLlamaTokens, defaultSystem: bitAgentDefaultSystem}
}

func (x *xlam) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	t := x.tokens
	system, rest := x.defaultSystem, msgs
	if msgs[0].Role == RoleSystem {
		s, err := strip(msgs[0].Content)
		if err != nil {
			return "", err
		}
		system, rest = s, msgs[1:]
	}
	var b strings.Builder
	b.WriteString(t.begin + t.open("system") + system + "\n" + xlamInstructions)
	for _, f := range functions {
		js, err := dumpsIndent4(f)
		if err != nil {
			return "", err
		}
		b.WriteString(js + "\n\n")
	}
	b.WriteString(t.close)
	for _, m := range rest {
		switch {
		case m.Role == RoleTool:
			text, err := toolContentText(m.Content)
			if err != nil {
				return "", err
			}
			b.WriteString(t.open(t.toolRole) + text + t.close)
		case m.ToolCalls != nil && len(m.ToolCalls.Items) > 0:
			calls, err := xlamToolCalls(m.ToolCalls)
			if err != nil {
				return "", err
			}
			b.WriteString(t.open("assistant") + calls + t.close)
		default:
			c, err := strip(m.Content)
			if err != nil {
				return "", err
			}
			b.WriteString(t.open(m.Role) + c + t.close)
		}
	}
	b.WriteString(t.generator)
	return b.String(), nil
}

// toolContentText is a tool message's content as these templates write
// it: dict or list content as json.dumps, anything else as it is (it must
// be a str).
func toolContentText(content pyval.Value) (string, error) {
	switch content.(type) {
	case *pyval.Dict, *pyval.List:
		return dumps(content)
	}
	return concat("", content)
}

// xlamToolCalls is json.dumps([{"name": tc["function"]["name"],
// "arguments": json.loads(tc["function"]["arguments"])}, ...]).
func xlamToolCalls(calls *pyval.List) (string, error) {
	out, err := pyval.MapEach(calls.Items, func(tc pyval.Value) (pyval.Value, error) {
		fn, err := item(tc, "function")
		if err != nil {
			return nil, err
		}
		na, err := items(fn, "name", "arguments")
		if err != nil {
			return nil, err
		}
		s, ok := na[1].(pyval.Str)
		if !ok {
			return nil, pyval.NewTypeError("the JSON object must be str, bytes or bytearray, not %s", na[1].TypeName())
		}
		args, err := loads(string(s))
		if err != nil {
			return nil, err
		}
		d := pyval.NewDictCap(2)
		d.SetStr("name", na[0])
		d.SetStr("arguments", args)
		return d, nil
	})
	if err != nil {
		return "", err
	}
	return dumps(pyval.NewList(out...))
}
