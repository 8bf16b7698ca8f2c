package core

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/bfcl-go/bfcl/internal/run/sched"
)

// maxRetryAfter caps how long a server's Retry-After may hold a run.
const maxRetryAfter = 5 * time.Minute

// Retry runs attempt until it succeeds, fails with a non-retryable error,
// or cfg.MaxRetries retries are spent. Between attempts it sleeps the
// server's Retry-After when given, else an exponential backoff with full
// jitter (base RetryBaseDelay, doubling, capped at RetryMaxDelay). Each
// attempt runs under its own context bounded by cfg.Timeout; the caller's
// ctx cancels everything at once, and its error is returned unchanged.
// A timeout of one attempt becomes a retryable Error naming the provider.
// cfg must be normalized.
func Retry[T any](ctx context.Context, cfg Config, provider string, attempt func(ctx context.Context) (T, error)) (T, error) {
	var zero T
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return zero, err
		}
		actx, cancel := context.WithTimeout(ctx, cfg.Timeout)
		v, err := attempt(actx)
		timedOut := actx.Err() != nil && ctx.Err() == nil
		cancel()
		if err == nil {
			return v, nil
		}
		if ctx.Err() != nil {
			return zero, ctx.Err()
		}
		var e *Error
		if !errors.As(err, &e) {
			if timedOut || errors.Is(err, context.DeadlineExceeded) {
				e = &Error{Provider: provider, Retryable: true, Err: err}
			} else {
				e = &Error{Provider: provider, Err: err}
			}
			err = e
		} else if timedOut {
			e.Retryable = true
		}
		if timedOut && e.Body == "" {
			e.Body = "attempt timed out after " + cfg.Timeout.String()
		}
		e.Attempts = n
		if !e.Retryable || n > cfg.MaxRetries {
			return zero, err
		}
		wait := Backoff(cfg, n, e.RetryAfter)
		t := time.NewTimer(wait)
		resume := sched.Pause(ctx)
		select {
		case <-ctx.Done():
			t.Stop()
			return zero, ctx.Err()
		case <-t.C:
		}
		if err := resume(); err != nil {
			return zero, err
		}
	}
}

// Backoff is the pause before retry number n (1-based): the server's
// retryAfter (capped at 5 min) plus up to 10% jitter when positive, else a
// uniformly random duration in [base*2^(n-1)/2, base*2^(n-1)] capped at
// cfg.RetryMaxDelay.
func Backoff(cfg Config, n int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		retryAfter = min(retryAfter, maxRetryAfter)
		return retryAfter + time.Duration(rand.Int64N(int64(retryAfter)/10+1))
	}
	d := cfg.RetryBaseDelay
	for i := 1; i < n && d < cfg.RetryMaxDelay; i++ {
		d *= 2
	}
	d = min(d, cfg.RetryMaxDelay)
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(d-half)+1))
}
