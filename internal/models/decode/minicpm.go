package decode

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// MiniCPM's markers (bfcl_eval/model_handler/local_inference/minicpm_fc.py,
// fc2dict's defaults): facts of the format.
const (
	cpmToolStart    = "<|tool_call_start|>"
	cpmToolEnd      = "<|tool_call_end|>"
	cpmThoughtStart = "<|thought_start|>"
	cpmThoughtEnd   = "<|thought_end|>"
)

// cpmMessage is what fc2dict returns, as far as the decoders read it:
// the content and, when the tool-call block parsed, its calls.
type cpmMessage struct {
	content  string
	hasCalls bool
	calls    []fgCallResult
}

// fc2dict is MiniCPMFCHandler's fc2dict: the thought is cut off at the last
// <|thought_end|>, the calls are the Python statements between the first
// <|tool_call_start|> and the last <|tool_call_end|> (a ```python fence
// removed); any failure to read them leaves the message without calls.
func fc2dict(r pyval.Value) (cpmMessage, error) {
	in := func(sub string) (bool, error) { return pyval.Contains(nonNil(r), pyval.Str(sub)) }
	hasTE, err := in(cpmThoughtEnd)
	if err != nil {
		return cpmMessage{}, err
	}
	hasTS, _ := in(cpmThoughtStart)
	seq := r
	if hasTE && hasTS {
		s, err := strArg(r, "rsplit")
		if err != nil {
			return cpmMessage{}, err
		}
		i := strings.LastIndex(s, cpmThoughtEnd)
		thought := s[:i]
		if !strings.Contains(thought, cpmThoughtStart) {
			return cpmMessage{}, pyval.NewIndexError("list index out of range")
		}
		seq = pyval.Str(s[i+len(cpmThoughtEnd):])
	}
	hasS, err := pyval.Contains(nonNil(seq), pyval.Str(cpmToolStart))
	if err != nil {
		return cpmMessage{}, err
	}
	hasE, _ := pyval.Contains(nonNil(seq), pyval.Str(cpmToolEnd))
	if !hasS || !hasE {
		s, err := strArg(seq, "strip")
		if err != nil {
			return cpmMessage{}, err
		}
		return cpmMessage{content: pyval.Strip(s)}, nil
	}
	s, err := strArg(seq, "rsplit")
	if err != nil {
		return cpmMessage{}, err
	}
	i := strings.LastIndex(s, cpmToolEnd)
	block, content := s[:i], s[i+len(cpmToolEnd):]
	_, block, ok := strings.Cut(block, cpmToolStart)
	if !ok {
		return cpmMessage{}, pyval.NewIndexError("list index out of range")
	}
	msg := cpmMessage{content: pyval.Strip(content)}
	block = pyval.Strip(block)
	if strings.HasPrefix(block, "```") {
		block = pyval.Strip(strings.TrimLeft(block, "`"))
		if strings.HasPrefix(block, "python") {
			block = pyval.Strip(strings.TrimLeft(block, "python"))
		}
	}
	if strings.HasSuffix(block, "```") {
		block = pyval.Strip(strings.TrimRight(block, "`"))
	}
	calls, ok := moduleCalls(block)
	if ok {
		msg.hasCalls, msg.calls = true, calls
	}
	return msg, nil
}

// moduleCalls is the try block of fc2dict: ast.parse(src) as a module,
// each statement's value a call, resolved by resolve_ast_call. Statements
// are expression statements or NAME = value assignments (the module forms
// a model writes); any other statement, a syntax error, an indented line
// or a failing resolution makes the whole block unreadable (ok false), as
// upstream's bare except does.
func moduleCalls(src string) ([]fgCallResult, bool) {
	var out []fgCallResult
	for _, st := range logicalStatements(src) {
		if st.indented {
			return nil, false
		}
		text := strings.TrimLeft(st.text, " \t\f")
		if strings.TrimSpace(text) == "" {
			continue
		}
		var e pyexpr.Expr
		if x, err := pyexpr.ParseAST(text); err == nil {
			e = x
		} else if as, err := pyexpr.ParseModule(text); err == nil && len(as) == 1 {
			e = as[0].Value
		} else {
			return nil, false
		}
		c, isCall := e.(*pyexpr.Call)
		if !isCall {
			return nil, false
		}
		d, err := resolveCall(c)
		if err != nil {
			return nil, false
		}
		for _, kv := range d.(*pyval.Dict).Items() {
			out = append(out, fgCallResult{name: pyval.StrOf(kv.Key), args: kv.Value.(*pyval.Dict)})
		}
	}
	return out, true
}

type statement struct {
	text     string
	indented bool // starts a physical line with white space
}

// logicalStatements splits Python source at the NEWLINE and ";" tokens:
// outside brackets, strings and comments, with backslash continuations
// joined.
func logicalStatements(src string) []statement {
	var out []statement
	var cur strings.Builder
	depth := 0
	lineStart := true
	indented := false
	flush := func() {
		t := cur.String()
		if strings.TrimSpace(t) != "" {
			out = append(out, statement{text: t, indented: indented})
		}
		cur.Reset()
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if lineStart && cur.Len() == 0 {
			indented = c == ' ' || c == '\t' || c == '\f'
			lineStart = false
		}
		switch {
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i--
		case c == '\\' && i+1 < len(src) && src[i+1] == '\n':
			i++
			cur.WriteByte(' ')
		case c == '\'' || c == '"':
			j := skipString(src, i)
			cur.WriteString(src[i:j])
			i = j - 1
		case c == '(' || c == '[' || c == '{':
			depth++
			cur.WriteByte(c)
		case c == ')' || c == ']' || c == '}':
			depth--
			cur.WriteByte(c)
		case (c == '\n' || c == ';') && depth <= 0:
			if strings.TrimSpace(cur.String()) == "" && c == '\n' {
				cur.Reset()
			} else {
				flush()
			}
			lineStart = c == '\n'
			indented = false
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// skipString returns the index after the string literal starting at i
// (the end of src when it is not closed).
func skipString(src string, i int) int {
	q := src[i]
	if strings.HasPrefix(src[i:], strings.Repeat(string(q), 3)) {
		end := strings.Index(src[i+3:], strings.Repeat(string(q), 3))
		if end < 0 {
			return len(src)
		}
		return i + 3 + end + 3
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			return j
		}
	}
	return len(src)
}

func decodeMiniCPMFC(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
	msg, err := fc2dict(r)
	if err != nil {
		return nil, err
	}
	if !msg.hasCalls || len(msg.calls) == 0 {
		return pyval.Str(msg.content), nil
	}
	out := pyval.NewList()
	for _, c := range msg.calls {
		d := pyval.NewDictCap(1)
		d.Set(pyval.Str(c.name), c.args)
		out.Items = append(out.Items, d)
	}
	return out, nil
}

func execMiniCPMFC(r pyval.Value) ([]string, error) {
	msg, err := fc2dict(r)
	if err != nil {
		return nil, err
	}
	out := []string{}
	if !msg.hasCalls {
		return out, nil
	}
	for _, c := range msg.calls {
		s, err := callText(pyval.Str(c.name), c.args, ", ")
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
