package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// DeepseekReasoningHandler (local_inference/deepseek_reasoning.py):
// DeepSeek-R1's template written by hand. Prompt mode, but with no system
// turn: Setup turns every system message into a user message and combines
// consecutive user messages, so BFCL's system prompt opens the first user
// message. Execution results go back as one user message whose content is
// the list of {"role": "tool", "name", "content"} dicts (shown as Python's
// str of that list).

// DeepSeek-R1's special tokens, as deepseek_reasoning.py writes them
// (full-width bars and U+2581 "▁").
const (
	dsBOS             = "<｜begin▁of▁sentence｜>"
	dsUser            = "<｜User｜>"
	dsAssistant       = "<｜Assistant｜>"
	dsEOS             = "<｜end▁of▁sentence｜>"
	dsToolCallsBegin  = "<｜tool▁calls▁begin｜>"
	dsToolCallsEnd    = "<｜tool▁calls▁end｜>"
	dsToolCallBegin   = "<｜tool▁call▁begin｜>"
	dsToolCallEnd     = "<｜tool▁call▁end｜>"
	dsToolSep         = "<｜tool▁sep｜>"
	dsToolOutputsBeg  = "<｜tool▁outputs▁begin｜>"
	dsToolOutputsEnd  = "<｜tool▁outputs▁end｜>"
	dsToolOutputBegin = "<｜tool▁output▁begin｜>"
	dsToolOutputEnd   = "<｜tool▁output▁end｜>"
)

type deepseekReasoning struct{ base }

func newDeepseekReasoning(model string) Format {
	return &deepseekReasoning{newBase("DeepseekReasoningHandler", model)}
}

func (d *deepseekReasoning) Setup(entryID string, functions []pyval.Value, turns [][]Message) ([][]Message, error) {
	out, err := withSystemPrompt(entryID, functions, turns)
	if err != nil {
		return nil, err
	}
	for i, t := range out {
		if out[i], err = combineUserMessages(systemToUser(t)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (d *deepseekReasoning) Prompt(msgs []Message, _ []pyval.Value) (string, error) {
	var b strings.Builder
	b.WriteString(dsBOS)
	firstSystem := true
	for _, m := range msgs {
		if m.Role != RoleSystem {
			continue
		}
		if firstSystem {
			s, err := concat("", m.Content)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
			firstSystem = false
		} else {
			b.WriteString("\n\n" + fstr(m.Content))
		}
	}
	isFirst, isTool, isOutputFirst := false, false, true
	for _, m := range msgs {
		switch {
		case m.Role == RoleUser:
			isTool = false
			b.WriteString(dsUser + fstr(m.Content))
		case m.Role == RoleAssistant && m.ToolCalls != nil:
			isTool = false
			for _, tool := range m.ToolCalls.Items {
				typ, name, args, err := dsToolCall(tool)
				if err != nil {
					return "", err
				}
				call := dsToolCallBegin + typ + dsToolSep + name + "\n```json\n" + args + "\n```" + dsToolCallEnd
				if !isFirst {
					if m.Content == nil || m.Content == pyval.None {
						b.WriteString(dsAssistant + dsToolCallsBegin + call)
					} else {
						b.WriteString(dsAssistant + fstr(m.Content) + dsToolCallsBegin + call)
					}
					isFirst = true
				} else {
					b.WriteString("\n" + call)
				}
			}
			b.WriteString(dsToolCallsEnd + dsEOS)
		case m.Role == RoleAssistant:
			if isTool {
				b.WriteString(dsToolOutputsEnd + fstr(m.Content) + dsEOS)
				isTool = false
				continue
			}
			content := m.Content
			hasThink, err := in("</think>", content)
			if err != nil {
				return "", err
			}
			if hasThink {
				parts := strings.Split(string(content.(pyval.Str)), "</think>")
				content = pyval.Str(parts[len(parts)-1])
			}
			b.WriteString(dsAssistant + fstr(content) + dsEOS)
		case m.Role == RoleTool:
			isTool = true
			if isOutputFirst {
				b.WriteString(dsToolOutputsBeg + dsToolOutputBegin + fstr(m.Content) + dsToolOutputEnd)
				isOutputFirst = false
			} else {
				b.WriteString(dsToolOutputBegin + fstr(m.Content) + dsToolOutputEnd)
			}
		}
	}
	if isTool {
		b.WriteString(dsToolOutputsEnd)
	} else {
		b.WriteString(dsAssistant + "<think>\n")
	}
	return b.String(), nil
}

// dsToolCall is tool['type'], tool['function']['name'] and
// tool['function']['arguments'] as the template's f-string shows them.
func dsToolCall(tool pyval.Value) (typ, name, args string, err error) {
	tf, err := items(tool, "type", "function")
	if err != nil {
		return "", "", "", err
	}
	na, err := items(tf[1], "name", "arguments")
	if err != nil {
		return "", "", "", err
	}
	return fstr(tf[0]), fstr(na[0]), fstr(na[1]), nil
}

// ParseReply is deepseek_reasoning.py's: model_responses is the text after
// the last "</think>", and reasoning_content — upstream splits the already
// cut text again — is that same text, not the reasoning. The history keeps
// the whole text (the formatter drops the thinking again).
func (d *deepseekReasoning) ParseReply(text string) (Reply, error) {
	r := Reply{Text: text, ModelResponses: pyval.Str(text), History: Text(RoleAssistant, text)}
	if strings.Contains(text, "</think>") {
		parts := strings.Split(text, "</think>")
		answer := parts[len(parts)-1]
		r.ModelResponses = pyval.Str(answer)
		r.Reasoning = strings.Split(answer, "</think>")[0]
	}
	return r, nil
}

// ExecutionResults is one user message holding the list of tool-result
// dicts (zip of results and decoded calls).
func (d *deepseekReasoning) ExecutionResults(results, decoded []string, _ Reply) []Message {
	n := min(len(results), len(decoded))
	items := make([]pyval.Value, n)
	for i := 0; i < n; i++ {
		t := pyval.NewDictCap(3)
		t.SetStr("role", pyval.Str(RoleTool))
		t.SetStr("name", pyval.Str(decoded[i]))
		t.SetStr("content", pyval.Str(results[i]))
		items[i] = t
	}
	return []Message{{Role: RoleUser, Content: pyval.NewList(items...)}}
}
