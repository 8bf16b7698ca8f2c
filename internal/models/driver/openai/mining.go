package openai

import (
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
)

// miningPrompt tells MiningHandler's prompting methods (mining.py; the
// prompt-mode registry entries DM-Cito-8B-v3 and DM-Cito-32B-v1 run them
// as DMCitoHandler, its subclass). Their request is the base class's
// (_query_prompting: messages, model, temperature, store), with their own
// system prompt in the first turn (prompt.FirstTurnOf); the answer is
// stored parsed from its <tool_calls> block by the inference loop
// (prompt.MiningAnswer) and goes back into the history as returned.
func (d *Driver) miningPrompt() bool {
	return d.cfg.Mode == core.ModePrompt && prompt.HasMiningPrompt(d.cfg.Handler)
}

// miningAnswer checks that the answer has the text the class's parser
// searches: upstream's re.search on a null content raises TypeError, so
// an answer without one is an error rather than an empty answer.
func miningAnswer(out core.Response, handler string) (core.Response, error) {
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(out.Replay, &m); err != nil {
		return core.Response{}, core.DecodeError(core.ProviderOpenAI, out.Replay, err)
	}
	var s *string
	if len(m.Content) == 0 || json.Unmarshal(m.Content, &s) != nil || s == nil {
		return core.Response{}, core.DecodeError(core.ProviderOpenAI, out.Replay,
			fmt.Errorf("%s reads the answer from the message content, which is not a string here (upstream raises TypeError)", handler))
	}
	return out, nil
}
