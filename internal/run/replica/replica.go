// Package replica spreads a model's requests over several replicas of one
// server (the base_urls of a registry entry): an http.RoundTripper that
// sends each request to the healthy replica with the fewest requests in
// flight, and takes a replica that fails (no connection, or a 502, 503 or
// 504) out for a cool-down. A request that could not even connect is sent
// again at once to another healthy replica; any other failure is returned
// to the driver's retry loop, whose next attempt lands on a healthy one.
//
// Requests are built against the first replica's URL (the driver's base
// URL); the transport rewrites that prefix to the chosen replica's.
package replica

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// DefaultCooldown is how long a failing replica is left out.
const DefaultCooldown = 30 * time.Second

// Options shape a Pool.
type Options struct {
	Cooldown time.Duration    // 0: DefaultCooldown
	Now      func() time.Time // for tests; nil: time.Now
}

type replica struct {
	url       *url.URL
	prefix    string // scheme://host/path without trailing "/"
	inflight  int
	downUntil time.Time
	sent      int64
	failures  int64
}

// Pool is the RoundTripper. It is safe for concurrent use.
type Pool struct {
	next     http.RoundTripper
	cooldown time.Duration
	now      func() time.Time

	mu       sync.Mutex
	replicas []*replica
	turn     int // rotates ties
}

// New returns a pool over the base URLs (at least one; each absolute),
// sending through next.
func New(bases []string, next http.RoundTripper, o Options) (*Pool, error) {
	if len(bases) == 0 {
		return nil, errors.New("replica: no base URLs")
	}
	p := &Pool{next: next, cooldown: o.Cooldown, now: o.Now}
	if p.cooldown <= 0 {
		p.cooldown = DefaultCooldown
	}
	if p.now == nil {
		p.now = time.Now
	}
	seen := map[string]bool{}
	for _, b := range bases {
		u, err := url.Parse(strings.TrimRight(b, "/"))
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("replica: base URL %q is not an absolute http(s) URL", b)
		}
		if seen[u.String()] {
			return nil, fmt.Errorf("replica: base URL %q is listed twice", b)
		}
		seen[u.String()] = true
		p.replicas = append(p.replicas, &replica{url: u, prefix: u.String()})
	}
	return p, nil
}

// Stat is what the pool knows of one replica.
type Stat struct {
	URL            string
	InFlight       int
	Sent, Failures int64
	Down           bool
}

// Stats returns the replicas' counters, in the configured order.
func (p *Pool) Stats() []Stat {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	out := make([]Stat, len(p.replicas))
	for i, r := range p.replicas {
		out[i] = Stat{URL: r.prefix, InFlight: r.inflight, Sent: r.sent, Failures: r.failures, Down: now.Before(r.downUntil)}
	}
	return out
}

// pick takes the healthy replica with the fewest requests in flight (ties
// rotate), skipping tried ones; when every untried replica is cooling
// down, the one back soonest. nil when every replica was tried.
func (p *Pool) pick(tried map[*replica]bool) *replica {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	var best, soonest *replica
	n := len(p.replicas)
	for i := 0; i < n; i++ {
		r := p.replicas[(p.turn+i)%n]
		if tried[r] {
			continue
		}
		if now.Before(r.downUntil) {
			if soonest == nil || r.downUntil.Before(soonest.downUntil) {
				soonest = r
			}
			continue
		}
		if best == nil || r.inflight < best.inflight {
			best = r
		}
	}
	p.turn++
	if best == nil {
		best = soonest
	}
	if best != nil {
		best.inflight++
		best.sent++
	}
	return best
}

func (p *Pool) done(r *replica, failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	r.inflight--
	if failed {
		r.failures++
		r.downUntil = p.now().Add(p.cooldown)
	} else {
		r.downUntil = time.Time{}
	}
}

// RoundTrip implements http.RoundTripper.
func (p *Pool) RoundTrip(req *http.Request) (*http.Response, error) {
	first := p.replicas[0].prefix
	target := req.URL.String()
	if !strings.HasPrefix(target, first) {
		return p.next.RoundTrip(req) // not a request to the model server
	}
	rest := target[len(first):]
	tried := map[*replica]bool{}
	for {
		r := p.pick(tried)
		if r == nil {
			return nil, fmt.Errorf("replica: every replica refused the connection")
		}
		tried[r] = true
		out, err := p.rewrite(req, r, rest)
		if err != nil {
			p.done(r, false)
			return nil, err
		}
		resp, err := p.next.RoundTrip(out)
		if err != nil {
			p.done(r, true)
			if isConnect(err) && req.Context().Err() == nil && (req.Body == nil || req.GetBody != nil) && len(tried) < len(p.replicas) {
				continue // nothing reached the server: try another replica now
			}
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			p.done(r, true)
		default:
			p.done(r, false)
		}
		return resp, nil
	}
}

func (p *Pool) rewrite(req *http.Request, r *replica, rest string) (*http.Request, error) {
	u, err := url.Parse(r.prefix + rest)
	if err != nil {
		return nil, err
	}
	out := req.Clone(req.Context())
	out.URL = u
	out.Host = ""
	if req.GetBody != nil {
		b, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		out.Body = b
	}
	return out, nil
}

// isConnect reports a failure to connect (refused, unreachable, DNS):
// the request never reached a server.
func isConnect(err error) bool {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return true
	}
	var de *net.DNSError
	return errors.As(err, &de)
}
