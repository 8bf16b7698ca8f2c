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
	// Done are the entries stored and scored (skipped, stopped and errored
	// ones are not done); Passed and Wrong split them by verdict.
	Done, Passed, Wrong int
	Errors              int                          // entries that could not be run (not stored)
	FirstError          error                        // the first of those, with its entry id
	Skipped             map[category.Category]string // category -> why it was skipped
	Ran                 []category.Category
	Calls, Tokens       int64
	Interrupted         bool // the user stopped the run
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
		return Summary{Skipped: map[category.Category]string{}, Errors: len(items), FirstError: err, Aborted: true}
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
				h.cfg.Source.Index(it.Category) //nolint:errcheck
			}
		}
	}()
	t := &tally{sum: Summary{Skipped: map[category.Category]string{}}, ran: map[category.Category]bool{}}
	pr := newProgress(progress, len(items), t)
	ch := make(chan selection.Item)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range ch {
				out, err := h.Run(ctx, it.Category, it.ID)
				skipped := errors.Is(err, score.ErrNoChecker) || errors.Is(err, score.ErrNotApplicable)
				if !skipped {
					br.Record(err)
				}
				t.record(ctx, it, out, err, skipped)
				pr.print(false)
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
	pr.print(true)
	pr.end()
	sum := t.summary()
	if err := br.Err(); err != nil {
		sum.FirstError, sum.Aborted = err, true
	} else {
		sum.Interrupted = ctx.Err() != nil
	}
	return sum
}

// tally counts what a batch did. The counters read by the progress line
// are atomic; the rest is under mu.
type tally struct {
	// ended counts every entry that ended (a verdict, an error or a
	// skipped category): the progress line's numerator.
	ended                 atomic.Int64
	passed, calls, tokens atomic.Int64
	errored               atomic.Int64 // entries that could not be run (Summary.Errors)
	// verdicts are the entries stored and scored: the pass rate's base and
	// the summary's Done
	verdicts atomic.Int64

	mu  sync.Mutex
	sum Summary // Passed, Wrong, FirstError, Skipped
	ran map[category.Category]bool
}

// record counts one entry's outcome: a skipped category, an entry that
// could not be run (not counted when the run was stopped), or a verdict.
func (t *tally) record(ctx context.Context, it selection.Item, out Outcome, err error, skipped bool) {
	if err != nil && !skipped && ctx.Err() != nil {
		return // stopped, not done: neither stored nor counted
	}
	defer t.ended.Add(1)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case skipped:
		if t.sum.Skipped[it.Category] == "" {
			t.sum.Skipped[it.Category] = err.Error()
		}
	case err != nil:
		t.errored.Add(1)
		if t.sum.FirstError == nil {
			t.sum.FirstError = fmt.Errorf("%s: %w", it.ID, err)
		}
	default:
		t.ran[it.Category] = true
		if out.Verdict.Valid {
			t.sum.Passed++
			t.passed.Add(1)
		} else {
			t.sum.Wrong++
		}
		t.verdicts.Add(1)
		t.calls.Add(int64(out.Stats.Calls))
		t.tokens.Add(int64(out.Stats.InputTokens + out.Stats.OutputTokens))
	}
}

// summary is the batch's Summary (the run's end state is the caller's).
func (t *tally) summary() Summary {
	t.mu.Lock()
	defer t.mu.Unlock()
	sum := t.sum
	sum.Done, sum.Errors = int(t.verdicts.Load()), int(t.errored.Load())
	sum.Calls, sum.Tokens = t.calls.Load(), t.tokens.Load()
	for c := range t.ran {
		sum.Ran = append(sum.Ran, c)
	}
	sum.Ran = category.SortCanonical(sum.Ran)
	return sum
}

// progress prints the one-line progress of a batch, at most four times a
// second.
type progress struct {
	w     *bufio.Writer // nil: no progress
	total int
	t     *tally
	start time.Time
	last  atomic.Int64
	mu    sync.Mutex
}

func newProgress(w io.Writer, total int, t *tally) *progress {
	p := &progress{total: total, t: t, start: time.Now()}
	if w != nil {
		p.w = bufio.NewWriter(w)
	}
	return p
}

func (p *progress) print(final bool) {
	if p.w == nil {
		return
	}
	now := time.Now().UnixNano()
	if !final && now-p.last.Load() < int64(250*time.Millisecond) {
		return
	}
	p.last.Store(now)
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.t.ended.Load()
	rate, eta := 0.0, "?"
	if v := p.t.verdicts.Load(); v > 0 {
		rate = 100 * float64(p.t.passed.Load()) / float64(v)
	}
	if d > 0 {
		eta = (time.Duration(float64(time.Since(p.start)) / float64(d) * float64(int64(p.total)-d))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "\r%d/%d entries  pass %.1f%%  calls %d  tokens %d  errors %d  ETA %s   ",
		d, p.total, rate, p.t.calls.Load(), p.t.tokens.Load(), p.t.errored.Load(), eta)
	p.w.Flush()
}

// end ends the progress line.
func (p *progress) end() {
	if p.w != nil {
		fmt.Fprintln(p.w)
		p.w.Flush()
	}
}
