package core

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/run/limiter"
	"github.com/bfcl-go/bfcl/internal/run/replica"
	"github.com/bfcl-go/bfcl/internal/run/sched"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
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
	// Sent is when the request left: after the limiter granted it a slot
	// (zero without a limiter).
	Sent time.Time
}

// Latency is the wall time of the exchange from when its request left (or
// from start, when the client has no limiter): the model's latency, not
// the time the request waited for a slot behind the run's other entries.
func (ex *Exchange) Latency(start time.Time) time.Duration {
	if !ex.Sent.IsZero() && ex.Sent.After(start) {
		return time.Since(ex.Sent)
	}
	return time.Since(start)
}

// sentStamp notes in the exchange when the request is sent; it sits just
// inside the limiter.
type sentStamp struct{ next http.RoundTripper }

func (s sentStamp) RoundTrip(req *http.Request) (*http.Response, error) {
	if ex, _ := req.Context().Value(exchangeKey{}).(*Exchange); ex != nil {
		ex.Sent = time.Now()
	}
	return s.next.RoundTrip(req)
}

type exchangeKey struct{}

// readBody reads a request body, sized by its declared length when known.
func readBody(r io.Reader, n int64) ([]byte, error) {
	if n <= 0 {
		return io.ReadAll(r)
	}
	var buf bytes.Buffer
	buf.Grow(int(n) + bytes.MinRead) // ReadFrom then sees EOF without growing
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}

// WithExchange returns a context under which the recording transport fills
// the returned Exchange. A driver that has the request body at hand sets
// RequestBody itself, and the transport does not copy it again.
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
		if ex.RequestBody != nil {
			// The driver recorded the body it built (no copy).
		} else if req.Body != nil && req.GetBody != nil {
			if rc, err := req.GetBody(); err == nil {
				ex.RequestBody, _ = readBody(rc, req.ContentLength)
				rc.Close()
			}
		} else if req.Body != nil {
			b, err := readBody(req.Body, req.ContentLength)
			req.Body.Close()
			if err != nil {
				return nil, err
			}
			ex.RequestBody = b
			req.Body = io.NopCloser(bytes.NewReader(b))
		}
	}
	// The network wait needs no CPU: let another entry's work run (see
	// internal/run/sched), and take the slot back for reading the answer.
	resume := sched.Pause(req.Context())
	resp, err := t.base.RoundTrip(req)
	if rerr := resume(); rerr != nil {
		if err == nil {
			resp.Body.Close()
		}
		return nil, rerr
	}
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
	return &http.Client{Transport: recordingTransport{base: pooledTransport(), maxBody: bodyLimit(maxBody)}}
}

func bodyLimit(n int64) int64 {
	if n <= 0 {
		return DefaultMaxResponseBytes
	}
	return n
}

// maxIdlePerHost keeps a connection per request in flight (net/http's
// default keeps two per host, so a run with 32 requests in flight would
// close and redial most connections after every response).
const maxIdlePerHost = 1024

func pooledTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 0 // no total limit
	t.MaxIdleConnsPerHost = maxIdlePerHost
	return t
}

// NewHTTPClientFor is NewHTTPClient for a driver configuration: responses
// bounded by cfg.MaxResponseBytes, requests spread over cfg.BaseURLs when
// it lists replicas, and capped by an adaptive limiter when
// cfg.MaxInFlight is set. cfg must be normalized.
func NewHTTPClientFor(cfg Config) (*http.Client, error) {
	var rt http.RoundTripper = pooledTransport()
	if len(cfg.BaseURLs) > 1 {
		if strings.TrimRight(cfg.BaseURL, "/") != strings.TrimRight(cfg.BaseURLs[0], "/") {
			return nil, fmt.Errorf("base URL %q is not the first of the replicas %v", cfg.BaseURL, cfg.BaseURLs)
		}
		p, err := replica.New(cfg.BaseURLs, rt, replica.Options{})
		if err != nil {
			return nil, err
		}
		rt = p
	}
	if cfg.MaxInFlight > 0 {
		rt = limiter.Transport(limiter.New(1, cfg.MaxInFlight), sentStamp{rt})
	}
	if len(cfg.Headers) > 0 {
		rt = headerTransport{base: rt, headers: cfg.Headers}
	}
	return &http.Client{Transport: recordingTransport{base: rt, maxBody: bodyLimit(cfg.MaxResponseBytes)}}, nil
}

// headerTransport adds the configured headers to every request (the
// OpenAI SDK's default_headers), replacing a value the driver set.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, v := range t.headers {
		r.Header.Set(k, v)
	}
	return t.base.RoundTrip(r)
}

// AppendJSON appends v as encoding/json writes it without HTML escaping
// (no trailing newline), as Python's json.dumps and the providers' SDKs
// leave <, > and & alone.
func AppendJSON(b []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	return out[:len(out)-1], nil
}

// MarshalJSON is AppendJSON to a new slice.
func MarshalJSON(v any) ([]byte, error) { return AppendJSON(nil, v) }

// Post sends one attempt of a JSON request body, the way every driver
// does: Content-Type JSON, Accept accept ("" for none), the bearer key when
// there is one, the exchange recorded (status, headers, body). It returns
// the exchange and the attempt's latency; a failure to get an answer is a
// TransportError of provider. The status is the caller's to judge (OK).
func Post(ctx context.Context, c *http.Client, provider, url, accept, key string, body []byte) (*Exchange, time.Duration, error) {
	auth := ""
	if key != "" {
		auth = "Bearer " + key
	}
	return PostAuth(ctx, c, provider, url, accept, auth, body)
}

// PostAuth is Post with the whole Authorization header value ("" for
// none), for the servers that take something else than a bearer key
// (upstream's GorillaHandler sends "EMPTY").
func PostAuth(ctx context.Context, c *http.Client, provider, url, accept, auth string, body []byte) (*Exchange, time.Duration, error) {
	ctx, ex := WithExchange(ctx)
	ex.RequestBody = body
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, 0, fmt.Errorf("%s driver: %w", provider, err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	if accept != "" {
		hreq.Header.Set("Accept", accept)
	}
	if auth != "" {
		hreq.Header.Set("Authorization", auth)
	}
	start := time.Now()
	resp, err := c.Do(hreq)
	if err != nil {
		return nil, 0, TransportError(ctx, provider, err)
	}
	resp.Body.Close()
	return ex, ex.Latency(start), nil
}

// OK reports a 2xx answer.
func (ex *Exchange) OK() bool { return ex.Status >= 200 && ex.Status <= 299 }
