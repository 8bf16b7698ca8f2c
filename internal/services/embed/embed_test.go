package embed_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/services/embed"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
)

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

var _ = Describe("Hashed", func() {
	It("is deterministic, normalised, 384-dimensional and ranks related text higher", func() {
		e := embed.Hashed{}
		v, err := e.Embed(context.Background(), []string{"strawberry matcha latte", "Strawberry Matcha Latte!", "kitchen counter size", ""})
		Expect(err).NotTo(HaveOccurred())
		Expect(v[0]).To(HaveLen(embed.UpstreamDim))
		Expect(norm(v[0])).To(BeNumerically("~", 1, 1e-6))
		again, _ := e.Embed(context.Background(), []string{"strawberry matcha latte"})
		Expect(again[0]).To(Equal(v[0]))
		Expect(embed.Dot(v[0], v[1])).To(BeNumerically(">", embed.Dot(v[0], v[2])))
		Expect(norm(v[3])).To(BeZero()) // empty text: no n-grams, the zero vector (clamped norm)
		Expect(e.Name()).To(Equal("hashed-ngrams(n=3,dim=384)"))
	})
})

var _ = Describe("Ollama", func() {
	It("posts {model, input} to /api/embed and re-normalises the vectors", func() {
		var body map[string]any
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			Expect(r.URL.Path).To(Equal("/api/embed"))
			Expect(json.NewDecoder(r.Body).Decode(&body)).To(Succeed())
			fmt.Fprint(w, `{"model": "all-minilm:l6-v2", "embeddings": [[3, 4], [0, 2]]}`)
		}))
		defer srv.Close()
		o := embed.NewOllama(srv.URL, "")
		v, err := o.Embed(context.Background(), []string{"a", "b"})
		Expect(err).NotTo(HaveOccurred())
		Expect(body).To(Equal(map[string]any{"model": embed.DefaultOllamaModel, "input": []any{"a", "b"}}))
		Expect(v).To(Equal([][]float32{{0.6, 0.8}, {0, 1}}))
		Expect(o.Name()).To(Equal("ollama:all-minilm:l6-v2"))
	})

	It("retries server errors, not client errors, and reports the server's message", func() {
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch n.Add(1) {
			case 1:
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprint(w, `{"error": "loading"}`)
			default:
				fmt.Fprint(w, `{"embeddings": [[1, 0]]}`)
			}
		}))
		defer srv.Close()
		v, err := embed.NewOllama(srv.URL, "m").Embed(context.Background(), []string{"a"})
		Expect(err).NotTo(HaveOccurred())
		Expect(v).To(Equal([][]float32{{1, 0}}))
		Expect(n.Load()).To(Equal(int32(2)))

		bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"error": "model \"m\" not found, try pulling it first"}`)
		}))
		defer bad.Close()
		n.Store(0)
		_, err = embed.NewOllama(bad.URL, "m").Embed(context.Background(), []string{"a"})
		Expect(err).To(MatchError(ContainSubstring(`HTTP 404: model "m" not found`)))
		Expect(n.Load()).To(Equal(int32(1)))
	})

	It("refuses an answer longer than MaxBody, without retrying", func() {
		var n atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			fmt.Fprint(w, `{"embeddings": [[`+strings.Repeat("0.5, ", 400)+`1]]}`)
		}))
		defer srv.Close()
		o := embed.NewOllama(srv.URL, "m")
		o.MaxBody = 1024
		_, err := o.Embed(context.Background(), []string{"a"})
		Expect(err).To(MatchError(netguard.ErrTooLarge))
		Expect(err).To(MatchError(ContainSubstring("(model m): response body larger than the 1 KiB limit")))
		Expect(n.Load()).To(Equal(int32(1)))
	})

	It("rejects a response with the wrong number of vectors", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, `{"embeddings": [[1, 0]]}`)
		}))
		defer srv.Close()
		_, err := embed.NewOllama(srv.URL, "m").Embed(context.Background(), []string{"a", "b"})
		Expect(err).To(MatchError(ContainSubstring("returned 1 embeddings for 2 texts")))
	})
})
