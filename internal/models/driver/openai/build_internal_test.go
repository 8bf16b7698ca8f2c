package openai

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
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
		for _, req := range []core.Request{
			{Messages: msgs},
			{Messages: msgs, Functions: []json.RawMessage{doc, doc}, Temperature: 0.001, MaxTokens: 4096},
			{Messages: msgs[:2], Functions: []json.RawMessage{doc}, Seed: &seed},
			{Messages: msgs[:2], MaxTokens: 5, Seed: &seed},
		} {
			d, err := New(core.Config{Model: "m", BaseURL: "http://x/v1", Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.BuildRequest(req)
			if err != nil {
				t.Fatal(err)
			}
			w := wireRequest{Model: "m", Temperature: req.Temperature, MaxTokens: req.MaxTokens, Seed: req.Seed}
			if mode == core.ModeFC && len(req.Functions) > 0 {
				if w.Tools, err = core.ConvertFunctions(req.Functions, core.ProviderOpenAI, true); err != nil {
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
				t.Errorf("mode %s:\n got %s\nwant %s", mode, got, want)
			}
		}
	}
}

// TestBuildRequestEncodesMessagesAsEncodingJSON: the head written field by
// field, long messages remembered, is byte for byte encoding/json's
// encoding of wireHead, on the first request and on the next ones that
// resend the same messages.
func TestBuildRequestEncodesMessagesAsEncodingJSON(t *testing.T) {
	long := func(seed string) string {
		var b strings.Builder
		for b.Len() < 3*minRememberedContent {
			b.WriteString(seed)
		}
		return b.String()
	}
	tricky := "tab\t nl\n quote\" back\\ <html> & \u2028 \u2029 ✓ \x01 \x7f \xff bad utf-8 "
	result := long(tricky)
	msgs := []core.Message{
		{Role: core.RoleUser, Content: long("a long question " + tricky)},
		{Role: core.RoleAssistant, ToolCalls: []core.ToolCall{{ID: "c1", Name: "ls", Arguments: `{"a": true}`}}},
		{Role: core.RoleTool, Content: result, ToolCallID: "c1", Name: "ls"},
		{Role: core.RoleTool, Content: result, ToolCallID: "c2", Name: "ls"}, // same content, another call
		{Role: core.RoleAssistant, Content: long("done ")},
		{Role: core.RoleUser, Content: "short <one>"},
	}
	reference := func(model string, req core.Request) []byte {
		w := wireHead{Model: model, Temperature: req.Temperature, Messages: []wireMessage{}}
		for _, m := range req.Messages {
			content := m.Content
			wm := wireMessage{Role: m.Role, Content: &content}
			if m.Role == core.RoleAssistant && len(m.ToolCalls) > 0 {
				if content == "" {
					wm.Content = nil
				}
				for _, tc := range m.ToolCalls {
					wm.ToolCalls = append(wm.ToolCalls, core.ChatToolCall{ID: tc.ID, Type: "function", Function: core.ChatFunctionCall{Name: tc.Name, Arguments: tc.Arguments}})
				}
			}
			if m.Role == core.RoleTool {
				wm.ToolCallID = m.ToolCallID
			}
			w.Messages = append(w.Messages, wm)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(w); err != nil {
			t.Fatal(err)
		}
		b := bytes.TrimRight(buf.Bytes(), "\n")
		return append(b[:len(b)-1:len(b)-1], '}')
	}
	d, err := New(core.Config{Model: "m<&>", BaseURL: "http://x/v1", Mode: core.ModePrompt})
	if err != nil {
		t.Fatal(err)
	}
	for step := 1; step <= len(msgs); step++ {
		for again := 0; again < 2; again++ {
			req := core.Request{Messages: append([]core.Message(nil), msgs[:step]...), Temperature: 0.001}
			got, err := d.BuildRequest(req)
			if err != nil {
				t.Fatal(err)
			}
			if want := reference("m<&>", req); !bytes.Equal(got, want) {
				t.Fatalf("step %d (again %d):\n got %.300s\nwant %.300s", step, again, got, want)
			}
		}
	}
	if _, ok := messageEncodings.Get(messageKey{role: core.RoleTool, toolCallID: "c2", content: unsafe.StringData(result), n: len(result)}); !ok {
		t.Error("the long tool result was not remembered")
	}
}
