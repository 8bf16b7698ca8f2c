// Package core holds what every model driver shares: the message and
// response types, the driver configuration, typed errors, the retry loop, the
// HTTP exchange recorder and the conversion of BFCL function docs into each
// provider's tool schema. Package driver re-exports these names and adds the
// provider dispatch (New); the provider packages import core, never driver,
// so there is no import cycle.
package core

import (
	"context"
	"encoding/json"
	"time"

	"github.com/bfcl-go/bfcl/internal/config/corrections"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
)

// Message roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Modes.
const (
	ModeFC     = "fc"
	ModePrompt = "prompt"
)

// Provider names accepted by Config.Provider.
const (
	ProviderOllama    = "ollama"
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	ProviderGemini    = "gemini"
	// ProviderResponses is the OpenAI Responses API (upstream's
	// OpenAIResponsesHandler).
	ProviderResponses = "responses"
	// ProviderCompletions is raw prompts to an OpenAI-compatible
	// /completions route (upstream's local-model handlers; provider openai
	// takes the same route for them).
	ProviderCompletions = "completions"
	// Hosted APIs of upstream's registry (see their packages).
	ProviderMistral = "mistral"
	ProviderCohere  = "cohere"
	ProviderBedrock = "bedrock"
	ProviderQwen    = "qwen"
	// ProviderWriter is Writer's chat API (upstream's WriterHandler) and
	// ProviderGorilla the Gorilla OpenFunctions server (GorillaHandler).
	ProviderWriter  = "writer"
	ProviderGorilla = "gorilla"
)

// Message is one chat message in provider-neutral form.
type Message struct {
	// Role is system, user, assistant or tool.
	Role    string
	Content string
	// ToolCalls are the calls of an assistant message (FC mode).
	ToolCalls []ToolCall
	// ToolCallID links a tool message to the call it answers (OpenAI,
	// Ollama, Anthropic). Name is the function name of a tool message
	// (Gemini answers by name; Ollama sends it as tool_name; prompt-mode
	// OSS-style tool messages carry the decoded call here). When Name is
	// empty on a tool message, drivers that need it look it up from
	// ToolCallID in the preceding assistant message.
	ToolCallID, Name string
	// Reasoning is kept for logs and never sent back to the model.
	Reasoning string
	// Replay is the provider's own encoding of an assistant turn, copied
	// verbatim from Response.Replay by the inference loop. Drivers that
	// must echo the exact prior turn (Gemini thought signatures, Anthropic
	// content blocks) send it instead of rebuilding the turn from Content
	// and ToolCalls. It is ignored by other drivers and when empty.
	Replay json.RawMessage
}

// ToolCall is one function call requested by the model.
type ToolCall struct {
	ID   string
	Name string
	// Arguments is the raw JSON text exactly as the model sent it (it may
	// be malformed; decoding is the caller's business). Providers that
	// deliver an object (Ollama, Gemini, Anthropic) are re-encoded
	// compactly with the key order of the wire.
	Arguments string
}

// Request is one completion request.
type Request struct {
	Messages []Message
	// Functions are BFCL function docs as in the dataset; nil in prompt
	// mode. They are converted with ConvertFunctions for the provider.
	Functions   []json.RawMessage
	Temperature float64
	// MaxTokens caps the generated tokens; 0 leaves the provider default
	// (Anthropic requires a value: 0 means upstream's 64000).
	MaxTokens int
	Seed      *int64
	// Prompt is a whole formatted prompt: the request of one of upstream's
	// local-model handlers (internal/models/oss writes it), which only the
	// raw-prompt drivers (internal/models/driver/completions) send.
	// Messages and Functions are then empty.
	Prompt string `json:",omitempty"`
	// EntryID is the data-set entry the request belongs to: upstream's
	// ClaudeHandler marks cache points only in multi-turn and agentic
	// entries (contain_multi_turn_interaction of the id's category).
	EntryID string
}

// Response is the model's answer.
type Response struct {
	Text      string
	ToolCalls []ToolCall
	// Reasoning is the model's reasoning or thinking text, if exposed.
	Reasoning                 string
	InputTokens, OutputTokens int
	// Latency is the wall time of the successful attempt.
	Latency time.Duration
	// Raw is the provider response body, for logs.
	Raw json.RawMessage
	// Request is the request body sent in the successful attempt, for the
	// input log (nil for drivers that make no HTTP request).
	Request json.RawMessage
	// Replay: see Message.Replay. The loop copies it into the assistant
	// message it appends to the history.
	Replay json.RawMessage
	// Result, when set, is the answer as upstream's handler stores it in
	// the result file (its model_responses), for handlers whose stored
	// form is not the default list of {name: arguments text} or the text:
	// CohereHandler's [{"tool_name","parameters"}], NovaHandler's
	// [{name: arguments object}] or list of texts, GorillaHandler's
	// message content as it came (null too). FC mode only. Omitted
	// from JSON when nil, so a recorded response (internal/cache/reqcache)
	// keeps nil apart from a stored null.
	Result json.RawMessage `json:",omitempty"`
}

// Driver talks to one model server.
type Driver interface {
	Complete(ctx context.Context, req Request) (Response, error)
	Name() string
}

// Config selects and configures a driver.
type Config struct {
	Provider, Model, BaseURL, APIKey string
	// APIKeyEnv names the environment variable the key came from (the
	// registry entry's api_key_env), for error messages; drivers of
	// hosted APIs read their provider's variable when APIKey is empty.
	APIKeyEnv string
	// Mode is fc or prompt ("" means fc).
	Mode string
	// NumCtx is Ollama's context window (num_ctx); 0 means 8192.
	NumCtx int
	// Timeout bounds one HTTP attempt; 0 means 10 minutes.
	Timeout time.Duration
	// MaxRetries bounds retries of retryable failures; 0 means 5, negative
	// means none.
	MaxRetries int
	// RetryBaseDelay is the first backoff step (doubling up to
	// RetryMaxDelay); 0 means 2 s. RetryMaxDelay 0 means 60 s.
	RetryBaseDelay, RetryMaxDelay time.Duration
	// MaxResponseBytes bounds a response body; a longer answer is an
	// error (not retried). 0 means DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// BaseURLs are replicas of one server (a registry entry's base_urls):
	// with more than one, each request goes to the least-loaded healthy
	// one (internal/run/replica). BaseURL, when empty, is the first.
	BaseURLs []string
	// Handler is the upstream handler class the model runs under, and
	// UpstreamModel upstream's model_name for it (the Hugging Face id some
	// classes read). When Handler is one of upstream's local-model classes
	// (internal/models/oss), New returns the raw-prompt driver
	// (internal/models/driver/completions) for provider openai or
	// completions (POST /completions) and ollama (raw /api/generate). The
	// chat driver sends the request variant of a subclass that changes its
	// base class's request (NovitaHandler, GLMAPIHandler); other classes
	// and "" send the base format.
	Handler, UpstreamModel string
	// ContextWindow is the model's context window in tokens, for a
	// local-model handler's max_tokens (upstream: the model's
	// max_position_embeddings); 0 asks the server.
	ContextWindow int
	// MaxInFlight, when positive, caps the requests in flight and adapts
	// the cap to the server's 429s (internal/run/limiter).
	MaxInFlight int
	// Corrections are the opt-in corrections of upstream defects that are
	// on (the zero value: the pinned upstream behaviour).
	Corrections corrections.Set
	// UnderscoreToDot is the model's underscore_to_dot setting; the drivers
	// read it only under the underscore-to-dot-names correction (see
	// ToolNamesUnderscored).
	UnderscoreToDot bool
	// Headers are extra HTTP headers of every request (upstream's
	// OPENAI_DEFAULT_HEADERS).
	Headers map[string]string
	// StripReasoning: an assistant message that carries reasoning_content
	// goes back into the history rebuilt without it (upstream's
	// _add_reasoning_content_if_available_*, used by GrokHandler,
	// DeepSeekAPIHandler and LingAPIHandler); the chat driver only.
	StripReasoning bool
}

// ToolNamesUnderscored reports whether "." in tool names is sent as "_"
// by the drivers of upstream's API handlers: always, as upstream's
// convert_to_tool does for every API model style (utils.py), unless the
// underscore-to-dot-names correction is on, which follows the model's
// underscore_to_dot setting (gorilla PR #1346).
func (cfg Config) ToolNamesUnderscored() bool {
	if cfg.Corrections.Has(corrections.UnderscoreToDotNames) {
		return cfg.UnderscoreToDot
	}
	return true
}

// Defaults applied by Normalize.
const (
	DefaultNumCtx         = 8192
	DefaultTimeout        = 10 * time.Minute
	DefaultMaxRetries     = 5
	DefaultRetryBaseDelay = 2 * time.Second
	DefaultRetryMaxDelay  = 60 * time.Second
	// DefaultMaxResponseBytes is the harness-wide body bound (64 MiB).
	DefaultMaxResponseBytes = netguard.DefaultMaxBody
)

// Normalize returns cfg with defaults filled in.
func (cfg Config) Normalize() Config {
	if cfg.BaseURL == "" && len(cfg.BaseURLs) > 0 {
		cfg.BaseURL = cfg.BaseURLs[0]
	}
	if cfg.Mode == "" {
		cfg.Mode = ModeFC
	}
	if cfg.NumCtx == 0 {
		cfg.NumCtx = DefaultNumCtx
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	} else if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.RetryBaseDelay == 0 {
		cfg.RetryBaseDelay = DefaultRetryBaseDelay
	}
	if cfg.RetryMaxDelay == 0 {
		cfg.RetryMaxDelay = DefaultRetryMaxDelay
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	return cfg
}
