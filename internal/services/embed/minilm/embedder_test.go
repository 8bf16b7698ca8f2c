package minilm_test

import (
	"context"
	"fmt"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/services/embed/minilm"
)

// The project's embedder interface (internal/services/embed.Embedder), restated so
// that this package does not import it.
type embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Name() string
}

var _ embedder = (*minilm.Embedder)(nil)

var _ = Describe("Embedder", func() {
	var (
		m  *minilm.Model
		bw *bertWeights
	)
	BeforeEach(func() {
		dir := GinkgoT().TempDir()
		var err error
		bw, err = writeRandomBERT(dir, bertSpec{
			Hidden: 24, Layers: 2, Heads: 3, Inter: 48, MaxPos: 64, TypeVocab: 2,
			Vocab: wordsVocab(textWords(memoryTexts...)...), Seed: 5, MaxSeqLength: 64,
		})
		Expect(err).NotTo(HaveOccurred())
		m, err = minilm.Load(dir)
		Expect(err).NotTo(HaveOccurred())
	})

	It("embeds texts in order, the same alone or together, and nothing for no texts", func() {
		e := minilm.NewEmbedder(m)
		all, err := e.Embed(ctx(), memoryTexts)
		Expect(err).NotTo(HaveOccurred())
		Expect(all).To(HaveLen(len(memoryTexts)))
		for i, t := range memoryTexts {
			alone, err := minilm.NewEmbedder(m).Embed(ctx(), []string{t})
			Expect(err).NotTo(HaveOccurred())
			Expect(alone[0]).To(Equal(all[i]), t) // bit for bit
			Expect(maxAbsDiff64(all[i], bw.referenceEmbed(e.Tokenize(t)))).To(BeNumerically("<", 1e-5))
		}
		none, err := e.Embed(ctx(), nil)
		Expect(err).NotTo(HaveOccurred())
		Expect(none).To(BeEmpty())
	})

	It("strips the text first, as sentence-transformers does, and embeds an empty text as [CLS] [SEP]", func() {
		e := minilm.NewEmbedder(m)
		Expect(e.Tokenize(" \t\u00a0hello world\u3000\n")).To(Equal(e.Tokenize("hello world")))
		Expect(e.Tokenize("")).To(Equal([]int{2, 3}))
		v, err := e.Embed(ctx(), []string{"", "  "})
		Expect(err).NotTo(HaveOccurred())
		Expect(v[0]).To(Equal(v[1]))
		Expect(maxAbsDiff64(v[0], bw.referenceEmbed([]int{2, 3}))).To(BeNumerically("<", 1e-5))
	})

	It("caches by text and hands out copies", func() {
		e := minilm.NewEmbedder(m)
		a, err := e.Embed(ctx(), []string{"kitchen counter", "kitchen counter"})
		Expect(err).NotTo(HaveOccurred())
		Expect(a[0]).To(Equal(a[1]))
		want := append([]float32(nil), a[0]...)
		a[0][0] = 42
		b, err := e.Embed(ctx(), []string{"kitchen counter"})
		Expect(err).NotTo(HaveOccurred())
		Expect(b[0]).To(Equal(want))
	})

	It("is safe for concurrent use, with overlapping texts", func() {
		e := minilm.NewEmbedder(m)
		want, err := minilm.NewEmbedder(m).Embed(ctx(), memoryTexts)
		Expect(err).NotTo(HaveOccurred())
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				defer GinkgoRecover()
				texts := append(append([]string(nil), memoryTexts[g%len(memoryTexts):]...), memoryTexts[:g%len(memoryTexts)]...)
				got, err := e.Embed(ctx(), texts)
				if err != nil {
					errs <- err
					return
				}
				for i, t := range texts {
					for j, u := range memoryTexts {
						if t == u && fmt.Sprint(got[i]) != fmt.Sprint(want[j]) {
							errs <- fmt.Errorf("goroutine %d: %q differs", g, t)
						}
					}
				}
			}(g)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			Expect(err).NotTo(HaveOccurred())
		}
	})

	It("stops on a cancelled context and does not cache the failure", func() {
		e := minilm.NewEmbedder(m)
		c, cancel := context.WithCancel(ctx())
		cancel()
		_, err := e.Embed(c, []string{"my favorite color"})
		Expect(err).To(MatchError(context.Canceled))
		v, err := e.Embed(ctx(), []string{"my favorite color"})
		Expect(err).NotTo(HaveOccurred())
		Expect(v[0]).To(HaveLen(24))
	})
})

var _ = Describe("Tokenizer details", func() {
	It("splits special tokens out of the raw text, even inside words, and keeps lower-case ones as text", func() {
		dir := embedRef()
		tok, err := minilm.ReadTokenizerJSON(dir+"/tokenizer.json", 256)
		Expect(err).NotTo(HaveOccurred())
		Expect(tok.Encode("then[SEP]continue")).To(Equal([]int{101, 2059, 102, 3613, 102}))
		Expect(tok.Encode("[PAD]")).To(Equal([]int{101, 0, 102}))
		Expect(tok.Tokens(tok.Encode("[sep]"))).To(Equal([]string{"[CLS]", "[", "sep", "]", "[SEP]"}))
		Expect(tok.Tokens(tok.Encode("zero\u200bwidth ≠ Σσς"))).To(Equal(tok.Tokens(tok.Encode("zerowidth = σσς"))))
		Expect(tok.Encode("emoji😀glued")).To(Equal([]int{101, 100, 102}))
	})
})
