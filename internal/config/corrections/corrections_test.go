package corrections_test

import (
	"testing"

	"github.com/bfcl-go/bfcl/internal/config/corrections"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCorrections(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "config/corrections")
}

var _ = Describe("corrections", func() {
	It("parse comma-separated and repeated names into All's order, without duplicates", func() {
		s, err := corrections.Parse("empty-memory-search, empty-tool-calls", "empty-memory-search", "")
		Expect(err).NotTo(HaveOccurred())
		Expect(s.List()).To(Equal([]string{"empty-tool-calls", "empty-memory-search"}))
		Expect(s.Has(corrections.EmptyToolCalls)).To(BeTrue())
		Expect(s.Has(corrections.MemoryKVKeyPattern)).To(BeFalse())
		Expect(s.Label()).To(Equal("corrections: empty-tool-calls, empty-memory-search"))
		Expect(s.String()).To(Equal("empty-tool-calls,empty-memory-search"))
	})

	It("are none by default: the pinned behaviour", func() {
		var s corrections.Set
		Expect(s.Empty()).To(BeTrue())
		Expect(s.List()).To(BeNil())
		Expect(s.Label()).To(BeEmpty())
		none, err := corrections.Parse()
		Expect(err).NotTo(HaveOccurred())
		Expect(none.Empty()).To(BeTrue())
	})

	It("refuse an unknown name, listing the valid ones", func() {
		_, err := corrections.Parse("empty-tool-calls,underscore_to_dot")
		Expect(err).To(MatchError(`unknown correction "underscore_to_dot" (valid: empty-tool-calls, underscore-to-dot-names, memory-kv-key-pattern, empty-memory-search)`))
	})

	It("name the gorilla pull requests of each", func() {
		for _, c := range corrections.All {
			Expect(c.PRs).NotTo(BeEmpty(), string(c.ID))
			Expect(c.Summary).NotTo(BeEmpty(), string(c.ID))
		}
		c, ok := corrections.Lookup(corrections.UnderscoreToDotNames)
		Expect(ok).To(BeTrue())
		Expect(c.PRs).To(Equal([]int{1346}))
	})
})
