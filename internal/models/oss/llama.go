package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// LlamaHandler (local_inference/llama.py: Llama 3.x / 4 chat tokens around
// BFCL's prompt-mode system prompt, results in the ipython role) and
// LlamaHandler_3_1 (local_inference/llama_3_1.py: Llama 3.1's JSON tool
// calling, the functions in the first user message). Both serve
// model_name without "-FC".

type llama struct{ base }

func newLlama(model string) Format { return &llama{withoutFC("LlamaHandler", model)} }

func (l *llama) Prompt(msgs []Message, _ []pyval.Value) (string, error) {
	// Llama 4 has its own header and end-of-turn tokens.
	start, end, eot := "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"
	if strings.Contains(l.model, "Llama-4") {
		start, end, eot = "<|header_start|>", "<|header_end|>", "<|eot|>"
	}
	var b strings.Builder
	b.WriteString("<|begin_of_text|>")
	for _, m := range msgs {
		c, err := strip(m.Content)
		if err != nil {
			return "", err
		}
		b.WriteString(start + m.Role + end + "\n\n" + c + eot)
	}
	b.WriteString(start + "assistant" + end + "\n\n")
	return b.String(), nil
}

// ExecutionResults: every result is an "ipython" message (no name, and
// not paired with the decoded calls).
func (l *llama) ExecutionResults(results, _ []string, _ Reply) []Message {
	out := make([]Message, len(results))
	for i, r := range results {
		out[i] = Text(RoleIPython, r)
	}
	return out
}

// Protocol texts of llama_3_1.py's _format_prompt (Llama 3.1's chat
// template with tools_in_user_message and the template's fixed date).
const (
	llama31System = "<|start_header_id|>system<|end_header_id|>\n\n" +
		"Environment: ipython\n" +
		"Cutting Knowledge Date: December 2023\n" +
		"Today Date: 26 Jul 2024\n\n"
	llama31ToolsIntro = "Given the following functions, please respond with a JSON for a function call " +
		"with its proper arguments that best answers the given prompt.\n\n" +
		"Respond in the format {\"name\": function name, \"parameters\": dictionary of argument name and its value}." +
		"Do not use variables.\n\n"
)

type llama31 struct{ base }

func newLlama31(model string) Format {
	return &llama31{withoutFC("LlamaHandler_3_1", model).ownSystemPrompt()}
}

func (l *llama31) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	var b strings.Builder
	b.WriteString("<|begin_of_text|>")
	system, rest := "", msgs
	if msgs[0].Role == RoleSystem {
		s, err := strip(msgs[0].Content)
		if err != nil {
			return "", err
		}
		system, rest = s, msgs[1:]
	}
	b.WriteString(llama31System + system + "<|eot_id|>")
	firstUser := true
	for _, m := range rest {
		switch {
		case m.Role == RoleUser && firstUser:
			firstUser = false
			b.WriteString("<|start_header_id|>user<|end_header_id|>\n\n" + llama31ToolsIntro)
			for _, f := range functions {
				js, err := dumpsIndent4(f)
				if err != nil {
					return "", err
				}
				b.WriteString(js + "\n\n")
			}
			c, err := strip(m.Content)
			if err != nil {
				return "", err
			}
			b.WriteString(c + "<|eot_id|>")
		case m.Role == RoleTool:
			if err := writeIPythonResult(&b, m.Content); err != nil {
				return "", err
			}
		default:
			c, err := strip(m.Content)
			if err != nil {
				return "", err
			}
			b.WriteString("<|start_header_id|>" + m.Role + "<|end_header_id|>\n\n" + c + "<|eot_id|>")
		}
	}
	b.WriteString("<|start_header_id|>assistant<|end_header_id|>\n\n")
	return b.String(), nil
}

// writeIPythonResult writes a tool message as an ipython turn: dict or list
// content as json.dumps, anything else as it is (it must be a str).
func writeIPythonResult(b *strings.Builder, content pyval.Value) error {
	var text string
	switch content.(type) {
	case *pyval.Dict, *pyval.List:
		js, err := dumps(content)
		if err != nil {
			return err
		}
		text = js
	default:
		s, err := concat("", content)
		if err != nil {
			return err
		}
		text = s
	}
	b.WriteString("<|start_header_id|>ipython<|end_header_id|>\n\n" + text + "<|eot_id|>")
	return nil
}
