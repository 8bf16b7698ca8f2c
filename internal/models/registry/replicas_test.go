package registry_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/registry"
)

var _ = Describe("base_urls", func() {
	It("lists replicas of one server; the first is the base URL", func() {
		r, err := registry.Parse([]byte(`models:
  - name: m
    provider: openai
    model: org/m
    base_urls: [http://a:8000/v1, http://b:8000/v1]
`))
		Expect(err).NotTo(HaveOccurred())
		m, _ := r.Get("m")
		Expect(m.BaseURL).To(Equal("http://a:8000/v1"))
		Expect(m.BaseURLs).To(Equal([]string{"http://a:8000/v1", "http://b:8000/v1"}))
	})

	DescribeTable("refuses what cannot work, naming the entry",
		func(entry, want string) {
			_, err := registry.Parse([]byte("models:\n  - name: m\n    model: x\n" + entry))
			Expect(err).To(MatchError(And(ContainSubstring("models[0] (m)"), ContainSubstring(want))))
		},
		Entry("a relative URL", "    provider: openai\n    base_urls: [http://a:1/v1, b:8000]\n", `base_urls: "b:8000" is not an absolute http(s) URL`),
		Entry("a duplicate", "    provider: ollama\n    base_urls: [http://a:1, http://a:1/]\n", `base_urls: "http://a:1/" is listed twice`),
		Entry("both base_url and base_urls", "    provider: openai\n    base_url: http://c:1/v1\n    base_urls: [http://a:1/v1]\n", "give base_url or base_urls, not both"),
		Entry("a cloud provider", "    provider: anthropic\n    base_urls: [http://a:1, http://b:1]\n", `not provider "anthropic"`),
	)
})
