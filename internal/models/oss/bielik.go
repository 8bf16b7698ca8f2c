package oss

import "github.com/bfcl-go/bfcl/internal/python/pyval"

// BielikHandler (local_inference/bielik.py): prompt mode (BFCL's system
// prompt) in ChatML after a "<s>".
type bielik struct{ base }

func newBielik(model string) Format { return &bielik{newBase("BielikHandler", model)} }

func (b *bielik) Prompt(msgs []Message, _ []pyval.Value) (string, error) {
	return chatML("<s>", msgs), nil
}
