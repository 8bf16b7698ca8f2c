// Package limiter adapts how many requests a run keeps in flight to what
// the server accepts: an AIMD limiter (additive increase, multiplicative
// decrease, as TCP does) that halves its limit when the server throttles
// (HTTP 429) and grows it back by one per limit's worth of successes, up
// to the configured maximum. Transport puts it in front of an
// http.RoundTripper, so every request of a driver passes through it.
package limiter

import (
	"context"
	"net/http"
	"sync"
)

// Outcome is how a request ended, for the limiter.
type Outcome int

const (
	// Success grows the limit.
	Success Outcome = iota
	// Throttled (HTTP 429) halves it.
	Throttled
	// Neutral (any other failure) leaves it.
	Neutral
)

// Limiter is the AIMD limiter. It is safe for concurrent use.
type Limiter struct {
	min, max int

	mu       sync.Mutex
	limit    float64
	inflight int
	epoch    int // incremented at each decrease
	wake     chan struct{}
}

// New returns a limiter starting at max requests in flight, never below
// min (at least 1).
func New(min, max int) *Limiter {
	min = clamp(min, 1, 1<<30)
	max = clamp(max, min, 1<<30)
	return &Limiter{min: min, max: max, limit: float64(max), wake: make(chan struct{})}
}

func clamp(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// Limit is the current limit, rounded down.
func (l *Limiter) Limit() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int(l.limit)
}

// InFlight is how many acquired slots are not yet released.
func (l *Limiter) InFlight() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.inflight
}

// Acquire waits for a slot. Release it with the request's outcome.
func (l *Limiter) Acquire(ctx context.Context) (release func(Outcome), err error) {
	for {
		l.mu.Lock()
		if l.inflight < int(l.limit) {
			l.inflight++
			epoch := l.epoch
			l.mu.Unlock()
			var once sync.Once
			return func(o Outcome) { once.Do(func() { l.release(epoch, o) }) }, nil
		}
		wake := l.wake
		l.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-wake:
		}
	}
}

func (l *Limiter) release(epoch int, o Outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inflight--
	switch o {
	case Throttled:
		// One decrease per round of requests: those sent before the last
		// decrease saw the old limit and must not halve it again.
		if epoch == l.epoch {
			l.limit = max(float64(l.min), l.limit/2)
			l.epoch++
		}
	case Success:
		l.limit = min(float64(l.max), l.limit+1/l.limit)
	}
	close(l.wake)
	l.wake = make(chan struct{})
}

// Transport returns a RoundTripper that holds a slot of l for each
// request (until its response headers arrive) and reports 429s.
func Transport(l *Limiter, next http.RoundTripper) http.RoundTripper {
	return transport{l: l, next: next}
}

type transport struct {
	l    *Limiter
	next http.RoundTripper
}

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	release, err := t.l.Acquire(req.Context())
	if err != nil {
		return nil, err
	}
	resp, err := t.next.RoundTrip(req)
	switch {
	case err != nil:
		release(Neutral)
	case resp.StatusCode == http.StatusTooManyRequests:
		release(Throttled)
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		release(Success)
	default:
		release(Neutral)
	}
	return resp, err
}
