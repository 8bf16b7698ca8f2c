package prompt_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

type decodeCase struct {
	RetFmt string `json:"ret_fmt"`
	Tag    bool   `json:"tool_call_tag"`
	Input  string `json:"input"`
	Repr   string `json:"repr"`
	Error  string `json:"error"`
}

func loadDecodeCases() []decodeCase {
	f, err := os.Open(fixture("decode_cases.jsonl"))
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	var out []decodeCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c decodeCase
		Expect(json.Unmarshal(sc.Bytes(), &c)).To(Succeed())
		out = append(out, c)
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return out
}

// decodeASTPrompting decodes through internal/models/decode, the path the
// checkers use (default_decode_ast_prompting with the configuration's
// return format and tool-call tag).
func decodeASTPrompting(result, retFmt string, tag bool) (pyval.Value, error) {
	return decode.DecodeASTValue(pyval.Str(result), decode.Options{Spec: decode.Spec{Mode: decode.ModePrompt}, Language: retFmt, ToolCallTag: tag})
}

func outcome(v pyval.Value, err error) string {
	if err != nil {
		if exc, ok := err.(*pyval.Exception); ok {
			return exc.Type + ": " + exc.Msg
		}
		return "Go error: " + err.Error()
	}
	return pyval.Repr(v)
}

var _ = Describe("return-format parsers against upstream's default_decode_ast_prompting", func() {
	It("decodes every json / verbose_xml / concise_xml case as upstream (value or exception text)", func() {
		cases := loadDecodeCases()
		perFmt := map[string]int{}
		python := 0
		var diffs []string
		for _, c := range cases {
			if c.RetFmt == prompt.RetPython {
				// The Python return format is parsed by internal/models/decode.
				python++
				continue
			}
			perFmt[c.RetFmt]++
			want := c.Repr
			if c.Error != "" {
				want = c.Error
			}
			got := outcome(decodeASTPrompting(c.Input, c.RetFmt, c.Tag))
			if got != want {
				diffs = append(diffs, c.RetFmt+" tag="+map[bool]string{true: "T", false: "F"}[c.Tag]+"\n  input: "+c.Input+"\n  want:  "+want+"\n  got:   "+got)
			}
		}
		Expect(python).To(Equal(36))
		Expect(perFmt[prompt.RetJSON]).To(BeNumerically(">", 500))
		Expect(perFmt[prompt.RetVerboseXML]).To(BeNumerically(">", 500))
		Expect(perFmt[prompt.RetConciseXML]).To(BeNumerically(">", 500))
		Expect(diffs).To(BeEmpty(), strings.Join(diffs, "\n"))
	})
})
