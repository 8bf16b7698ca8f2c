package prompt

import (
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Conversation building of upstream's prompting handlers
// (OpenAICompletionsHandler's _pre_query_processing_prompting,
// add_first_turn_message_prompting, _add_next_turn_user_message_prompting,
// _add_assistant_message_prompting, _add_execution_results_prompting, and
// base_handler.inference_multi_turn_prompting). Messages are
// core.Message values (the same type as driver.Message).

// WithSystemPrompt is what system_prompt_pre_processing_chat_model does to
// the first turn once the prompt is built: an existing leading system
// message gets prompt + "\n\n" in front of its content, otherwise a system
// message is inserted first. first is not modified. An empty first turn is
// an error (upstream raises IndexError).
func WithSystemPrompt(first []core.Message, systemPrompt string) ([]core.Message, error) {
	if len(first) == 0 {
		return nil, fmt.Errorf("prompt: the first turn has no message to put the system prompt in front of")
	}
	out := make([]core.Message, 0, len(first)+1)
	if first[0].Role == core.RoleSystem {
		m := first[0]
		m.Content = systemPrompt + "\n\n" + m.Content
		out = append(out, m)
		return append(out, first[1:]...), nil
	}
	out = append(out, core.Message{Role: core.RoleSystem, Content: systemPrompt})
	return append(out, first...), nil
}

// FirstTurn is system_prompt_pre_processing_chat_model for an entry's
// first turn: the configuration is taken from the entry id
// (ConfigOfEntry), the system prompt built from functions (the entry's
// inference-time documents, dataset.InferenceView) and merged into the
// turn's messages.
func FirstTurn(entryID string, functions []json.RawMessage, first []dataset.Message) ([]core.Message, error) {
	cfg, err := ConfigOfEntry(entryID)
	if err != nil {
		return nil, err
	}
	sp, err := SystemPrompt(cfg, functions)
	if err != nil {
		return nil, fmt.Errorf("prompt: entry %s: %w", entryID, err)
	}
	msgs, err := WithSystemPrompt(Messages(first), sp)
	if err != nil {
		return nil, fmt.Errorf("prompt: entry %s: %w", entryID, err)
	}
	return msgs, nil
}

// Messages converts data-set messages to chat messages unchanged.
func Messages(ms []dataset.Message) []core.Message {
	out := make([]core.Message, len(ms))
	for i, m := range ms {
		out[i] = core.Message{Role: m.Role, Content: m.Content}
	}
	return out
}

// HoldoutMessage is the user message of a miss_func turn whose held-out
// functions become available in prompt mode:
// DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_PROMPTING formatted with the
// documents as Python prints the list (str(list of dicts)), followed by
// the FC-mode sentence. docs are the held-out documents as the data set has
// them (upstream adds no language hint to them).
func HoldoutMessage(docs []json.RawMessage) (core.Message, error) {
	items := make([]pyval.Value, len(docs))
	for i, raw := range docs {
		v, err := pyval.FromJSON(raw)
		if err != nil {
			return core.Message{}, fmt.Errorf("prompt: held-out function document %d is not valid JSON: %w", i, err)
		}
		items[i] = v
	}
	content, err := pyval.FormatFields(userPromptForAdditionalFunctionPrompting, map[string]pyval.Value{
		"functions": pyval.NewList(items...),
	})
	if err != nil {
		return core.Message{}, err
	}
	return core.Message{Role: core.RoleUser, Content: content}, nil
}

// ExecutionResultsMessage is how prompting handlers return tool results:
// one user message whose content is format_execution_results_prompting,
// i.e. repr() of [{'role': 'tool', 'name': <decoded call>, 'content':
// <result>}, ...] pairing results with the decoded calls (zip: the shorter
// list decides the length).
func ExecutionResultsMessage(results, decodedCalls []string) core.Message {
	n := min(len(results), len(decodedCalls))
	items := make([]pyval.Value, n)
	for i := 0; i < n; i++ {
		d := pyval.NewDictCap(3)
		d.SetStr("role", pyval.Str("tool"))
		d.SetStr("name", pyval.Str(decodedCalls[i]))
		d.SetStr("content", pyval.Str(results[i]))
		items[i] = d
	}
	return core.Message{Role: core.RoleUser, Content: pyval.Repr(pyval.NewList(items...))}
}

// AssistantMessage is the assistant message a prompting handler appends
// after each model answer: the answer text (reasoning is never sent back).
func AssistantMessage(text string) core.Message {
	return core.Message{Role: core.RoleAssistant, Content: text}
}
