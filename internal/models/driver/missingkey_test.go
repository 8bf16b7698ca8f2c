package driver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// A hosted model whose key variable is unset stops before the run with
// one line naming the variable, without a request. (A model run as an
// upstream handler class whose key has no default is stopped earlier, by
// the harness: registry.Model.KeyRequired.)
var _ = Describe("a missing key", func() {
	var srv *httptest.Server
	var hits atomic.Int64
	BeforeEach(func() {
		hits.Store(0)
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1); w.WriteHeader(500) }))
		DeferCleanup(srv.Close)
		for _, v := range []string{"DEEPSEEK_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "GOOGLE_API_KEY", "GEMINI_API_KEY", "WRITER_API_KEY"} {
			GinkgoT().Setenv(v, "")
		}
	})
	DescribeTable("is named at once",
		func(provider, handler, env string) {
			cfg := driver.Config{Provider: provider, Handler: handler, Model: "m", BaseURL: srv.URL, APIKeyEnv: env}
			start := time.Now()
			d, err := driver.New(cfg)
			if err == nil {
				err = driver.Probe(context.Background(), d, 0)
			}
			Expect(err).To(MatchError(ContainSubstring("no API key: environment variable " + env + " is not set")))
			Expect(err.Error()).NotTo(ContainSubstring("\n"))
			Expect(time.Since(start)).To(BeNumerically("<", time.Second))
			Expect(hits.Load()).To(BeZero())
		},
		Entry("anthropic", "anthropic", "ClaudeHandler", "ANTHROPIC_API_KEY"),
		Entry("gemini", "gemini", "GeminiHandler", "GOOGLE_API_KEY"),
		Entry("writer", "writer", "WriterHandler", "WRITER_API_KEY"),
	)
	It("is left to the server of an OpenAI-compatible model", func() {
		for _, env := range []string{"", "DEEPSEEK_API_KEY"} {
			hits.Store(0)
			d, err := driver.New(driver.Config{Provider: "openai", Model: "m", BaseURL: srv.URL, APIKeyEnv: env})
			Expect(err).NotTo(HaveOccurred())
			Expect(driver.Probe(context.Background(), d, 0)).To(MatchError(ContainSubstring("HTTP 500")))
			Expect(hits.Load()).NotTo(BeZero())
		}
	})
})
