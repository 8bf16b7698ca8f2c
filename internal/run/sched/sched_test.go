package sched_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/bfcl-go/bfcl/internal/run/sched"
)

func TestGateServesTheHighestPriorityFirst(t *testing.T) {
	g := sched.NewGate(1)
	ctx := context.Background()
	_, holder := sched.With(ctx, g, 0)
	if err := holder.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []int
	var wg sync.WaitGroup
	for _, p := range []int{1, 5, 3, 5, 0} {
		wg.Add(1)
		c, tk := sched.With(ctx, g, p)
		go func(p int) {
			defer wg.Done()
			if err := tk.Acquire(c); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, p)
			mu.Unlock()
			tk.Release()
		}(p)
		time.Sleep(10 * time.Millisecond) // queue them in this order
	}
	holder.Release()
	wg.Wait()
	want := []int{5, 5, 3, 1, 0}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("served in order %v, want %v", order, want)
		}
	}
}

func TestPauseLetsOthersRunAndCancelGivesUp(t *testing.T) {
	g := sched.NewGate(1)
	ctx, a := sched.With(context.Background(), g, 1)
	if err := a.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	resume := sched.Pause(ctx) // a waits for the network
	bctx, b := sched.With(context.Background(), g, 0)
	if err := b.Acquire(bctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- resume() }()
	select {
	case <-done:
		t.Fatal("resumed while the slot was taken")
	case <-time.After(20 * time.Millisecond):
	}
	b.Release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	cctx, c := sched.With(cctx, g, 9)
	if err := c.Acquire(cctx); err != context.DeadlineExceeded {
		t.Fatalf("Acquire under an expired context: %v", err)
	}
	a.Release()
	a.Release() // twice is harmless
	if err := b.Acquire(bctx); err != nil {
		t.Fatal("the slot was lost:", err)
	}
	// No ticket, no gate: no-ops.
	if err := sched.Pause(context.Background())(); err != nil {
		t.Fatal(err)
	}
	var none *sched.Ticket
	none.SetPriority(1)
	none.Release()
}

func TestResizeGrowsAtOnceAndShrinksAsSlotsReturn(t *testing.T) {
	g := sched.NewGate(1)
	ctx := context.Background()
	if err := g.Acquire(ctx, 0); err != nil {
		t.Fatal(err)
	}
	got := make(chan struct{})
	go func() {
		if err := g.Acquire(ctx, 0); err == nil {
			close(got)
		}
	}()
	time.Sleep(20 * time.Millisecond)
	select {
	case <-got:
		t.Fatal("a second slot was granted by a gate of one")
	default:
	}
	g.Resize(2)
	select {
	case <-got:
	case <-time.After(time.Second):
		t.Fatal("growing the gate did not wake the waiter")
	}
	g.Resize(1) // two in use, one slot: the next waits for two releases
	third := make(chan struct{})
	go func() {
		if err := g.Acquire(ctx, 0); err == nil {
			close(third)
		}
	}()
	g.Release()
	time.Sleep(20 * time.Millisecond)
	select {
	case <-third:
		t.Fatal("granted while the gate was still over its new size")
	default:
	}
	g.Release()
	select {
	case <-third:
	case <-time.After(time.Second):
		t.Fatal("not granted once the gate was under its size")
	}
	if n := g.InUse(); n != 1 {
		t.Fatalf("in use %d, want 1", n)
	}
}

// A gate of two with one slot reserved for waits: both slots serve CPU
// work while nothing waits; while a ticket waits for the network, CPU
// work gets one; when the wait ends, the second slot opens again.
func TestReserveForWaitsKeepsASlotFreeWhileATicketWaits(t *testing.T) {
	g := sched.NewGate(2)
	g.ReserveForWaits(1)
	ctx := context.Background()
	actx, a := sched.With(ctx, g, 1)
	bctx, b := sched.With(ctx, g, 1)
	for _, tk := range []struct {
		ctx context.Context
		t   *sched.Ticket
	}{{actx, a}, {bctx, b}} {
		if err := tk.t.Acquire(tk.ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := g.InUse(); n != 2 {
		t.Fatalf("nothing waits: %d slots in use, want both", n)
	}
	resume := sched.Pause(bctx) // b waits for its answer
	cctx, c := sched.With(ctx, g, 5)
	got := make(chan error, 1)
	go func() { got <- c.Acquire(cctx) }()
	select {
	case err := <-got:
		t.Fatalf("granted the reserved slot while b waits (err %v)", err)
	case <-time.After(20 * time.Millisecond):
	}
	back := make(chan error, 1)
	go func() { back <- resume() }() // b's answer is in: nothing waits
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Second):
		t.Fatal("the reserved slot did not open when the wait ended")
	}
	a.Release() // b, queued behind a and c, takes a's slot
	if err := <-back; err != nil {
		t.Fatal(err)
	}
	if n := g.InUse(); n != 2 {
		t.Fatalf("%d slots in use, want 2 (b and c)", n)
	}
	// One core: the reserve never takes the last slot.
	one := sched.NewGate(1)
	one.ReserveForWaits(1)
	octx, o := sched.With(ctx, one, 0)
	if err := o.Acquire(octx); err != nil {
		t.Fatal(err)
	}
	r := sched.Pause(octx)
	pctx, p := sched.With(ctx, one, 0)
	if err := p.Acquire(pctx); err != nil {
		t.Fatal(err)
	}
	p.Release()
	if err := r(); err != nil {
		t.Fatal(err)
	}
}
