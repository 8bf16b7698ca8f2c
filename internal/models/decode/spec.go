package decode

import "fmt"

// Spec is how one model's answers are decoded and checked, built once
// from its registry entry (a models.yaml entry, or an upstream registry
// name, as upstream's model_config.py entry gives them) and carried
// unchanged to the inference loop, the decoders and the checkers.
type Spec struct {
	// Mode is ModeFC or ModePrompt; "" means FC for decoding and "detect
	// per record" for scoring.
	Mode string
	// UnderscoreToDot is upstream's model-config flag: the model saw tool
	// names with "." replaced by "_". Decoding does not rename anything
	// (upstream does not either); the AST checker compares against the
	// converted expected name.
	UnderscoreToDot bool
	// Handler is the upstream handler class (e.g. "QwenFCHandler") whose
	// decode_ast / decode_execute to reproduce; Mode then plays the part
	// of its is_fc_model. "" keeps the default decoders chosen by Mode.
	// An unknown class is an error (see CheckHandler).
	Handler string
}

// WithMode is s with another mode (a category that exists in one mode
// only, a mode detected from the record).
func (s Spec) WithMode(mode string) Spec {
	s.Mode = mode
	return s
}

// String describes the spec for logs.
func (s Spec) String() string {
	mode, handler := s.Mode, s.Handler
	if mode == "" {
		mode = "detected per record"
	}
	if handler == "" {
		handler = "default decoders"
	}
	return fmt.Sprintf("mode %s, underscore_to_dot %v, handler %s", mode, s.UnderscoreToDot, handler)
}
