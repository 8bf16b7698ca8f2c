package oss

import (
	"crypto/rand"
	"math/big"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// MistralFCHandler (local_inference/mistral_fc.py): Mistral's [INST] /
// [AVAILABLE_TOOLS] / [TOOL_CALLS] / [TOOL_RESULTS] format written by hand.
// A reply that is a JSON list of calls gets a random 9-character id per
// call, is kept in the history as "[TOOL_CALLS]" + json.dumps(calls) and is
// pre-decoded to [{name: arguments}]; the results go back as tool messages
// carrying those ids. The prompt has no generation prompt: it ends with
// the last [/INST] or [/TOOL_RESULTS].

type mistralFC struct {
	base
	newID func() string
}

func newMistralFC(model string) Format {
	return &mistralFC{base: newBase("MistralFCHandler", model).ownSystemPrompt(), newID: randomToolCallID}
}

// toolCallIDChars is string.ascii_letters + string.digits.
const toolCallIDChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// randomToolCallID is generate_random_string: 9 characters drawn from
// letters and digits (upstream uses the unseeded random module, so ids are
// never reproducible).
func randomToolCallID() string {
	b := make([]byte, 9)
	for i := range b {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(toolCallIDChars))))
		if err != nil {
			panic("oss: crypto/rand failed: " + err.Error())
		}
		b[i] = toolCallIDChars[n.Int64()]
	}
	return string(b)
}

// SetToolCallIDs replaces MistralFCHandler's random tool-call ids by gen
// (for reproducible runs and tests); it reports whether f is that class.
func SetToolCallIDs(f Format, gen func() string) bool {
	m, ok := f.(*mistralFC)
	if ok {
		m.newID = gen
	}
	return ok
}

func (m *mistralFC) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	if len(msgs) == 0 {
		return "", errNoMessages
	}
	var system pyval.Value = pyval.None
	loop := msgs
	if msgs[0].Role == RoleSystem {
		system, loop = orNone(msgs[0].Content), msgs[1:]
	}
	var lastUser *Message
	for i := range loop {
		if loop[i].Role == RoleUser {
			lastUser = &loop[i]
		}
	}
	var b strings.Builder
	b.WriteString("<s>")
	for idx, msg := range loop {
		switch msg.Role {
		case RoleUser:
			// Python ==: an earlier user message equal to the last one gets
			// the tools too.
			if len(functions) > 0 && equalMessages(msg, *lastUser) {
				docs, err := mistralFuncDoc(functions)
				if err != nil {
					return "", err
				}
				b.WriteString(docs)
			}
			if idx == len(loop)-1 && pyval.Truthy(system) {
				b.WriteString("[INST]" + fstr(system) + "\n\n" + fstr(msg.Content) + "[/INST]")
			} else {
				b.WriteString("[INST]" + fstr(msg.Content) + "[/INST]")
			}
		case RoleAssistant:
			b.WriteString(fstr(msg.Content) + "</s>")
		case RoleTool:
			if msg.ToolCallID == nil {
				return "", pyval.NewKeyError(pyval.Str("tool_call_id"))
			}
			d := pyval.NewDictCap(2)
			d.SetStr("content", orNone(msg.Content))
			d.SetStr("call_id", pyval.Str(*msg.ToolCallID))
			js, err := dumps(d)
			if err != nil {
				return "", err
			}
			b.WriteString("[TOOL_RESULTS]" + js + "[/TOOL_RESULTS]")
		}
	}
	return b.String(), nil
}

// mistralFuncDoc is _construct_func_doc: each document's items except
// "return", str values quoted as they are (no escaping), others as
// json.dumps.
func mistralFuncDoc(functions []pyval.Value) (string, error) {
	docs := make([]string, len(functions))
	for i, f := range functions {
		d, ok := f.(*pyval.Dict)
		if !ok {
			return "", pyval.NoAttribute(orNone(f), "items")
		}
		var parts []string
		for _, kv := range d.Items() {
			key := fstr(kv.Key)
			if pyval.Equal(kv.Key, pyval.Str("return")) {
				continue
			}
			if s, ok := kv.Value.(pyval.Str); ok {
				parts = append(parts, "\""+key+"\": \""+string(s)+"\"")
				continue
			}
			js, err := dumps(kv.Value)
			if err != nil {
				return "", err
			}
			parts = append(parts, "\""+key+"\": "+js)
		}
		docs[i] = "{\"type\": \"function\", \"function\": {" + strings.Join(parts, ", ") + "}}"
	}
	return "[AVAILABLE_TOOLS][" + strings.Join(docs, ", ") + "][/AVAILABLE_TOOLS]", nil
}

func (m *mistralFC) ParseReply(text string) (Reply, error) {
	r := Reply{Text: text, ModelResponses: pyval.Str(text), History: Text(RoleAssistant, text)}
	v, err := loads(text)
	if err != nil {
		return r, nil // JSONDecodeError: the text stays as it is
	}
	calls, err := pyval.Iterate(v)
	if err != nil {
		return Reply{}, err
	}
	var ids []string
	for _, c := range calls {
		id := m.newID()
		if err := pyval.SetItem(c, pyval.Str("id"), pyval.Str(id)); err != nil {
			return Reply{}, err
		}
		ids = append(ids, id)
	}
	js, err := dumps(v)
	if err != nil {
		return Reply{}, err
	}
	out := make([]pyval.Value, len(calls))
	for i, c := range calls {
		if out[i], err = nameArgs(c, false); err != nil {
			return Reply{}, err
		}
	}
	r.History = Text(RoleAssistant, "[TOOL_CALLS]"+js)
	r.ModelResponses = pyval.NewList(out...)
	r.ToolCallIDs = ids
	return r, nil
}

// ExecutionResults pairs the results with the reply's tool-call ids.
func (m *mistralFC) ExecutionResults(results, _ []string, reply Reply) []Message {
	n := min(len(results), len(reply.ToolCallIDs))
	out := make([]Message, n)
	for i := 0; i < n; i++ {
		out[i] = Message{Role: RoleTool, ToolCallID: strPtr(reply.ToolCallIDs[i]), Content: pyval.Str(results[i])}
	}
	return out
}
