package core_test

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func fastConfig(retries int) core.Config {
	return core.Config{MaxRetries: retries, RetryBaseDelay: time.Millisecond, RetryMaxDelay: 4 * time.Millisecond, Timeout: time.Second}.Normalize()
}

var _ = Describe("Retry", func() {
	It("retries retryable errors up to MaxRetries and reports the attempts", func() {
		n := 0
		_, err := core.Retry(context.Background(), fastConfig(3), "p", func(context.Context) (int, error) {
			n++
			return 0, core.HTTPError("p", 503, nil, []byte("busy"))
		})
		Expect(n).To(Equal(4))
		var e *core.Error
		Expect(errors.As(err, &e)).To(BeTrue())
		Expect(e.Attempts).To(Equal(4))
		Expect(err.Error()).To(Equal("p: HTTP 503 Service Unavailable: busy (after 4 attempts)"))
	})

	It("does not retry a 4xx", func() {
		n := 0
		_, err := core.Retry(context.Background(), fastConfig(3), "p", func(context.Context) (int, error) {
			n++
			return 0, core.HTTPError("p", 401, nil, []byte(`{"error":"bad key"}`))
		})
		Expect(n).To(Equal(1))
		Expect(core.IsRetryable(err)).To(BeFalse())
		Expect(err.Error()).To(Equal(`p: HTTP 401 Unauthorized: {"error":"bad key"}`))
	})

	It("retries a 2xx whose body is not JSON, not one of an unexpected shape (issue 26)", func() {
		n := 0
		v, err := core.Retry(context.Background(), fastConfig(3), "p", func(context.Context) (string, error) {
			n++
			if n == 1 {
				return "", core.DecodeError("p", []byte("<html>502 Bad Gateway</html>"), errors.New("invalid character '<'"))
			}
			return "ok", nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal("ok"))
		Expect(n).To(Equal(2))
		Expect(core.IsRetryable(core.DecodeError("p", []byte(`{"choices": 3}`), errors.New("cannot unmarshal number")))).To(BeFalse())
	})

	It("succeeds after transient failures", func() {
		n := 0
		v, err := core.Retry(context.Background(), fastConfig(3), "p", func(context.Context) (string, error) {
			n++
			if n < 3 {
				return "", core.HTTPError("p", 429, nil, nil)
			}
			return "ok", nil
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal("ok"))
	})

	It("turns an attempt timeout into a retryable error", func() {
		cfg := fastConfig(1)
		cfg.Timeout = 20 * time.Millisecond
		n := 0
		_, err := core.Retry(context.Background(), cfg, "p", func(ctx context.Context) (int, error) {
			n++
			<-ctx.Done()
			return 0, ctx.Err()
		})
		Expect(n).To(Equal(2))
		Expect(core.IsRetryable(err)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring("attempt timed out after 20ms"))
	})

	It("returns the caller's cancellation unchanged, without retrying", func() {
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		_, err := core.Retry(ctx, fastConfig(5), "p", func(context.Context) (int, error) {
			n++
			cancel()
			return 0, core.HTTPError("p", 500, nil, nil)
		})
		Expect(n).To(Equal(1))
		Expect(err).To(MatchError(context.Canceled))
	})

	It("never retries when MaxRetries is negative", func() {
		cfg := core.Config{MaxRetries: -1}.Normalize()
		Expect(cfg.MaxRetries).To(Equal(0))
	})
})

var _ = Describe("Backoff and Retry-After", func() {
	cfg := core.Config{RetryBaseDelay: 100 * time.Millisecond, RetryMaxDelay: time.Second}.Normalize()
	It("grows exponentially with jitter, capped", func() {
		for i := 0; i < 50; i++ {
			Expect(core.Backoff(cfg, 1, 0)).To(And(BeNumerically(">=", 50*time.Millisecond), BeNumerically("<=", 100*time.Millisecond)))
			Expect(core.Backoff(cfg, 3, 0)).To(And(BeNumerically(">=", 200*time.Millisecond), BeNumerically("<=", 400*time.Millisecond)))
			Expect(core.Backoff(cfg, 30, 0)).To(And(BeNumerically(">=", 500*time.Millisecond), BeNumerically("<=", time.Second)))
		}
	})
	It("honours Retry-After (plus at most 10% jitter), capped at 5 minutes", func() {
		Expect(core.Backoff(cfg, 1, 3*time.Second)).To(And(BeNumerically(">=", 3*time.Second), BeNumerically("<=", 3300*time.Millisecond)))
		Expect(core.Backoff(cfg, 1, time.Hour)).To(BeNumerically("<=", 330*time.Second))
	})
	It("parses seconds, fractions, HTTP dates and retry-after-ms", func() {
		now := time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)
		h := http.Header{}
		h.Set("Retry-After", "7")
		Expect(core.ParseRetryAfter(h, now)).To(Equal(7 * time.Second))
		h.Set("Retry-After", "0.5")
		Expect(core.ParseRetryAfter(h, now)).To(Equal(500 * time.Millisecond))
		h.Set("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat))
		Expect(core.ParseRetryAfter(h, now)).To(Equal(90 * time.Second))
		h.Set("Retry-After-Ms", "250")
		Expect(core.ParseRetryAfter(h, now)).To(Equal(250 * time.Millisecond))
		Expect(core.ParseRetryAfter(http.Header{}, now)).To(BeZero())
		h = http.Header{}
		h.Set("Retry-After", "soon")
		Expect(core.ParseRetryAfter(h, now)).To(BeZero())
	})
	It("classifies statuses", func() {
		for _, c := range []int{408, 409, 425, 429, 500, 502, 503, 504, 529} {
			Expect(core.StatusRetryable(c)).To(BeTrue(), "%d", c)
		}
		for _, c := range []int{400, 401, 403, 404, 413, 422} {
			Expect(core.StatusRetryable(c)).To(BeFalse(), "%d", c)
		}
	})
	It("keeps error bodies short", func() {
		long := make([]byte, 5000)
		for i := range long {
			long[i] = 'x'
		}
		e := core.HTTPError("openai", 500, nil, long)
		Expect(len(e.Body)).To(BeNumerically("<", 700))
		Expect(e.Body).To(HaveSuffix("…"))
	})
})
