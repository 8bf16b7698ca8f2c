package ollama_test

import (
	"context"
	"net/http"
	"net/http/httptest"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/ollama"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func showServer(status int, body string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer GinkgoRecover()
		Expect(r.URL.Path).To(Equal("/api/show"))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
}

var _ = Describe("Probe", func() {
	It("accepts a model whose capabilities include tools", func() {
		srv := showServer(200, `{"template":"...","capabilities":["completion","tools"],"details":{"family":"llama"}}`)
		defer srv.Close()
		d, err := ollama.New(core.Config{Model: "qwen3:8b", BaseURL: srv.URL})
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Probe(context.Background())).To(Succeed())
	})
	It("refuses FC mode on a model without tools, and accepts it in prompt mode", func() {
		srv := showServer(200, `{"capabilities":["completion"]}`)
		defer srv.Close()
		d, _ := ollama.New(core.Config{Model: "gemma:2b", BaseURL: srv.URL})
		Expect(d.Probe(context.Background())).To(MatchError(`ollama: model "gemma:2b" cannot be used in fc mode: its capabilities are [completion], without "tools" (its template does not render tools); use prompt mode`))
		d, _ = ollama.New(core.Config{Model: "gemma:2b", BaseURL: srv.URL, Mode: "prompt"})
		Expect(d.Probe(context.Background())).To(Succeed())
	})
	It("names a missing model", func() {
		srv := showServer(404, `{"error":"model 'nope' not found"}`)
		defer srv.Close()
		d, _ := ollama.New(core.Config{Model: "nope", BaseURL: srv.URL})
		err := d.Probe(context.Background())
		Expect(err).To(MatchError(ContainSubstring(`ollama: model "nope" not found on http://127.0.0.1:`)))
		Expect(err).To(MatchError(ContainSubstring("pull or create it first")))
	})
	It("reports an unreachable server", func() {
		srv := showServer(200, `{}`)
		url := srv.URL
		srv.Close()
		d, _ := ollama.New(core.Config{Model: "m", BaseURL: url})
		Expect(d.Probe(context.Background())).To(MatchError(ContainSubstring("ollama: cannot reach " + url)))
	})
})
