package evaluate

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/registry"
)

var _ = Describe("the display data of a model", func() {
	It("is upstream's for a registry name run as itself, and the entry's own for a models.yaml entry", func() {
		m, err := registry.FromUpstream("gpt-4o-2024-11-20-FC", func(string) (string, bool) { return "", false })
		Expect(err).NotTo(HaveOccurred())
		info := modelInfo("gpt-4o-2024-11-20-FC", &registry.Registry{Models: []registry.Model{m}})
		Expect(info.DisplayName).To(Equal("GPT-4o-2024-11-20 (FC)"))
		Expect(info.Org).To(Equal("OpenAI"))

		own := registry.Model{Name: "gpt-4o-2024-11-20-FC", Provider: "openai", Model: "x", Mode: "fc"}
		info = modelInfo("gpt-4o-2024-11-20-FC", &registry.Registry{Models: []registry.Model{own}})
		Expect(info.DisplayName).To(Equal("gpt-4o-2024-11-20-FC (FC) (Openai)"))
	})
})
