package driver_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/driver"
)

// fakeAPI answers the model-info requests of every provider: 401 unless
// the key is "good" (Ollama has no key), 404 unless the model is "m".
func fakeAPI() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.Header.Get("Authorization")
		if key == "" {
			key = r.Header.Get("X-Api-Key")
		}
		if key == "" {
			key = r.Header.Get("X-Goog-Api-Key")
		}
		if key == "" {
			key = r.URL.Query().Get("key")
		}
		key = strings.TrimPrefix(key, "Bearer ")
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/api/show": // ollama
			if !strings.Contains(readAll(r), `"m"`) {
				w.WriteHeader(404)
				w.Write([]byte(`{"error":"model not found"}`))
				return
			}
			w.Write([]byte(`{"capabilities":["completion","tools"]}`))
		case key != "good":
			w.WriteHeader(401)
			w.Write([]byte(`{"error":{"message":"Incorrect API key provided"}}`))
		case r.URL.Path == "/v1/models": // openai-compatible
			w.Write([]byte(`{"object":"list","data":[{"id":"m"},{"id":"other"},{"id":"notools"}]}`))
		case r.URL.Path == "/v1/chat/completions": // openai-compatible; "notools" is served as vLLM serves a model without a tool parser
			body := readAll(r)
			if strings.Contains(body, `"model":"notools"`) && strings.Contains(body, `"tools"`) {
				w.WriteHeader(400)
				w.Write([]byte(`{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","code":400}`))
				return
			}
			w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"OK"},"finish_reason":"length"}]}`))
		case r.URL.Path == "/v1/models/m": // anthropic
			w.Write([]byte(`{"id":"m","type":"model","display_name":"M","created_at":"2025-01-01T00:00:00Z"}`))
		case strings.HasSuffix(r.URL.Path, "/models/m"): // gemini
			w.Write([]byte(`{"name":"models/m","supportedGenerationMethods":["generateContent"]}`))
		default:
			w.WriteHeader(404)
			w.Write([]byte(`{"error":{"message":"model not found"}}`))
		}
	}))
}

func readAll(r *http.Request) string {
	var b strings.Builder
	buf := make([]byte, 512)
	for {
		n, err := r.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}

// deadURL is an address nothing listens on.
func deadURL() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

var _ = Describe("driver.Probe", func() {
	var srv *httptest.Server
	BeforeEach(func() { srv = fakeAPI() })
	AfterEach(func() { srv.Close() })

	base := func(provider string) string {
		if provider == driver.ProviderOpenAI {
			return srv.URL + "/v1"
		}
		return srv.URL
	}
	probe := func(cfg driver.Config) (error, time.Duration) {
		d, err := driver.New(cfg)
		Expect(err).NotTo(HaveOccurred())
		start := time.Now()
		err = driver.Probe(context.Background(), d, 10*time.Second)
		return err, time.Since(start)
	}

	DescribeTable("accepts a served model with a good key",
		func(provider string) {
			err, _ := probe(driver.Config{Provider: provider, Model: "m", BaseURL: base(provider), APIKey: "good"})
			Expect(err).NotTo(HaveOccurred())
		},
		Entry("ollama", driver.ProviderOllama),
		Entry("openai", driver.ProviderOpenAI),
		Entry("anthropic", driver.ProviderAnthropic),
		Entry("gemini", driver.ProviderGemini),
	)

	DescribeTable("ends within seconds with one clear message",
		func(provider, model, key string, dead bool, kind string, want string) {
			b := base(provider)
			if dead {
				b = deadURL()
			}
			err, took := probe(driver.Config{Provider: provider, Model: model, BaseURL: b, APIKey: key})
			Expect(took).To(BeNumerically("<", 3*time.Second))
			Expect(errors.Is(err, driver.ErrProbe)).To(BeTrue(), "%v", err)
			var pe *driver.ProbeError
			Expect(errors.As(err, &pe)).To(BeTrue())
			Expect(pe.Kind).To(Equal(kind))
			Expect(err.Error()).To(ContainSubstring(want))
			Expect(err.Error()).To(HavePrefix(provider + ": "))
			Expect(driver.IsInfrastructure(err)).To(BeTrue())
		},
		Entry("ollama: dead URL", driver.ProviderOllama, "m", "", true, "unreachable", "cannot reach http://127.0.0.1:"),
		Entry("ollama: missing model", driver.ProviderOllama, "nope", "", false, "model", `model "nope" not found`),
		Entry("openai: dead URL", driver.ProviderOpenAI, "m", "good", true, "unreachable", "cannot reach http://127.0.0.1:"),
		Entry("openai: wrong key", driver.ProviderOpenAI, "m", "bad", false, "key", "refused the API key (GET http://127.0.0.1:"),
		Entry("openai: missing model", driver.ProviderOpenAI, "nope", "good", false, "model", `model "nope" is not served by http://127.0.0.1:`),
		Entry("openai: a server that refuses tools", driver.ProviderOpenAI, "notools", "good", false, "tools", `does not take tool calls for model "notools" (POST http://127.0.0.1:`),
		Entry("anthropic: dead URL", driver.ProviderAnthropic, "m", "good", true, "unreachable", "cannot reach http://127.0.0.1:"),
		Entry("anthropic: wrong key", driver.ProviderAnthropic, "m", "bad", false, "key", "refused the API key"),
		Entry("anthropic: missing model", driver.ProviderAnthropic, "nope", "good", false, "model", `model "nope" not found`),
		Entry("gemini: dead URL", driver.ProviderGemini, "m", "good", true, "unreachable", "cannot reach http://127.0.0.1:"),
		Entry("gemini: wrong key", driver.ProviderGemini, "m", "bad", false, "key", "refused the API key"),
		Entry("gemini: missing model", driver.ProviderGemini, "nope", "good", false, "model", `model "nope" not found`),
	)

	It("asks an OpenAI-compatible server for tools only in FC mode", func() {
		err, _ := probe(driver.Config{Provider: driver.ProviderOpenAI, Model: "notools", BaseURL: srv.URL + "/v1", APIKey: "good", Mode: "prompt"})
		Expect(err).NotTo(HaveOccurred(), "a prompt-mode model needs no tool calling")
		err, _ = probe(driver.Config{Provider: driver.ProviderOpenAI, Model: "notools", BaseURL: srv.URL + "/v1", APIKey: "good"})
		Expect(err).To(MatchError(ContainSubstring("--enable-auto-tool-choice")))
		Expect(err).To(MatchError(ContainSubstring("mode: prompt")))
	})

	It("lists what an OpenAI-compatible server serves when the model is not among them", func() {
		err, _ := probe(driver.Config{Provider: driver.ProviderOpenAI, Model: "nope", BaseURL: srv.URL + "/v1", APIKey: "good"})
		Expect(err).To(MatchError(ContainSubstring("lists: m, other, notools")))
	})

	It("tells a base URL without /v1 from a server without /models", func() {
		noList := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/chat/completions" {
				w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"OK"}}]}`))
				return
			}
			w.WriteHeader(404)
			w.Write([]byte(`404 page not found`))
		}))
		defer noList.Close()
		err, _ := probe(driver.Config{Provider: driver.ProviderOpenAI, Model: "m", BaseURL: noList.URL + "/v1"})
		Expect(err).NotTo(HaveOccurred())
		err, _ = probe(driver.Config{Provider: driver.ProviderOpenAI, Model: "m", BaseURL: noList.URL})
		Expect(err).To(MatchError(ContainSubstring("base_url must be the API root, e.g. http://host:8000/v1")))
	})

	It("gives up on a server that accepts the connection but never answers, at the probe's deadline", func() {
		hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
		defer hang.Close()
		d, err := driver.New(driver.Config{Provider: driver.ProviderOpenAI, Model: "m", BaseURL: hang.URL + "/v1"})
		Expect(err).NotTo(HaveOccurred())
		start := time.Now()
		err = driver.Probe(context.Background(), d, 300*time.Millisecond)
		Expect(time.Since(start)).To(BeNumerically("<", 2*time.Second))
		Expect(err).To(MatchError(ContainSubstring("no answer to GET " + hang.URL + "/v1/models before the probe's deadline")))
	})
})
