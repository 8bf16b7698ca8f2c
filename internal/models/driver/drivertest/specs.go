package drivertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// FixtureDir is fixtures/drivers/<provider> of the module.
func FixtureDir(provider string) string {
	return filepath.Join(testenv.ModuleRoot(), "fixtures", "drivers", provider)
}

// DescribeFixtures declares one spec per fixture of the provider: the
// driver built by newDriver against a fake server must send exactly the
// recorded request bodies, in order, and return the recorded Response or
// error.
func DescribeFixtures(provider string, newDriver func(core.Config) (core.Driver, error)) {
	fixtures, names, err := Load(FixtureDir(provider))
	if err != nil {
		panic(err)
	}
	Describe("recorded "+provider+" exchanges", func() {
		for _, name := range names {
			fx := fixtures[name]
			It(name+": "+fx.Description, func(ctx SpecContext) {
				RunFixture(ctx, provider, fx, newDriver)
			}, SpecTimeout(30*time.Second))
		}
	})
}

// DescribeBodyLimit declares the spec that an answer longer than
// Config.MaxResponseBytes is an error of the provider naming the limit,
// not retried, also when the server streams it without a Content-Length.
func DescribeBodyLimit(provider string, newDriver func(core.Config) (core.Driver, error)) {
	It("refuses an answer longer than MaxResponseBytes, without retrying", func(ctx SpecContext) {
		var hits atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"padding": "`)
			for i := 0; i < 8; i++ { // chunked: no Content-Length to go by
				_, _ = io.WriteString(w, strings.Repeat("x", 512))
				w.(http.Flusher).Flush()
			}
			_, _ = io.WriteString(w, `"}`)
		}))
		defer srv.Close()
		d, err := newDriver(core.Config{Provider: provider, Model: "m", APIKey: "test-key", BaseURL: srv.URL,
			MaxResponseBytes: 1024, RetryBaseDelay: time.Millisecond, RetryMaxDelay: time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		_, err = d.Complete(ctx, core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "hi"}}})
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(HavePrefix(provider + ": "))
		Expect(err.Error()).To(ContainSubstring("response body larger than the 1 KiB limit"))
		Expect(errors.Is(err, netguard.ErrTooLarge)).To(BeTrue(), "errors.Is(%v, ErrTooLarge)", err)
		Expect(core.IsRetryable(err)).To(BeFalse())
		Expect(hits.Load()).To(BeEquivalentTo(1))
	}, SpecTimeout(30*time.Second))
}

// RunFixture runs one fixture and asserts everything it records.
func RunFixture(ctx context.Context, provider string, fx *Fixture, newDriver func(core.Config) (core.Driver, error)) {
	srv := Serve(fx)
	defer srv.Close()
	d, err := newDriver(fx.CoreConfig(provider, srv.URL))
	Expect(err).NotTo(HaveOccurred())
	resp, err := d.Complete(ctx, fx.CoreRequest())

	got := srv.Received()
	Expect(got).To(HaveLen(len(fx.Exchanges)), "number of HTTP requests the driver made")
	for i, ex := range fx.Exchanges {
		if ex.Method != "" {
			Expect(got[i].Method).To(Equal(ex.Method), "exchange %d method", i)
		}
		if ex.Path != "" {
			Expect(got[i].Path).To(Equal(ex.Path), "exchange %d path", i)
		}
		for k, v := range ex.Headers {
			Expect(got[i].Header.Get(k)).To(Equal(v), "exchange %d header %s", i, k)
		}
		if dir := os.Getenv("DRIVERTEST_DUMP"); dir != "" {
			// debugging aid: keep what the driver sent
			_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%d.json", provider, i)), got[i].Body, 0o644)
		}
		if len(ex.Request) > 0 && string(ex.Request) != "null" {
			Expect(string(got[i].Body)).To(MatchJSON(ex.Request), "exchange %d request body", i)
		}
	}

	if fx.ExpectError != nil {
		Expect(err).To(HaveOccurred(), "the driver must fail")
		for _, s := range fx.ExpectError.Contains {
			Expect(err.Error()).To(ContainSubstring(s))
		}
		Expect(err.Error()).To(HavePrefix(provider))
		var pe *core.Error
		Expect(errors.As(err, &pe)).To(BeTrue(), "error is a *core.Error: %v", err)
		Expect(pe.StatusCode).To(Equal(fx.ExpectError.Status))
		Expect(pe.Retryable).To(Equal(fx.ExpectError.Retryable))
		Expect(core.IsRetryable(err)).To(Equal(fx.ExpectError.Retryable))
		if fx.ExpectError.Attempts > 0 {
			Expect(pe.Attempts).To(Equal(fx.ExpectError.Attempts))
		}
		return
	}
	Expect(err).NotTo(HaveOccurred())
	Expect(fx.Expect).NotTo(BeNil(), "fixture has neither expect nor expect_error")
	Expect(resp.Text).To(Equal(fx.Expect.Text))
	Expect(resp.Reasoning).To(Equal(fx.Expect.Reasoning))
	Expect(resp.InputTokens).To(Equal(fx.Expect.InputTokens))
	Expect(resp.OutputTokens).To(Equal(fx.Expect.OutputTokens))
	var calls []FixtureCall
	for _, c := range resp.ToolCalls {
		calls = append(calls, FixtureCall(c))
	}
	if len(fx.Expect.ToolCalls) == 0 {
		Expect(calls).To(BeEmpty())
	} else {
		Expect(calls).To(Equal(fx.Expect.ToolCalls))
	}
	if len(fx.Expect.Replay) > 0 {
		Expect(string(resp.Replay)).To(MatchJSON(fx.Expect.Replay))
	}
	// The input log: the body of the attempt that succeeded.
	Expect(string(resp.Request)).To(Equal(string(got[len(got)-1].Body)), "Response.Request is the request body sent")
	Expect(resp.Latency).To(BeNumerically(">", 0))
	Expect(json.Valid(resp.Raw)).To(BeTrue())
	Expect(strings.TrimSpace(string(resp.Raw))).To(Equal(strings.TrimSpace(string(srv.LastResponseBody()))))
}
