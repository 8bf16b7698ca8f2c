package core

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// Credential is a hosted API's key and the environment variable it is
// read from.
type Credential struct {
	Provider, Env, Key string
}

// KeyFrom returns the key of cfg: cfg.APIKey when set, else the value of
// cfg.APIKeyEnv, else of defaultEnv (the variable upstream's handler
// reads). Env is the variable that was (or would have been) read.
func KeyFrom(cfg Config, provider, defaultEnv string) Credential {
	env := cfg.APIKeyEnv
	if env == "" {
		env = defaultEnv
	}
	if cfg.APIKey != "" {
		return Credential{Provider: provider, Env: env, Key: cfg.APIKey}
	}
	return Credential{Provider: provider, Env: env, Key: os.Getenv(env)}
}

// Missing is the one-line error of an absent key, nil when the key is
// there.
func (c Credential) Missing() error {
	if c.Key != "" {
		return nil
	}
	return fmt.Errorf("%s: no API key: environment variable %s is not set", c.Provider, c.Env)
}

// Probe fails at once, without a request, when the key is absent: a run
// of a hosted model without its credential names the variable before any
// entry is sent.
func (c Credential) Probe(_ context.Context, base, model string) error {
	if c.Key != "" {
		return nil
	}
	return &ProbeError{Provider: c.Provider, Base: base, Model: model, Kind: "key",
		Cause: fmt.Sprintf("no API key: environment variable %s is not set", c.Env)}
}

// HTTPError is core.HTTPError with, for a refused key (401, 403), the
// variable the key comes from named in the message.
func (c Credential) HTTPError(status int, header http.Header, body []byte) *Error {
	e := HTTPError(c.Provider, status, header, body)
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		if c.Key == "" {
			e.Body += fmt.Sprintf(" (no API key sent: environment variable %s is not set)", c.Env)
		} else {
			e.Body += fmt.Sprintf(" (the key of environment variable %s was refused)", c.Env)
		}
	}
	return e
}

// KeyedAPI is what the drivers of a hosted API with a bearer key share:
// the normalized configuration, the key, the API root, the completion
// route and the HTTP client. Drivers embed it for Name, Probe, Send and
// Call.
type KeyedAPI struct {
	Cfg      Config
	Cred     Credential
	Base     string // the API root, without a trailing slash
	Endpoint string // Base + the completion route Call posts to
	HTTP     *http.Client
}

// Endpoint checks what every HTTP driver needs of cfg (a model; an http(s)
// API root, defaultBase when none is given) and returns the normalized
// configuration, the root without a trailing slash and the HTTP client.
func Endpoint(cfg Config, provider, defaultBase string) (Config, string, *http.Client, error) {
	cfg = cfg.Normalize()
	if cfg.Model == "" {
		return cfg, "", nil, fmt.Errorf("%s driver: model name is empty", provider)
	}
	base := strings.TrimRight(cfg.BaseURL, "/")
	if base == "" {
		base = strings.TrimRight(defaultBase, "/")
	}
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return cfg, "", nil, fmt.Errorf("%s driver: base URL %q must start with http:// or https://", provider, base)
	}
	hc, err := NewHTTPClientFor(cfg)
	if err != nil {
		return cfg, "", nil, fmt.Errorf("%s driver: %w", provider, err)
	}
	return cfg, base, hc, nil
}

// NewKeyedAPI checks cfg (Endpoint), reads the key as upstream's handler
// does (KeyFrom) and completes on route (appended to the API root).
func NewKeyedAPI(cfg Config, provider, keyEnv, defaultBase, route string) (KeyedAPI, error) {
	cfg, base, hc, err := Endpoint(cfg, provider, defaultBase)
	if err != nil {
		return KeyedAPI{}, err
	}
	return KeyedAPI{Cfg: cfg, Cred: KeyFrom(cfg, provider, keyEnv), Base: base, Endpoint: base + route, HTTP: hc}, nil
}

// Name is "<provider>:<model>".
func (a KeyedAPI) Name() string { return a.Cred.Provider + ":" + a.Cfg.Model }

// Probe fails at once when the key is missing.
func (a KeyedAPI) Probe(ctx context.Context) error { return a.Cred.Probe(ctx, a.Base, a.Cfg.Model) }

// Send posts one attempt of body to url (Post) and turns a non-2xx answer
// into the Credential's HTTPError.
func (a KeyedAPI) Send(ctx context.Context, url, accept string, body []byte) (*Exchange, time.Duration, error) {
	ex, latency, err := Post(ctx, a.HTTP, a.Cred.Provider, url, accept, a.Cred.Key, body)
	if err != nil {
		return nil, 0, err
	}
	if !ex.OK() {
		return nil, 0, a.Cred.HTTPError(ex.Status, ex.Header, ex.Body)
	}
	return ex, latency, nil
}
