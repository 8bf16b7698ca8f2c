package decode_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// fixtures/ast/decode/handlers.jsonl.gz holds what every upstream handler
// class's decode_ast / decode_execute return (or raise) under CPython 3.12
// for a corpus of stored results of every family; see
// fixtures/ast/gen_handler_corpus.py.

type handlerOutcome struct {
	OK        bool     `json:"ok"`
	Repr      string   `json:"repr"`
	Calls     []string `json:"calls"`
	ErrorType string   `json:"error_type"`
	Error     string   `json:"error"`
}

type handlerLine struct {
	Class   string          `json:"class"`
	FC      bool            `json:"fc"`
	Input   json.RawMessage `json:"input"`
	AST     handlerOutcome  `json:"ast"`
	Execute handlerOutcome  `json:"execute"`
}

func loadHandlerCorpus() []handlerLine {
	path := filepath.Join(testenv.ModuleRoot(), "fixtures", "ast", "decode", "handlers.jsonl.gz")
	f, err := os.Open(path)
	Expect(err).NotTo(HaveOccurred(), "corpus %s", path)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	Expect(err).NotTo(HaveOccurred())
	var out []handlerLine
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l handlerLine
		Expect(json.Unmarshal(sc.Bytes(), &l)).To(Succeed())
		out = append(out, l)
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return out
}

func errText(err error) string {
	if e, ok := err.(*pyval.Exception); ok {
		return e.Type + ": " + e.Msg
	}
	return "non-Python error: " + err.Error()
}

var _ = Describe("every upstream handler class on the recorded corpus", func() {
	It("decodes as upstream's decode_ast and decode_execute do, errors included", func() {
		lines := loadHandlerCorpus()
		Expect(len(lines)).To(BeNumerically(">", 10000))
		classes := map[string]bool{}
		var diffs []string
		for _, l := range lines {
			classes[l.Class] = true
			mode := decode.ModePrompt
			if l.FC {
				mode = decode.ModeFC
			}
			o := decode.Options{Spec: decode.Spec{Mode: mode, Handler: l.Class}}
			where := fmt.Sprintf("%s fc=%v %s", l.Class, l.FC, l.Input)
			v, err := decode.DecodeAST(l.Input, o)
			switch {
			case l.AST.OK && err != nil:
				diffs = append(diffs, where+": decode_ast raised "+errText(err)+", upstream "+l.AST.Repr)
			case l.AST.OK && pyval.Repr(v) != l.AST.Repr:
				diffs = append(diffs, where+": decode_ast "+pyval.Repr(v)+", upstream "+l.AST.Repr)
			case !l.AST.OK && err == nil:
				diffs = append(diffs, where+": decode_ast "+pyval.Repr(v)+", upstream raised "+l.AST.ErrorType+": "+l.AST.Error)
			case !l.AST.OK && errText(err) != l.AST.ErrorType+": "+l.AST.Error:
				diffs = append(diffs, where+": decode_ast raised "+errText(err)+", upstream "+l.AST.ErrorType+": "+l.AST.Error)
			}
			calls, err := decode.DecodeExecute(l.Input, o)
			got := fmt.Sprintf("%q", calls)
			want := fmt.Sprintf("%q", l.Execute.Calls)
			switch {
			case l.Execute.OK && err != nil:
				diffs = append(diffs, where+": decode_execute raised "+errText(err)+", upstream "+want)
			case l.Execute.OK && (len(calls) != 0 || len(l.Execute.Calls) != 0) && got != want:
				diffs = append(diffs, where+": decode_execute "+got+", upstream "+want)
			case !l.Execute.OK && err == nil:
				diffs = append(diffs, where+": decode_execute "+got+", upstream raised "+l.Execute.ErrorType+": "+l.Execute.Error)
			case !l.Execute.OK && errText(err) != l.Execute.ErrorType+": "+l.Execute.Error:
				diffs = append(diffs, where+": decode_execute raised "+errText(err)+", upstream "+l.Execute.ErrorType+": "+l.Execute.Error)
			}
		}
		fmt.Fprintf(GinkgoWriter, "%d corpus lines, %d classes, %d differences\n", len(lines), len(classes), len(diffs))
		for c := range classes {
			_, ok := decode.LookupHandler(c)
			Expect(ok).To(BeTrue(), c)
		}
		Expect(diffs).To(BeEmpty(), strings.Join(diffs, "\n"))
	})
})
