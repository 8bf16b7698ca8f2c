package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// bodyExcerptLen is how much of an error body an Error keeps.
const bodyExcerptLen = 600

// Error is a failed provider call.
type Error struct {
	Provider string
	// StatusCode is the HTTP status, 0 when no response arrived.
	StatusCode int
	// Body is an excerpt of the response body (or the error message of a
	// transport failure).
	Body string
	// Retryable: 429, 5xx, timeouts and connection failures.
	Retryable bool
	// RetryAfter is the server's Retry-After, 0 when absent.
	RetryAfter time.Duration
	// Attempts is how many attempts were made before giving up.
	Attempts int
	Err      error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, ": HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	}
	if e.Body != "" {
		b.WriteString(": ")
		b.WriteString(e.Body)
	} else if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// IsRetryable reports whether err is a provider failure worth retrying.
func IsRetryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retryable
}

// StatusRetryable reports whether an HTTP status is retried: 408, 409
// (Anthropic's lock contention), 425, 429 and every 5xx.
func StatusRetryable(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooEarly, http.StatusTooManyRequests:
		return true
	}
	return code >= 500
}

// Excerpt shortens a response body for an error message.
func Excerpt(body []byte) string {
	s := strings.TrimSpace(string(body))
	if len(s) <= bodyExcerptLen {
		return s
	}
	cut := bodyExcerptLen
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// HTTPError builds the Error of a non-2xx response.
func HTTPError(provider string, status int, header http.Header, body []byte) *Error {
	return &Error{
		Provider:   provider,
		StatusCode: status,
		Body:       Excerpt(body),
		Retryable:  StatusRetryable(status),
		RetryAfter: ParseRetryAfter(header, time.Now()),
	}
}

// TransportError classifies an error returned before a response arrived.
// Cancellation of ctx (the caller's context) is returned unchanged; timeouts
// and connection failures become retryable Errors.
func TransportError(ctx context.Context, provider string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var ne net.Error
	retry := errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
	var oe *net.OpError
	if errors.As(err, &oe) {
		retry = true
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		strings.Contains(err.Error(), "connection reset") {
		retry = true
	}
	return &Error{Provider: provider, Retryable: retry, Err: err}
}

// DecodeError is a 2xx response whose body could not be understood. A
// body that is not JSON at all (a proxy's error page, a cut connection) is
// a transport failure and retried; JSON of an unexpected shape is not.
func DecodeError(provider string, body []byte, err error) *Error {
	return &Error{Provider: provider, StatusCode: 0, Body: "malformed response (" + err.Error() + "): " + Excerpt(body), Err: err,
		Retryable: !json.Valid(body)}
}

// ParseRetryAfter reads Retry-After (seconds or HTTP date) and the
// retry-after-ms header some providers send. It returns 0 when absent.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// ArgumentsText is a tool call's arguments as text: a JSON string's
// content as is (the OpenAI wire form, and pre-v0.14 Ollama), an object's
// compact JSON text with key order and number spelling unchanged (Ollama,
// and compatible servers that send the object itself). Absent or null
// arguments give ifNone.
func ArgumentsText(raw json.RawMessage, ifNone string) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ifNone, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		return s, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return "", err
	}
	return buf.String(), nil
}

// Infrastructure reports whether the failure is the server's or the
// connection's rather than the request's: no response (connection refused,
// timeout), a refused key (401, 403), a missing model or endpoint (404),
// throttling or a server error that outlasted the retries (408, 429, 5xx).
// A 400, 413 or 422 is about one request (a prompt too long for the
// context) and other entries may still succeed.
func (e *Error) Infrastructure() bool {
	switch e.StatusCode {
	case 0, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusRequestTimeout, http.StatusTooManyRequests:
		return true
	}
	return e.StatusCode >= 500
}

// IsInfrastructure reports whether err is (or wraps) a provider Error that
// is an infrastructure failure, or a failed probe.
func IsInfrastructure(err error) bool {
	if errors.Is(err, ErrProbe) {
		return true
	}
	var e *Error
	return errors.As(err, &e) && e.Infrastructure()
}
