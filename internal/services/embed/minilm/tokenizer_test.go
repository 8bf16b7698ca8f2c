package minilm_test

import (
	"fmt"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/services/embed/minilm"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// textRow holds the columns every reference row of this package has: the
// text, its token ids and where the text comes from.
type textRow struct {
	Text   string `json:"text"`
	IDs    []int  `json:"ids"`
	Source string `json:"source"`
}

// tokenRow is one line of the reference's tokens.jsonl.
type tokenRow struct {
	textRow
	Tokens      []string `json:"tokens"`
	Untruncated int      `json:"n_tokens_untruncated"`
}

func readJSONL[T any](path string) []T {
	rows, err := testenv.ReadJSONL[T](path)
	Expect(err).NotTo(HaveOccurred())
	return rows
}

var _ = Describe("Tokenizer", func() {
	check := func(tok *minilm.Tokenizer, rows []tokenRow) {
		agree := 0
		var bad []string
		for _, r := range rows {
			got := tok.Encode(r.Text)
			if fmt.Sprint(got) == fmt.Sprint(r.IDs) && len(tok.EncodeUntruncated(r.Text)) == r.Untruncated {
				agree++
			} else if len(bad) < 10 {
				bad = append(bad, fmt.Sprintf("%s %q:\n got %v %q\nwant %v %q", r.Source, r.Text, got, tok.Tokens(got), r.IDs, r.Tokens))
			}
		}
		fmt.Fprintf(GinkgoWriter, "token ids agree on %d/%d rows\n", agree, len(rows))
		Expect(bad).To(BeEmpty())
		Expect(agree).To(Equal(len(rows)))
	}

	It("gives the reference ids for every row of tokens.jsonl, from tokenizer.json", func() {
		dir := embedRef()
		rows := readJSONL[tokenRow](filepath.Join(dir, "tokens.jsonl"))
		Expect(rows).To(HaveLen(1250))
		tok, err := minilm.ReadTokenizerJSON(filepath.Join(dir, "tokenizer.json"), 256)
		Expect(err).NotTo(HaveOccurred())
		check(tok, rows)
	})

	It("gives the same ids from vocab.txt", func() {
		dir := embedRef()
		rows := readJSONL[tokenRow](filepath.Join(dir, "tokens.jsonl"))
		vocab, err := minilm.ReadVocabTxt(filepath.Join(dir, "vocab.txt"))
		Expect(err).NotTo(HaveOccurred())
		Expect(vocab).To(HaveLen(30522))
		tok, err := minilm.NewTokenizer(vocab, 256)
		Expect(err).NotTo(HaveOccurred())
		check(tok, rows)
	})
})
