package prompt_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

var _ = Describe("tool-call tag", func() {
	DescribeTable("ExtractToolCall",
		func(in, want, wantErr string) {
			got, err := prompt.ExtractToolCall(in)
			if wantErr != "" {
				Expect(err).To(MatchError(wantErr))
				Expect(pyval.IsException(err, "ValueError")).To(BeTrue())
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		},
		Entry("plain", "<TOOLCALL>[f(a=1)]</TOOLCALL>", "[f(a=1)]", ""),
		Entry("surrounding text and white space (Unicode too) stripped", "x <TOOLCALL>\n\u00a0 f() \t</TOOLCALL> y", "f()", ""),
		Entry("first tag pair, shortest content", "<TOOLCALL>a</TOOLCALL><TOOLCALL>b</TOOLCALL>", "a", ""),
		Entry("spans lines", "<TOOLCALL>a\nb</TOOLCALL>", "a\nb", ""),
		Entry("case-sensitive", "<toolcall>a</toolcall>", "", "No tool call tag found in input string: <toolcall>a</toolcall>"),
		Entry("unclosed", "[<TOOLCALL>f()]", "", "No tool call tag found in input string: [<TOOLCALL>f()]"),
	)
})

var _ = Describe("return-format parsers", func() {
	repr := func(v pyval.Value, err error) string {
		Expect(err).NotTo(HaveOccurred())
		return pyval.Repr(v)
	}
	excText := func(_ pyval.Value, err error) string {
		Expect(err).To(HaveOccurred())
		exc, ok := err.(*pyval.Exception)
		Expect(ok).To(BeTrue(), "%T %v", err, err)
		return exc.Type + ": " + exc.Msg
	}

	DescribeTable("json",
		func(in, want string) { Expect(repr(prompt.ParseJSONFormat(in))).To(Equal(want)) },
		Entry("calls", `[{"function":"f","parameters":{"a":1,"b":[true,null,2.0]}}]`, `[{'f': {'a': 1, 'b': [True, None, 2.0]}}]`),
		Entry("fenced with prose", "Sure:\n```json\n[{\"function\": \"a.b\", \"parameters\": {}}]\n```", `[{'a.b': {}}]`),
		Entry("invalid JSON gives no call", `[{"function":"f","parameters":{}},]`, `[]`),
		Entry("non-object items are skipped", `["x", {"function":"f","parameters":{}}]`, `[{'f': {}}]`),
		Entry("parameters need not be a dict", `[{"function":"f","parameters":"s"}]`, `[{'f': 's'}]`),
		Entry("duplicate keys: last wins", `[{"function":"f","parameters":{"a":1,"a":2}}]`, `[{'f': {'a': 2}}]`),
		Entry("NaN and big numbers as Python reads them", `[{"function":"f","parameters":{"n":NaN,"b":123456789012345678901234567890}}]`, `[{'f': {'n': nan, 'b': 123456789012345678901234567890}}]`),
	)

	DescribeTable("json failures",
		func(in, want string) { Expect(excText(prompt.ParseJSONFormat(in))).To(Equal(want)) },
		Entry("missing parameters", `[{"function":"f"}]`, `KeyError: 'parameters'`),
		Entry("missing function", `[{"name":"f","arguments":{}}]`, `KeyError: 'function'`),
		Entry("unhashable name", `[{"function":["f"],"parameters":{}}]`, `TypeError: unhashable type: 'list'`),
		Entry("a bare number", `5`, `TypeError: 'int' object is not iterable`),
	)

	DescribeTable("verbose_xml",
		func(in, want string) { Expect(repr(prompt.ParseVerboseXMLFormat(in))).To(Equal(want)) },
		Entry("typed values", `<functions><function name="f"><params><param name="i" value="-3" type="integer"/><param name="x" value="2.5" type="float"/><param name="b" value="TRUE" type="boolean"/><param name="n" value="" type="null"/><param name="l" value="[1, 'a']" type="array"/><param name="t" value="(1, 2)" type="tuple"/><param name="s" value="x"/><param name="u" value="y" type="other"/></params></function></functions>`,
			`[{'f': {'i': -3, 'x': 2.5, 'b': True, 'n': None, 'l': [1, 'a'], 't': (1, 2), 's': 'x', 'u': 'y'}}]`),
		Entry("params without container, value missing, name missing", `<functions><function name="g"><param name="a"/><param value="1"/></function></functions>`, `[{'g': {'a': '', None: '1'}}]`),
		Entry("entities and attribute white-space normalisation", "<functions><function name=\"f\"><params><param name=\"a\" value=\"&lt;&amp;&#65;\tx\r\ny&#10;\"/></params></function></functions>", `[{'f': {'a': '<&A x y\n'}}]`),
		Entry("only the first <functions> block", `x <functions><function name="a"/></functions> <functions><function name="b"/></functions>`, `[{'a': {}}]`),
		Entry("namespaced children are not <function>", `<functions><function xmlns="urn:x" name="f"/></functions>`, `[]`),
	)

	DescribeTable("xml failures",
		func(parse func(string) (pyval.Value, error), in, want string) {
			Expect(excText(parse(in))).To(Equal(want))
		},
		Entry("no <functions>", prompt.ParseVerboseXMLFormat, `<function name="f"/>`, `ValueError: No XML function call found in input string: <function name="f"/>. Missing <functions> tag.`),
		Entry("mismatched tag", prompt.ParseVerboseXMLFormat, "<functions>\n  <function name=\"f\"></func></functions>", `ParseError: mismatched tag: line 2, column 23`),
		Entry("unclosed element", prompt.ParseConciseXMLFormat, `<functions><function name="f"></functions>`, `ParseError: mismatched tag: line 1, column 32`),
		Entry("nested <functions> left open", prompt.ParseConciseXMLFormat, `<functions><functions></functions>`, `ParseError: no element found: line 1, column 34`),
		Entry("undefined entity", prompt.ParseConciseXMLFormat, `<functions>&nbsp;</functions>`, `ParseError: undefined entity: line 1, column 11`),
		Entry("bad character in attribute value", prompt.ParseVerboseXMLFormat, `<functions><function name="a<b"/></functions>`, `ParseError: not well-formed (invalid token): line 1, column 28`),
		Entry("duplicate attribute", prompt.ParseVerboseXMLFormat, `<functions><function name="a" name="b"/></functions>`, `ParseError: duplicate attribute: line 1, column 30`),
		Entry("unbound prefix", prompt.ParseVerboseXMLFormat, `<functions><p:function name="a"/></functions>`, `ParseError: unbound prefix: line 1, column 11`),
		Entry("function without name", prompt.ParseVerboseXMLFormat, `<functions><function/></functions>`, `KeyError: 'name'`),
		Entry("integer that is not one", prompt.ParseVerboseXMLFormat, `<functions><function name="f"><param name="a" value="1.5" type="integer"/></function></functions>`, `ValueError: invalid literal for int() with base 10: '1.5'`),
		Entry("array that is not a literal", prompt.ParseConciseXMLFormat, `<functions><function name="f"><param name="a" type="array">[1,</param></function></functions>`, `SyntaxError: '[' was never closed (<unknown>, line 1)`),
		Entry("a repeated keyword is parsed (ast.parse), then is no literal", prompt.ParseConciseXMLFormat, `<functions><function name="f"><param name="a" type="array">[g(b=1, b=2)]</param></function></functions>`, `ValueError: malformed node or string on line 1: <ast.Call object>`),
		Entry("concise param without name", prompt.ParseConciseXMLFormat, `<functions><function name="f"><param>1</param></function></functions>`, `KeyError: 'name'`),
		Entry("lone surrogate", prompt.ParseConciseXMLFormat, "<functions>\xed\xa0\x80</functions>", `UnicodeEncodeError: 'utf-8' codec can't encode character '\ud800' in position 11: surrogates not allowed`),
	)

	DescribeTable("concise_xml",
		func(in, want string) { Expect(repr(prompt.ParseConciseXMLFormat(in))).To(Equal(want)) },
		Entry("text stripped and typed", "<functions><function name=\"f\"><param name=\"a\" type=\"integer\"> 5\n</param><param name=\"d\" type=\"dict\">{'k': [1]}</param><param name=\"s\">x &amp; y</param></function></functions>",
			`[{'f': {'a': 5, 'd': {'k': [1]}, 's': 'x & y'}}]`),
		Entry("text before the first child only; CDATA counts", `<functions><function name="f"><param name="a"><![CDATA[<x>]]>y<b/>z</param></function></functions>`, `[{'f': {'a': '<x>y'}}]`),
		Entry("params container is not read", `<functions><function name="f"><params><param name="a">1</param></params></function></functions>`, `[{'f': {}}]`),
	)
})
