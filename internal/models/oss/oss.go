// Package oss reproduces upstream BFCL's local-inference ("OSS") handler
// classes (bfcl_eval/model_handler/local_inference/*.py at the pinned
// commit): each formats the whole prompt itself and sends it to an
// OpenAI-compatible /v1/completions endpoint.
//
// For every class this package holds, in one file per family:
//   - the prompt formatter (_format_prompt): history messages and function
//     documents to the exact prompt string;
//   - the request extras (stop_token_ids, skip_special_tokens) and the
//     served model id; max_tokens is MaxTokens, as OSSHandler._query_prompting
//     computes it;
//   - the reply parsing (_parse_query_response_prompting): reasoning split
//     off, model_responses for the decoder, the assistant message kept in
//     the history;
//   - how the conversation grows: the question rewrite of
//     _pre_query_processing_prompting (BFCL's prompt-mode system prompt or
//     not, role conversions), the assistant message, the execution-result
//     messages (role tool, ipython or user, as the class does).
//
// Conversation strings these together the way upstream's
// inference_multi_turn_prompting does (held-out functions of miss_func
// included). Decoding the replies is package decode's job
// (decode.DecodeExecuteValue with the class as Options.Handler).
//
// Upstream's formatters work on Python dicts and lists, and some of them
// read or even modify those in ways that show in the prompt (HammerHandler
// edits the function documents in place at every call; Qwen-style
// formatters compare tool calls with ==). Function documents are therefore
// pyval values, modified in place exactly as upstream modifies its dicts:
// give each entry its own copy (FunctionsFromJSON) and the same slice at
// every step of the entry.
package oss

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// DefaultTemperature is upstream's --temperature default
// (bfcl_eval/_llm_response_generation.py).
const DefaultTemperature = 0.001

// DefaultMaxTokens is the cap of OSSHandler._query_prompting: no request
// asks for more completion tokens (no class changes it).
const DefaultMaxTokens = 4096

// overflowMaxTokens is what OSSHandler._query_prompting asks for when the
// prompt alone does not fit the context window ("we will get an error
// anyway").
const overflowMaxTokens = 1000

// ErrNeedsChatTemplate is returned by the formatters of the classes that
// render the prompt with the model's own Hugging Face chat template
// (tokenizer.apply_chat_template) when they were made without it
// (ForClass), and wrapped by ForModel when the model's
// tokenizer_config.json cannot be found.
var ErrNeedsChatTemplate = errors.New("oss: this handler formats the prompt with the model's Hugging Face chat template (tokenizer.apply_chat_template), which needs the model's tokenizer_config.json")

// Format is one upstream local-inference handler class, bound to a model.
type Format interface {
	// Class is upstream's class name (e.g. "QwenFCHandler").
	Class() string
	// ServedModel is the model id sent in the request (upstream's
	// model_path_or_id when no local path is given: model_name, with "-FC"
	// removed by the classes that do so).
	ServedModel() string
	// Extras are the extra body fields of every request.
	Extras() Extras
	// Setup is _pre_query_processing_prompting: the entry's question turns
	// as the class rewrites them before the first query (the prompt-mode
	// system prompt merged into turn 0, roles converted, consecutive user
	// messages combined). turns are not modified; entryID selects the
	// prompt-mode configuration (format-sensitivity ids).
	Setup(entryID string, functions []pyval.Value, turns [][]Message) ([][]Message, error)
	// Prompt is _format_prompt: the exact prompt string. Like upstream it
	// may modify functions in place (HammerHandler does).
	Prompt(msgs []Message, functions []pyval.Value) (string, error)
	// ParseReply is _parse_query_response_prompting for the completion
	// text (choices[0].text).
	ParseReply(text string) (Reply, error)
	// ExecutionResults is _add_execution_results_prompting: the messages
	// that carry the results of one step back to the model. decoded are
	// the step's decoded calls (model_responses_decoded), reply the parsed
	// reply they came from.
	ExecutionResults(results, decoded []string, reply Reply) []Message
}

// Extras are the extra_body fields OSSHandler._query_prompting sends when
// the handler has the attribute.
type Extras struct {
	StopTokenIDs      []int // stop_token_ids; nil = not sent
	SkipSpecialTokens *bool // skip_special_tokens; nil = not sent
}

// Reply is a parsed completion (the model_response_data dict).
type Reply struct {
	// Text is the completion text as received.
	Text string
	// ModelResponses is model_responses, what the decoder gets: a str, or
	// a list of {name: arguments} dicts for the classes that pre-decode
	// (Granite3FCHandler, PhiFCHandler, ArchHandler, MistralFCHandler).
	ModelResponses pyval.Value
	// Reasoning is reasoning_content ("" when the class has none).
	Reasoning string
	// History is the assistant message appended to the history.
	History Message
	// ToolCallIDs are MistralFCHandler's generated tool-call ids.
	ToolCallIDs []string
}

// Request is the body of one /v1/completions request.
type Request struct {
	Model       string
	Prompt      string
	Temperature float64
	MaxTokens   int
	Extras
}

// MaxTokens is OSSHandler._query_prompting's max_tokens for a prompt of
// promptTokens tokens (the model tokenizer's count) and a model context of
// contextWindow tokens (max_position_embeddings): min(4096, context -
// prompt - 2), or 1000 when the prompt leaves less than 2 tokens.
func MaxTokens(promptTokens, contextWindow int) int {
	if contextWindow < promptTokens+2 {
		return overflowMaxTokens
	}
	return min(DefaultMaxTokens, contextWindow-promptTokens-2)
}

// NewRequest is the request OSSHandler._query_prompting sends for prompt.
func NewRequest(f Format, prompt string, promptTokens, contextWindow int, temperature float64) Request {
	return Request{Model: f.ServedModel(), Prompt: prompt, Temperature: temperature,
		MaxTokens: MaxTokens(promptTokens, contextWindow), Extras: f.Extras()}
}

// MarshalJSON writes the request body: model, prompt, temperature,
// max_tokens and the extra fields that are set.
func (r Request) MarshalJSON() ([]byte, error) {
	obj := pyval.OrderedObject{
		{Key: "model", Value: r.Model},
		{Key: "prompt", Value: r.Prompt},
		{Key: "temperature", Value: r.Temperature},
		{Key: "max_tokens", Value: r.MaxTokens},
	}
	if r.StopTokenIDs != nil {
		ids := make([]any, len(r.StopTokenIDs))
		for i, id := range r.StopTokenIDs {
			ids[i] = id
		}
		obj = append(obj, pyval.Field{Key: "stop_token_ids", Value: ids})
	}
	if r.SkipSpecialTokens != nil {
		obj = append(obj, pyval.Field{Key: "skip_special_tokens", Value: *r.SkipSpecialTokens})
	}
	return obj.MarshalJSON()
}

// constructor builds a class's Format for upstream's model_name.
type constructor func(model string) Format

// classes maps every local-inference class of the pinned commit to its
// constructor.
var classes = map[string]constructor{
	"QwenHandler":                   newQwen,
	"QwenFCHandler":                 newQwenFC,
	"LlamaHandler":                  newLlama,
	"LlamaHandler_3_1":              newLlama31,
	"HammerHandler":                 newHammer,
	"SalesforceLlamaHandler":        newSalesforceLlama,
	"SalesforceQwenHandler":         newSalesforceQwen,
	"BitAgentHandler":               newBitAgent,
	"GraniteFunctionCallingHandler": newGraniteFunctionCalling,
	"Granite3FCHandler":             newGranite3,
	"Granite4FCHandler":             newGranite4,
	"PhiHandler":                    newPhi,
	"PhiFCHandler":                  newPhiFC,
	"GemmaHandler":                  newGemma,
	"FunctionGemmaHandler":          newFunctionGemma,
	"MistralFCHandler":              newMistralFC,
	"DeepseekReasoningHandler":      newDeepseekReasoning,
	"GLMHandler":                    newGLM,
	"MiniCPMHandler":                newMiniCPM,
	"MiniCPMFCHandler":              newMiniCPMFC,
	"ArchHandler":                   newArch,
	"ThinkAgentHandler":             newThinkAgent,
	"NanbeigeFCHandler":             newNanbeige,
	"PelicanVLFCHandler":            newPelican,
	"BielikHandler":                 newBielik,
	"Falcon3FCHandler":              newFalcon3,
	"QuickTestingOSSHandler":        newQuickTesting,
}

// Classes lists the local-inference classes this package knows, sorted.
func Classes() []string { return slices.Sorted(maps.Keys(classes)) }

// ForClass returns the Format of an upstream class for a model; model is
// upstream's model_name (the Hugging Face id, e.g. "Qwen/Qwen3-8B"), which
// some classes read (LlamaHandler: Llama-4 tokens; PhiHandler: Phi-4-mini
// template) and which ServedModel derives from.
func ForClass(class, model string) (Format, bool) {
	c, ok := classes[class]
	if !ok {
		return nil, false
	}
	return c(model), true
}

// ForRegistry returns the Format of an entry of upstream's model registry
// (e.g. "Qwen/Qwen3-8B-FC"): its handler class with its model_name.
func ForRegistry(name string) (Format, error) {
	e, ok := upstream.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("oss: %q is not a model of upstream's registry", name)
	}
	f, ok := ForClass(e.Handler, e.ModelName)
	if !ok {
		return nil, fmt.Errorf("oss: %s uses %s, which is not a local-inference (completions) handler", name, e.Handler)
	}
	return f, nil
}

// FunctionsFromJSON parses function documents as json.loads does, in
// order: the values a Format gets (and may modify).
func FunctionsFromJSON(docs []json.RawMessage) ([]pyval.Value, error) {
	out := make([]pyval.Value, len(docs))
	for i, raw := range docs {
		v, err := pyval.FromJSON(raw)
		if err != nil {
			return nil, fmt.Errorf("oss: function document %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// functionsJSON writes function documents back as JSON (json.dumps), for
// the helpers of other packages that take raw documents.
func functionsJSON(functions []pyval.Value) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(functions))
	for i, f := range functions {
		s, err := pyval.JSONDumps(f)
		if err != nil {
			return nil, fmt.Errorf("oss: function document %d: %w", i, err)
		}
		out[i] = json.RawMessage(s)
	}
	return out, nil
}

// base holds what every class has: its name, upstream's model_name and the
// served model id. Its methods are OSSHandler's defaults.
type base struct {
	class  string
	model  string // model_name
	served string // model_name_huggingface
	// ownSystem: the class's template carries the functions itself, so
	// Setup leaves the question as it is (see ownSystemPrompt).
	ownSystem bool
}

func newBase(class, model string) base { return base{class: class, model: model, served: model} }

// withoutFC is the base of the classes that send model_name.replace("-FC", "").
func withoutFC(class, model string) base {
	return base{class: class, model: model, served: strings.ReplaceAll(model, "-FC", "")}
}

func (b *base) Class() string       { return b.class }
func (b *base) ServedModel() string { return b.served }
func (b *base) Extras() Extras      { return Extras{} }

// ownSystemPrompt marks b as the base of a class whose template carries the
// functions itself.
func (b base) ownSystemPrompt() base {
	b.ownSystem = true
	return b
}

// Setup is OSSHandler._pre_query_processing_prompting: the prompt-mode
// system prompt merged into the first turn; the classes whose template
// carries the functions (ownSystem) override it to leave the question as
// it is.
func (b *base) Setup(entryID string, functions []pyval.Value, turns [][]Message) ([][]Message, error) {
	if b.ownSystem {
		return ownSystemPrompt(turns), nil
	}
	return withSystemPrompt(entryID, functions, turns)
}

// ParseReply is OSSHandler._parse_query_response_prompting with
// _add_assistant_message_prompting: the text as it is.
func (b *base) ParseReply(text string) (Reply, error) {
	return Reply{Text: text, ModelResponses: pyval.Str(text), History: Text(RoleAssistant, text)}, nil
}

// ExecutionResults is OSSHandler._add_execution_results_prompting: one
// tool message per result, named after its decoded call (zip: the
// shorter list decides).
func (b *base) ExecutionResults(results, decoded []string, _ Reply) []Message {
	return toolMessages(results, decoded)
}

func toolMessages(results, decoded []string) []Message {
	n := min(len(results), len(decoded))
	out := make([]Message, n)
	for i := 0; i < n; i++ {
		out[i] = Message{Role: RoleTool, Name: strPtr(decoded[i]), Content: pyval.Str(results[i])}
	}
	return out
}

// ownSystemPrompt is the Setup of the classes whose template carries the
// functions itself: the question is left as it is.
func ownSystemPrompt(turns [][]Message) [][]Message { return copyTurns(turns) }
