package breaker_test

import (
	"context"
	"errors"
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/run/breaker"
)

var (
	down    = fmt.Errorf("infer: simple_python_3: %w", &driver.Error{Provider: "openai", Err: errors.New("connection refused"), Retryable: true, Attempts: 6})
	badKey  = &driver.Error{Provider: "openai", StatusCode: 401, Body: "bad key"}
	tooLong = &driver.Error{Provider: "openai", StatusCode: 400, Body: "context length exceeded"}
	badData = errors.New("dataset: x.json:3: malformed")
)

var _ = Describe("Breaker", func() {
	newB := func(n int) (*breaker.Breaker, context.Context) {
		return breaker.New(context.Background(), breaker.Config{Threshold: n, IsInfrastructure: driver.IsInfrastructure, Resume: "rerun the same command to resume"})
	}

	It("trips after a run of consecutive infrastructure failures and cancels the run with a message saying how to resume", func() {
		b, ctx := newB(3)
		Expect(b.Record(down)).To(BeFalse())
		Expect(b.Record(badKey)).To(BeFalse())
		Expect(ctx.Err()).NotTo(HaveOccurred())
		Expect(b.Record(down)).To(BeTrue())
		Expect(ctx.Err()).To(MatchError(context.Canceled))
		cause := context.Cause(ctx)
		Expect(errors.Is(cause, breaker.ErrTripped)).To(BeTrue())
		Expect(cause.Error()).To(Equal("stopped after 3 consecutive infrastructure failures (last: infer: simple_python_3: openai: connection refused (after 6 attempts)); results stored so far are kept: rerun the same command to resume"))
		Expect(b.Err()).To(Equal(cause))
		Expect(b.Record(nil)).To(BeTrue(), "stays tripped")
	})

	It("resets on a success and ignores errors that are not the server's", func() {
		b, ctx := newB(2)
		for i := 0; i < 10; i++ {
			Expect(b.Record(down)).To(BeFalse())
			Expect(b.Record(tooLong)).To(BeFalse())
			Expect(b.Record(badData)).To(BeFalse())
			Expect(b.Record(context.Canceled)).To(BeFalse())
			Expect(b.Record(nil)).To(BeFalse())
		}
		Expect(ctx.Err()).NotTo(HaveOccurred())
		Expect(b.Err()).NotTo(HaveOccurred())
	})

	It("counts from many goroutines and trips once", func() {
		b, ctx := newB(50)
		var wg sync.WaitGroup
		trips := make(chan bool, 200)
		for i := 0; i < 200; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				trips <- b.Record(down)
			}()
		}
		wg.Wait()
		close(trips)
		n := 0
		for t := range trips {
			if t {
				n++
			}
		}
		Expect(n).To(Equal(151)) // the 50th and every later one see it tripped
		var tr *breaker.Tripped
		Expect(errors.As(context.Cause(ctx), &tr)).To(BeTrue())
		Expect(tr.Failures).To(Equal(50))
	})

	It("has a threshold that grows with the requests in flight", func() {
		Expect(breaker.DefaultThreshold(1)).To(Equal(5))
		Expect(breaker.DefaultThreshold(32)).To(Equal(32))
	})
})
