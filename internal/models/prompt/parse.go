package prompt

import (
	"regexp"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// pySpace is the class of characters Python's re matches with \s in a str
// pattern (str.isspace()); Go's \s is ASCII only.
const pySpace = `[\t\n\v\f\r\x{1c}-\x{1f} \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`

// The regular expressions of upstream's ast_parse and
// parse_json_function_call (bfcl_eval/model_handler/utils.py,
// bfcl_eval/model_handler/parser/json_parser.py), all with re.DOTALL. Go's
// regexp picks the same leftmost-first match as Python's backtracking
// engine for these patterns.
var (
	toolCallRe  = regexp.MustCompile(`(?s)<TOOLCALL>(.*?)</TOOLCALL>`)
	jsonArrayRe = regexp.MustCompile(`(?s)\[.*\]`)
	jsonCallsRe = regexp.MustCompile(`(?s)\[` + pySpace + `*\{.*?\}` + pySpace + `*(?:,` + pySpace + `*\{.*?\}` + pySpace + `*)*\]`)
	functionsRe = regexp.MustCompile(`(?s)<functions>(.*?)</functions>`)
)

// ExtractToolCall is the has_tool_call_tag step of upstream's ast_parse:
// the text between the first <TOOLCALL> and the next </TOOLCALL>, stripped
// of white space (str.strip()). Without a tag it fails with upstream's
// ValueError (a *pyval.Exception).
func ExtractToolCall(s string) (string, error) {
	m := toolCallRe.FindStringSubmatch(s)
	if m == nil {
		return "", pyval.NewValueError("No tool call tag found in input string: %s", s)
	}
	return pyval.Strip(m[1]), nil
}

// ParseJSONFormat is the JSON branch of upstream's ast_parse: the text
// from the first '[' to the last ']' (when there is one) goes to
// parse_json_function_call, which narrows it to the first array of
// objects, json.loads it (a JSON error gives an empty list) and turns each
// object into {obj["function"]: obj["parameters"]}, skipping items that are
// not objects. The result is a *pyval.List of one-key *pyval.Dict;
// failures (missing keys, an unhashable name, a non-iterable document) are
// *pyval.Exception values with Python's texts.
func ParseJSONFormat(s string) (pyval.Value, error) {
	if m := jsonArrayRe.FindString(s); m != "" {
		s = m
	}
	if m := jsonCallsRe.FindString(s); m != "" {
		s = m
	}
	doc, err := pyval.FromJSONString(s)
	if err != nil {
		return pyval.NewList(), nil
	}
	var items []pyval.Value
	switch d := doc.(type) {
	case *pyval.List:
		items = d.Items
	case *pyval.Dict, pyval.Str:
		// Iterating a dict gives its keys and a str its characters: no
		// item is a dict.
	default:
		return nil, pyval.NewTypeError("'%s' object is not iterable", doc.TypeName())
	}
	out := make([]pyval.Value, 0, len(items))
	for _, it := range items {
		obj, ok := it.(*pyval.Dict)
		if !ok {
			continue
		}
		name, ok := obj.GetStr("function")
		if !ok {
			return nil, pyval.NewKeyError(pyval.Str("function"))
		}
		args, ok := obj.GetStr("parameters")
		if !ok {
			return nil, pyval.NewKeyError(pyval.Str("parameters"))
		}
		if err := pyval.CheckHashable(name); err != nil {
			return nil, err
		}
		call := pyval.NewDict()
		call.Set(name, args)
		out = append(out, call)
	}
	return pyval.NewList(out...), nil
}

// functionsElement is the shared first step of the two XML branches of
// ast_parse: the first <functions>...</functions> span, parsed.
func functionsElement(s string) (*xmlElement, error) {
	m := functionsRe.FindString(s)
	if m == "" {
		return nil, pyval.NewValueError("No XML function call found in input string: %s. Missing <functions> tag.", s)
	}
	return parseXMLDocument(m)
}

// ParseVerboseXMLFormat is the verbose_xml branch of upstream's ast_parse
// (parse_verbose_xml_function_call): each <function name=".."> child of
// <functions> becomes {name: {param name: value}}, the params read from
// its <params> child if it has one, else from its own <param> children;
// each value is the "value" attribute ("" if absent) converted by its
// "type" attribute ("string" if absent) as convert_value_by_type does. A
// param without a name is stored under None.
func ParseVerboseXMLFormat(s string) (pyval.Value, error) {
	return parseXMLCalls(s, func(fn *xmlElement) (*pyval.Dict, error) {
		params := fn.findAll("param")
		if c := fn.find("params"); c != nil {
			params = c.findAll("param")
		}
		args := pyval.NewDict()
		for _, p := range params {
			var key pyval.Value = pyval.None
			if n, ok := p.attr("name"); ok {
				key = pyval.Str(n)
			}
			raw, _ := p.attr("value")
			v, err := convertParam(p, raw)
			if err != nil {
				return nil, err
			}
			args.Set(key, v)
		}
		return args, nil
	})
}

// ParseConciseXMLFormat is the concise_xml branch of upstream's ast_parse
// (parse_concise_xml_function_call): each <function name=".."> child of
// <functions> becomes {name: {param name: value}} from its direct <param
// name=".." type=".."> children; the value is the param's text before any
// child element, stripped, converted by type ("string" if absent).
func ParseConciseXMLFormat(s string) (pyval.Value, error) {
	return parseXMLCalls(s, func(fn *xmlElement) (*pyval.Dict, error) {
		args := pyval.NewDict()
		for _, p := range fn.findAll("param") {
			pname, ok := p.attr("name")
			if !ok {
				return nil, pyval.NewKeyError(pyval.Str("name"))
			}
			v, err := convertParam(p, pyval.Strip(p.text))
			if err != nil {
				return nil, err
			}
			args.SetStr(pname, v)
		}
		return args, nil
	})
}

// parseXMLCalls is the loop both XML formats share: each <function
// name=".."> child of <functions> becomes {name: args(function)}, in
// order; a function without a name is a KeyError.
func parseXMLCalls(s string, args func(fn *xmlElement) (*pyval.Dict, error)) (pyval.Value, error) {
	root, err := functionsElement(s)
	if err != nil {
		return nil, err
	}
	var out []pyval.Value
	for _, fn := range root.findAll("function") {
		name, ok := fn.attr("name")
		if !ok {
			return nil, pyval.NewKeyError(pyval.Str("name"))
		}
		a, err := args(fn)
		if err != nil {
			return nil, err
		}
		call := pyval.NewDict()
		call.SetStr(name, a)
		out = append(out, call)
	}
	return pyval.NewList(out...), nil
}

// convertParam is convert_value_by_type(raw, param's "type" attribute, or
// "string" when it has none).
func convertParam(p *xmlElement, raw string) (pyval.Value, error) {
	typ, ok := p.attr("type")
	if !ok {
		typ = "string"
	}
	return convertValueByType(raw, typ)
}

// convertValueByType is upstream's convert_value_by_type
// (bfcl_eval/model_handler/parser/xml_parser.py).
func convertValueByType(raw, typ string) (pyval.Value, error) {
	switch typ {
	case "string":
		return pyval.Str(raw), nil
	case "integer":
		return pyval.ToInt(pyval.Str(raw))
	case "float":
		return pyval.ToFloat(pyval.Str(raw))
	case "boolean":
		return pyval.Bool(pyval.Lower(raw) == "true"), nil
	case "null":
		return pyval.None, nil
	case "array", "tuple", "object", "dict":
		return literalEval(raw)
	}
	return pyval.Str(raw), nil
}

// literalEval is ast.literal_eval on a str: leading spaces and tabs
// dropped, ast.parse(mode="eval") (SyntaxError texts name "<unknown>";
// what only the compiler rejects, such as a repeated keyword, parses),
// then evaluated as a literal.
func literalEval(s string) (pyval.Value, error) {
	e, err := pyexpr.ParseAST(strings.TrimLeft(s, " \t"))
	if err != nil {
		return nil, err
	}
	return pyexpr.LiteralEval(e)
}

// ParseReturnFormat dispatches to the parser of a non-Python return format
// (RetJSON, RetVerboseXML, RetConciseXML) — the json / xml branches of
// upstream's ast_parse, applied to the text after the bracket wrapping and
// the optional ExtractToolCall step of default_decode_ast_prompting. The
// Python, Java and JavaScript formats are parsed by internal/models/decode.
func ParseReturnFormat(text, retFmt string) (pyval.Value, error) {
	switch retFmt {
	case RetJSON:
		return ParseJSONFormat(text)
	case RetVerboseXML:
		return ParseVerboseXMLFormat(text)
	case RetConciseXML:
		return ParseConciseXMLFormat(text)
	}
	return nil, pyval.NewException("NotImplementedError", "Unsupported language: "+retFmt)
}
