package core_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("HTTP client", func() {
	It("measures a request's latency from when the limiter lets it go, not from when it queued", func() {
		const serverLatency = 60 * time.Millisecond
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(serverLatency)
			w.Write([]byte(`{}`))
		}))
		defer srv.Close()
		cfg := core.Config{BaseURL: srv.URL, MaxInFlight: 1}.Normalize()
		hc, err := core.NewHTTPClientFor(cfg)
		Expect(err).NotTo(HaveOccurred())
		var wg sync.WaitGroup
		lat := make([]time.Duration, 3)
		waited := make([]time.Duration, 3)
		for i := range lat {
			wg.Add(1)
			go func() {
				defer GinkgoRecover()
				defer wg.Done()
				ctx, ex := core.WithExchange(context.Background())
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{}`))
				start := time.Now()
				resp, err := hc.Do(req)
				Expect(err).NotTo(HaveOccurred())
				resp.Body.Close()
				lat[i], waited[i] = ex.Latency(start), time.Since(start)
				Expect(ex.RequestBody).To(MatchJSON(`{}`))
			}()
		}
		wg.Wait()
		slowest := time.Duration(0)
		for i := range lat {
			Expect(lat[i]).To(BeNumerically(">=", serverLatency))
			Expect(lat[i]).To(BeNumerically("<", 2*serverLatency), "request %d: latency %v includes its wait for a slot", i, lat[i])
			slowest = max(slowest, waited[i])
		}
		Expect(slowest).To(BeNumerically(">=", 3*serverLatency), "one slot: the third request waited for two others")
	})
})
