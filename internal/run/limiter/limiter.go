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

	"github.com/bfcl-go/bfcl/internal/run/sched"
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
//
// Its slots are a sched.Gate: a request waiting for one is ordered by the
// priority of the entry's ticket (sched.TicketOf; the entry with the most
// turns ahead first), and a released slot is handed to exactly one
// waiter. So a run may keep more entries going than requests in flight
// (their CPU work between calls then never leaves a slot idle) without
// delaying its longest entries, and without a wake-up storm per release.
type Limiter struct {
	min, max int
	slots    *sched.Gate

	mu    sync.Mutex
	limit float64
	epoch int // incremented at each decrease
}

// New returns a limiter starting at max requests in flight, never below
// min (at least 1).
func New(min, max int) *Limiter {
	min = clamp(min, 1, 1<<30)
	max = clamp(max, min, 1<<30)
	return &Limiter{min: min, max: max, limit: float64(max), slots: sched.NewGate(max)}
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
func (l *Limiter) InFlight() int { return l.slots.InUse() }

// Acquire waits for a slot. Release it with the request's outcome.
func (l *Limiter) Acquire(ctx context.Context) (release func(Outcome), err error) {
	if err := l.slots.Acquire(ctx, sched.TicketOf(ctx).Priority()); err != nil {
		return nil, err
	}
	l.mu.Lock()
	epoch := l.epoch
	l.mu.Unlock()
	var once sync.Once
	return func(o Outcome) { once.Do(func() { l.release(epoch, o) }) }, nil
}

func (l *Limiter) release(epoch int, o Outcome) {
	l.mu.Lock()
	before := int(l.limit)
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
	if after := int(l.limit); after != before {
		l.slots.Resize(after) // under l.mu, so resizes apply in order
	}
	l.mu.Unlock()
	l.slots.Release()
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
