package oss

import (
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Conversation is the state of one entry's inference the way upstream's
// inference_single_turn_prompting / inference_multi_turn_prompting keep
// it for a local model: the message history (inference_data["message"])
// and the function documents (inference_data["function"]), grown through
// the class's hooks.
//
// A driver runs an entry as:
//
//	c, err := oss.NewConversation(f, entry.ID, fns, turns, entry.MissedFuncDocs)
//	for t := 0; t < c.Turns(); t++ {
//		c.StartTurn(t)
//		for step := 0; ; step++ {
//			p, _ := c.Prompt()
//			req := c.Request(p, tokenizer.Count(p), ctx, oss.DefaultTemperature)
//			text := complete(req)                // POST /v1/completions
//			r, _ := c.AddReply(text)
//			calls, err := decode.DecodeExecuteValue(r.ModelResponses, decode.Options{Spec: decode.Spec{Handler: f.Class(), Mode: mode}})
//			if err != nil || len(calls) == 0 { break } // next turn
//			c.AddResults(execute(calls), calls, r)
//		}
//	}
type Conversation struct {
	f         Format
	entryID   string
	turns     [][]Message
	heldOut   map[int][]json.RawMessage
	functions []pyval.Value
	msgs      []Message
}

// NewConversation prepares an entry: turns are its question turns as
// upstream's handler receives them (the data set's, with the inference-time
// additions of dataset.InferenceView and, for memory entries, the memory
// instruction), functions its function documents (FunctionsFromJSON of the
// inference-view documents; the Conversation owns them from here on),
// heldOut the miss_func documents withheld until their turn
// (dataset.Entry.MissedFuncDocs, nil elsewhere). The class's Setup rewrites
// the turns once, here.
func NewConversation(f Format, entryID string, functions []pyval.Value, turns [][]Message, heldOut map[int][]json.RawMessage) (*Conversation, error) {
	ts, err := f.Setup(entryID, functions, turns)
	if err != nil {
		return nil, err
	}
	return &Conversation{f: f, entryID: entryID, turns: ts, heldOut: heldOut, functions: functions}, nil
}

// Format is the conversation's class.
func (c *Conversation) Format() Format { return c.f }

// Turns is the number of question turns.
func (c *Conversation) Turns() int { return len(c.turns) }

// Messages is the history so far (not a copy).
func (c *Conversation) Messages() []Message { return c.msgs }

// Functions are the function documents the formatter gets (not a copy;
// the formatter may have modified them, as upstream's does).
func (c *Conversation) Functions() []pyval.Value { return c.functions }

// StartTurn adds turn t's messages to the history and returns them (the
// begin_of_turn_query of upstream's log). A turn with held-out functions
// must have no message of its own: its message is
// DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING with the held-out
// documents (the function list itself does not change).
func (c *Conversation) StartTurn(t int) ([]Message, error) {
	if t < 0 || t >= len(c.turns) {
		return nil, fmt.Errorf("oss: entry %s has no turn %d", c.entryID, t)
	}
	msgs := c.turns[t]
	if docs, ok := c.heldOut[t]; ok {
		if len(msgs) != 0 {
			return nil, fmt.Errorf("oss: entry %s: held-out turn %d has a user message (upstream: AssertionError)", c.entryID, t)
		}
		m, err := prompt.HoldoutMessage(docs)
		if err != nil {
			return nil, err
		}
		msgs = []Message{Text(m.Role, m.Content)}
	}
	c.msgs = append(c.msgs, msgs...)
	return msgs, nil
}

// Prompt formats the history and functions. Like upstream's formatter it
// may modify the functions (HammerHandler) or the history
// (MiniCPMFCHandler): call it once per query.
func (c *Conversation) Prompt() (string, error) {
	if e, ok := c.f.(historyEditor); ok {
		p, msgs, err := e.promptEditing(c.msgs, c.functions)
		if err != nil {
			return "", err
		}
		c.msgs = msgs
		return p, nil
	}
	return c.f.Prompt(c.msgs, c.functions)
}

// historyEditor is a class whose formatter also edits the history it is
// given (MiniCPMFCHandler): promptEditing returns the prompt and the
// edited history.
type historyEditor interface {
	promptEditing(msgs []Message, functions []pyval.Value) (string, []Message, error)
}

// Request is the request for prompt (see NewRequest).
func (c *Conversation) Request(prompt string, promptTokens, contextWindow int, temperature float64) Request {
	return NewRequest(c.f, prompt, promptTokens, contextWindow, temperature)
}

// AddReply parses a completion and appends its assistant message.
func (c *Conversation) AddReply(text string) (Reply, error) {
	r, err := c.f.ParseReply(text)
	if err != nil {
		return Reply{}, err
	}
	c.msgs = append(c.msgs, r.History)
	return r, nil
}

// AddResults appends the execution results of reply's decoded calls.
func (c *Conversation) AddResults(results, decoded []string, reply Reply) {
	c.msgs = append(c.msgs, c.f.ExecutionResults(results, decoded, reply)...)
}
