package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// nemotronSystemPrompt is NemotronHandler's system_prompt_template
// (bfcl_eval/model_handler/api_inference/nemotron.py at the pin), with
// {functions} and {user_prompt} as the places str.format fills.
const nemotronSystemPrompt = `You are an expert in composing functions. You are given a question and a set of possible functions.
Based on the question, you will need to make one or more function/tool calls to achieve the purpose.
If none of the function can be used, point it out. If the given question lacks the parameters required by the function,
also point it out. You should only return the function call in tools call sections.

If you decide to invoke any of the function(s), you MUST put it in the format of <TOOLCALL>[func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]</TOOLCALL>

You SHOULD NOT include any other text in the response.
Here is a list of functions in JSON format that you can invoke.

<AVAILABLE_TOOLS>{functions}</AVAILABLE_TOOLS>

{user_prompt}`

// nemotronFC tells NemotronHandler's FC mode: its _query_FC is
// OpenAICompletionsHandler._query_prompting (messages, model, temperature,
// store; no tools), its _pre_query_processing_FC turns the question's
// system messages into user messages, combines consecutive user messages
// and folds the first one, with the entry's functions, into its own system
// prompt. Its answers are texts (<TOOLCALL>[...]</TOOLCALL>) with no
// tool-call ids, so no tool result is ever sent back.
func (d *Driver) nemotronFC() bool {
	return d.cfg.Handler == "NemotronHandler" && d.cfg.Mode == core.ModeFC
}

// nemotronReplay is an assistant turn of NemotronHandler: the message as
// the server returned it, and how many of the request's functions the
// entry had before any held-out function was added (upstream formats the
// system prompt once, with the functions of the first request).
type nemotronReplay struct {
	Message   json.RawMessage `json:"message"`
	Functions int             `json:"functions"`
}

// nemotronMessages is the history as NemotronHandler sends it: the
// question messages rewritten (system -> user, consecutive user messages
// combined; in the history they follow each other only within one turn's
// question), the first user message folded into the system prompt with
// the entry's first functions (Python's str of the list of documents), and
// the assistant turns as returned.
//
// n is the number of the entry's first functions.
func nemotronMessages(msgs []core.Message, functions []json.RawMessage) (_ []core.Message, n int, err error) {
	n = len(functions)
	out := make([]core.Message, 0, len(msgs))
	for i, m := range msgs {
		switch m.Role {
		case core.RoleSystem:
			m.Role = core.RoleUser
		case core.RoleAssistant:
			if len(m.Replay) > 0 {
				var r nemotronReplay
				if err := json.Unmarshal(m.Replay, &r); err != nil || len(r.Message) == 0 {
					return nil, 0, fmt.Errorf("openai driver: message %d: not a NemotronHandler turn: %s", i, core.Excerpt(m.Replay))
				}
				if r.Functions < n {
					n = r.Functions
				}
				m.Replay = r.Message
			}
		}
		out = append(out, m)
	}
	if n > len(functions) || n < 0 {
		return nil, 0, fmt.Errorf("openai driver: NemotronHandler turn names %d functions of %d", n, len(functions))
	}
	out = combineUserMessages(out)
	docs := make([]pyval.Value, 0, n)
	for i, f := range functions[:n] {
		v, err := pyval.FromJSON(f)
		if err != nil {
			return nil, 0, fmt.Errorf("openai driver: function doc %d is not JSON: %w", i, err)
		}
		docs = append(docs, v)
	}
	userPrompt := ""
	for i, m := range out {
		if m.Role == core.RoleUser {
			userPrompt = m.Content
			out = append(out[:i:i], out[i+1:]...)
			break
		}
	}
	system := strings.NewReplacer("{functions}", pyval.Repr(pyval.NewList(docs...)), "{user_prompt}", userPrompt).Replace(nemotronSystemPrompt)
	return append([]core.Message{{Role: core.RoleSystem, Content: system}}, out...), n, nil
}
