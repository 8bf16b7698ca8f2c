package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// GemmaHandler (local_inference/gemma.py): prompt mode with Gemma 3's
// turn tokens; the system message becomes a prefix of the first turn.
// Setup also combines consecutive user messages and renames the question's
// assistant messages to "model" (the history's own assistant messages keep
// their role, as upstream's do).

type gemma struct{ base }

func newGemma(model string) Format { return &gemma{newBase("GemmaHandler", model)} }

func (g *gemma) Setup(entryID string, functions []pyval.Value, turns [][]Message) ([][]Message, error) {
	out, err := withSystemPrompt(entryID, functions, turns)
	if err != nil {
		return nil, err
	}
	for i, t := range out {
		if t, err = combineUserMessages(t); err != nil {
			return nil, err
		}
		for j := range t {
			if t[j].Role == RoleAssistant {
				t[j].Role = "model"
			}
		}
		out[i] = t
	}
	return out, nil
}

func (g *gemma) Prompt(msgs []Message, _ []pyval.Value) (string, error) {
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	prefix := ""
	if msgs[0].Role == RoleSystem {
		s, err := strip(msgs[0].Content)
		if err != nil {
			return "", err
		}
		prefix = s + "\n\n"
		msgs = msgs[1:]
	}
	var b strings.Builder
	b.WriteString("<bos>")
	for i, m := range msgs {
		c, err := strip(m.Content)
		if err != nil {
			return "", err
		}
		p := ""
		if i == 0 {
			p = prefix
		}
		b.WriteString("<start_of_turn>" + m.Role + "\n" + p + c + "<end_of_turn>\n")
	}
	b.WriteString("<start_of_turn>model\n")
	return b.String(), nil
}
