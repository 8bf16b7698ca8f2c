package decode

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// decodePromptAST is default_decode_ast_prompting(result, language): strip
// backticks, newlines and spaces at both ends, add a missing "[" / "]", then
// parse with the language's parser.
//
// With tag (a format-sensitivity configuration with tool_call_tag=True) the
// calls are first taken out of <TOOLCALL>...</TOOLCALL>; lang may also be
// one of the json / verbose_xml / concise_xml return formats.
func decodePromptAST(result pyval.Value, lang string, tag bool) (pyval.Value, error) {
	s, ok := result.(pyval.Str)
	if !ok {
		return nil, pyval.NewAttributeError("'%s' object has no attribute 'strip'", typeName(result))
	}
	return astParse(wrapBrackets(string(s)), lang, tag)
}

// astParse is upstream's ast_parse(text, language, has_tool_call_tag): the
// parser of the return format, after taking the calls out of
// <TOOLCALL>...</TOOLCALL> when tag is set.
func astParse(text, lang string, tag bool) (pyval.Value, error) {
	if tag {
		var err error
		if text, err = prompt.ExtractToolCall(text); err != nil {
			return nil, err
		}
	}
	switch lang {
	case prompt.RetJSON, prompt.RetVerboseXML, prompt.RetConciseXML:
		return prompt.ParseReturnFormat(text, lang)
	case "", LangPython:
		return parsePythonCalls(text)
	case LangJava:
		return parseJavaCall(sliceInner(text))
	case LangJavaScript:
		return parseJSCall(sliceInner(text))
	}
	return nil, pyval.NewException("NotImplementedError", "Unsupported language: "+lang)
}

// wrapBrackets is the common prefix of the prompt decoders.
func wrapBrackets(s string) string {
	s = strings.Trim(s, "`\n ")
	if !strings.HasPrefix(s, "[") {
		s = "[" + s
	}
	if !strings.HasSuffix(s, "]") {
		s += "]"
	}
	return s
}

// sliceInner is Python's s[1:-1] on code points.
func sliceInner(s string) string {
	r := []rune(s)
	if len(r) <= 2 {
		return ""
	}
	return string(r[1 : len(r)-1])
}

// scanExponent reads a numeric literal's exponent part ("e", an optional
// sign, a decimal digit, then more characters accepted by digit) starting
// at j, for the Java and JavaScript literal scanners; it returns the index
// after it and whether there was one.
func scanExponent(src string, j int, digit func(byte) bool) (int, bool) {
	n := len(src)
	if j >= n || (src[j] != 'e' && src[j] != 'E') {
		return j, false
	}
	k := j + 1
	if k < n && (src[k] == '+' || src[k] == '-') {
		k++
	}
	if k >= n || src[k] < '0' || src[k] > '9' {
		return j, false
	}
	for k < n && digit(src[k]) {
		k++
	}
	return k, true
}
