package astcheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// fixtures/ast/decode/converters.jsonl holds upstream's java_type_converter
// and js_type_converter results; see gen_converter_corpus.py.

type converterLine struct {
	Language  string  `json:"language"`
	Value     string  `json:"value"`
	Type      string  `json:"type"`
	Nested    *string `json:"nested"`
	OK        bool    `json:"ok"`
	Repr      string  `json:"repr"`
	ErrorType string  `json:"error_type"`
	Error     string  `json:"error"`
}

var _ = Describe("Java and JavaScript type converters", func() {
	It("agree with upstream's on the converter corpus", func() {
		f, err := os.Open(filepath.Join(testenv.ModuleRoot(), "fixtures", "ast", "decode", "converters.jsonl"))
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		var mismatches []string
		n := 0
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var l converterLine
			Expect(json.Unmarshal(sc.Bytes(), &l)).To(Succeed())
			nested := ""
			if l.Nested != nil {
				nested = *l.Nested
			}
			conv := javaConvert
			if l.Language == "javascript" {
				conv = jsConvert
			}
			got, err := conv(l.Value, l.Type, nested)
			where := fmt.Sprintf("%s %s(%q, nested %q)", l.Language, l.Type, l.Value, nested)
			n++
			switch {
			case l.OK && err != nil:
				mismatches = append(mismatches, fmt.Sprintf("%s: want %s, got error %v", where, l.Repr, err))
			case l.OK && pyval.Repr(got) != l.Repr:
				mismatches = append(mismatches, fmt.Sprintf("%s: want %s, got %s", where, l.Repr, pyval.Repr(got)))
			case !l.OK && err == nil:
				mismatches = append(mismatches, fmt.Sprintf("%s: want %s: %s, got %s", where, l.ErrorType, l.Error, pyval.Repr(got)))
			case !l.OK:
				exc := asException(err)
				if exc.Type+": "+exc.Msg != l.ErrorType+": "+l.Error {
					mismatches = append(mismatches, fmt.Sprintf("%s: want %s: %s, got %s: %s", where, l.ErrorType, l.Error, exc.Type, exc.Msg))
				}
			}
		}
		Expect(sc.Err()).NotTo(HaveOccurred())
		Expect(n).To(BeNumerically(">", 100))
		Expect(mismatches).To(BeEmpty())
	})
})
