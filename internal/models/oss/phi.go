package oss

import (
	"errors"
	"regexp"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// PhiHandler (local_inference/phi.py: prompt mode, Phi-4 or Phi-4-mini
// chat tokens around BFCL's system prompt) and PhiFCHandler
// (local_inference/phi_fc.py: Phi-4-mini's <|tool|> system block; replies
// pre-decoded from <|tool_call|> blocks).

type phi struct{ base }

func newPhi(model string) Format { return &phi{newBase("PhiHandler", model)} }

func (p *phi) Prompt(msgs []Message, _ []pyval.Value) (string, error) {
	var b strings.Builder
	if strings.Contains(p.model, "Phi-4-mini") {
		for _, m := range msgs {
			b.WriteString("<|" + m.Role + "|>" + fstr(m.Content) + "<|end|>")
		}
		b.WriteString("<|assistant|>")
		return b.String(), nil
	}
	for _, m := range msgs {
		b.WriteString("<|im_start|>" + m.Role + "<|im_sep|>" + fstr(m.Content) + "<|im_end|>\n")
	}
	b.WriteString("<|im_start|>assistant<|im_sep|>")
	return b.String(), nil
}

// phiFCDefaultSystem is phi_fc.py's default system message.
const phiFCDefaultSystem = "You are a helpful assistant with some tools."

type phiFC struct{ base }

func newPhiFC(model string) Format { return &phiFC{newBase("PhiFCHandler", model).ownSystemPrompt()} }

func (p *phiFC) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	systems := 0
	for _, m := range msgs {
		if m.Role == RoleSystem {
			systems++
		}
	}
	if systems > 1 {
		return "", errors.New("oss: PhiFCHandler allows at most one system message (upstream: AssertionError)")
	}
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	system := phiFCDefaultSystem
	if msgs[0].Role == RoleSystem {
		system = fstr(msgs[0].Content)
		msgs = msgs[1:]
	}
	var tools strings.Builder
	for _, f := range functions {
		js, err := dumps(f)
		if err != nil {
			return "", err
		}
		tools.WriteString(js + "\n")
	}
	var b strings.Builder
	b.WriteString("<|system|>" + system + "<|tool|>" + tools.String() + "<|/tool|><|end|>")
	for _, m := range msgs {
		b.WriteString("<|" + m.Role + "|>" + fstr(m.Content) + "<|end|>")
	}
	b.WriteString("<|assistant|>")
	return b.String(), nil
}

// phiToolCall is phi_fc.py's first pattern.
var phiToolCall = regexp.MustCompile(`(?s)<\|tool_call\|>(.*?)<\|/tool_call\|>`)

// phiCalls is phi_fc.py's _extract_tool_calls.
func phiCalls(text string) ([]pyval.Value, error) {
	matches := findAll(phiToolCall, text)
	if len(matches) == 0 {
		// The fallback pattern <\|tool_call\|>(.*?)(?:<\|/tool_call\|>)?$
		// (no closing tag follows any opening one here): everything after
		// the first opening tag, where Python's $ also matches before a
		// final newline, so that newline is left out.
		const open = "<|tool_call|>"
		if i := strings.Index(text, open); i >= 0 {
			start, end := i+len(open), len(text)
			if end > start && text[end-1] == '\n' {
				end--
			}
			matches = []string{text[start:end]}
		}
	}
	return listedCalls(matches)
}

func (p *phiFC) ParseReply(text string) (Reply, error) {
	calls, err := phiCalls(text)
	if err != nil {
		return Reply{}, err
	}
	return preDecodedReply(text, calls)
}
