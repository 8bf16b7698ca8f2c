package oss

import (
	"github.com/bfcl-go/bfcl/internal/models/chattemplate"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Falcon3FCHandler (local_inference/falcon_fc.py) and
// QuickTestingOSSHandler (local_inference/quick_testing_oss.py) let the
// model's Hugging Face tokenizer render the prompt:
//
//	Falcon3FCHandler:       tokenizer.apply_chat_template(messages, tools=function, tokenize=False, add_generation_prompt=True)
//	QuickTestingOSSHandler: tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
//
// Everything else is OSSHandler's: no stop tokens and no extra body,
// max_tokens as MaxTokens, the reply as it is, tool results as role tool
// named after the decoded call. Falcon3FCHandler adds no system prompt
// (its _pre_query_processing_prompting leaves the question as it is; the
// functions go to the template); QuickTestingOSSHandler keeps OSSHandler's
// prompt-mode system prompt.
//
// The format from ForClass has no template and its Prompt returns
// ErrNeedsChatTemplate; ForModel gives it the model's template (see
// chattemplate_source.go).
type chatTemplate struct {
	base
	tok *chattemplate.Tokenizer // nil: the template was not looked for
	// tools: the functions are passed as tools= (Falcon3FCHandler).
	tools bool
}

func newFalcon3(model string) Format {
	return &chatTemplate{base: newBase("Falcon3FCHandler", model).ownSystemPrompt(), tools: true}
}

func newQuickTesting(model string) Format {
	return &chatTemplate{base: newBase("QuickTestingOSSHandler", model)}
}

// Prompt is the class's _format_prompt: the history dicts rendered by the
// model's chat template with add_generation_prompt=True, and for
// Falcon3FCHandler tools= the entry's function documents as they are
// (BFCL's dicts, not converted to another tool format).
func (c *chatTemplate) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	if c.tok == nil {
		return "", ErrNeedsChatTemplate
	}
	dicts := make([]pyval.Value, len(msgs))
	for i, m := range msgs {
		dicts[i] = m.Dict()
	}
	opts := chattemplate.Options{AddGenerationPrompt: true}
	if c.tools {
		opts.Tools = functions
		if opts.Tools == nil {
			opts.Tools = []pyval.Value{} // test_entry["function"] is a list, never None
		}
	}
	return c.tok.Apply(dicts, opts)
}
