package decode_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

var _ = Describe("decode API", func() {
	fc := decode.Options{Spec: decode.Spec{Mode: decode.ModeFC}}

	It("decodes FC calls keeping the model's argument order", func() {
		v, err := decode.DecodeAST(json.RawMessage(`[{"get_weather": "{\"unit\": \"c\", \"city\": \"Paris\"}"}]`), fc)
		Expect(err).NotTo(HaveOccurred())
		calls, ok := decode.Calls(v)
		Expect(ok).To(BeTrue())
		Expect(calls).To(HaveLen(1))
		Expect(calls[0].Name).To(Equal("get_weather"))
		Expect(pyval.Repr(calls[0].Args)).To(Equal(`{'unit': 'c', 'city': 'Paris'}`))
	})

	It("stops at a text reply's first character in FC mode, as Python's iteration does, without a value per character", func() {
		long := pyval.Str(strings.Repeat("x", 1<<20))
		var err error
		allocs := testing.AllocsPerRun(2, func() { _, err = decode.DecodeASTValue(long, fc) })
		Expect(err).To(MatchError(ContainSubstring("'str' object has no attribute 'keys'")))
		Expect(allocs).To(BeNumerically("<", 64), "a 1 MiB text reply took %v allocations", allocs)
		_, err = decode.DecodeExecuteValue(long, fc)
		Expect(err).To(MatchError(ContainSubstring("'str' object has no attribute 'items'")))
	})

	It("treats an empty Mode as FC", func() {
		v, err := decode.DecodeAST(json.RawMessage(`[{"f": "{}"}]`), decode.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(pyval.Repr(v)).To(Equal(`[{'f': {}}]`))
	})

	It("reports the function-calling format as upstream does", func() {
		for raw, want := range map[string]bool{
			`[]`: true, `[{"f": {}}]`: true, `[{"f": {}, "g": {}}]`: false, `[{}]`: false,
			`[{"f": []}]`: false, `{"f": {}}`: false, `"x"`: false, `[1]`: false,
		} {
			v, err := pyval.FromJSON([]byte(raw))
			Expect(err).NotTo(HaveOccurred())
			_, ok := decode.Calls(v)
			Expect(ok).To(Equal(want), raw)
			Expect(decode.IsEmptyOutput(v)).To(Equal(!want || raw == `[]`), raw)
		}
	})

	It("finds a call only when decoding succeeds with a non-empty call list", func() {
		for raw, want := range map[string]bool{
			`[{"f": "{}"}]`: true, `[]`: false, `"text"`: false, `[{"f": "{bad"}]`: false, `[{"f": "[1]"}]`: false,
		} {
			v, err := decode.ParseResult(json.RawMessage(raw))
			Expect(err).NotTo(HaveOccurred())
			has, _, _ := decode.HasCall(v, fc)
			Expect(has).To(Equal(want), raw)
		}
	})

	It("renders FC execution strings with repr values and no spaces", func() {
		out, err := decode.DecodeExecute(json.RawMessage(`[{"cd": "{\"folder\": \"doc\"}"}, {"mv": "{\"a\": 1.0, \"b\": [true, null]}"}]`), fc)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal([]string{"cd(folder='doc')", "mv(a=1.0,b=[True, None])"}))
	})

	It("renders prompt execution strings with nested calls", func() {
		out, err := decode.DecodeExecute(json.RawMessage(`"[f(a=g(x=1), b={'k': 'v'}), h()]"`), decode.Options{Spec: decode.Spec{Mode: decode.ModePrompt}})
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal([]string{"f(a=g(x=1), b={'k': 'v'})", "h()"}))
	})

	It("rejects a result field that is not JSON", func() {
		_, err := decode.DecodeAST(json.RawMessage(`[{"f": `), fc)
		Expect(err).To(HaveOccurred())
		_, isExc := err.(*pyval.Exception)
		Expect(isExc).To(BeFalse())
	})
})

var _ = Describe("DecodeCalls", func() {
	It("returns calls, the Python exception, or a wrong-format error", func() {
		calls, err := decode.DecodeCalls(json.RawMessage(`[{"f": "{\"a\": 1}"}]`), decode.Options{})
		Expect(err).NotTo(HaveOccurred())
		Expect(calls).To(HaveLen(1))

		_, err = decode.DecodeCalls(json.RawMessage(`"text"`), decode.Options{})
		exc, isExc := err.(*pyval.Exception)
		Expect(isExc).To(BeTrue())
		Expect(exc.Msg).To(Equal("'str' object has no attribute 'keys'"))

		_, err = decode.DecodeCalls(json.RawMessage(`[{"f": "[1]"}]`), decode.Options{})
		var wf *decode.WrongFormatError
		Expect(errors.As(err, &wf)).To(BeTrue())
		Expect(pyval.Repr(wf.Decoded)).To(Equal("[{'f': [1]}]"))
	})
})
