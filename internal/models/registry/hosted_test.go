package registry_test

import (
	"github.com/bfcl-go/bfcl/internal/models/registry"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("hosted-API providers", func() {
	It("default to their upstream handler class and map back from it", func() {
		reg, err := registry.Parse([]byte("models:\n  - {name: a, provider: cohere, model: command-a-03-2025}\n  - {name: b, provider: bedrock, model: us.amazon.nova-pro-v1:0}\n  - {name: c, provider: qwen, model: qwen3-8b, handler: QwenFCHandler}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(reg.Models[0].Handler).To(Equal("CohereHandler"))
		Expect(reg.Models[1].Handler).To(Equal("NovaHandler"))
		Expect(reg.Models[2].Handler).To(Equal("QwenFCHandler"), "an explicit handler stays")
		reg, err = registry.Parse([]byte("models:\n  - {name: w, provider: writer, model: palmyra-x-004}\n  - {name: g, provider: gorilla, model: gorilla-openfunctions-v2}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(reg.Models[0].Handler).To(Equal("WriterHandler"))
		Expect(reg.Models[1].Handler).To(Equal("GorillaHandler"))
		for class, p := range map[string]string{"MistralHandler": "mistral", "CohereHandler": "cohere", "NovaHandler": "bedrock", "QwenAPIHandler": "qwen",
			"WriterHandler": "writer", "GorillaHandler": "gorilla"} {
			got, ok := registry.ProviderOfHandler(class)
			Expect(ok).To(BeTrue())
			Expect(got).To(Equal(p))
		}
		_, ok := registry.ProviderOfHandler("OpenAICompletionsHandler")
		Expect(ok).To(BeFalse())
	})
})
