package harness

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/selection"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/run/breaker"
)

// Summary is what a batch run did.
type Summary struct {
	Done, Passed, Failed int               // entries stored and scored, their verdicts (skipped and stopped ones are not done)
	Errors               int               // entries that could not be run (not stored)
	FirstError           error             // the first of those, with its entry id
	Skipped              map[string]string // category -> why it was skipped
	Ran                  []category.Category
	Calls, Tokens        int64
	Interrupted          bool // the user stopped the run
	// Aborted: the run stopped early, FirstError says why (the model
	// failed its probe, or the circuit breaker tripped).
	Aborted bool
}

// RunAll runs the items with the model's concurrency, printing a progress
// line to progress (nil: none), in the items' order. Entries that cannot
// run (server down after retries) are counted and reported, not stored, so
// a rerun retries them; categories that do not apply are skipped with the
// reason.
func (h *Harness) RunAll(ctx context.Context, items []selection.Item, progress io.Writer) Summary {
	workers := cap(h.sem) // the entries in progress (see slots)
	if err := h.Probe(); err != nil {
		return Summary{Skipped: map[string]string{}, Errors: len(items), FirstError: err, Aborted: true}
	}
	// A run of consecutive infrastructure failures (server gone, key
	// revoked) stops the run instead of failing every remaining entry.
	br, ctx := breaker.New(ctx, breaker.Config{
		Threshold:        breaker.DefaultThreshold(workers),
		IsInfrastructure: driver.IsInfrastructure,
		Resume:           "rerun the same command to resume",
	})
	defer br.Stop()
	// Load the categories one after another in the background, in the
	// order the run first needs them, so that the entries of a category
	// met late in the run do not all wait for its load (errors reach the
	// entries, through Entry).
	go func() {
		seen := map[category.Category]bool{}
		for _, it := range items {
			if !seen[it.Category] && ctx.Err() == nil {
				seen[it.Category] = true
				h.category(string(it.Category)) //nolint:errcheck
			}
		}
	}()
	var (
		mu                                  sync.Mutex
		done, passed, calls, tokens, failed int64
		// verdicts: entries stored and scored (the pass rate's base and
		// the summary's Done); done also counts skipped and failed ones
		verdicts int64
		sum      = Summary{Skipped: map[string]string{}}
		ran      = map[category.Category]bool{}
		start    = time.Now()
		last     atomic.Int64
	)
	var pw *bufio.Writer
	if progress != nil {
		pw = bufio.NewWriter(progress)
	}
	report := func(final bool) {
		if pw == nil {
			return
		}
		now := time.Now().UnixNano()
		if !final && now-last.Load() < int64(250*time.Millisecond) {
			return // at most four progress lines a second
		}
		last.Store(now)
		mu.Lock()
		defer mu.Unlock()
		d := atomic.LoadInt64(&done)
		rate, eta := 0.0, "?"
		if v := atomic.LoadInt64(&verdicts); v > 0 {
			rate = 100 * float64(atomic.LoadInt64(&passed)) / float64(v)
		}
		if d > 0 {
			eta = (time.Duration(float64(time.Since(start)) / float64(d) * float64(int64(len(items))-d))).Round(time.Second).String()
		}
		fmt.Fprintf(pw, "\r%d/%d entries  pass %.1f%%  calls %d  tokens %d  errors %d  ETA %s   ",
			d, len(items), rate, atomic.LoadInt64(&calls), atomic.LoadInt64(&tokens), atomic.LoadInt64(&failed), eta)
		pw.Flush()
	}
	ch := make(chan selection.Item)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range ch {
				out, err := h.Run(ctx, string(it.Category), it.ID)
				if !errors.Is(err, score.ErrNoChecker) && !errors.Is(err, score.ErrNotApplicable) {
					br.Record(err)
				}
				switch {
				case errors.Is(err, score.ErrNoChecker) || errors.Is(err, score.ErrNotApplicable):
					mu.Lock()
					if sum.Skipped[string(it.Category)] == "" {
						sum.Skipped[string(it.Category)] = err.Error()
					}
					mu.Unlock()
				case err != nil:
					if ctx.Err() != nil {
						continue // stopped, not done: neither stored nor counted
					}
					atomic.AddInt64(&failed, 1)
					mu.Lock()
					if sum.FirstError == nil {
						sum.FirstError = fmt.Errorf("%s: %w", it.ID, err)
					}
					mu.Unlock()
				default:
					mu.Lock()
					ran[it.Category] = true
					if out.Verdict.Valid {
						sum.Passed++
					} else {
						sum.Failed++
					}
					mu.Unlock()
					if out.Verdict.Valid {
						atomic.AddInt64(&passed, 1)
					}
					atomic.AddInt64(&verdicts, 1)
					atomic.AddInt64(&calls, int64(out.Stats.Calls))
					atomic.AddInt64(&tokens, int64(out.Stats.InputTokens+out.Stats.OutputTokens))
				}
				atomic.AddInt64(&done, 1)
				report(false)
			}
		}()
	}
feed:
	for _, it := range items {
		select {
		case ch <- it:
		case <-ctx.Done():
			break feed
		}
	}
	close(ch)
	wg.Wait()
	report(true)
	if pw != nil {
		fmt.Fprintln(pw)
		pw.Flush()
	}
	sum.Done, sum.Errors = int(verdicts), int(failed)
	sum.Calls, sum.Tokens = calls, tokens
	if err := br.Err(); err != nil {
		sum.FirstError, sum.Aborted = err, true
	} else {
		sum.Interrupted = ctx.Err() != nil
	}
	for c := range ran {
		sum.Ran = append(sum.Ran, c)
	}
	sum.Ran = category.SortCanonical(sum.Ran)
	return sum
}
