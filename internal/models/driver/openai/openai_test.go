package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/models/driver/openai"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("openai driver", func() {
	drivertest.DescribeFixtures(core.ProviderOpenAI)
	drivertest.DescribeBodyLimit(core.ProviderOpenAI)

	It("reads tool_calls: [] as an empty call list (upstream's parser), null and absent as a text answer", func() {
		for _, c := range []struct {
			calls string
			empty bool
		}{{`[]`, true}, {`null`, false}, {``, false}} {
			msg := `{"role":"assistant","content":"four"`
			if c.calls != "" {
				msg += `,"tool_calls":` + c.calls
			}
			body := `{"choices":[{"message":` + msg + `}}]}`
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(body)) }))
			d, err := openai.New(core.Config{Model: "m", BaseURL: srv.URL})
			Expect(err).NotTo(HaveOccurred())
			resp, err := d.Complete(context.Background(), core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
			srv.Close()
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.Text).To(Equal("four"))
			Expect(resp.ToolCalls).To(BeEmpty())
			Expect(resp.ToolCalls != nil).To(Equal(c.empty), "tool_calls %q", c.calls)
		}
	})

	It("stops promptly when the caller's context is cancelled mid-request", func() {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}))
		defer srv.Close()
		defer close(release)
		d, err := openai.New(core.Config{Model: "m", BaseURL: srv.URL, MaxRetries: 5})
		Expect(err).NotTo(HaveOccurred())
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		start := time.Now()
		_, err = d.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(errors.Is(err, context.Canceled)).To(BeTrue(), "got %v", err)
		Expect(time.Since(start)).To(BeNumerically("<", 2*time.Second))
	})

	It("stops promptly when cancelled during a backoff pause", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(http.StatusTooManyRequests)
		}))
		defer srv.Close()
		d, err := openai.New(core.Config{Model: "m", BaseURL: srv.URL})
		Expect(err).NotTo(HaveOccurred())
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err = d.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(errors.Is(err, context.DeadlineExceeded)).To(BeTrue(), "got %v", err)
		Expect(time.Since(start)).To(BeNumerically("<", 2*time.Second))
	})

	It("is safe for concurrent use: each call gets its own answer and raw body", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var req struct {
				Messages []struct{ Content string } `json:"messages"`
			}
			_ = json.NewDecoder(r.Body).Decode(&req)
			time.Sleep(time.Duration(len(req.Messages[0].Content)%5) * time.Millisecond)
			out, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": "echo " + req.Messages[0].Content}}}})
			_, _ = w.Write(out)
		}))
		defer srv.Close()
		d, err := openai.New(core.Config{Model: "m", BaseURL: srv.URL})
		Expect(err).NotTo(HaveOccurred())
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for i := 0; i < 16; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				q := fmt.Sprintf("q%d", i)
				r, err := d.Complete(context.Background(), core.Request{Messages: []core.Message{{Role: "user", Content: q}}})
				if err == nil && (r.Text != "echo "+q || !strings.Contains(string(r.Raw), "echo "+q+`"`)) {
					err = fmt.Errorf("call %d got %q / %s", i, r.Text, r.Raw)
				}
				errs <- err
			}(i)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			Expect(err).NotTo(HaveOccurred())
		}
	})

	It("probes a model Ollama lists with its default tag (name:latest)", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"object":"list","data":[{"id":"tiny:latest"},{"id":"other:7b"}]}`))
		}))
		defer srv.Close()
		for model, ok := range map[string]bool{"tiny": true, "tiny:latest": true, "other:7b": true, "other": false, "tin": false} {
			d, err := openai.New(core.Config{Provider: core.ProviderOpenAI, Model: model, BaseURL: srv.URL + "/v1"})
			Expect(err).NotTo(HaveOccurred())
			err = d.Probe(context.Background())
			if ok {
				Expect(err).NotTo(HaveOccurred(), model)
			} else {
				Expect(err).To(MatchError(ContainSubstring("is not served by")), model)
			}
		}
	})

	It("rejects unknown roles and bad base URLs with clear messages", func() {
		_, err := openai.New(core.Config{Model: "m", BaseURL: "localhost:8000"})
		Expect(err).To(MatchError(ContainSubstring("must start with http://")))
		d, err := openai.New(core.Config{Model: "m", BaseURL: "http://127.0.0.1:1"})
		Expect(err).NotTo(HaveOccurred())
		_, err = d.Complete(context.Background(), core.Request{Messages: []core.Message{{Role: "function", Content: "x"}}})
		Expect(err).To(MatchError(ContainSubstring(`message 0 has unknown role "function"`)))
	})
})
