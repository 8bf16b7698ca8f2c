package core

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// ErrProbe marks the failure of a pre-run probe (see driver.Prober): the
// run cannot work, and one message says why.
var ErrProbe = errors.New("model server check failed")

// ProbeError is a failed probe: what was checked, on which server, and
// the cause as one sentence.
type ProbeError struct {
	Provider, Base, Model string
	// Kind is "unreachable", "key", "model", "tools" or "server".
	Kind  string
	Cause string
}

func (e *ProbeError) Error() string {
	return e.Provider + ": " + e.Cause
}

// Is makes errors.Is(err, ErrProbe) true.
func (e *ProbeError) Is(target error) bool { return target == ErrProbe }

// ClassifyProbe turns what a probe's request saw (the recorded exchange
// ex, the error err) into a ProbeError, or nil when the request succeeded
// (err nil and a 2xx status). what names the request for messages, e.g.
// "GET https://api.example.com/v1/models".
func ClassifyProbe(ctx context.Context, provider, base, model, what string, ex *Exchange, err error) *ProbeError {
	pe := &ProbeError{Provider: provider, Base: base, Model: model}
	status := 0
	if ex != nil {
		status = ex.Status
	}
	switch {
	case status == 0 && err == nil:
		return nil
	case status == 0:
		pe.Kind = "unreachable"
		if ctx.Err() != nil {
			pe.Cause = fmt.Sprintf("cannot reach %s: no answer to %s before the probe's deadline (%v)", base, what, ctx.Err())
		} else {
			pe.Cause = fmt.Sprintf("cannot reach %s: %s: %v", base, what, err)
		}
	case status >= 200 && status <= 299 && err == nil:
		return nil
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		pe.Kind = "key"
		pe.Cause = fmt.Sprintf("%s refused the API key (%s: HTTP %d %s: %s); check the key in the variable the model's api_key_env names", base, what, status, http.StatusText(status), Excerpt(ex.Body))
	case status == http.StatusNotFound:
		pe.Kind = "model"
		pe.Cause = fmt.Sprintf("model %q not found on %s (%s: HTTP 404: %s)", model, base, what, Excerpt(ex.Body))
	default:
		pe.Kind = "server"
		pe.Cause = fmt.Sprintf("%s answered %s with HTTP %d %s: %s", base, what, status, http.StatusText(status), Excerpt(ex.Body))
		if status >= 200 && status <= 299 {
			pe.Cause = fmt.Sprintf("%s answered %s with something unreadable (%v): %s", base, what, err, Excerpt(ex.Body))
		}
	}
	return pe
}

// JoinNames lists names for a message, at most ten.
func JoinNames(names []string) string {
	if len(names) > 10 {
		return strings.Join(names[:10], ", ") + fmt.Sprintf(" and %d more", len(names)-10)
	}
	return strings.Join(names, ", ")
}
