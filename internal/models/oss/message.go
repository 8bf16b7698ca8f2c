package oss

import (
	"fmt"

	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Roles that upstream's local-inference histories use.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
	RoleIPython   = "ipython" // LlamaHandler's execution results
)

// Message is one dict of upstream's message history (inference_data
// ["message"]). Optional keys are present when their field is non-nil;
// Dict writes them in the order upstream's dicts have them.
type Message struct {
	Role string
	// Name is "name": the decoded call of a tool result (OSSHandler).
	Name *string
	// ToolCallID is "tool_call_id" (MistralFCHandler's tool results).
	ToolCallID *string
	// Content is "content": a str for nearly every message; None for
	// ArchHandler's tool-call message; a list of {"role", "name",
	// "content"} dicts for DeepseekReasoningHandler's tool results.
	Content pyval.Value
	// ToolCalls is "tool_calls": the parsed <tool_call> blocks of an
	// assistant message (QwenFCHandler, Granite4FCHandler, ArchHandler,
	// NanbeigeFCHandler, PelicanVLFCHandler).
	ToolCalls *pyval.List
	// ReasoningContent is "reasoning_content" (QwenHandler, QwenFCHandler,
	// NanbeigeFCHandler, PelicanVLFCHandler keep it, possibly "").
	ReasoningContent *string
}

// Text is a message with a str content and no other keys.
func Text(role, content string) Message { return Message{Role: role, Content: pyval.Str(content)} }

func strPtr(s string) *string { return &s }

// ContentText returns the content when it is a str.
func (m Message) ContentText() (string, bool) {
	s, ok := m.Content.(pyval.Str)
	return string(s), ok
}

// Dict is the message as upstream's dict: role, name, tool_call_id,
// content, tool_calls, reasoning_content, each when present.
func (m Message) Dict() *pyval.Dict {
	d := pyval.NewDictCap(4)
	d.SetStr("role", pyval.Str(m.Role))
	if m.Name != nil {
		d.SetStr("name", pyval.Str(*m.Name))
	}
	if m.ToolCallID != nil {
		d.SetStr("tool_call_id", pyval.Str(*m.ToolCallID))
	}
	content := m.Content
	if content == nil {
		content = pyval.None
	}
	d.SetStr("content", content)
	if m.ToolCalls != nil {
		d.SetStr("tool_calls", m.ToolCalls)
	}
	if m.ReasoningContent != nil {
		d.SetStr("reasoning_content", pyval.Str(*m.ReasoningContent))
	}
	return d
}

// MessageFromDict reads a history dict (e.g. json.loads of a logged
// message). Keys other than Message's are an error.
func MessageFromDict(v pyval.Value) (Message, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return Message{}, fmt.Errorf("oss: a message is a dict, not %s", v.TypeName())
	}
	var m Message
	str := func(key string, x pyval.Value) (*string, error) {
		s, ok := x.(pyval.Str)
		if !ok {
			return nil, fmt.Errorf("oss: message %q is a %s, not a str", key, x.TypeName())
		}
		return strPtr(string(s)), nil
	}
	for _, kv := range d.Items() {
		key, _ := kv.Key.(pyval.Str)
		var err error
		switch key {
		case "role":
			var r *string
			if r, err = str("role", kv.Value); err == nil {
				m.Role = *r
			}
		case "name":
			m.Name, err = str("name", kv.Value)
		case "tool_call_id":
			m.ToolCallID, err = str("tool_call_id", kv.Value)
		case "content":
			m.Content = kv.Value
		case "tool_calls":
			l, ok := kv.Value.(*pyval.List)
			if !ok {
				return Message{}, fmt.Errorf("oss: message tool_calls is a %s, not a list", kv.Value.TypeName())
			}
			m.ToolCalls = l
		case "reasoning_content":
			m.ReasoningContent, err = str("reasoning_content", kv.Value)
		default:
			return Message{}, fmt.Errorf("oss: unknown message key %s", pyval.Repr(kv.Key))
		}
		if err != nil {
			return Message{}, err
		}
	}
	if m.Content == nil {
		return Message{}, fmt.Errorf("oss: message without content")
	}
	return m, nil
}

// MessagesFromDicts reads a list of history dicts.
func MessagesFromDicts(v pyval.Value) ([]Message, error) {
	items, err := pyval.ListOf(v)
	if err != nil {
		return nil, err
	}
	out := make([]Message, len(items))
	for i, it := range items {
		if out[i], err = MessageFromDict(it); err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
	}
	return out, nil
}

// DictList is the history as upstream's list of dicts.
func DictList(msgs []Message) *pyval.List {
	items := make([]pyval.Value, len(msgs))
	for i, m := range msgs {
		items[i] = m.Dict()
	}
	return pyval.NewList(items...)
}

// equalMessages is Python's == on two history dicts.
func equalMessages(a, b Message) bool { return pyval.Equal(a.Dict(), b.Dict()) }

func copyTurns(turns [][]Message) [][]Message {
	out := make([][]Message, len(turns))
	for i, t := range turns {
		out[i] = append([]Message(nil), t...)
	}
	return out
}

// withSystemPrompt is system_prompt_pre_processing_chat_model on the first
// turn (bfcl_eval/model_handler/utils.py): BFCL's prompt-mode system prompt
// for the entry's configuration, put in front of an existing leading system
// message ("\n\n" between) or inserted as a new first message.
func withSystemPrompt(entryID string, functions []pyval.Value, turns [][]Message) ([][]Message, error) {
	out := copyTurns(turns)
	if len(out) == 0 || len(out[0]) == 0 {
		return nil, fmt.Errorf("oss: entry %s: the first turn has no message to put the system prompt in front of (upstream: IndexError)", entryID)
	}
	cfg, err := prompt.ConfigOfEntry(entryID)
	if err != nil {
		return nil, err
	}
	docs, err := functionsJSON(functions)
	if err != nil {
		return nil, err
	}
	sp, err := prompt.SystemPrompt(cfg, docs)
	if err != nil {
		return nil, fmt.Errorf("oss: entry %s: %w", entryID, err)
	}
	first := out[0]
	if first[0].Role == RoleSystem {
		content, err := strConcat(pyval.Str(sp+"\n\n"), first[0].Content)
		if err != nil {
			return nil, err
		}
		first[0].Content = content
		return out, nil
	}
	out[0] = append([]Message{Text(RoleSystem, sp)}, first...)
	return out, nil
}

// systemToUser is convert_system_prompt_into_user_prompt on one turn.
func systemToUser(turn []Message) []Message {
	out := append([]Message(nil), turn...)
	for i := range out {
		if out[i].Role == RoleSystem {
			out[i].Role = RoleUser
		}
	}
	return out
}

// combineUserMessages is combine_consecutive_user_prompts on one turn: a
// user message that follows a user message is appended to it with "\n\n".
func combineUserMessages(turn []Message) ([]Message, error) {
	var out []Message
	for _, m := range turn {
		if m.Role == RoleUser && len(out) > 0 && out[len(out)-1].Role == RoleUser {
			c, err := strConcat(out[len(out)-1].Content, pyval.Str("\n\n"))
			if err == nil {
				c, err = strConcat(c, m.Content)
			}
			if err != nil {
				return nil, err
			}
			out[len(out)-1].Content = c
			continue
		}
		out = append(out, m)
	}
	return out, nil
}
