package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// ArchHandler (local_inference/arch.py): Qwen2.5's tool template with
// Arch's default system message. Replies with <tool_call> blocks are
// pre-decoded to [{name: arguments}] and kept in the history as a
// tool-call message whose content is None (blocks that are not JSON are
// kept as strings, and eval'd for the decoding).

// archDefaultSystem is arch.py's default system message.
const archDefaultSystem = "You are a helpful assistant designed to assist with the user query by making one or more function calls if needed."

type arch struct{ base }

func newArch(model string) Format { return &arch{newBase("ArchHandler", model).ownSystemPrompt()} }

func (a *arch) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	var system pyval.Value = pyval.Str(archDefaultSystem)
	if msgs[0].Role == RoleSystem {
		system = orNone(msgs[0].Content)
	}
	var b strings.Builder
	if len(functions) > 0 {
		s, err := concat("<|im_start|>system\n", system)
		if err != nil {
			return "", err
		}
		if err := writeToolsBlock(&b, s+"\n\n"+qwenToolsHeader, functions, qwenToolsFooter); err != nil {
			return "", err
		}
	} else {
		b.WriteString("<|im_start|>system\n" + fstr(system) + "<|im_end|>\n")
	}
	for idx, m := range msgs {
		hasCalls := m.ToolCalls != nil && len(m.ToolCalls.Items) > 0
		switch {
		case m.Role == RoleUser || (m.Role == RoleSystem && idx != 0) || (m.Role == RoleAssistant && !hasCalls):
			b.WriteString("<|im_start|>" + m.Role + "\n" + fstr(m.Content) + "<|im_end|>\n")
		case m.Role == RoleAssistant:
			b.WriteString("<|im_start|>" + m.Role)
			if pyval.Truthy(orNone(m.Content)) {
				b.WriteString("\n" + fstr(m.Content))
			}
			for _, tc := range m.ToolCalls.Items {
				if f, ok, err := itemIfIn(tc, "function"); err != nil {
					return "", err
				} else if ok {
					tc = f
				}
				name, err := get(tc, "name", pyval.Str(""))
				if err != nil {
					return "", err
				}
				args, err := get(tc, "arguments", pyval.NewDict())
				if err != nil {
					return "", err
				}
				js, err := dumps(args)
				if err != nil {
					return "", err
				}
				b.WriteString("\n<tool_call>\n{\"name\": \"" + fstr(name) + "\", \"arguments\": " + js + "}\n</tool_call>")
			}
			b.WriteString("<|im_end|>\n")
		case m.Role == RoleTool:
			writeToolResponse(&b, msgs, idx, m.Content, "<|im_start|>user", "<|im_end|>\n")
		}
	}
	b.WriteString("<|im_start|>assistant\n")
	return b.String(), nil
}

func (a *arch) ParseReply(text string) (Reply, error) {
	var calls []pyval.Value
	for _, m := range findAll(toolCallBlock, text) {
		if v, err := loads(m); err == nil {
			calls = append(calls, v)
		} else {
			calls = append(calls, pyval.Str(m))
		}
	}
	if len(calls) == 0 {
		return Reply{Text: text, ModelResponses: pyval.Str(text), History: Text(RoleAssistant, text)}, nil
	}
	out := make([]pyval.Value, len(calls))
	for i, c := range calls {
		d, err := nameArgs(c, true)
		if err != nil {
			return Reply{}, err
		}
		out[i] = d
	}
	return Reply{Text: text, ModelResponses: pyval.NewList(out...),
		History: Message{Role: RoleAssistant, Content: pyval.None, ToolCalls: pyval.NewList(calls...)}}, nil
}
