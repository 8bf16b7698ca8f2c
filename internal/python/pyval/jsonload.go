package pyval

import (
	"math"
	"math/big"
	"strconv"
	"sync"
	"unicode/utf8"
)

// FromJSON is Python's json.loads(data): objects become *Dict in document
// order (a repeated key keeps its first position and takes the last
// value), arrays *List, integers Int (BigInt when large), numbers with a
// fraction or exponent Float, and NaN / Infinity / -Infinity are accepted.
// Errors are JSONDecodeError exceptions whose text matches CPython's, e.g.
// "Expecting value: line 1 column 1 (char 0)". data is copied once; the
// str values read share that copy.
func FromJSON(data []byte) (Value, error) { return FromJSONString(string(data)) }

// FromJSONString is FromJSON for a string. The str values read share the
// memory of s.
func FromJSONString(s string) (Value, error) {
	p := jsonParsers.Get().(*jsonParser)
	defer p.release()
	p.s, p.i = s, 0
	p.ws()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(p.s) {
		return nil, p.fail("Extra data", p.i)
	}
	return v, nil
}

// jsonParsers keeps parsers for reuse: their stacks and escape buffer
// are grown once, not for every document.
var jsonParsers = sync.Pool{New: func() any { return new(jsonParser) }}

// release empties p (dropping its references to the document and the
// values read) and returns it to jsonParsers, unless its stacks grew large.
func (p *jsonParser) release() {
	p.s = ""
	if cap(p.items) > 1<<12 || cap(p.members) > 1<<12 || cap(p.buf) > 1<<16 {
		return
	}
	clear(p.items[:cap(p.items)])
	clear(p.members[:cap(p.members)])
	p.items, p.members, p.buf = p.items[:0], p.members[:0], p.buf[:0]
	jsonParsers.Put(p)
}

type jsonParser struct {
	s   string
	i   int
	buf []byte
	// items and members hold the values of the arrays and objects being
	// read, nested ones above their parents', until each is complete and
	// copied out at its size.
	items   []Value
	members []dictEntry
}

func (p *jsonParser) fail(msg string, bytePos int) error {
	if bytePos > len(p.s) {
		bytePos = len(p.s)
	}
	pre := p.s[:bytePos]
	pos := utf8.RuneCountInString(pre)
	line, lastNL := 1, -1
	for j := 0; j < len(pre); j++ {
		if pre[j] == '\n' {
			line++
			lastNL = j
		}
	}
	var col int
	if lastNL < 0 {
		col = pos + 1
	} else {
		col = utf8.RuneCountInString(pre[lastNL+1:]) + 1
		// Python: colno = pos - doc.rindex('\n', 0, pos)
	}
	b := make([]byte, 0, len(msg)+40)
	b = append(b, msg...)
	b = append(b, ": line "...)
	b = strconv.AppendInt(b, int64(line), 10)
	b = append(b, " column "...)
	b = strconv.AppendInt(b, int64(col), 10)
	b = append(b, " (char "...)
	b = strconv.AppendInt(b, int64(pos), 10)
	b = append(b, ')')
	return &Exception{Type: "JSONDecodeError", Msg: string(b)}
}

func (p *jsonParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) hasPrefix(lit string) bool {
	return len(p.s)-p.i >= len(lit) && p.s[p.i:p.i+len(lit)] == lit
}

func (p *jsonParser) value() (Value, error) {
	if p.i >= len(p.s) {
		return nil, p.fail("Expecting value", p.i)
	}
	switch c := p.s[p.i]; c {
	case '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return Str(s), nil
	case '{':
		return p.object()
	case '[':
		return p.array()
	case 'n':
		if p.hasPrefix("null") {
			p.i += 4
			return None, nil
		}
	case 't':
		if p.hasPrefix("true") {
			p.i += 4
			return Bool(true), nil
		}
	case 'f':
		if p.hasPrefix("false") {
			p.i += 5
			return Bool(false), nil
		}
	case 'N':
		if p.hasPrefix("NaN") {
			p.i += 3
			return Float(math.NaN()), nil
		}
	case 'I':
		if p.hasPrefix("Infinity") {
			p.i += 8
			return Float(math.Inf(1)), nil
		}
	case '-':
		if p.hasPrefix("-Infinity") {
			p.i += 9
			return Float(math.Inf(-1)), nil
		}
		return p.number()
	default:
		if c >= '0' && c <= '9' {
			return p.number()
		}
	}
	return nil, p.fail("Expecting value", p.i)
}

func (p *jsonParser) number() (Value, error) {
	start := p.i
	j := p.i
	if p.s[j] == '-' {
		j++
	}
	if j >= len(p.s) || p.s[j] < '0' || p.s[j] > '9' {
		return nil, p.fail("Expecting value", start)
	}
	if p.s[j] == '0' {
		j++
	} else {
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
	}
	isFloat := false
	if j+1 < len(p.s) && p.s[j] == '.' && p.s[j+1] >= '0' && p.s[j+1] <= '9' {
		isFloat = true
		j += 2
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
	}
	if j < len(p.s) && (p.s[j] == 'e' || p.s[j] == 'E') {
		k := j + 1
		if k < len(p.s) && (p.s[k] == '+' || p.s[k] == '-') {
			k++
		}
		if k < len(p.s) && p.s[k] >= '0' && p.s[k] <= '9' {
			for k < len(p.s) && p.s[k] >= '0' && p.s[k] <= '9' {
				k++
			}
			isFloat = true
			j = k
		}
	}
	p.i = j
	text := p.s[start:j]
	if isFloat {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
				return nil, p.fail("Expecting value", start)
			}
		}
		return Float(f), nil
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err == nil {
		return Int(n), nil
	}
	bi, ok := new(big.Int).SetString(text, 10)
	if !ok {
		return nil, p.fail("Expecting value", start)
	}
	return BigInt{bi}, nil
}

// HexDigit is the value of the hexadecimal digit c (either case), or -1
// when c is not one: the digit reading of JSON's \uXXXX and of Python's
// \x, \u and \U escapes.
func HexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func (p *jsonParser) hex4(at int) (rune, bool) {
	if at+4 > len(p.s) {
		return 0, false
	}
	var r rune
	for k := 0; k < 4; k++ {
		h := HexDigit(p.s[at+k])
		if h < 0 {
			return 0, false
		}
		r = r<<4 | rune(h)
	}
	return r, true
}

// AppendWTF8 appends r, writing surrogate code points with the generalized
// 3-byte form so that Repr/JSONDumps can reproduce them (Python str values
// may hold lone surrogates; JSON's \uD800 and Python's "\ud800" make them).
func AppendWTF8(b []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(b, byte(0xE0|r>>12), byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(b, r)
}

func (p *jsonParser) str() (string, error) {
	quote := p.i
	j := p.i + 1
	// Fast path: no escapes.
	for j < len(p.s) {
		c := p.s[j]
		if c == '"' {
			p.i = j + 1
			return p.s[quote+1 : j], nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		j++
	}
	buf := append(p.buf[:0], p.s[quote+1:j]...)
	for {
		if j >= len(p.s) {
			return "", p.fail("Unterminated string starting at", quote)
		}
		c := p.s[j]
		switch {
		case c == '"':
			p.i = j + 1
			p.buf = buf
			return string(buf), nil
		case c < 0x20:
			return "", p.fail("Invalid control character at", j)
		case c != '\\':
			buf = append(buf, c)
			j++
			continue
		}
		// escape
		if j+1 >= len(p.s) {
			return "", p.fail("Unterminated string starting at", quote)
		}
		e := p.s[j+1]
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := p.hex4(j + 2)
			if !ok {
				return "", p.fail("Invalid \\uXXXX escape", j+1)
			}
			j += 6
			if r >= 0xD800 && r <= 0xDBFF && j+1 < len(p.s) && p.s[j] == '\\' && p.s[j+1] == 'u' {
				if r2, ok2 := p.hex4(j + 2); ok2 && r2 >= 0xDC00 && r2 <= 0xDFFF {
					r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
					j += 6
				} else if !ok2 {
					return "", p.fail("Invalid \\uXXXX escape", j+1)
				}
			}
			buf = AppendWTF8(buf, r)
			continue
		default:
			return "", p.fail("Invalid \\escape", j)
		}
		j += 2
	}
}

// key reads an object member's name: a recurring one without escapes is
// boxed once (StrKey).
func (p *jsonParser) key() (Value, error) {
	for j := p.i + 1; j < len(p.s); j++ {
		switch c := p.s[j]; {
		case c == '"':
			k := StrKey(p.s[p.i+1 : j])
			p.i = j + 1
			return k, nil
		case c == '\\' || c < 0x20:
			s, err := p.str()
			if err != nil {
				return nil, err
			}
			return Str(s), nil
		}
	}
	s, err := p.str() // unterminated: str reports it
	if err != nil {
		return nil, err
	}
	return Str(s), nil
}

func (p *jsonParser) object() (Value, error) {
	p.i++ // '{'
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return NewDict(), nil
	}
	base := len(p.members)
	defer func() { p.members = p.members[:base] }()
	for {
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.fail("Expecting property name enclosed in double quotes", p.i)
		}
		k, err := p.key()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.fail("Expecting ':' delimiter", p.i)
		}
		p.i++
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		p.members = append(p.members, dictEntry{k, v})
		if done, err := p.closeOrComma('}'); err != nil {
			return nil, err
		} else if done {
			return dictOfStrEntries(p.members[base:]), nil
		}
	}
}

func (p *jsonParser) array() (Value, error) {
	p.i++ // '['
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return &List{}, nil
	}
	base := len(p.items)
	defer func() { p.items = p.items[:base] }()
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		p.items = append(p.items, v)
		if done, err := p.closeOrComma(']'); err != nil {
			return nil, err
		} else if done {
			l := newListLen(len(p.items) - base)
			copy(l.Items, p.items[base:])
			return l, nil
		}
	}
}

// closeOrComma reads what follows a member of an object or array: the
// closing byte (done), or a ',' and the white space after it.
func (p *jsonParser) closeOrComma(close byte) (done bool, err error) {
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == close {
		p.i++
		return true, nil
	}
	if p.i >= len(p.s) || p.s[p.i] != ',' {
		return false, p.fail("Expecting ',' delimiter", p.i)
	}
	p.i++
	p.ws()
	return false, nil
}
