package oss

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// PelicanVLFCHandler (local_inference/pelican_vl_fc.py): a Qwen2.5-VL
// template written by hand, with tools in a <tools> system block; replies
// parsed like QwenFCHandler's. It serves model_name without "-FC".

// Protocol texts of pelican_vl_fc.py's _format_prompt (note "one or more
// function" and "functions name", unlike Qwen3's wording).
const (
	pelicanToolsHeader = "# Tools\n\nYou may call one or more function to assist with the user query." +
		"\n\nYou are provided with function signatures within <tools></tools> XML tags:" +
		"\n<tools>"
	pelicanToolsFooter = "\n</tools>" +
		"\n\nFor each function call, return a json object with functions name and arguments within <tool_call></tool_call> XML tags:" +
		"\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>" +
		"<|im_end|>\n"
	pelicanDefaultSystem = "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
)

type pelican struct{ base }

func newPelican(model string) Format {
	return &pelican{withoutFC("PelicanVLFCHandler", model).ownSystemPrompt()}
}

func (p *pelican) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	var b strings.Builder
	systemDone := false
	hasSystem := len(msgs) > 0 && msgs[0].Role == RoleSystem
	if len(functions) > 0 {
		b.WriteString("<|im_start|>system\n")
		if hasSystem {
			s, err := strConcat(msgs[0].Content, pyval.Str("\n\n"))
			if err != nil {
				return "", err
			}
			b.WriteString(string(s.(pyval.Str)))
			systemDone = true
		}
		if err := writeToolsBlock(&b, pelicanToolsHeader, functions, pelicanToolsFooter); err != nil {
			return "", err
		}
	}
	if hasSystem && !systemDone {
		b.WriteString("<|im_start|>system\n" + fstr(msgs[0].Content) + "<|im_end|>\n")
		systemDone = true
	} else if len(functions) == 0 && !hasSystem {
		b.WriteString(pelicanDefaultSystem)
	}
	for idx, m := range msgs {
		if idx == 0 && m.Role == RoleSystem && systemDone {
			continue
		}
		b.WriteString("<|im_start|>" + m.Role + "\n")
		switch m.Role {
		case RoleTool:
			b.WriteString("<tool_response>\n" + fstr(m.Content) + "\n</tool_response>")
		case RoleAssistant:
			if m.ToolCalls != nil {
				if err := pelicanToolCalls(&b, m.ToolCalls); err != nil {
					return "", err
				}
			}
			if pyval.Truthy(orNone(m.Content)) {
				s, err := concat("", m.Content)
				if err != nil {
					return "", err
				}
				b.WriteString(s)
			}
		case RoleUser:
			if err := pelicanUserContent(&b, m.Content); err != nil {
				return "", err
			}
		}
		// Any other role (a later system message included) keeps only its
		// tags: upstream writes no content for it.
		b.WriteString("<|im_end|>\n")
	}
	b.WriteString("<|im_start|>assistant\n")
	return b.String(), nil
}

// pelicanToolCalls writes tool calls as pelican_vl_fc.py does: the call's
// "function" dict if it has one, dict arguments as json.dumps with
// ensure_ascii=False, other arguments as str().
func pelicanToolCalls(b *strings.Builder, calls *pyval.List) error {
	for _, call := range calls.Items {
		fn, err := get(call, "function", call)
		if err != nil {
			return err
		}
		name, err := item(fn, "name")
		if err != nil {
			return err
		}
		args, err := item(fn, "arguments")
		if err != nil {
			return err
		}
		argText := fstr(args)
		if isDict(args) {
			if argText, err = dumpsUnicode(args); err != nil {
				return err
			}
		}
		b.WriteString("<tool_call>\n{\"name\": \"" + fstr(name) + "\", \"arguments\": " + argText + "}\n</tool_call>")
	}
	return nil
}

// pelicanVision are the vision parts of a user message, checked in this
// order: the part's kind (or alt), and the placeholder the template writes.
var pelicanVision = []struct{ kind, alt, placeholder string }{
	{"image", "image_url", "<|vision_start|><|image_pad|><|vision_end|>"},
	{"video", "", "<|vision_start|><|video_pad|><|vision_end|>"},
}

// pelicanVisionPlaceholder is the placeholder of an image or video part,
// "" for any other part.
func pelicanVisionPlaceholder(part pyval.Value) (string, error) {
	for _, v := range pelicanVision {
		is, err := pelicanPartIs(part, v.kind, v.alt)
		if err != nil {
			return "", err
		}
		if is {
			return v.placeholder, nil
		}
	}
	return "", nil
}

// pelicanUserContent writes a user message's content: a str as it is; a
// list of parts as image / video placeholders and texts (add_vision_id is
// False upstream).
func pelicanUserContent(b *strings.Builder, content pyval.Value) error {
	switch c := content.(type) {
	case pyval.Str:
		b.WriteString(string(c))
	case *pyval.List:
		for _, part := range c.Items {
			placeholder, err := pelicanVisionPlaceholder(part)
			if err != nil {
				return err
			}
			if placeholder != "" {
				b.WriteString(placeholder)
				continue
			}
			t, hasText, err := itemIfIn(part, "text")
			if err != nil {
				return err
			}
			if hasText {
				s, err := concat("", t)
				if err != nil {
					return err
				}
				b.WriteString(s)
			}
		}
	}
	return nil
}

// pelicanPartIs is ('type' in part and part['type'] == kind) or kind in
// part (or alt in part).
func pelicanPartIs(part pyval.Value, kind, alt string) (bool, error) {
	if t, hasType, err := itemIfIn(part, "type"); err != nil {
		return false, err
	} else if hasType {
		if pyval.Equal(t, pyval.Str(kind)) {
			return true, nil
		}
	}
	if ok, err := in(kind, part); err != nil || ok {
		return ok, err
	}
	if alt == "" {
		return false, nil
	}
	return in(alt, part)
}

// ParseReply is QwenFCHandler's.
func (p *pelican) ParseReply(text string) (Reply, error) {
	reasoning, cleaned, _ := splitThink(text)
	h := toolCallHistory(text, cleaned)
	h.ReasoningContent = strPtr(reasoning)
	return Reply{Text: text, ModelResponses: pyval.Str(cleaned), Reasoning: reasoning, History: h}, nil
}
