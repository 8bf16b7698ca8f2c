package openai

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/bfcl-go/bfcl/internal/driver/core"
)

// TestBuildRequestSplicesTheSameBytes: the body with pre-encoded tools is
// byte for byte the encoding of the whole wireRequest.
func TestBuildRequestSplicesTheSameBytes(t *testing.T) {
	doc := json.RawMessage(`{"name": "math.add", "description": "Adds <a> & <b>.", "parameters": {"type": "dict", "properties": {"a": {"type": "float", "description": "x"}}, "required": ["a"]}}`)
	seed := int64(7)
	msgs := []core.Message{
		{Role: core.RoleSystem, Content: "be <brief>"},
		{Role: core.RoleUser, Content: "add 1 & 2 ✓"},
		{Role: core.RoleAssistant, ToolCalls: []core.ToolCall{{ID: "c1", Name: "math_add", Arguments: `{"a": 1}`}}},
		{Role: core.RoleTool, Content: "3", ToolCallID: "c1", Name: "math_add"},
		{Role: core.RoleAssistant, Content: "3"},
	}
	for _, mode := range []string{core.ModeFC, core.ModePrompt} {
		for _, u2d := range []bool{false, true} {
			for _, req := range []core.Request{
				{Messages: msgs},
				{Messages: msgs, Functions: []json.RawMessage{doc, doc}, Temperature: 0.001, MaxTokens: 4096},
				{Messages: msgs[:2], Functions: []json.RawMessage{doc}, Seed: &seed},
				{Messages: msgs[:2], MaxTokens: 5, Seed: &seed},
			} {
				d, err := New(core.Config{Model: "m", BaseURL: "http://x/v1", Mode: mode, UnderscoreToDot: u2d})
				if err != nil {
					t.Fatal(err)
				}
				got, err := d.BuildRequest(req)
				if err != nil {
					t.Fatal(err)
				}
				w := wireRequest{Model: "m", Temperature: req.Temperature, MaxTokens: req.MaxTokens, Seed: req.Seed}
				if mode == core.ModeFC && len(req.Functions) > 0 {
					if w.Tools, err = core.ConvertFunctions(req.Functions, core.ProviderOpenAI, u2d); err != nil {
						t.Fatal(err)
					}
				}
				var hw wireHead
				if err := json.Unmarshal(got, &hw); err != nil {
					t.Fatalf("body is not JSON: %v\n%s", err, got)
				}
				w.Messages = hw.Messages
				var buf bytes.Buffer
				enc := json.NewEncoder(&buf)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(w); err != nil {
					t.Fatal(err)
				}
				if want := bytes.TrimRight(buf.Bytes(), "\n"); !bytes.Equal(got, want) {
					t.Errorf("mode %s u2d %v:\n got %s\nwant %s", mode, u2d, got, want)
				}
			}
		}
	}
}
