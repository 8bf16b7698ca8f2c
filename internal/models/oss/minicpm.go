package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// MiniCPMHandler (local_inference/minicpm.py: prompt mode in ChatML) and
// MiniCPMFCHandler (local_inference/minicpm_fc.py: MiniCPM3's function
// calling, with stop token ids and skip_special_tokens=False).

type miniCPM struct{ base }

func newMiniCPM(model string) Format { return &miniCPM{newBase("MiniCPMHandler", model)} }

func (m *miniCPM) Prompt(msgs []Message, _ []pyval.Value) (string, error) {
	return chatML("", msgs), nil
}

// chatML writes bos, then <|im_start|>role\ncontent<|im_end|>\n per message
// and the assistant generation prompt.
func chatML(bos string, msgs []Message) string {
	var b strings.Builder
	b.WriteString(bos)
	for _, m := range msgs {
		b.WriteString("<|im_start|>" + m.Role + "\n" + fstr(m.Content) + "<|im_end|>\n")
	}
	b.WriteString("<|im_start|>assistant\n")
	return b.String()
}

// miniCPMFCStopTokenIDs is MiniCPMFCHandler.stop_token_ids.
var miniCPMFCStopTokenIDs = []int{2, 73440}

type miniCPMFC struct{ base }

func newMiniCPMFC(model string) Format {
	return &miniCPMFC{newBase("MiniCPMFCHandler", model).ownSystemPrompt()}
}

func (m *miniCPMFC) Extras() Extras {
	skip := false
	return Extras{StopTokenIDs: append([]int(nil), miniCPMFCStopTokenIDs...), SkipSpecialTokens: &skip}
}

// Prompt is minicpm_fc.py's _format_prompt: the function documents
// converted (convert_to_tool, OSSMODEL style) and listed as Python code
// (minicpm_input_format: transform_function per document, in the tools
// template), a leading empty system message if there is none, each content
// reformatted by message_format (every system message gets the listing
// appended) and stripped, in ChatML. A schema construct this port does
// not reproduce is an error (ErrMiniCPMSchema).
//
// Upstream makes these edits on the history itself (the system message is
// inserted into inference_data["message"], contents are rewritten in
// place), so they show in every later history (the system message gets the
// listing appended again at every step); Conversation keeps them
// (promptEditing). Prompt alone leaves msgs as they are.
func (m *miniCPMFC) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	p, _, err := m.promptEditing(msgs, functions)
	return p, err
}

// promptEditing is Prompt, also returning the history as upstream's
// formatter leaves it.
func (m *miniCPMFC) promptEditing(msgs []Message, functions []pyval.Value) (string, []Message, error) {
	tools, err := miniCPMToolsString(functions)
	if err != nil {
		return "", nil, err
	}
	work := append([]Message(nil), msgs...)
	if len(work) > 0 && work[0].Role != RoleSystem {
		work = append([]Message{Text(RoleSystem, "")}, work...)
	}
	for i, msg := range work {
		c, err := miniCPMMessageContent(msg, tools)
		if err != nil {
			return "", nil, err
		}
		work[i].Content = pyval.Str(c)
	}
	return chatML("", work), work, nil
}

// miniCPMToolsHeader and miniCPMToolsTemplate are minicpm_input_format's
// header and tools_template (local_inference/minicpm_fc.py), the template
// as str.format leaves it ("{{" and "}}" single) around {tools}.
const (
	miniCPMToolsHeader   = "from enum import Enum\nfrom typing import List, Dict, Optional\nfrom pydantic import BaseModel, Field\n\n"
	miniCPMToolsTemplate = "# Functions\nHere is a list of functions that you can invoke:\n```python\n{tools}\n```\n\n# Function Call Rule and Output Format\n- If the user's question can be answered without calling any function, please answer the user's question directly. In this situation, you should return your thought and answer the user's question directly.\n- If the user cannot be answered without calling any function, and the user does not provide enough information to call functions, please ask the user for more information. In this situation, you should return your thought and ask the user for more information.\n- If the user's question cannot be answered without calling any function, and the user has provided enough information to call functions to solve it, you should call the functions. In this situation, the assistant should return your thought and call the functions.\n- Use default parameters unless the user has specified otherwise.\n- You should answer in the following format:\n\n<|thought_start|>\n{explain why the user's question can be answered without calling a function or why you should ask the user for more information or why you should call one or more functions and your plan to solve the user's question.}\n<|thought_end|>\n<|tool_call_start|>\n```python\nfunc1(params_name=params_value, params_name2=params_value2...)\nfunc2(params)\n```\n<|tool_call_end|>\n{answer the user's question directly or ask the user for more information}\n"
)

// miniCPMToolsString is minicpm_input_format's tools_string for the
// function documents ("" without any).
func miniCPMToolsString(functions []pyval.Value) (string, error) {
	if len(functions) == 0 {
		return "", nil
	}
	tools, err := convertToTool(functions, false)
	if err != nil {
		return "", err
	}
	if len(tools) == 0 {
		return "", nil
	}
	s := miniCPMToolsHeader
	for _, t := range tools {
		// Upstream leaves out a function whose transform_function raises
		// (except: pass); convert_to_tool has already raised for the
		// documents that would (no name, parameters or properties), and
		// none of BFCL's raises. What this port does not reproduce is an
		// error, not a left-out function.
		code, err := miniCPMTransformFunction(t)
		if err != nil {
			return "", err
		}
		s += "\n\n" + code
	}
	return pyval.Strip(strings.Replace(miniCPMToolsTemplate, "{tools}", s, 1)), nil
}

// miniCPMMessageContent is message_format's new content for a history
// message (which never has a "thought" key): assistant content as it is
// (None as ""; tool calls rendered in MiniCPM's Python call block), user
// content after a newline, system content followed by a newline and
// systemSuffix; then stripped.
func miniCPMMessageContent(msg Message, systemSuffix string) (string, error) {
	content := orNone(msg.Content)
	switch msg.Role {
	case RoleAssistant:
		if content == pyval.None {
			content = pyval.Str("")
		}
		if msg.ToolCalls != nil && len(msg.ToolCalls.Items) > 0 {
			calls, err := miniCPMToolCalls(msg.ToolCalls)
			if err != nil {
				return "", err
			}
			c, err := concat("<|tool_call_start|>\n```python\n"+calls+"\n```\n<|tool_call_end|>\n", content)
			if err != nil {
				return "", err
			}
			content = pyval.Str(c)
		}
	case RoleUser:
		c, err := concat("\n", content)
		if err != nil {
			return "", err
		}
		content = pyval.Str(c)
	case RoleSystem:
		c, err := strConcat(content, pyval.Str("\n"+systemSuffix))
		if err != nil {
			return "", err
		}
		content = c
	}
	return strip(content)
}

// miniCPMToolCalls renders tool calls as name(k=v,...) lines (str values
// repr'd, others str'd), skipping calls without arguments or with
// arguments that are not valid JSON text.
func miniCPMToolCalls(calls *pyval.List) (string, error) {
	var lines []string
	for _, tc := range calls.Items {
		if tc == pyval.None {
			continue
		}
		name, err := item(tc, "name")
		if err != nil {
			return "", err
		}
		args, has, err := itemIfIn(tc, "arguments")
		if err != nil {
			return "", err
		}
		if !has || args == pyval.None {
			continue
		}
		if s, ok := args.(pyval.Str); ok {
			v, err := loads(string(s))
			if err != nil {
				continue
			}
			args = v
		}
		d, ok := args.(*pyval.Dict)
		if !ok {
			return "", pyval.NoAttribute(args, "items")
		}
		parts := make([]string, 0, d.Len())
		for _, kv := range d.Items() {
			k, err := concat("", kv.Key)
			if err != nil {
				return "", err
			}
			v := pyval.StrOf(kv.Value)
			if _, isStr := kv.Value.(pyval.Str); isStr {
				v = pyval.Repr(kv.Value)
			}
			parts = append(parts, k+"="+v)
		}
		lines = append(lines, fstr(name)+"("+strings.Join(parts, ",")+")")
	}
	return pyval.Strip(strings.Join(lines, "\n")), nil
}
