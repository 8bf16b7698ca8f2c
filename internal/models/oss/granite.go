package oss

import (
	"regexp"
	"strings"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// IBM Granite: GraniteFunctionCallingHandler (local_inference/granite.py,
// granite-20b-functioncalling: converted tools in a SYSTEM:/USER: text
// template), Granite3FCHandler (local_inference/granite_3.py: the tools
// list as json.dumps(indent=4) in a "tools" turn; replies pre-decoded from
// <|tool_call|>) and Granite4FCHandler (local_inference/granite_4.py:
// Qwen-style <tools> and <tool_call> blocks in Granite's role tokens).

// Protocol texts of granite.py, granite_3.py and granite_4.py.
const (
	graniteFCTemplate = "SYSTEM: You are a helpful assistant with access to the following function calls. " +
		"Your task is to produce a sequence of function calls necessary to generate response to the user utterance. " +
		"Use the following function calls as required." +
		"\n<|function_call_library|>\n{functions_str}\n" +
		"If none of the functions are relevant or the given question lacks the parameters required by the function, please output \"<function_call> {\"name\": \"no_function\", \"arguments\": {}}\".\n\n"

	granite3DefaultSystem = "Knowledge Cutoff Date: April 2024.\n" +
		"Today's Date: April 29, 2025.\n" +
		"You are Granite, developed by IBM."
	granite3ToolsSystem = " You are a helpful AI assistant with access " +
		"to the following tools. When a tool is required to answer the user's query, respond " +
		"with <|tool_call|> followed by a JSON list of tools used. If a tool does not exist " +
		"in the provided list of tools, notify the user that you do not have the ability to fulfill the request."

	granite4ToolsPrefix   = "You are a helpful assistant with access to the following tools. You may call one or more tools to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>"
	granite4ToolsSuffix   = "\n</tools>\n\nFor each tool call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>. If a tool does not exist in the provided list of tools, notify the user that you do not have the ability to fulfill the request."
	granite4DefaultSystem = "You are a helpful assistant. Please ensure responses are professional, accurate, and safe."
)

// convertToTool is upstream's convert_to_tool(functions,
// GORILLA_TO_OPENAPI, style) for the OSSMODEL style (wrapped=false: the
// converted documents themselves) and the OPENAI_COMPLETIONS style
// (wrapped=true: {"type": "function", "function": document}); both replace
// "." in names by "_". The conversion is driver/core's (the OpenAI one,
// which is exactly upstream's OPENAI_COMPLETIONS style).
func convertToTool(functions []pyval.Value, wrapped bool) ([]pyval.Value, error) {
	docs, err := functionsJSON(functions)
	if err != nil {
		return nil, err
	}
	tools, err := core.ConvertFunctions(docs, core.ProviderOpenAI, true)
	if err != nil {
		return nil, err
	}
	out := make([]pyval.Value, len(tools))
	for i, t := range tools {
		v, err := pyval.FromJSON(t)
		if err != nil {
			return nil, err
		}
		if !wrapped {
			if v, err = item(v, "function"); err != nil {
				return nil, err
			}
		}
		out[i] = v
	}
	return out, nil
}

type graniteFC struct{ base }

func newGraniteFunctionCalling(model string) Format {
	return &graniteFC{newBase("GraniteFunctionCallingHandler", model).ownSystemPrompt()}
}

func (g *graniteFC) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	tools, err := convertToTool(functions, false)
	if err != nil {
		return "", err
	}
	docs := make([]string, len(tools))
	for i, t := range tools {
		if docs[i], err = dumps(t); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	b.WriteString(strings.ReplaceAll(graniteFCTemplate, "{functions_str}", strings.Join(docs, "\n")))
	for _, m := range msgs {
		b.WriteString(strings.ToUpper(m.Role) + ":\n" + fstr(m.Content) + "\n\n")
	}
	b.WriteString("ASSISTANT: ")
	return b.String(), nil
}

type granite3 struct{ base }

func newGranite3(model string) Format {
	return &granite3{withoutFC("Granite3FCHandler", model).ownSystemPrompt()}
}

// Prompt is granite_3.py's: note that it ends after the last message,
// without an assistant generation prompt.
func (g *granite3) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	var system string
	if msgs[0].Role == RoleSystem {
		system = fstr(msgs[0].Content)
		msgs = msgs[1:]
	} else {
		system = granite3DefaultSystem
		if len(functions) > 0 {
			system += granite3ToolsSystem
		}
	}
	var b strings.Builder
	b.WriteString("<|start_of_role|>system<|end_of_role|>" + system + "<|end_of_text|>\n")
	if len(functions) > 0 {
		js, err := dumpsIndent4(pyval.NewList(functions...))
		if err != nil {
			return "", err
		}
		b.WriteString("<|start_of_role|>tools<|end_of_role|>" + js + "<|end_of_text|>\n")
	}
	for _, m := range msgs {
		c, err := concat("<|start_of_role|>"+m.Role+"<|end_of_role|>", m.Content)
		if err != nil {
			return "", err
		}
		b.WriteString(c + "<|end_of_text|>\n")
	}
	return b.String(), nil
}

// granite3ToolCall and granite3PipeToolCall are granite_3.py's patterns.
var (
	granite3ToolCall     = regexp.MustCompile(`(?s)<tool_call>(.*)`)
	granite3PipeToolCall = regexp.MustCompile(`(?s)<\|tool_call\|>(.*)`)
)

// granite3Calls is granite_3.py's _extract_tool_calls.
func granite3Calls(text string) ([]pyval.Value, error) {
	// lstrip("ASSISTANT:") strips any of those characters, not the word.
	text = strings.TrimLeft(text, "ASSISTANT:")
	text = strings.TrimLeftFunc(text, pyval.IsSpace)
	re := granite3PipeToolCall
	if strings.Contains(text, "<tool_call>") {
		text = strings.ReplaceAll(text, "</tool_call>", "")
		re = granite3ToolCall
	}
	var matches []string
	for _, m := range findAll(re, text) {
		matches = append(matches, pyval.Strip(m))
	}
	return listedCalls(matches)
}

// listedCalls is the loop shared by granite_3.py's and phi_fc.py's
// _extract_tool_calls: each match is wrapped in [...] unless it starts
// with "[" or ends with "]", json.loads'd when it can be, and its list
// items (str items eval'd) or itself collected.
func listedCalls(matches []string) ([]pyval.Value, error) {
	var out []pyval.Value
	for _, m := range matches {
		if !strings.HasPrefix(m, "[") && !strings.HasSuffix(m, "]") {
			m = "[" + m + "]"
		}
		v, err := loads(m)
		if err != nil {
			out = append(out, pyval.Str(m))
			continue
		}
		l, ok := v.(*pyval.List)
		if !ok {
			out = append(out, v)
			continue
		}
		for _, it := range l.Items {
			if s, ok := it.(pyval.Str); ok {
				if it, err = pyEval(string(s)); err != nil {
					return nil, err
				}
			}
			out = append(out, it)
		}
	}
	return out, nil
}

// isToolCallFormat is _is_tool_call_response_format: every item a dict of
// exactly "name" and "arguments".
func isToolCallFormat(calls []pyval.Value) bool {
	for _, c := range calls {
		d, ok := c.(*pyval.Dict)
		if !ok || d.Len() != 2 || !d.Has(pyval.Str("name")) || !d.Has(pyval.Str("arguments")) {
			return false
		}
	}
	return true
}

// preDecodedReply is the _parse_query_response_prompting of
// Granite3FCHandler and PhiFCHandler: model_responses is the list of
// {name: arguments} when the extracted calls are well formed and not
// empty, else the text; the history keeps the text.
func preDecodedReply(text string, calls []pyval.Value) (Reply, error) {
	r := Reply{Text: text, ModelResponses: pyval.Str(text), History: Text(RoleAssistant, text)}
	if isToolCallFormat(calls) && len(calls) > 0 {
		out := make([]pyval.Value, len(calls))
		for i, c := range calls {
			d, err := nameArgs(c, false)
			if err != nil {
				return Reply{}, err
			}
			out[i] = d
		}
		r.ModelResponses = pyval.NewList(out...)
	}
	return r, nil
}

func (g *granite3) ParseReply(text string) (Reply, error) {
	calls, err := granite3Calls(text)
	if err != nil {
		return Reply{}, err
	}
	return preDecodedReply(text, calls)
}

type granite4 struct{ base }

func newGranite4(model string) Format {
	return &granite4{newBase("Granite4FCHandler", model).ownSystemPrompt()}
}

func (g *granite4) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	tools := ""
	if len(functions) > 0 {
		var tb strings.Builder
		if err := writeToolsBlock(&tb, granite4ToolsPrefix, functions, granite4ToolsSuffix); err != nil {
			return "", err
		}
		tools = tb.String()
	}
	var system string
	start := 0
	if msgs[0].Role == RoleSystem {
		start = 1
		s := msgs[0].Content
		if tools != "" {
			var err error
			if s, err = strConcat(s, pyval.Str("\n\n"+tools)); err != nil {
				return "", err
			}
		}
		system = fstr(s)
	} else if tools != "" {
		system = tools
	} else {
		system = granite4DefaultSystem
	}
	var b strings.Builder
	b.WriteString("<|start_of_role|>system<|end_of_role|>" + system + "<|end_of_text|>\n")
	for i := start; i < len(msgs); i++ {
		m := msgs[i]
		switch {
		case m.Role == RoleUser || (m.Role == RoleSystem && i > 0):
			b.WriteString("<|start_of_role|>" + m.Role + "<|end_of_role|>" + fstr(m.Content) + "<|end_of_text|>\n")
		case m.Role == RoleAssistant:
			b.WriteString("<|start_of_role|>" + m.Role + "<|end_of_role|>" + fstr(m.Content))
			if m.ToolCalls != nil {
				if err := appendQwenToolCalls(&b, m.Content, m.ToolCalls); err != nil {
					return "", err
				}
			}
			b.WriteString("<|end_of_text|>\n")
		case m.Role == RoleTool:
			writeToolResponse(&b, msgs, i, m.Content, "<|start_of_role|>user<|end_of_role|>", "<|end_of_text|>\n")
		}
	}
	b.WriteString("<|start_of_role|>assistant<|end_of_role|>")
	return b.String(), nil
}

// ParseReply is granite_4.py's: <tool_call> blocks kept as tool_calls (no
// reasoning split).
func (g *granite4) ParseReply(text string) (Reply, error) {
	return Reply{Text: text, ModelResponses: pyval.Str(text), History: toolCallHistory(text, text)}, nil
}
