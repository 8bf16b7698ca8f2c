package embed_test

import (
	"context"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/services/embed"
)

// Runs only against a real Ollama server holding an embedding model:
// BFCL_OLLAMA_EMBED_URL (e.g. http://127.0.0.1:11434) and optionally
// BFCL_OLLAMA_EMBED_MODEL (default all-minilm:l6-v2).
var _ = Describe("Ollama (live server)", Label("live"), func() {
	It("embeds with upstream's model family: 384 dimensions, related texts closer", func() {
		url := os.Getenv("BFCL_OLLAMA_EMBED_URL")
		if url == "" {
			Skip("SKIPPED LOUDLY: BFCL_OLLAMA_EMBED_URL is not set; the live Ollama embedding check ran nothing")
		}
		o := embed.NewOllama(url, os.Getenv("BFCL_OLLAMA_EMBED_MODEL"))
		v, err := o.Embed(context.Background(), []string{"I like strawberry matcha lattes.", "What latte do I like?", "The kitchen counter is 38 square feet."})
		Expect(err).NotTo(HaveOccurred())
		if o.Model == "" || o.Model == embed.DefaultOllamaModel {
			Expect(v[0]).To(HaveLen(embed.UpstreamDim))
		}
		Expect(embed.Dot(v[0], v[1])).To(BeNumerically(">", embed.Dot(v[0], v[2])))
	})
})
