package gold

import (
	"encoding/json"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func TestGold(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "gold")
}

var _ = Describe("gold's answer to the first entry of every category", Label("dataset"), func() {
	var src *dataset.Source
	BeforeEach(func() {
		var skip string
		var err error
		if src, skip, err = testenv.DataSet(); skip != "" {
			Skip(skip)
		}
		Expect(err).NotTo(HaveOccurred())
	})
	first := func(c category.Category) *Driver {
		es, err := src.LoadCategory(c)
		Expect(err).NotTo(HaveOccurred())
		Expect(es).NotTo(BeEmpty())
		d, err := New(es[0])
		Expect(err).NotTo(HaveOccurred(), string(c))
		return d
	}
	It("answers by the category's kind", func() {
		for _, c := range category.All() {
			d := first(c)
			switch {
			case c.IsMultiTurn():
				Expect(d.turns).To(HaveLen(len(d.entry.Question)), string(c))
				Expect(d.turns[0]).NotTo(BeEmpty(), string(c))
			case c == category.Irrelevance || c == category.LiveIrrelevance:
				Expect(d.turns).To(Equal([][]driver.ToolCall{nil}), string(c))
				Expect(d.text).To(HaveLen(1), string(c))
			case c == category.LiveRelevance:
				Expect(d.turns).To(HaveLen(1), string(c))
				Expect(d.turns[0]).To(HaveLen(1), string(c))
				Expect(d.turns[0][0].Arguments).To(Equal("{}"), string(c))
			case c.IsAgentic():
				Expect(d.text).To(HaveLen(len(d.entry.Question)), string(c))
				Expect(d.text[0]).To(HavePrefix("{'answer': "), string(c))
			case c.IsFormatSensitivity(): // prompt mode: the calls as text
				Expect(d.turns).To(Equal([][]driver.ToolCall{nil}), string(c))
				Expect(d.text[0]).NotTo(BeEmpty(), string(c))
			default: // single-turn with ground truth
				Expect(d.turns).To(HaveLen(1), string(c))
				Expect(d.turns[0]).NotTo(BeEmpty(), string(c))
			}
		}
	})
	It("gives Java and JavaScript parameters as the string literals those languages take", func() {
		for _, c := range []category.Category{category.SimpleJava, category.SimpleJavaScript} {
			d := first(c)
			var args map[string]any
			Expect(json.Unmarshal([]byte(d.turns[0][0].Arguments), &args)).To(Succeed())
			Expect(args).NotTo(BeEmpty(), string(c))
			for k, v := range args {
				Expect(v).To(BeAssignableToTypeOf(""), "%s: %s", c, k)
			}
		}
	})
})
