package minilm_test

import (
	"fmt"
	"math"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/services/embed/minilm"
)

// Texts for the generated models: BFCL-like memory facts.
var memoryTexts = []string{
	"My name is Jordan and I live in Portland, Oregon.",
	"I prefer window seats on long flights, and I'm allergic to peanuts!",
	"Remind me that the kitchen counter is 42 square feet.",
	"What's my favorite color? I told you last week: it's teal.",
	"The quarterly budget review moved to Thursday at 3 p.m.",
	"",
	"   ",
	"[CLS] literal [SEP] tokens [MASK] inside",
}

// maxAbsDiff64 compares a float32 vector with a float64 reference.
func maxAbsDiff64(a []float32, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(float64(a[i])-b[i]))
	}
	return m
}

// checkAgainstReference embeds texts with the model in dir and with the
// float64 reference, and returns the largest difference.
func checkAgainstReference(dir string, bw *bertWeights, texts []string) float64 {
	m, err := minilm.Load(dir)
	Expect(err).NotTo(HaveOccurred())
	e := minilm.NewEmbedder(m)
	vecs, err := e.Embed(ctx(), texts)
	Expect(err).NotTo(HaveOccurred())
	worst := 0.0
	for i, t := range texts {
		ids := e.Tokenize(t)
		want := bw.referenceEmbed(ids)
		Expect(vecs[i]).To(HaveLen(bw.spec.Hidden))
		d := maxAbsDiff64(vecs[i], want)
		Expect(d).To(BeNumerically("<=", 1e-5), fmt.Sprintf("%q (ids %v)", t, ids))
		worst = math.Max(worst, d)
	}
	return worst
}

var _ = Describe("A generated BERT of other dimensions", func() {
	It("agrees with a naive float64 forward pass (hidden 48, 3 layers, 3 heads, intermediate 96, 3 token types, bert. prefix)", func() {
		dir := GinkgoT().TempDir()
		spec := bertSpec{
			Hidden: 48, Layers: 3, Heads: 3, Inter: 96, MaxPos: 40, TypeVocab: 3,
			Vocab: wordsVocab(textWords(memoryTexts...)...), Seed: 7, Prefix: "bert.",
			MaxSeqLength: 256, // more than max_position_embeddings: clamped to 40
		}
		bw, err := writeRandomBERT(dir, spec)
		Expect(err).NotTo(HaveOccurred())
		m, err := minilm.Load(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Dim()).To(Equal(48))
		Expect(m.Tokenizer.MaxLen).To(Equal(40))
		// Special ids come from the vocabulary (here 2 and 3, not 101/102).
		Expect(m.Tokenizer.Encode("")).To(Equal([]int{2, 3}))
		long := strings.Repeat("kitchen counter ", 30)
		Expect(m.Tokenizer.Encode(long)).To(HaveLen(40))
		worst := checkAgainstReference(dir, bw, append(memoryTexts, long))
		fmt.Fprintf(GinkgoWriter, "generated hidden-48 model vs float64 reference: max abs diff %.3g\n", worst)
	})

	It("reads F16 and BF16 tensors as float32", func() {
		dir := GinkgoT().TempDir()
		spec := bertSpec{
			Hidden: 32, Layers: 2, Heads: 2, Inter: 64, MaxPos: 64, TypeVocab: 2,
			Vocab: wordsVocab(textWords(memoryTexts...)...), Seed: 11, MaxSeqLength: 64,
			DType: func(name string) string {
				switch {
				case strings.Contains(name, "intermediate"), strings.Contains(name, "word_embeddings"):
					return "F16"
				case strings.Contains(name, "query"), strings.Contains(name, "LayerNorm.bias"):
					return "BF16"
				}
				return "F32"
			},
		}
		bw, err := writeRandomBERT(dir, spec)
		Expect(err).NotTo(HaveOccurred())
		worst := checkAgainstReference(dir, bw, memoryTexts)
		fmt.Fprintf(GinkgoWriter, "F16/BF16 model vs float64 reference: max abs diff %.3g\n", worst)
	})
})
