package decode

import (
	"regexp"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// FunctionGemma's control tokens (bfcl_eval/model_handler/local_inference/
// functiongemma.py, class Tokens / Prefixes): facts of the format.
const (
	fgEscape     = "<escape>"
	fgCallPrefix = "call:"
)

var fgCall = regexp.MustCompile(`(?s)<start_function_call>(.*?)<end_function_call>`)

type fgCallResult struct {
	name string
	args *pyval.Dict
}

// functionGemmaCalls is FunctionGemmaHandler._parse_functiongemma_response:
// every <start_function_call>call:NAME{...}<end_function_call> block, the
// arguments read by its tolerant state machine.
func functionGemmaCalls(r pyval.Value) ([]fgCallResult, error) {
	s, err := reSubject(r)
	if err != nil {
		return nil, err
	}
	var out []fgCallResult
	for _, m := range fgCall.FindAllStringSubmatch(s, -1) {
		body := pyval.Strip(m[1])
		if !strings.HasPrefix(body, fgCallPrefix) {
			continue
		}
		i := strings.IndexByte(body, '{')
		if i < 0 {
			out = append(out, fgCallResult{pyval.Strip(body[len(fgCallPrefix):]), pyval.NewDict()})
			continue
		}
		out = append(out, fgCallResult{pyval.Strip(body[len(fgCallPrefix):i]), parseFunctionGemmaArgs(body[i:])})
	}
	return out, nil
}

// fgParser is upstream's _FunctionGemmaResponseParser: a stack of open
// containers, the pending key of each open dict (nil: none), a text
// buffer, and the last value added to a dict without a key (which a
// following ":" makes the key).
type fgParser struct {
	root       *pyval.List
	stack      []pyval.Value
	keys       []*string
	buf        []byte
	pendingKey pyval.Value // nil: None
}

func parseFunctionGemmaArgs(text string) *pyval.Dict {
	p := &fgParser{root: pyval.NewList()}
	p.stack = []pyval.Value{p.root}
	for i := 0; i < len(text); {
		if strings.HasPrefix(text[i:], fgEscape) {
			i = p.escape(text, i)
			continue
		}
		c := text[i]
		if strings.IndexByte("{[:]},", c) >= 0 {
			p.commit()
			p.structure(c)
		} else {
			p.buf = append(p.buf, c)
		}
		i++
	}
	p.commit()
	if len(p.root.Items) > 0 {
		if d, ok := p.root.Items[0].(*pyval.Dict); ok {
			return d
		}
	}
	return pyval.NewDict()
}

func (p *fgParser) escape(text string, start int) int {
	from := start + len(fgEscape)
	var val string
	next := len(text)
	if end := strings.Index(text[from:], fgEscape); end < 0 {
		val = text[start:]
	} else {
		val = text[from : from+end]
		next = from + end + len(fgEscape)
	}
	if len(p.buf) > 0 {
		p.commit()
	}
	p.add(pyval.Str(val))
	return next
}

func (p *fgParser) structure(c byte) {
	switch c {
	case '{':
		d := pyval.NewDict()
		p.add(d)
		p.stack = append(p.stack, d)
		p.keys = append(p.keys, nil)
		p.pendingKey = nil
	case '}':
		if len(p.stack) > 1 {
			p.stack = p.stack[:len(p.stack)-1]
			if len(p.keys) > 0 {
				p.keys = p.keys[:len(p.keys)-1]
			}
		}
		p.pendingKey = nil
	case '[':
		l := pyval.NewList()
		p.add(l)
		p.stack = append(p.stack, l)
		p.pendingKey = nil
	case ']':
		if len(p.stack) > 1 {
			p.stack = p.stack[:len(p.stack)-1]
		}
		p.pendingKey = nil
	case ':':
		var key *string
		if len(p.buf) > 0 {
			k := pyval.Strip(string(p.buf))
			key = &k
			p.buf = p.buf[:0]
		} else if p.pendingKey != nil && p.pendingKey != pyval.None {
			k := pyval.StrOf(p.pendingKey)
			key = &k
			p.pendingKey = nil
		}
		if _, isDict := p.stack[len(p.stack)-1].(*pyval.Dict); key != nil && isDict && len(p.keys) > 0 {
			p.keys[len(p.keys)-1] = key
		}
	case ',':
		p.pendingKey = nil
	}
}

func (p *fgParser) commit() {
	if len(p.buf) == 0 {
		return
	}
	raw := pyval.Strip(string(p.buf))
	p.buf = p.buf[:0]
	if raw != "" {
		p.add(fgPrimitive(raw))
	}
}

func (p *fgParser) add(v pyval.Value) {
	switch c := p.stack[len(p.stack)-1].(type) {
	case *pyval.List:
		c.Items = append(c.Items, v)
	case *pyval.Dict:
		var key *string
		if len(p.keys) > 0 {
			key = p.keys[len(p.keys)-1]
		}
		if key != nil {
			c.Set(pyval.Str(*key), v)
			p.keys[len(p.keys)-1] = nil
		} else {
			p.pendingKey = v // a None value leaves no pending key
		}
	}
}

// fgPrimitive is _parse_primitive: null / true / false, int(), float(),
// else the text.
func fgPrimitive(s string) pyval.Value {
	switch s {
	case "null":
		return pyval.None
	case "true":
		return pyval.Bool(true)
	case "false":
		return pyval.Bool(false)
	}
	if v, err := pyval.ToInt(pyval.Str(s)); err == nil {
		return v
	}
	if v, err := pyval.ToFloat(pyval.Str(s)); err == nil {
		return v
	}
	return pyval.Str(s)
}

func decodeFunctionGemma(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
	calls, err := functionGemmaCalls(r)
	if err != nil {
		return nil, err
	}
	out := pyval.NewList()
	for _, c := range calls {
		d := pyval.NewDictCap(1)
		d.Set(pyval.Str(c.name), c.args)
		out.Items = append(out.Items, d)
	}
	return out, nil
}

func execFunctionGemma(r pyval.Value) ([]string, error) {
	calls, err := functionGemmaCalls(r)
	if err != nil {
		return nil, err
	}
	out := []string{}
	for _, c := range calls {
		s, err := callText(pyval.Str(c.name), c.args, ", ")
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
