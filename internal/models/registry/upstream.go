package registry

import (
	"fmt"
	"strings"

	"github.com/bfcl-go/bfcl/internal/models/upstream"
)

// FromUpstream is the model of an upstream registry name, as upstream's
// generator runs it with no models.yaml entry: the entry's handler class
// picks the provider (the request format), its model_name is the model id,
// its mode, underscore_to_dot and handler decode the answers, and the
// handler's variables give the address, the key and the extra headers
// (getenv reads them; .env is already applied by the caller).
func FromUpstream(name string, getenv func(string) (string, bool)) (Model, error) {
	if _, ok := upstream.Lookup(name); !ok {
		return Model{}, fmt.Errorf("models: %q is not a model of upstream's registry (see `bfcl models --upstream`)", name)
	}
	m := Model{Name: name, Upstream: name}
	if errs := takeUpstream(&m, getenv); len(errs) > 0 {
		return Model{}, fmt.Errorf("models: upstream entry %s: %s", name, strings.Join(errs, "; "))
	}
	applyDefaults(&m)
	if errs := validate(m); len(errs) > 0 {
		return Model{}, fmt.Errorf("models: upstream entry %s: %s", name, strings.Join(errs, "; "))
	}
	return m, nil
}
