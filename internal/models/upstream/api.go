package upstream

import (
	"fmt"
	"sort"
)

// Transport is how upstream's handler class reaches its model: the wire
// format bfcl-go's driver of Provider speaks, and where the handler's
// __init__ finds the server and the key (bfcl_eval/model_handler/
// api_inference/*.py and local_inference/base_oss_handler.py at the pin).
// The request each format builds and how a reply goes back into the
// history live in the driver of the provider (internal/models/driver/...),
// next to the decoders of the class's family (internal/models/decode).
type Transport struct {
	Class string
	// Provider is the driver: openai (chat completions), responses (the
	// OpenAI Responses API), anthropic, gemini, completions (raw prompts of
	// local models), or one hosted API's own (mistral, cohere, bedrock,
	// qwen, writer, gorilla).
	Provider string
	// BaseURL is the handler's fixed address ("" when the SDK's default or
	// a variable decides).
	BaseURL string
	// BaseURLEnv names the variable that sets the address, when the handler
	// (or the SDK it uses) reads one; it wins over BaseURL.
	BaseURLEnv string
	// KeyEnv names the variable holding the key ("" when the handler uses
	// a fixed key: Key).
	KeyEnv, Key string
	// HeadersEnv names the variable holding extra headers as a JSON object
	// (OPENAI_DEFAULT_HEADERS).
	HeadersEnv string
	// HeaderVars are variables the handler's SDK sends as one header each
	// (the OpenAI SDK's OPENAI_ORG_ID and OPENAI_PROJECT_ID): variable ->
	// header.
	HeaderVars map[string]string
	// StripReasoning: the class rebuilds an assistant message carrying
	// reasoning_content without it before it goes back into the history
	// (_add_reasoning_content_if_available_FC / _prompting).
	StripReasoning bool
}

// The OpenAI SDK's variables, read by OpenAICompletionsHandler and
// OpenAIResponsesHandler (_build_client_kwargs).
const (
	envOpenAIKey     = "OPENAI_API_KEY"
	envOpenAIBase    = "OPENAI_BASE_URL"
	envOpenAIHeaders = "OPENAI_DEFAULT_HEADERS"
)

// openAISDKHeaders are the variables the openai SDK turns into headers.
var openAISDKHeaders = map[string]string{"OPENAI_ORG_ID": "OpenAI-Organization", "OPENAI_PROJECT_ID": "OpenAI-Project"}

// LocalServerPort is upstream's LOCAL_SERVER_PORT
// (bfcl_eval/constants/eval_config.py): where a local model's server
// listens unless LOCAL_SERVER_PORT or REMOTE_OPENAI_BASE_URL say otherwise.
const LocalServerPort = "1053"

// compatible is an OpenAI-compatible subclass of OpenAICompletionsHandler
// with its own address and key variable.
func compatible(class, base, keyEnv string) Transport {
	return Transport{Class: class, Provider: "openai", BaseURL: base, KeyEnv: keyEnv}
}

var transports = func() map[string]Transport {
	m := map[string]Transport{}
	for _, t := range []Transport{
		{Class: "OpenAICompletionsHandler", Provider: "openai", BaseURL: "https://api.openai.com/v1", BaseURLEnv: envOpenAIBase, KeyEnv: envOpenAIKey,
			HeadersEnv: envOpenAIHeaders, HeaderVars: openAISDKHeaders},
		{Class: "OpenAIResponsesHandler", Provider: "responses", BaseURL: "https://api.openai.com/v1", BaseURLEnv: envOpenAIBase, KeyEnv: envOpenAIKey,
			HeadersEnv: envOpenAIHeaders, HeaderVars: openAISDKHeaders},
		// anthropic.Anthropic(api_key=...) keeps the SDK's ANTHROPIC_BASE_URL.
		{Class: "ClaudeHandler", Provider: "anthropic", BaseURL: "https://api.anthropic.com", BaseURLEnv: "ANTHROPIC_BASE_URL", KeyEnv: "ANTHROPIC_API_KEY"},
		// genai.Client(api_key=...) keeps the SDK's GOOGLE_GEMINI_BASE_URL.
		{Class: "GeminiHandler", Provider: "gemini", BaseURL: "https://generativelanguage.googleapis.com/", BaseURLEnv: "GOOGLE_GEMINI_BASE_URL", KeyEnv: "GOOGLE_API_KEY"},
		// no store; prompt mode: no temperature, consecutive user messages combined (chat driver)
		{Class: "DeepSeekAPIHandler", Provider: "openai", BaseURL: "https://api.deepseek.com", KeyEnv: "DEEPSEEK_API_KEY", StripReasoning: true},
		{Class: "GrokHandler", Provider: "openai", BaseURL: "https://api.x.ai/v1", KeyEnv: "GROK_API_KEY", StripReasoning: true},
		compatible("GLMAPIHandler", "https://open.bigmodel.cn/api/paas/v4/", "GLM_API_KEY"), // glm-4.6 FC: thinking, no temperature (chat driver)
		compatible("KimiHandler", "https://api.moonshot.ai/v1", "KIMI_API_KEY"),
		compatible("FireworksHandler", "https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY"), // FC: FIREWORK_AI tools, no store, its history (chat driver)
		compatible("NovitaHandler", "https://api.novita.ai/v3/openai", "NOVITA_API_KEY"),             // no store, NOVITA_AI tools (chat driver)
		compatible("GoGoAgentHandler", "https://api.gogoagent.ai", "GOGOAGENT_API_KEY"),
		compatible("NanbeigeAPIHandler", "https://nanbeige.zhipin.com/api/gpt/open/chat/openai/v1", "NBG_API_KEY"), // FC: no temperature or store, tools always, its history (chat driver)
		compatible("NemotronHandler", "https://integrate.api.nvidia.com/v1", "NVIDIA_API_KEY"),                     // FC: its system prompt, prompting's query (chat driver)
		compatible("NvidiaHandler", "https://integrate.api.nvidia.com/v1", "NVIDIA_API_KEY"),                       // prompt mode: consecutive user messages combined (chat driver)
		// prompt: its API's model name, no temperature or store, consecutive user messages combined (chat driver)
		{Class: "LingAPIHandler", Provider: "openai", BaseURL: "https://bailingchat.alipay.com", KeyEnv: "LING_API_KEY", StripReasoning: true},
		// FC: the base class's methods; its prompting methods (its own
		// system prompt and <tool_calls> parser: prompt.FirstTurnOf,
		// prompt.MiningAnswer) are DMCitoHandler's, whose registry entries
		// are the prompt-mode ones.
		{Class: "MiningHandler", Provider: "openai", BaseURLEnv: "MINING_BASE_URL", KeyEnv: "MINING_API_KEY"},
		{Class: "DMCitoHandler", Provider: "openai", BaseURLEnv: "DMCITO_BASE_URL", KeyEnv: "DMCITO_API_KEY"},
		{Class: "FunctionaryHandler", Provider: "openai", BaseURL: "http://localhost:8000/v1", Key: "functionary"},
		// Their own drivers (their SDKs, streaming or own APIs).
		{Class: "MistralHandler", Provider: "mistral", KeyEnv: "MISTRAL_API_KEY"},
		{Class: "CohereHandler", Provider: "cohere", KeyEnv: "COHERE_API_KEY"},
		{Class: "NovaHandler", Provider: "bedrock"},
		{Class: "QwenAPIHandler", Provider: "qwen", BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", KeyEnv: "QWEN_API_KEY"},
		{Class: "QwenAgentThinkHandler", Provider: "qwen", BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", KeyEnv: "QWEN_API_KEY"},
		{Class: "QwenAgentNoThinkHandler", Provider: "qwen", BaseURL: "https://dashscope.aliyuncs.com/compatible-mode/v1", KeyEnv: "QWEN_API_KEY"},
		// writerai.Writer(api_key=...) keeps the SDK's WRITER_BASE_URL.
		{Class: "WriterHandler", Provider: "writer", BaseURL: "https://api.writer.com", BaseURLEnv: "WRITER_BASE_URL", KeyEnv: "WRITER_API_KEY"},
		// a fixed address and "Authorization: EMPTY" (gorilla.py)
		{Class: "GorillaHandler", Provider: "gorilla", BaseURL: "https://luigi.millennium.berkeley.edu:443/v1", Key: "EMPTY"},
	} {
		m[t.Class] = t
	}
	return m
}()

// localTransport is the transport of a local_inference handler
// (base_oss_handler.py): raw prompts to /v1/completions of a server at
// REMOTE_OPENAI_BASE_URL, else http://LOCAL_SERVER_ENDPOINT:LOCAL_SERVER_PORT/v1,
// with REMOTE_OPENAI_API_KEY (default "EMPTY").
func localTransport(class string) Transport {
	return Transport{Class: class, Provider: "completions", BaseURLEnv: "REMOTE_OPENAI_BASE_URL", KeyEnv: "REMOTE_OPENAI_API_KEY", Key: "EMPTY"}
}

// TransportOf returns how the entry's handler reaches its model. Local
// models (the local_inference map) take base_oss_handler's transport unless
// their class is an API handler (an OpenAI-compatible local server).
func TransportOf(e Entry) (Transport, error) {
	if t, ok := transports[e.Handler]; ok {
		return t, nil
	}
	if e.Map == "local_inference" {
		return localTransport(e.Handler), nil
	}
	return Transport{}, fmt.Errorf("upstream entry %s: handler class %s has no known transport", e.Name, e.Handler)
}

// LocalBaseURL is base_oss_handler's address when REMOTE_OPENAI_BASE_URL
// is unset: LOCAL_SERVER_ENDPOINT (default localhost) and
// LOCAL_SERVER_PORT (default 1053).
func LocalBaseURL(getenv func(string) (string, bool)) string {
	host, port := "localhost", LocalServerPort
	if v, ok := getenv("LOCAL_SERVER_ENDPOINT"); ok && v != "" {
		host = v
	}
	if v, ok := getenv("LOCAL_SERVER_PORT"); ok && v != "" {
		port = v
	}
	return "http://" + host + ":" + port + "/v1"
}

// TransportClasses lists the classes with a transport of their own, sorted.
func TransportClasses() []string {
	out := make([]string, 0, len(transports))
	for c := range transports {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}
