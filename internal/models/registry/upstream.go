package registry

import (
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/models/upstream"
)

// FromUpstream is the model of an upstream registry name, as upstream's
// generator runs it with no models.yaml entry: the entry's handler class
// picks the provider (the request format), its model_name is the model id,
// its mode, underscore_to_dot and handler decode the answers, and the
// handler's variables give the address, the key and the extra headers
// (getenv reads them; .env is already applied by the caller).
func FromUpstream(name string, getenv func(string) (string, bool)) (Model, error) {
	e, ok := upstream.Lookup(name)
	if !ok {
		return Model{}, fmt.Errorf("models: %q is not a model of upstream's registry (see `bfcl models --upstream`)", name)
	}
	t, err := upstream.TransportOf(e)
	if err != nil {
		return Model{}, fmt.Errorf("models: %w", err)
	}
	get := func(k string) string {
		if k == "" || getenv == nil {
			return ""
		}
		v, _ := getenv(k)
		return v
	}
	m := Model{Name: e.Name, Upstream: e.Name, Provider: t.Provider, Model: e.ModelName, BaseURL: t.BaseURL,
		APIKeyEnv: t.KeyEnv, KeyDefault: t.Key}
	if v := get(t.BaseURLEnv); v != "" {
		m.BaseURL = v
	} else if t.Provider == "completions" {
		m.BaseURL = upstream.LocalBaseURL(func(k string) (string, bool) { v := get(k); return v, v != "" })
	}
	if v := get(t.HeadersEnv); v != "" {
		if err := json.Unmarshal([]byte(v), &m.Headers); err != nil {
			return Model{}, fmt.Errorf("models: %s=%q is not a JSON object of header values: %w", t.HeadersEnv, v, err)
		}
	}
	if errs := takeUpstream(&m); len(errs) > 0 {
		return Model{}, fmt.Errorf("models: %s: %v", name, errs)
	}
	applyDefaults(&m)
	if errs := validate(m); len(errs) > 0 {
		return Model{}, fmt.Errorf("models: upstream entry %s: %v", name, errs)
	}
	return m, nil
}
