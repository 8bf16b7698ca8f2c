package harness

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/registry"
)

var _ = Describe("the requests note of a run", func() {
	model := func(name string) registry.Model {
		m, err := registry.FromUpstream(name, func(string) (string, bool) { return "", false })
		Expect(err).NotTo(HaveOccurred())
		return m
	}
	It("is empty for handlers whose requests bfcl-go sends", func() {
		Expect(requestsNote(model("gpt-4o-2024-11-20-FC"))).To(BeEmpty())
		Expect(requestsNote(model("claude-sonnet-4-5-20250929"))).To(BeEmpty())
		Expect(requestsNote(registry.Model{Name: "mine", Provider: "openai"})).To(BeEmpty())
	})
	It("marks an entry run through another provider, not the subclasses whose variants the drivers send", func() {
		Expect(requestsNote(model("DM-Cito-8B-v3"))).To(BeEmpty(), "DMCitoHandler's prompting methods are the chat driver's and the prompt package's")
		Expect(requestsNote(model("firefunction-v2-FC"))).To(BeEmpty(), "FireworksHandler's variant is the chat driver's")
		Expect(requestsNote(model("nvidia/llama-3.1-nemotron-ultra-253b-v1"))).To(BeEmpty(), "NemotronHandler's variant is the chat driver's")
		Expect(requestsNote(model("xiaoming-14B"))).To(BeEmpty(), "MiningHandler's FC methods are its base class's")
		Expect(requestsNote(model("DeepSeek-V3.2-Exp-FC"))).To(BeEmpty(), "DeepSeekAPIHandler's variant is the chat driver's")
		m := model("gpt-4o-2024-11-20-FC")
		m.Provider = "openai"
		Expect(requestsNote(m)).To(ContainSubstring("speaks responses, this model openai"))
	})
})
