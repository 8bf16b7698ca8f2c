package openai

import (
	"encoding/json"
	"testing"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
)

// TestStripReasoning: upstream's _add_reasoning_content_if_available_*
// (GrokHandler, DeepSeekAPIHandler, LingAPIHandler) history messages.
func TestStripReasoning(t *testing.T) {
	for _, c := range []struct {
		mode, in, want string
	}{
		{core.ModeFC, `{"role":"assistant","content":null,"reasoning_content":"think","refusal":null,"tool_calls":[{"id":"c1","type":"function","index":0,"function":{"name":"ls","arguments":"{}"}}]}`,
			`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]}`},
		{core.ModeFC, `{"role":"assistant","content":"hi","reasoning_content":null,"tool_calls":[]}`, `{"role":"assistant","content":"hi"}`},
		{core.ModeFC, `{"role":"assistant","content":"hi","refusal":null}`, `{"role":"assistant","content":"hi","refusal":null}`},
		{core.ModePrompt, `{"role":"assistant","content":"[f()]","reasoning_content":"think"}`, `{"role":"assistant","content":"[f()]"}`},
		{core.ModePrompt, `{"role":"assistant","content":null,"reasoning_content":"think"}`, `{"role":"assistant","content":"None"}`},
		{core.ModePrompt, `{"role":"assistant","content":"x","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]}`,
			`{"role":"assistant","content":"x","tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{}"}}]}`},
	} {
		got, err := stripReasoning(json.RawMessage(c.in), c.mode)
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		json.Unmarshal(got, &g)
		json.Unmarshal([]byte(c.want), &w)
		gb, _ := json.Marshal(g)
		wb, _ := json.Marshal(w)
		if string(gb) != string(wb) {
			t.Errorf("%s %s:\n got %s\nwant %s", c.mode, c.in, got, c.want)
		}
	}
}
