package decode_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/decode"
	"github.com/bfcl-go/bfcl/internal/pyval"
)

// fixtures/ast/decode/corpus.jsonl holds upstream's decoder output (repr or
// exception) for model outputs of every mode and language; see
// fixtures/ast/gen_decode_corpus.py.

type corpusLine struct {
	Mode      string          `json:"mode"`
	Language  string          `json:"language"`
	Kind      string          `json:"kind"`
	Input     json.RawMessage `json:"input"`
	OK        bool            `json:"ok"`
	Repr      string          `json:"repr"`
	ErrorType string          `json:"error_type"`
	Error     string          `json:"error"`
}

func moduleRoot() string {
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func loadCorpus() []corpusLine {
	path := filepath.Join(moduleRoot(), "fixtures", "ast", "decode", "corpus.jsonl")
	f, err := os.Open(path)
	Expect(err).NotTo(HaveOccurred(), "corpus %s", path)
	defer f.Close()
	var out []corpusLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l corpusLine
		Expect(json.Unmarshal(sc.Bytes(), &l)).To(Succeed())
		out = append(out, l)
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return out
}

func strList(xs []string) pyval.Value {
	items := make([]pyval.Value, len(xs))
	for i, x := range xs {
		items[i] = pyval.Str(x)
	}
	return pyval.NewList(items...)
}

var _ = Describe("decoders agree with upstream's on the corpus", func() {
	It("gives the same output or the same exception for every line", func() {
		lines := loadCorpus()
		Expect(len(lines)).To(BeNumerically(">", 250))
		for _, l := range lines {
			in, err := decode.ParseResult(l.Input)
			Expect(err).NotTo(HaveOccurred())
			opts := decode.Options{Mode: l.Mode, Language: l.Language}
			where := l.Mode + "/" + l.Language + "/" + l.Kind + " " + string(l.Input)
			var got pyval.Value
			if l.Kind == "execute" {
				var calls []string
				calls, err = decode.DecodeExecuteValue(in, opts)
				if err == nil {
					got = strList(calls)
				}
			} else {
				got, err = decode.DecodeASTValue(in, opts)
			}
			if l.OK {
				Expect(err).NotTo(HaveOccurred(), where)
				Expect(pyval.Repr(got)).To(Equal(l.Repr), where)
				continue
			}
			Expect(err).To(HaveOccurred(), "%s: expected %s: %s, got %s", where, l.ErrorType, l.Error, func() string {
				if got == nil {
					return "nil"
				}
				return pyval.Repr(got)
			}())
			exc, isExc := err.(*pyval.Exception)
			Expect(isExc).To(BeTrue(), where)
			if l.ErrorType == "SyntaxError" && l.Language == "python" {
				// CPython's SyntaxError wording comes from its own parser.
				Expect(exc.Type).To(Equal("SyntaxError"), where)
				continue
			}
			Expect(exc.Type + ": " + exc.Msg).To(Equal(l.ErrorType+": "+l.Error), where)
		}
	})
})
