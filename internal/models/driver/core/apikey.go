package core

import (
	"context"
	"fmt"
	"net/http"
	"os"
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
