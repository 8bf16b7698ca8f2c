package driver_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/driver"
)

var _ = Describe("replicas", func() {
	completion := func(hits *atomic.Int64) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.Header().Set("Content-Type", "application/json")
			switch r.URL.Path {
			case "/v1/chat/completions":
				w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"hi"}}]}`))
			case "/api/chat":
				w.Write([]byte(`{"model":"m","message":{"role":"assistant","content":"hi"},"done":true}`))
			default:
				w.WriteHeader(404)
			}
		}))
	}
	req := driver.Request{Messages: []driver.Message{{Role: "user", Content: "hello"}}}

	It("probes every replica before the run and names each one that fails", func() {
		var a, b atomic.Int64
		sa, sb := completion(&a), completion(&b)
		defer sa.Close()
		defer sb.Close()
		good := driver.Config{Provider: driver.ProviderOpenAI, Model: "m", BaseURL: sa.URL + "/v1", BaseURLs: []string{sa.URL + "/v1", sb.URL + "/v1"}, MaxInFlight: 4}
		d, err := driver.New(good)
		Expect(err).NotTo(HaveOccurred())
		Expect(driver.ProbeAll(context.Background(), good, d, 5*time.Second)).To(Succeed())
		Expect(a.Load()).To(BeNumerically(">", 0), "replica 1 was probed")
		Expect(b.Load()).To(BeNumerically(">", 0), "replica 2 was probed")

		dead := deadURL() + "/v1"
		bad := good
		bad.BaseURLs = []string{sa.URL + "/v1", dead, sb.URL + "/v1"}
		d, err = driver.New(bad)
		Expect(err).NotTo(HaveOccurred())
		start := time.Now()
		err = driver.ProbeAll(context.Background(), bad, d, 5*time.Second)
		Expect(time.Since(start)).To(BeNumerically("<", 3*time.Second))
		Expect(errors.Is(err, driver.ErrProbe)).To(BeTrue(), "%v", err)
		Expect(err).To(MatchError(ContainSubstring("replica 2 of 3 (" + dead + "): openai: cannot reach")))
		Expect(err.Error()).NotTo(ContainSubstring("replica 1 of 3"))
	})

	It("spreads an openai-compatible model's requests over its replicas and skips a dead one without spending a retry", func() {
		var a, b atomic.Int64
		sa, sb := completion(&a), completion(&b)
		defer sa.Close()
		defer sb.Close()
		d, err := driver.New(driver.Config{Provider: driver.ProviderOpenAI, Model: "m", BaseURLs: []string{deadURL() + "/v1", sa.URL + "/v1", sb.URL + "/v1"}, MaxInFlight: 4})
		Expect(err).NotTo(HaveOccurred())
		start := time.Now()
		for i := 0; i < 20; i++ {
			resp, err := d.Complete(context.Background(), req)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal("hi"))
		}
		Expect(time.Since(start)).To(BeNumerically("<", 2*time.Second), "no backoff pause")
		Expect(a.Load()).To(BeNumerically(">", 0))
		Expect(b.Load()).To(BeNumerically(">", 0))
		Expect(a.Load() + b.Load()).To(Equal(int64(20)))
	})

	It("does the same for an Ollama model", func() {
		var a, b atomic.Int64
		sa, sb := completion(&a), completion(&b)
		defer sa.Close()
		defer sb.Close()
		d, err := driver.New(driver.Config{Provider: driver.ProviderOllama, Model: "m", BaseURLs: []string{sa.URL, sb.URL}})
		Expect(err).NotTo(HaveOccurred())
		for i := 0; i < 10; i++ {
			resp, err := d.Complete(context.Background(), req)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal("hi"))
		}
		Expect(a.Load()).To(BeNumerically(">", 0))
		Expect(b.Load()).To(BeNumerically(">", 0))
	})

	It("refuses a base URL that is not the first replica", func() {
		_, err := driver.New(driver.Config{Provider: driver.ProviderOpenAI, Model: "m", BaseURL: "http://x:1/v1", BaseURLs: []string{"http://a:1/v1", "http://b:1/v1"}})
		Expect(err).To(MatchError(ContainSubstring("is not the first of the replicas")))
	})
})
