// Package sched orders the CPU work of many concurrent entries so that
// the run's critical path is not delayed: a Gate lets at most n
// goroutines (one per core) run at once between their network waits, and
// when the gate is full the waiter with the highest priority (the entry
// with the most model calls still ahead) goes first.
//
// With a fixed server latency, the entries in flight get their answers
// in waves; served in arrival order, the longest entry waits behind a
// wave's worth of short ones at every step, and the makespan grows by
// that wait times its steps. Served by priority, it sends its next
// request first and the short entries fill the server's latency.
//
// The ticket travels in the context: the inference loop acquires it for
// an entry, and the HTTP transport and the retry loop of the drivers
// (internal/models/driver/core) pause it while they wait for the network or a
// backoff, through Pause.
package sched

import (
	"container/heap"
	"context"
	"sync"
)

// Gate is the priority semaphore. It is safe for concurrent use.
type Gate struct {
	mu      sync.Mutex
	size    int // slots; Resize changes it
	used    int
	q       waiters
	seq     uint64
	reserve int // slots kept free while waiting > 0 (ReserveForWaits)
	waiting int // tickets paused for a wait (Pause)
}

// NewGate returns a gate of n slots (at least 1).
func NewGate(n int) *Gate { return &Gate{size: max(n, 1)} }

type waiter struct {
	prio  int
	seq   uint64
	ready chan struct{}
	index int
}

type waiters []*waiter

func (w waiters) Len() int { return len(w) }
func (w waiters) Less(i, j int) bool {
	if w[i].prio != w[j].prio {
		return w[i].prio > w[j].prio
	}
	return w[i].seq < w[j].seq
}
func (w waiters) Swap(i, j int) { w[i], w[j] = w[j], w[i]; w[i].index = i; w[j].index = j }
func (w *waiters) Push(x any)   { it := x.(*waiter); it.index = len(*w); *w = append(*w, it) }
func (w *waiters) Pop() any {
	old := *w
	it := old[len(old)-1]
	*w = old[:len(old)-1]
	it.index = -1
	return it
}

// ReserveForWaits keeps k of the gate's slots (at most all but one) free
// of CPU work while any of its tickets is paused for a wait (Pause: a
// network round trip, a backoff). A run against a server reserves a core
// this way for the HTTP client's goroutines, so that an answer is read
// when it arrives rather than after another entry's step of CPU work;
// when nothing waits (a run's end, whose entries are all being scored,
// or its start), every core serves CPU work.
func (g *Gate) ReserveForWaits(k int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reserve = max(k, 0)
	g.grant()
}

// capacity is the number of slots CPU work may hold now.
func (g *Gate) capacity() int {
	if g.waiting > 0 {
		return max(g.size-g.reserve, 1)
	}
	return g.size
}

// Acquire waits for a slot; among waiters the highest prio goes first
// (equal ones in arrival order), and a released slot is handed to that
// one waiter, not raced for. Give the slot back with Release.
func (g *Gate) Acquire(ctx context.Context, prio int) error {
	g.mu.Lock()
	if g.used < g.capacity() && g.q.Len() == 0 {
		g.used++
		g.mu.Unlock()
		return nil
	}
	g.seq++
	w := &waiter{prio: prio, seq: g.seq, ready: make(chan struct{})}
	heap.Push(&g.q, w)
	g.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		g.mu.Lock()
		if w.index >= 0 {
			heap.Remove(&g.q, w.index)
			g.mu.Unlock()
			return ctx.Err()
		}
		g.mu.Unlock()
		g.Release() // granted while giving up: pass it on
		return ctx.Err()
	}
}

// Release gives back a slot taken by Acquire.
func (g *Gate) Release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.used--
	g.grant()
}

// Resize sets the number of slots (at least 1). Shrinking takes effect as
// slots are released; growing wakes waiters at once.
func (g *Gate) Resize(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.size = max(n, 1)
	g.grant()
}

// wait notes that a ticket of the gate starts (d = 1) or ends (d = -1)
// a wait that needs no CPU.
func (g *Gate) wait(d int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting += d
	g.grant()
}

// InUse is the number of slots acquired and not yet released.
func (g *Gate) InUse() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.used
}

func (g *Gate) grant() {
	for g.used < g.capacity() && g.q.Len() > 0 {
		w := heap.Pop(&g.q).(*waiter)
		g.used++
		close(w.ready)
	}
}

// Ticket is one entry's right to run under a gate.
type Ticket struct {
	g    *Gate
	mu   sync.Mutex
	prio int
	held bool
}

type ticketKey struct{}

// With returns a context carrying a new ticket of g with priority prio
// (not yet acquired). A nil gate gives ctx and a nil ticket, whose
// methods do nothing.
func With(ctx context.Context, g *Gate, prio int) (context.Context, *Ticket) {
	if g == nil {
		return ctx, nil
	}
	t := &Ticket{g: g, prio: prio}
	return context.WithValue(ctx, ticketKey{}, t), t
}

// TicketOf returns the ticket ctx carries, or nil.
func TicketOf(ctx context.Context) *Ticket {
	t, _ := ctx.Value(ticketKey{}).(*Ticket)
	return t
}

// SetPriority changes the priority of the ticket's next acquisitions.
func (t *Ticket) SetPriority(prio int) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.prio = prio
	t.mu.Unlock()
}

// Priority is the ticket's current priority (0 without a ticket): other
// queues of the run (the request limiter) order their waiters by it too.
func (t *Ticket) Priority() int {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.prio
}

// Acquire waits for a slot (a no-op when held).
func (t *Ticket) Acquire(ctx context.Context) error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	if t.held {
		t.mu.Unlock()
		return nil
	}
	prio := t.prio
	t.mu.Unlock()
	if err := t.g.Acquire(ctx, prio); err != nil {
		return err
	}
	t.mu.Lock()
	t.held = true
	t.mu.Unlock()
	return nil
}

// Release gives the slot back (a no-op when not held).
func (t *Ticket) Release() {
	if t == nil {
		return
	}
	t.mu.Lock()
	held := t.held
	t.held = false
	t.mu.Unlock()
	if held {
		t.g.Release()
	}
}

// Pause releases the ticket in ctx, if any and held, for a wait that
// needs no CPU (a network round trip, a backoff), and returns the
// function that takes it back. Without a ticket both are no-ops.
func Pause(ctx context.Context) (resume func() error) {
	t := TicketOf(ctx)
	if t == nil {
		return func() error { return nil }
	}
	t.mu.Lock()
	held := t.held
	t.mu.Unlock()
	if !held {
		return func() error { return nil }
	}
	t.g.wait(1)
	t.Release()
	return func() error {
		t.g.wait(-1)
		return t.Acquire(ctx)
	}
}
