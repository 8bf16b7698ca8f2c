package oss

import (
	"errors"
	"regexp"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// QwenHandler (local_inference/qwen.py, prompt mode: BFCL's system prompt)
// and QwenFCHandler (local_inference/qwen_fc.py: the functions in Qwen3's
// own <tools> system block, replies parsed into <tool_call> blocks). Both
// render the history as Qwen3's chat template does, thinking included.

// Protocol texts of qwen_fc.py's _format_prompt (Qwen3's chat template).
const (
	qwenToolsHeader = "# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>"
	qwenToolsFooter = "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n"
)

// toolCallBlock is the pattern of _extract_tool_calls (qwen_fc.py and the
// classes that copy it: granite_4.py, nanbeige_fc.py, pelican_vl_fc.py,
// arch.py).
var toolCallBlock = regexp.MustCompile(`(?s)<tool_call>\n(.*?)\n</tool_call>`)

var errNoMessages = errors.New("oss: the formatter got no message (upstream: IndexError: list index out of range)")

type qwen struct {
	base
	fc bool
}

func newQwen(model string) Format { return &qwen{base: newBase("QwenHandler", model)} }
func newQwenFC(model string) Format {
	return &qwen{base: newBase("QwenFCHandler", model).ownSystemPrompt(), fc: true}
}

func (q *qwen) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	return qwen3Prompt(msgs, functions, q.fc, "", "")
}

// qwen3Prompt renders the Qwen3 template of the FC handlers: with
// functions (fc), a system turn of the system message + "\n\n" (or
// noSystemTools when the conversation has none) and the tools block;
// without, the system message's own turn (or noSystem when there is none);
// then the history and the generation prompt.
func qwen3Prompt(msgs []Message, functions []pyval.Value, fc bool, noSystemTools, noSystem string) (string, error) {
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	var b strings.Builder
	switch {
	case fc && len(functions) > 0:
		b.WriteString("<|im_start|>system\n")
		if msgs[0].Role == RoleSystem {
			s, err := strConcat(msgs[0].Content, pyval.Str("\n\n"))
			if err != nil {
				return "", err
			}
			b.WriteString(string(s.(pyval.Str)))
		} else {
			b.WriteString(noSystemTools)
		}
		if err := writeToolsBlock(&b, qwenToolsHeader, functions, qwenToolsFooter); err != nil {
			return "", err
		}
	case msgs[0].Role == RoleSystem:
		b.WriteString("<|im_start|>system\n" + fstr(msgs[0].Content) + "<|im_end|>\n")
	default:
		b.WriteString(noSystem)
	}
	if err := qwenHistory(&b, msgs, fc); err != nil {
		return "", err
	}
	b.WriteString("<|im_start|>assistant\n")
	return b.String(), nil
}

// writeToolResponse writes the tool message msgs[i] (text content) as the
// Qwen-style templates do: consecutive tool messages share one user turn,
// opened by open before the first and closed by end after the last.
func writeToolResponse(b *strings.Builder, msgs []Message, i int, content pyval.Value, open, end string) {
	if i == 0 || msgs[i-1].Role != RoleTool {
		b.WriteString(open)
	}
	b.WriteString("\n<tool_response>\n" + fstr(content) + "\n</tool_response>")
	if i == len(msgs)-1 || msgs[i+1].Role != RoleTool {
		b.WriteString(end)
	}
}

// lastQueryIndex is the index of the last user message that is not a
// <tool_response> wrapper (len-1 when there is none).
func lastQueryIndex(msgs []Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		s, ok := m.Content.(pyval.Str)
		if m.Role == RoleUser && ok &&
			!(strings.HasPrefix(string(s), "<tool_response>") && strings.HasSuffix(string(s), "</tool_response>")) {
			return i
		}
	}
	return len(msgs) - 1
}

// qwenHistory writes the messages the way qwen.py / qwen_fc.py /
// nanbeige_fc.py do after the system block: the thinking of assistant
// messages after the last real user query is shown (always on the last
// message), the rest without; tool results are grouped into one user turn;
// toolCalls renders an assistant message's tool_calls.
func qwenHistory(b *strings.Builder, msgs []Message, toolCalls bool) error {
	lastQuery := lastQueryIndex(msgs)
	for idx, m := range msgs {
		content := m.Content
		switch {
		case m.Role == RoleUser || (m.Role == RoleSystem && idx != 0):
			b.WriteString("<|im_start|>" + m.Role + "\n" + fstr(content) + "<|im_end|>\n")
		case m.Role == RoleAssistant:
			reasoning := ""
			hasThink, err := in("</think>", content)
			if m.ReasoningContent != nil && *m.ReasoningContent != "" {
				reasoning = *m.ReasoningContent
			} else {
				if err != nil {
					return err
				}
				if hasThink {
					var answer string
					reasoning, answer, _ = splitThink(string(content.(pyval.Str)))
					content = pyval.Str(answer)
				}
			}
			if idx > lastQuery && (idx == len(msgs)-1 || reasoning != "") {
				c, err := pyval.StrMethod(orNone(content), "lstrip")
				if err != nil {
					return err
				}
				b.WriteString("<|im_start|>" + m.Role + "\n<think>\n" + strings.Trim(reasoning, "\n") + "\n</think>\n\n" + strings.TrimLeft(c, "\n"))
			} else {
				b.WriteString("<|im_start|>" + m.Role + "\n" + fstr(content))
			}
			if toolCalls && m.ToolCalls != nil {
				if err := appendQwenToolCalls(b, content, m.ToolCalls); err != nil {
					return err
				}
			}
			b.WriteString("<|im_end|>\n")
		case m.Role == RoleTool:
			writeToolResponse(b, msgs, idx, content, "<|im_start|>user", "<|im_end|>\n")
		}
	}
	return nil
}

// appendQwenToolCalls writes an assistant message's tool calls as
// qwen_fc.py does (granite_4.py and nanbeige_fc.py alike): a newline
// before each call except a first one after empty content — "first" by
// Python ==, so a later call equal to the first one gets no newline
// either — the call's "function" dict if it has one, the arguments as
// they are when a str, else json.dumps.
func appendQwenToolCalls(b *strings.Builder, content pyval.Value, calls *pyval.List) error {
	for _, tc := range calls.Items {
		first := calls.Items[0]
		isFirst := pyval.Equal(tc, first)
		if (isFirst && pyval.Truthy(orNone(content))) || !isFirst {
			b.WriteString("\n")
		}
		if f, ok, err := itemIfIn(tc, "function"); err != nil {
			return err
		} else if ok {
			tc = f
		}
		name, err := item(tc, "name")
		if err != nil {
			return err
		}
		s, err := concat("<tool_call>\n{\"name\": \"", name)
		if err != nil {
			return err
		}
		b.WriteString(s + "\", \"arguments\": ")
		args, err := item(tc, "arguments")
		if err != nil {
			return err
		}
		if as, ok := args.(pyval.Str); ok {
			b.WriteString(string(as))
		} else {
			js, err := dumps(args)
			if err != nil {
				return err
			}
			b.WriteString(js)
		}
		b.WriteString("}\n</tool_call>")
	}
	return nil
}

// extractToolCalls is qwen_fc.py's _extract_tool_calls: the <tool_call>
// blocks that json.loads accepts (others are dropped).
func extractToolCalls(text string) []pyval.Value {
	var out []pyval.Value
	for _, m := range findAll(toolCallBlock, text) {
		if v, err := loads(m); err == nil {
			out = append(out, v)
		}
	}
	return out
}

func (q *qwen) ParseReply(text string) (Reply, error) {
	reasoning, cleaned, _ := splitThink(text)
	r := Reply{Text: text, ModelResponses: pyval.Str(cleaned), Reasoning: reasoning}
	if !q.fc {
		r.History = Message{Role: RoleAssistant, Content: pyval.Str(cleaned), ReasoningContent: strPtr(reasoning)}
		return r, nil
	}
	r.History = toolCallHistory(text, cleaned)
	r.History.ReasoningContent = strPtr(reasoning)
	return r, nil
}

// toolCallHistory is the chat-history message of the <tool_call> classes:
// the parsed calls with empty content, or content when there is none.
func toolCallHistory(text, content string) Message {
	if calls := extractToolCalls(text); len(calls) > 0 {
		return Message{Role: RoleAssistant, Content: pyval.Str(""), ToolCalls: pyval.NewList(calls...)}
	}
	return Text(RoleAssistant, content)
}
