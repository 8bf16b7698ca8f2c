// Package breaker stops a run that can no longer succeed: after a run of
// consecutive infrastructure failures (the model server down, the key
// revoked, the model gone) it trips, cancelling the run's context with an
// error that says what failed and how to resume, instead of letting every
// remaining entry spend its retries on a dead server. Results stored
// before the trip are kept (each is written as it completes), so rerunning
// the same command resumes.
package breaker

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrTripped is the cause of a tripped breaker's context (errors.Is).
var ErrTripped = errors.New("circuit breaker tripped")

// Tripped is the cause a breaker cancels its context with.
type Tripped struct {
	Failures int    // consecutive infrastructure failures
	Last     error  // the last of them
	Resume   string // how to resume, from Config.Resume
}

func (t *Tripped) Error() string {
	msg := fmt.Sprintf("stopped after %d consecutive infrastructure failures (last: %v); results stored so far are kept", t.Failures, t.Last)
	if t.Resume != "" {
		msg += ": " + t.Resume
	}
	return msg
}

// Is makes errors.Is(err, ErrTripped) true.
func (t *Tripped) Is(target error) bool { return target == ErrTripped }

func (t *Tripped) Unwrap() error { return t.Last }

// Config shapes a breaker.
type Config struct {
	// Threshold is how many consecutive infrastructure failures trip it
	// (at least 1).
	Threshold int
	// IsInfrastructure tells an infrastructure failure from any other
	// error (a bad entry, a missing checker): those neither count nor
	// reset the run.
	IsInfrastructure func(error) bool
	// Resume is appended to the trip message, e.g. "rerun the same
	// command to resume".
	Resume string
}

// DefaultThreshold is the threshold for a run with n requests in flight:
// n (a dead server fails every request in flight), at least 5.
func DefaultThreshold(n int) int { return max(n, 5) }

// Breaker counts consecutive infrastructure failures. It is safe for
// concurrent use.
type Breaker struct {
	cfg    Config
	cancel context.CancelCauseFunc

	mu      sync.Mutex
	run     int
	tripped *Tripped
}

// New returns a breaker and the context it cancels when it trips (a child
// of parent).
func New(parent context.Context, cfg Config) (*Breaker, context.Context) {
	if cfg.Threshold < 1 {
		cfg.Threshold = 1
	}
	if cfg.IsInfrastructure == nil {
		cfg.IsInfrastructure = func(error) bool { return true }
	}
	ctx, cancel := context.WithCancelCause(parent)
	return &Breaker{cfg: cfg, cancel: cancel}, ctx
}

// Record notes the outcome of one entry: nil (a success: the run of
// failures is over), an infrastructure failure (counted), or another
// error (ignored). It reports whether the breaker is tripped.
func (b *Breaker) Record(err error) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tripped != nil {
		return true
	}
	switch {
	case err == nil:
		b.run = 0
		return false
	case errors.Is(err, context.Canceled) || errors.Is(err, ErrTripped):
		return false // the run is being stopped; not a failure of the server
	case !b.cfg.IsInfrastructure(err):
		return false
	}
	b.run++
	if b.run < b.cfg.Threshold {
		return false
	}
	b.tripped = &Tripped{Failures: b.run, Last: err, Resume: b.cfg.Resume}
	b.cancel(b.tripped)
	return true
}

// Err returns the *Tripped cause once tripped, else nil.
func (b *Breaker) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tripped == nil {
		return nil
	}
	return b.tripped
}

// Stop releases the breaker's context (call when the run ends).
func (b *Breaker) Stop() { b.cancel(context.Canceled) }
