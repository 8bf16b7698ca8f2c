package oss

import "github.com/bfcl-go/bfcl/internal/python/pyval"

// Falcon3FCHandler (local_inference/falcon_fc.py) and
// QuickTestingOSSHandler (local_inference/quick_testing_oss.py) let the
// model's Hugging Face tokenizer render the prompt
// (tokenizer.apply_chat_template(messages, tools=function, ...)): their
// Prompt returns ErrNeedsChatTemplate. Everything else is OSSHandler's
// (Falcon3FCHandler: no system prompt added, the functions go to the
// template).

type chatTemplate struct{ base }

func newFalcon3(model string) Format {
	return &chatTemplate{base: newBase("Falcon3FCHandler", model).ownSystemPrompt()}
}

func newQuickTesting(model string) Format {
	return &chatTemplate{base: newBase("QuickTestingOSSHandler", model)}
}

func (c *chatTemplate) Prompt([]Message, []pyval.Value) (string, error) {
	return "", ErrNeedsChatTemplate
}
