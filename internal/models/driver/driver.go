// Package driver is the model-driver API of the inference loop: the
// provider-neutral message types, the Driver interface, and New, which
// picks the provider implementation (ollama, openai, anthropic, gemini,
// and upstream's hosted APIs mistral, cohere, bedrock, qwen, writer,
// gorilla).
// The types live in internal/models/driver/core so the provider packages can use
// them without importing this package.
package driver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/anthropic"
	"github.com/bfcl-go/bfcl/internal/models/driver/bedrock"
	"github.com/bfcl-go/bfcl/internal/models/driver/cohere"
	"github.com/bfcl-go/bfcl/internal/models/driver/completions"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/gemini"
	"github.com/bfcl-go/bfcl/internal/models/driver/gorilla"
	"github.com/bfcl-go/bfcl/internal/models/driver/mistral"
	"github.com/bfcl-go/bfcl/internal/models/driver/ollama"
	"github.com/bfcl-go/bfcl/internal/models/driver/openai"
	"github.com/bfcl-go/bfcl/internal/models/driver/qwen"
	"github.com/bfcl-go/bfcl/internal/models/driver/writer"
	"github.com/bfcl-go/bfcl/internal/models/oss"
)

type (
	// Message is one chat message; see core.Message.
	Message = core.Message
	// ToolCall is one function call of the model; see core.ToolCall.
	ToolCall = core.ToolCall
	// Request is one completion request; see core.Request.
	Request = core.Request
	// Response is the model's answer; see core.Response.
	Response = core.Response
	// Driver talks to one model server.
	Driver = core.Driver
	// Config selects and configures a driver; see core.Config.
	Config = core.Config
	// Error is a failed provider call (status, body excerpt, retryable).
	Error = core.Error
)

// Roles, modes and providers.
const (
	RoleSystem    = core.RoleSystem
	RoleUser      = core.RoleUser
	RoleAssistant = core.RoleAssistant
	RoleTool      = core.RoleTool

	ModeFC     = core.ModeFC
	ModePrompt = core.ModePrompt

	ProviderOllama    = core.ProviderOllama
	ProviderOpenAI    = core.ProviderOpenAI
	ProviderAnthropic = core.ProviderAnthropic
	ProviderGemini    = core.ProviderGemini
	ProviderResponses = core.ProviderResponses
	ProviderMistral   = core.ProviderMistral
	ProviderCohere    = core.ProviderCohere
	ProviderBedrock   = core.ProviderBedrock
	ProviderQwen      = core.ProviderQwen
	ProviderWriter    = core.ProviderWriter
	ProviderGorilla   = core.ProviderGorilla
)

// hosted is the constructor of each provider that takes chat requests.
var hosted = map[string]func(Config) (Driver, error){
	ProviderOllama:    asDriver(ollama.New),
	ProviderOpenAI:    asDriver(openai.New),
	ProviderResponses: asDriver(openai.NewResponses),
	ProviderAnthropic: asDriver(anthropic.New),
	ProviderGemini:    asDriver(gemini.New),
	ProviderMistral:   asDriver(mistral.New),
	ProviderCohere:    asDriver(cohere.New),
	ProviderBedrock:   asDriver(bedrock.New),
	ProviderQwen:      asDriver(qwen.New),
	ProviderWriter:    asDriver(writer.New),
	ProviderGorilla:   asDriver(gorilla.New),
}

// asDriver is a provider package's New as a constructor of a Driver (nil,
// not a nil pointer, on error).
func asDriver[D Driver](build func(Config) (D, error)) func(Config) (Driver, error) {
	return func(cfg Config) (Driver, error) {
		d, err := build(cfg)
		if err != nil {
			return nil, err
		}
		return d, nil
	}
}

// New returns the driver of cfg.Provider (see hosted).
func New(cfg Config) (Driver, error) {
	if cfg.Mode != "" && cfg.Mode != ModeFC && cfg.Mode != ModePrompt {
		return nil, fmt.Errorf("driver: unknown mode %q (want fc or prompt)", cfg.Mode)
	}
	f, ok, err := oss.ForModel(cfg.Handler, cfg.UpstreamModel, cfg.Model)
	if err != nil {
		return nil, err
	}
	if ok {
		switch cfg.Provider {
		case ProviderOpenAI, core.ProviderCompletions:
			return completions.NewDriver(cfg, f, completions.DialectOpenAI, cfg.ContextWindow)
		case ProviderOllama:
			return completions.NewDriver(cfg, f, completions.DialectOllama, cfg.ContextWindow)
		}
		return nil, fmt.Errorf("driver: %s is one of upstream's local-model handlers, which send formatted prompts: provider %q cannot take them (want openai or completions for an OpenAI-compatible /completions route, or ollama)", cfg.Handler, cfg.Provider)
	}
	if build, ok := hosted[cfg.Provider]; ok {
		return build(cfg)
	}
	if cfg.Provider == core.ProviderCompletions {
		return nil, fmt.Errorf("driver: provider completions sends the prompts of upstream's local-model handlers, and handler %q is not one of them (see `bfcl models --upstream`)", cfg.Handler)
	}
	return nil, fmt.Errorf("driver: unknown provider %q (want ollama, openai, responses, completions, anthropic, gemini, mistral, cohere, bedrock, qwen, writer or gorilla)", cfg.Provider)
}

// ConvertFunctions turns BFCL function docs into the provider's tool
// schemas exactly as upstream's convert_to_tool does; see
// core.ConvertFunctions.
func ConvertFunctions(docs []json.RawMessage, provider string, underscored bool) ([]json.RawMessage, error) {
	return core.ConvertFunctions(docs, provider, underscored)
}

// IsRetryable reports whether err is a provider failure worth retrying.
func IsRetryable(err error) bool { return core.IsRetryable(err) }

// Prober is implemented by drivers that can check the model before a run:
// the server answers, the key is accepted, the model is served and, where
// the API tells (Ollama's capabilities, Gemini's supported actions), it can
// be used in the run's mode. A failure is a *ProbeError.
type Prober interface {
	Probe(ctx context.Context) error
}

// ProbeError is a failed pre-run check; see core.ProbeError.
type ProbeError = core.ProbeError

// ErrProbe matches every ProbeError (errors.Is).
var ErrProbe = core.ErrProbe

// DefaultProbeTimeout bounds a probe: a server that has not answered a
// model list in this long will not serve a run.
const DefaultProbeTimeout = 20 * time.Second

// Probe runs d's probe, when it has one, bounded by timeout (0:
// DefaultProbeTimeout). A driver without a probe passes.
func Probe(ctx context.Context, d Driver, timeout time.Duration) error {
	p, ok := d.(Prober)
	if !ok {
		return nil
	}
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return p.Probe(ctx)
}

// ProbeAll probes the model the way the run will use it. A model with
// replicas (cfg.BaseURLs) has every replica probed on its own, all at once,
// so a dead or misconfigured replica is named before the run instead of
// being found out by the entries sent to it; the error lists every replica
// that failed. Otherwise it is Probe of d (the driver built from cfg).
func ProbeAll(ctx context.Context, cfg Config, d Driver, timeout time.Duration) error {
	if len(cfg.BaseURLs) < 2 {
		return Probe(ctx, d, timeout)
	}
	errs := make([]error, len(cfg.BaseURLs))
	var wg sync.WaitGroup
	for i, u := range cfg.BaseURLs {
		one := cfg
		one.BaseURL, one.BaseURLs = u, nil
		rd, err := New(one)
		if err != nil {
			errs[i] = err
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = Probe(ctx, rd, timeout)
		}()
	}
	wg.Wait()
	var failed []error
	for i, err := range errs {
		if err != nil {
			failed = append(failed, fmt.Errorf("replica %d of %d (%s): %w", i+1, len(errs), cfg.BaseURLs[i], err))
		}
	}
	return errors.Join(failed...)
}

// IsInfrastructure reports whether err is a failure of the server or the
// connection (see core.Error.Infrastructure) or a failed probe: what a
// circuit breaker counts.
func IsInfrastructure(err error) bool { return core.IsInfrastructure(err) }
