package limiter_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/run/limiter"
	"github.com/bfcl-go/bfcl/internal/run/sched"
)

var _ = Describe("Limiter", func() {
	It("halves on a 429 once per round, grows back by one per limit's successes, within [min, max]", func() {
		l := limiter.New(2, 16)
		Expect(l.Limit()).To(Equal(16))
		var rel []func(limiter.Outcome)
		for i := 0; i < 8; i++ {
			r, err := l.Acquire(context.Background())
			Expect(err).NotTo(HaveOccurred())
			rel = append(rel, r)
		}
		for _, r := range rel {
			r(limiter.Throttled) // eight 429s of one round: one decrease
		}
		Expect(l.Limit()).To(Equal(8))
		for want := 4; want >= 2; want /= 2 {
			r, _ := l.Acquire(context.Background())
			r(limiter.Throttled)
			Expect(l.Limit()).To(Equal(want))
		}
		r, _ := l.Acquire(context.Background())
		r(limiter.Throttled)
		Expect(l.Limit()).To(Equal(2), "never below min")
		n := 0
		for l.Limit() < 16 {
			r, _ := l.Acquire(context.Background())
			r(limiter.Success)
			n++
		}
		// From 2 to 16 adding 1/limit per success: limit² grows by about 2
		// per success, so about (16² - 2²) / 2 = 126 successes.
		Expect(n).To(BeNumerically("~", 126, 4))
		for i := 0; i < 50; i++ {
			r, _ := l.Acquire(context.Background())
			r(limiter.Success)
		}
		Expect(l.Limit()).To(Equal(16), "never above max")
		r, _ = l.Acquire(context.Background())
		r(limiter.Neutral)
		Expect(l.Limit()).To(Equal(16))
	})

	It("blocks at the limit until a slot is released or the context ends", func() {
		l := limiter.New(1, 1)
		r, err := l.Acquire(context.Background())
		Expect(err).NotTo(HaveOccurred())
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err = l.Acquire(ctx)
		Expect(err).To(MatchError(context.DeadlineExceeded))
		got := make(chan struct{})
		go func() {
			r2, _ := l.Acquire(context.Background())
			r2(limiter.Success)
			close(got)
		}()
		Consistently(got, 50*time.Millisecond).ShouldNot(BeClosed())
		r(limiter.Success)
		r(limiter.Success) // a second release is ignored
		Eventually(got).Should(BeClosed())
		Expect(l.InFlight()).To(Equal(0))
	})

	It("hands a released slot to the waiting request whose entry has the most calls ahead", func() {
		l := limiter.New(1, 1)
		r, err := l.Acquire(context.Background())
		Expect(err).NotTo(HaveOccurred())
		gate := sched.NewGate(100) // the entries' tickets carry the priorities
		var mu sync.Mutex
		var order []int
		var wg sync.WaitGroup
		for _, p := range []int{1, 9, 4, 9, 0} {
			wg.Add(1)
			ctx, _ := sched.With(context.Background(), gate, p)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				rel, err := l.Acquire(ctx)
				Expect(err).NotTo(HaveOccurred())
				mu.Lock()
				order = append(order, p)
				mu.Unlock()
				rel(limiter.Success)
			}()
			time.Sleep(10 * time.Millisecond) // queued in this order
		}
		r(limiter.Success)
		wg.Wait()
		Expect(order).To(Equal([]int{9, 9, 4, 1, 0}))
	})

	It("backs off against a server that throttles above its capacity, and recovers when it stops", func() {
		var inflight, peak atomic.Int32
		var capacity atomic.Int32
		capacity.Store(4)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := inflight.Add(1)
			defer inflight.Add(-1)
			if n > capacity.Load() {
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(2 * time.Millisecond)
		}))
		defer srv.Close()
		l := limiter.New(1, 32)
		c := &http.Client{Transport: limiter.Transport(l, http.DefaultTransport.(*http.Transport).Clone())}
		run := func(requests int) (throttled int64) {
			var wg sync.WaitGroup
			var t atomic.Int64
			work := make(chan struct{})
			for w := 0; w < 32; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range work {
						resp, err := c.Get(srv.URL)
						Expect(err).NotTo(HaveOccurred())
						resp.Body.Close()
						if resp.StatusCode == 429 {
							t.Add(1)
						}
					}
				}()
			}
			for i := 0; i < requests; i++ {
				work <- struct{}{}
			}
			close(work)
			wg.Wait()
			return t.Load()
		}
		first := run(600)
		Expect(first).To(BeNumerically(">", 0))
		Expect(l.Limit()).To(BeNumerically("<=", 8), "settles near the capacity of 4")
		// AIMD keeps probing above the capacity, so some 429s remain (about
		// one per grow-and-halve cycle); 32 unthrottled workers against a
		// capacity of 4 would see most requests refused.
		later := run(600)
		Expect(later).To(BeNumerically("<", 600/4), "429s once adapted: %d of 600 (first round: %d)", later, first)
		capacity.Store(1000)
		run(2000)
		Expect(l.Limit()).To(BeNumerically(">=", 24), "recovers when the server stops throttling")
	})
})
