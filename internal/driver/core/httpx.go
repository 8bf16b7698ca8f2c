package core

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/bfcl-go/bfcl/internal/netguard"
)

// Exchange is what the recording transport saw of the last HTTP exchange
// made under a context: the request body sent and the response status,
// headers and body. SDK clients that hide the wire (Ollama's api client,
// Anthropic's and Google's SDKs) are given an http.Client built by
// NewHTTPClient, so drivers can log the raw body, read Retry-After and
// decode fields the SDKs lose (key order of Gemini's function args).
type Exchange struct {
	Method, URL string
	RequestBody []byte
	Status      int
	Header      http.Header
	Body        []byte
}

type exchangeKey struct{}

// WithExchange returns a context under which the recording transport fills
// the returned Exchange.
func WithExchange(ctx context.Context) (context.Context, *Exchange) {
	ex := &Exchange{}
	return context.WithValue(ctx, exchangeKey{}, ex), ex
}

// recordingTransport records exchanges and bounds every response body to
// maxBody bytes: a longer one is an error (netguard.ErrTooLarge), never a
// silently cut answer.
type recordingTransport struct {
	base    http.RoundTripper
	maxBody int64
}

func (t recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ex, _ := req.Context().Value(exchangeKey{}).(*Exchange)
	if ex != nil {
		ex.Method, ex.URL = req.Method, req.URL.String()
		if req.Body != nil && req.GetBody != nil {
			if rc, err := req.GetBody(); err == nil {
				ex.RequestBody, _ = io.ReadAll(rc)
				rc.Close()
			}
		} else if req.Body != nil {
			b, err := io.ReadAll(req.Body)
			req.Body.Close()
			if err != nil {
				return nil, err
			}
			ex.RequestBody = b
			req.Body = io.NopCloser(bytes.NewReader(b))
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	if ex == nil {
		resp.Body = netguard.LimitBody(resp.Body, t.maxBody)
		return resp, nil
	}
	body, rerr := netguard.ReadAll(resp.Body, t.maxBody)
	resp.Body.Close()
	if rerr != nil {
		return nil, fmt.Errorf("HTTP %d answer rejected: %w", resp.StatusCode, rerr)
	}
	ex.Status, ex.Header, ex.Body = resp.StatusCode, resp.Header.Clone(), body
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// NewHTTPClient returns an http.Client whose transport records exchanges
// made under a WithExchange context and refuses response bodies longer
// than maxBody bytes (<= 0: DefaultMaxResponseBytes). Timeouts are applied
// per attempt by Retry through the context, not by the client.
func NewHTTPClient(maxBody int64) *http.Client {
	if maxBody <= 0 {
		maxBody = DefaultMaxResponseBytes
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	return &http.Client{Transport: recordingTransport{base: base, maxBody: maxBody}}
}
