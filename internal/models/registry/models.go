// Package registry reads models.yaml, the registry of models a run can use.
// Adding a local model is one YAML entry; nothing in code names a model.
package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
)

// EnvModelsFile names the environment variable that points at another registry.
const EnvModelsFile = "BFCL_MODELS_FILE"

// Providers known to the project: the drivers (internal/models/driver),
// gold and replay. completions (raw prompts of local models) and the
// providers of upstream's other SDK handlers (mistral, cohere, bedrock,
// qwen, writer, gorilla) are names the registry accepts so an upstream
// entry resolves; the driver factory says when this binary has no driver
// for one.
var providers = map[string]bool{"ollama": true, "openai": true, "responses": true, "anthropic": true, "gemini": true,
	"completions": true, "mistral": true, "cohere": true, "bedrock": true, "qwen": true, "writer": true, "gorilla": true,
	"gold": true, "replay": true}

// Price is the cost per million tokens, in dollars.
type Price struct {
	Input  float64 `yaml:"input"`
	Output float64 `yaml:"output"`
}

// Model is one registry entry.
type Model struct {
	Name            string   `yaml:"name"`              // what users pass to --model / BFCL_MODEL
	Provider        string   `yaml:"provider"`          // ollama | openai | responses | anthropic | gemini | completions | gold | replay ("" with upstream: the entry's handler decides)
	Model           string   `yaml:"model"`             // the provider's model id
	Mode            string   `yaml:"mode"`              // fc | prompt
	BaseURL         string   `yaml:"base_url"`          // server address (ollama, openai-compatible)
	BaseURLs        []string `yaml:"base_urls"`         // replicas of one server (ollama, openai-compatible); base_url is the first
	APIKeyEnv       string   `yaml:"api_key_env"`       // environment variable holding the key, never the key
	Temperature     float64  `yaml:"temperature"`       // upstream's default is 0.001
	MaxTokens       int      `yaml:"max_tokens"`        // completion limit per request; 0 = none sent, as upstream (Claude: 64000; ollama: 4096)
	UnderscoreToDot bool     `yaml:"underscore_to_dot"` // tool names sent with "." replaced by "_", mapped back when scoring
	Concurrency     int      `yaml:"concurrency"`       // parallel requests against this model
	NumCtx          int      `yaml:"num_ctx"`           // ollama context window; 0 = driver default
	ContextWindow   int      `yaml:"context_window"`    // local-model handlers: the model's context window for max_tokens (upstream: max_position_embeddings); 0 = asked from the server
	Timeout         string   `yaml:"timeout"`           // per-request timeout, Go duration; "" = driver default
	Seed            *int64   `yaml:"seed"`              // sent where the provider supports it
	ReplayDir       string   `yaml:"replay_dir"`        // replay: a result directory (ours or upstream's) to read outputs from
	PricePerMillion Price    `yaml:"price_per_million"` // for the cost columns
	// Handler is the upstream handler class whose decoders read this
	// model's results (e.g. QwenFCHandler); "" = the default decoders of
	// mode. See `bfcl models --upstream` for the classes.
	Handler string `yaml:"handler"`
	// Upstream names an entry of upstream's model registry whose
	// configuration (mode, underscore_to_dot, handler) this model takes:
	// Parse fills those fields from it (a contradicting key is an error).
	// It ties a result folder whose name is not upstream's to an entry.
	Upstream string `yaml:"upstream"`
	// Headers are extra HTTP headers of every request (upstream's
	// OPENAI_DEFAULT_HEADERS for the OpenAI handlers).
	Headers map[string]string `yaml:"headers"`
	// StripReasoning: the handler sends an assistant message with
	// reasoning_content back without it (upstream.Transport).
	StripReasoning bool `yaml:"-"`
	// KeyDefault is the key used when APIKeyEnv is unset or empty (upstream
	// handlers with a fixed key: FunctionaryHandler's, the local servers'
	// "EMPTY").
	KeyDefault string `yaml:"-"`
	// KeyRequired: the key variable is the one an upstream handler reads
	// and has no default (OPENAI_API_KEY, ANTHROPIC_API_KEY, ...): as the
	// handler's SDK client refuses to start without it, a run stops before
	// any request when it is unset.
	KeyRequired bool `yaml:"-"`
}

// APIKey reads the key from the environment variable the entry names.
func (m Model) APIKey() string {
	if m.APIKeyEnv != "" {
		if k := os.Getenv(m.APIKeyEnv); k != "" {
			return k
		}
	}
	return m.KeyDefault
}

// Registry is a validated models.yaml.
type Registry struct {
	File   string
	Models []Model
}

type file struct {
	Models []Model `yaml:"models"`
}

// Load reads and validates a registry file.
func Load(path string) (*Registry, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	r, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("models: %s: %w", path, err)
	}
	r.File = path
	return r, nil
}

// Parse validates registry YAML. Unknown keys are errors (a typo must not
// silently fall back to a default).
func Parse(b []byte) (*Registry, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var f file
	if err := dec.Decode(&f); err != nil {
		return nil, err
	}
	if len(f.Models) == 0 {
		return nil, errors.New("no models: the file needs a top-level `models:` list")
	}
	seen := map[string]bool{}
	var errs []string
	for i := range f.Models {
		m := &f.Models[i]
		for _, e := range takeUpstream(m, os.LookupEnv) {
			errs = append(errs, fmt.Sprintf("models[%d] (%s): %s", i, m.Name, e))
		}
		applyDefaults(m)
		for _, e := range validate(*m) {
			errs = append(errs, fmt.Sprintf("models[%d] (%s): %s", i, m.Name, e))
		}
		if seen[m.Name] {
			errs = append(errs, fmt.Sprintf("models[%d]: duplicate name %q", i, m.Name))
		}
		seen[m.Name] = true
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "; "))
	}
	return &Registry{Models: f.Models}, nil
}

// hostedHandlers are the upstream handler classes whose stored results the
// hosted-API providers write (their drivers reproduce those handlers), the
// default handler of an entry of that provider.
var hostedHandlers = map[string]string{"mistral": "MistralHandler", "cohere": "CohereHandler", "bedrock": "NovaHandler", "qwen": "QwenAPIHandler",
	"writer": "WriterHandler", "gorilla": "GorillaHandler"}

// ProviderOfHandler returns the provider whose driver reproduces an
// upstream API handler class of the hosted APIs (MistralHandler: mistral,
// CohereHandler: cohere, NovaHandler: bedrock, QwenAPIHandler: qwen), for
// resolving upstream registry names to model entries.
func ProviderOfHandler(class string) (string, bool) {
	for p, c := range hostedHandlers {
		if c == class {
			return p, true
		}
	}
	return "", false
}

func applyDefaults(m *Model) {
	if m.Handler == "" {
		m.Handler = hostedHandlers[m.Provider]
	}
	if m.BaseURL == "" && len(m.BaseURLs) > 0 {
		m.BaseURL = m.BaseURLs[0]
	}
	if m.Mode == "" {
		m.Mode = "fc"
	}
	if m.Temperature == 0 {
		m.Temperature = 0.001 // upstream's default temperature
	}
	if m.MaxTokens == 0 && m.Provider == "ollama" {
		m.MaxTokens = 4096 // upstream's cap for local models (base_oss_handler: min(4096, context left))
	}
	if m.Concurrency == 0 {
		m.Concurrency = 4
	}
	if m.BaseURL == "" && m.Provider == "ollama" {
		m.BaseURL = "http://127.0.0.1:11434"
	}
}

func validate(m Model) []string {
	var errs []string
	if m.Name == "" {
		errs = append(errs, "name is required")
	} else if strings.ContainsAny(m.Name, " \t\n") {
		errs = append(errs, "name must not contain white space")
	}
	if !providers[m.Provider] {
		keys := make([]string, 0, len(providers))
		for k := range providers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		errs = append(errs, fmt.Sprintf("provider %q is not one of %s", m.Provider, strings.Join(keys, ", ")))
	}
	if m.Mode != "fc" && m.Mode != "prompt" {
		errs = append(errs, fmt.Sprintf("mode %q must be fc or prompt", m.Mode))
	}
	switch m.Provider {
	case "gold":
	default:
		if m.Model == "" {
			errs = append(errs, "model (the provider's model id) is required")
		}
	case "replay":
		if m.ReplayDir == "" {
			errs = append(errs, "replay_dir is required for provider replay")
		}
	}
	if m.BaseURL != "" {
		if u, err := url.Parse(m.BaseURL); err != nil || u.Scheme == "" || u.Host == "" {
			errs = append(errs, fmt.Sprintf("base_url %q is not an absolute URL", m.BaseURL))
		}
	}
	if len(m.BaseURLs) > 0 {
		switch {
		case m.Provider != "ollama" && m.Provider != "openai":
			errs = append(errs, fmt.Sprintf("base_urls (replicas) is for self-hosted servers (ollama, openai), not provider %q", m.Provider))
		case m.BaseURL != m.BaseURLs[0]:
			errs = append(errs, "give base_url or base_urls, not both (the first of base_urls is the base URL)")
		}
		seen := map[string]bool{}
		for _, b := range m.BaseURLs {
			if u, err := url.Parse(b); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				errs = append(errs, fmt.Sprintf("base_urls: %q is not an absolute http(s) URL", b))
			}
			if k := strings.TrimRight(b, "/"); seen[k] {
				errs = append(errs, fmt.Sprintf("base_urls: %q is listed twice", b))
			} else {
				seen[k] = true
			}
		}
	}
	if m.APIKeyEnv != "" && strings.ContainsAny(m.APIKeyEnv, " -/") {
		errs = append(errs, fmt.Sprintf("api_key_env %q must name an environment variable, not hold a key", m.APIKeyEnv))
	}
	if m.Temperature < 0 || m.Temperature > 2 {
		errs = append(errs, fmt.Sprintf("temperature %v out of range [0, 2]", m.Temperature))
	}
	if m.MaxTokens < 0 || m.Concurrency < 0 || m.NumCtx < 0 {
		errs = append(errs, "max_tokens, concurrency and num_ctx must not be negative")
	}
	if err := decode.CheckHandler(m.Handler); err != nil {
		errs = append(errs, "handler: "+err.Error())
	}
	if m.PricePerMillion.Input < 0 || m.PricePerMillion.Output < 0 {
		errs = append(errs, "prices must not be negative")
	}
	return errs
}

// Get returns the named model or an error listing the known names.
func (r *Registry) Get(name string) (Model, error) {
	for _, m := range r.Models {
		if m.Name == name {
			return m, nil
		}
	}
	names := make([]string, 0, len(r.Models))
	for _, m := range r.Models {
		names = append(names, m.Name)
	}
	return Model{}, fmt.Errorf("models: no model %q in %s; known: %s", name, r.File, strings.Join(names, ", "))
}

// Gold is the built-in pipeline-check model, available even without a
// registry file.
func Gold() Model {
	m := Model{Name: "gold", Provider: "gold", Mode: "fc"}
	applyDefaults(&m)
	return m
}

// takeUpstream fills mode, underscore_to_dot and handler from the upstream
// registry entry `upstream:` names, so every user of the entry (generate,
// evaluate, the suites) decodes and checks as upstream does for that
// entry. Keys that contradict the entry are errors.
//
// An entry that keeps the handler's provider and gives no address of its
// own also takes the handler's address, key and headers, as upstream's
// handler reads them (getenv); with its own base_url it brings its own key
// (api_key_env), so no provider's key goes to another host.
func takeUpstream(m *Model, getenv func(string) (string, bool)) []string {
	if m.Upstream == "" {
		return nil
	}
	e, ok := upstream.Lookup(m.Upstream)
	if !ok {
		return []string{fmt.Sprintf("upstream %q is not a model of upstream's registry (see `bfcl models --upstream`)", m.Upstream)}
	}
	var errs []string
	// The entry's handler class decides the request format unless the
	// entry names its provider; its model id is the default model.
	t, err := upstream.TransportOf(e)
	if err != nil {
		errs = append(errs, err.Error())
	}
	if m.Provider == "" {
		m.Provider = t.Provider
	}
	m.StripReasoning = t.StripReasoning && m.Provider == t.Provider
	if m.Model == "" {
		m.Model = e.ModelName
		if f, ok := oss.ForClass(e.Handler, e.ModelName); ok {
			m.Model = f.ServedModel() // upstream's model_path_or_id (some classes drop "-FC")
		}
	}
	if m.Provider == t.Provider && m.BaseURL == "" && len(m.BaseURLs) == 0 {
		errs = append(errs, handlerAccess(m, t, getenv)...)
	}
	if m.Mode != "" && m.Mode != e.Mode() {
		errs = append(errs, fmt.Sprintf("mode %s contradicts upstream entry %s (%s)", m.Mode, e.Name, e.Mode()))
	}
	if m.UnderscoreToDot && !e.UnderscoreToDot {
		errs = append(errs, fmt.Sprintf("underscore_to_dot contradicts upstream entry %s (false)", e.Name))
	}
	if m.Handler != "" && m.Handler != e.Handler {
		errs = append(errs, fmt.Sprintf("handler %s contradicts upstream entry %s (%s)", m.Handler, e.Name, e.Handler))
	}
	d := e.Decoding()
	m.Mode, m.UnderscoreToDot, m.Handler = d.Mode, d.UnderscoreToDot, d.Handler
	return errs
}

// UpstreamModelName is upstream's model_name for this entry: that of the
// upstream registry entry `upstream:` names, else the entry's model id
// (local-model handler classes read it to pick a template variant).
func (m Model) UpstreamModelName() string {
	if e, ok := upstream.Lookup(m.Upstream); ok && e.ModelName != "" {
		return e.ModelName
	}
	return m.Model
}

// handlerAccess fills the address, the key variable and the extra headers
// of transport t, as the handler's __init__ reads them.
func handlerAccess(m *Model, t upstream.Transport, getenv func(string) (string, bool)) []string {
	get := func(k string) string {
		if k == "" || getenv == nil {
			return ""
		}
		v, _ := getenv(k)
		return v
	}
	m.BaseURL = t.BaseURL
	if v := get(t.BaseURLEnv); v != "" {
		m.BaseURL = v
	} else if t.Provider == "completions" {
		m.BaseURL = upstream.LocalBaseURL(func(k string) (string, bool) { v := get(k); return v, v != "" })
	}
	if m.APIKeyEnv == "" {
		m.APIKeyEnv, m.KeyDefault = t.KeyEnv, t.Key
		m.KeyRequired = t.KeyEnv != "" && t.Key == ""
	}
	if m.Headers != nil {
		return nil
	}
	for env, header := range t.HeaderVars {
		if v := get(env); v != "" {
			if m.Headers == nil {
				m.Headers = map[string]string{}
			}
			m.Headers[header] = v
		}
	}
	if v := get(t.HeadersEnv); v != "" {
		var extra map[string]string
		if err := json.Unmarshal([]byte(v), &extra); err != nil {
			return []string{fmt.Sprintf("%s=%q is not a JSON object of header values: %v", t.HeadersEnv, v, err)}
		}
		if m.Headers == nil {
			m.Headers = map[string]string{}
		}
		for k, x := range extra {
			m.Headers[k] = x
		}
	}
	return nil
}

// Decoding is how this model's results are decoded and checked: mode,
// underscore_to_dot and upstream handler class (those of its upstream
// registry entry when `upstream:` names one; Parse filled them in).
func (m Model) Decoding() decode.Spec {
	return decode.Spec{Mode: m.Mode, UnderscoreToDot: m.UnderscoreToDot, Handler: m.Handler}
}
