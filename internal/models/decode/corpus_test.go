package decode_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
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

func loadCorpus() []corpusLine {
	path := filepath.Join(testenv.ModuleRoot(), "fixtures", "ast", "decode", "corpus.jsonl")
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

// knownGaps are corpus inputs on which we knowingly differ from upstream,
// with the reason. The test checks they still differ, so the list stays
// true.
var knownGaps = map[string]string{
	`"[f(a=len('abc') + 1)]"`: "arithmetic is evaluated without the builtins upstream's eval() can reach (len, abs, round, ...)",
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
		var mismatches []string
		for _, l := range lines {
			in, err := decode.ParseResult(l.Input)
			Expect(err).NotTo(HaveOccurred())
			opts := decode.Options{Spec: decode.Spec{Mode: l.Mode}, Language: l.Language}
			where := l.Mode + "/" + l.Language + "/" + l.Kind + " " + string(l.Input)
			if _, gap := knownGaps[string(l.Input)]; gap {
				got, err := decode.DecodeASTValue(in, opts)
				if l.Kind == "execute" {
					_, err = decode.DecodeExecuteValue(in, opts)
					got = nil
				}
				same := l.OK && err == nil && got != nil && pyval.Repr(got) == l.Repr
				Expect(same).To(BeFalse(), "%s is listed as a known gap but now agrees", where)
				continue
			}
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
				if err != nil {
					mismatches = append(mismatches, fmt.Sprintf("%s: want %s, got error %v", where, l.Repr, err))
				} else if pyval.Repr(got) != l.Repr {
					mismatches = append(mismatches, fmt.Sprintf("%s: want %s, got %s", where, l.Repr, pyval.Repr(got)))
				}
				continue
			}
			if err == nil {
				mismatches = append(mismatches, fmt.Sprintf("%s: want %s: %s, got %s", where, l.ErrorType, l.Error, pyval.Repr(got)))
				continue
			}
			exc, isExc := err.(*pyval.Exception)
			Expect(isExc).To(BeTrue(), where)
			if l.ErrorType == "SyntaxError" && l.Language == "python" {
				// CPython's SyntaxError wording comes from its own parser.
				if exc.Type != "SyntaxError" {
					mismatches = append(mismatches, fmt.Sprintf("%s: want SyntaxError, got %s", where, exc.Type))
				}
				continue
			}
			if exc.Type+": "+exc.Msg != l.ErrorType+": "+l.Error {
				mismatches = append(mismatches, fmt.Sprintf("%s: want %s: %s, got %s: %s", where, l.ErrorType, l.Error, exc.Type, exc.Msg))
			}
		}
		Expect(mismatches).To(BeEmpty())
	})
})
