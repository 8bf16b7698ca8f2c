package pyval

import (
	"math"
	"strconv"
	"sync"
	"unicode/utf8"
)

// JSONOptions are the arguments of json.dumps that the benchmark varies.
// The zero value is json.dumps(v, ensure_ascii=False); JSONDumps and
// AppendJSON use Python's defaults (ensure_ascii=True).
type JSONOptions struct {
	// ASCII is ensure_ascii: non-ASCII as \uXXXX, astral characters as
	// surrogate pairs. Without it, only '"', '\\' and control characters are
	// escaped.
	ASCII bool
	// Indent is indent=n for n > 0: every item on its own line indented by n
	// spaces per level, item separator "," (Python's default once indent is
	// set). 0 is indent=None: one line, separators ", " and ": ".
	Indent int
	// Compact is separators=(",", ":") on one line (Indent 0): what
	// json.Compact would make of the default output.
	Compact bool
}

// JSONDumps is Python's json.dumps(v) with default arguments: separators
// ", " and ": ", ensure_ascii (non-ASCII as \uXXXX, astral characters as
// surrogate pairs), NaN/Infinity/-Infinity allowed, tuples as arrays, and
// bool/int/float/None dict keys turned into strings. Values that are not
// serializable give TypeError("Object of type set is not JSON serializable").
func JSONDumps(v Value) (string, error) {
	sb := getScratch()
	b, err := AppendJSON(sb.b[:0], v)
	if err != nil {
		putScratch(sb, nil)
		return "", err
	}
	s := string(b)
	putScratch(sb, b)
	return s, nil
}

// scratch is a reusable output buffer: the encoders that return a fresh
// string or slice write into one, so that the result is allocated once at
// its final size instead of growing from nothing.
type scratch struct{ b []byte }

var scratchPool = sync.Pool{New: func() any { return &scratch{b: make([]byte, 0, 4096)} }}

// maxScratch is the largest buffer kept for reuse; bigger ones (a whole
// long-context state) are left to the collector.
const maxScratch = 1 << 20

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

// putScratch returns sb to the pool, keeping b (what was written into it,
// possibly regrown) as its buffer when b is not nil.
func putScratch(sb *scratch, b []byte) {
	if b != nil {
		if cap(b) > maxScratch {
			return
		}
		sb.b = b[:0]
	}
	scratchPool.Put(sb)
}

// AppendJSON appends json.dumps(v) to b. A list or dict that contains
// itself gives ValueError("Circular reference detected").
func AppendJSON(b []byte, v Value) ([]byte, error) {
	return AppendJSONWith(b, v, JSONOptions{ASCII: true})
}

// AppendJSONWith appends json.dumps(v, ...) with the options o to b.
func AppendJSONWith(b []byte, v Value, o JSONOptions) ([]byte, error) {
	e := jsonEncoder{opts: o}
	return e.appendJSON(b, v, 0)
}

// jsonEncoder is one json.dumps call: its options and the containers being
// written (for the circular-reference check).
type jsonEncoder struct {
	st   reprStack
	opts JSONOptions
	// serializable: write make_json_serializable(v) (AppendJSONSerializable).
	serializable bool
}

func (e *jsonEncoder) str(b []byte, s string) []byte {
	if e.opts.ASCII {
		return AppendJSONString(b, s)
	}
	return AppendJSONStringUnicode(b, s)
}

// item starts the i-th item of a container at nesting depth.
func (e *jsonEncoder) item(b []byte, i, depth int) []byte {
	if e.opts.Indent <= 0 {
		if i > 0 {
			if e.opts.Compact {
				return append(b, ',')
			}
			b = append(b, ", "...)
		}
		return b
	}
	if i > 0 {
		b = append(b, ',')
	}
	return e.newline(b, depth+1)
}

func (e *jsonEncoder) newline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for i := 0; i < e.opts.Indent*depth; i++ {
		b = append(b, ' ')
	}
	return b
}

// end closes a non-empty container at nesting depth.
func (e *jsonEncoder) end(b []byte, depth int, c byte) []byte {
	if e.opts.Indent > 0 {
		b = e.newline(b, depth)
	}
	return append(b, c)
}

func (e *jsonEncoder) appendJSON(b []byte, v Value, depth int) ([]byte, error) {
	if e.serializable {
		switch v.(type) {
		case *List, *Dict: // rebuilt: their items are made serializable
		default:
			return e.orStr(b, v, depth)
		}
	}
	var err error
	switch x := v.(type) {
	case Str:
		return e.str(b, string(x)), nil
	case Int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case Bool:
		return strconv.AppendBool(b, bool(x)), nil
	case NoneType:
		return append(b, "null"...), nil
	case Float:
		return AppendJSONFloat(b, float64(x)), nil
	case BigInt:
		return x.V.Append(b, 10), nil
	case *List:
		if !e.st.push(x) {
			return nil, NewValueError("Circular reference detected")
		}
		b, err = e.appendJSONArray(b, x.Items, depth)
		e.st.pop()
		return b, err
	case Tuple:
		return e.appendJSONArray(b, x, depth)
	case *Dict:
		if x.Len() == 0 {
			return append(b, "{}"...), nil
		}
		if !e.st.push(x) {
			return nil, NewValueError("Circular reference detected")
		}
		defer e.st.pop()
		b = append(b, '{')
		for i := range x.ents {
			b = e.item(b, i, depth)
			switch k := x.ents[i].key.(type) {
			case Str:
				b = e.str(b, string(k))
			case Int:
				b = append(b, '"')
				b = strconv.AppendInt(b, int64(k), 10)
				b = append(b, '"')
			case BigInt:
				b = append(b, '"')
				b = k.V.Append(b, 10)
				b = append(b, '"')
			case Float:
				b = append(b, '"')
				b = AppendJSONFloat(b, float64(k))
				b = append(b, '"')
			case Bool:
				if k {
					b = append(b, `"true"`...)
				} else {
					b = append(b, `"false"`...)
				}
			case NoneType:
				b = append(b, `"null"`...)
			default:
				return nil, NewTypeError("keys must be str, int, float, bool or None, not " + k.TypeName())
			}
			if e.opts.Compact {
				b = append(b, ':')
			} else {
				b = append(b, ": "...)
			}
			if b, err = e.appendJSON(b, x.ents[i].val, depth+1); err != nil {
				return nil, err
			}
		}
		return e.end(b, depth, '}'), nil
	case nil:
		return nil, NewTypeError("Object of type NoneType is not JSON serializable")
	}
	return nil, NewTypeError("Object of type " + v.TypeName() + " is not JSON serializable")
}

func (e *jsonEncoder) appendJSONArray(b []byte, items []Value, depth int) ([]byte, error) {
	if len(items) == 0 {
		return append(b, "[]"...), nil
	}
	var err error
	b = append(b, '[')
	for i, it := range items {
		b = e.item(b, i, depth)
		if b, err = e.appendJSON(b, it, depth+1); err != nil {
			return nil, err
		}
	}
	return e.end(b, depth, ']'), nil
}

// AppendJSONFloat appends a float as json.dumps writes it: repr, or NaN,
// Infinity and -Infinity.
func AppendJSONFloat(b []byte, f float64) []byte {
	switch {
	case f != f:
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	return AppendFloatRepr(b, f)
}

// AppendJSONString appends s as a JSON string with ensure_ascii=True, as
// Python's json module writes it (lowercase hex, no HTML escaping).
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0 // s[start:i] is written as it is
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if c < 0x20 || c == '"' || c == '\\' || c == 0x7f {
				b = appendJSONEscape(append(b, s[start:i-1]...), c)
				start = i
			}
			continue
		}
		b = append(b, s[start:i]...)
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if sr, ok := isSurrogateSeq(s[i:]); ok {
				r, size = sr, 3
			}
		}
		i += size
		start = i
		if r > 0xffff {
			r -= 0x10000
			b = appendU4(b, 0xd800|(r>>10)&0x3ff)
			b = appendU4(b, 0xdc00|r&0x3ff)
		} else {
			b = appendU4(b, r)
		}
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendJSONStringUnicode appends s as json.dumps(s, ensure_ascii=False)
// writes it: only '"', '\\' and control characters are escaped.
func AppendJSONStringUnicode(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = appendJSONEscape(append(b, s[start:i]...), c)
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendJSONEscape appends the escape json.dumps writes for the ASCII byte
// c: the short forms \" \\ \n \r \t \b \f, else \u00XX.
func appendJSONEscape(b []byte, c byte) []byte {
	if c < utf8.RuneSelf && jsonShortEscapes[c] != 0 {
		return append(b, '\\', jsonShortEscapes[c])
	}
	return appendU4(b, rune(c))
}

// jsonShortEscapes maps the bytes json.dumps escapes with a short form to
// the letter after the backslash.
var jsonShortEscapes = [utf8.RuneSelf]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f'}

func appendU4(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
}

// AppendJSONSerializable appends json.dumps(make_json_serializable(v)) to
// b: upstream's make_json_serializable (bfcl_eval/utils.py) prepares the
// backend state of an inference log for json.dumps by rebuilding each dict
// and list with its values made serializable (dict keys kept as they are),
// and replacing any other value that json.dumps refuses by str(value) (a
// Directory becomes its repr, an mpf or Decimal its text, a set its repr;
// a tuple is kept whole, or replaced whole). The value is written as it is
// walked, without building the serializable copy; o are json.dumps's
// arguments.
func AppendJSONSerializable(b []byte, v Value, o JSONOptions) ([]byte, error) {
	e := jsonEncoder{opts: o, serializable: true}
	return e.appendJSON(b, v, 0)
}

// orStr appends v as json.dumps writes it, or, when json.dumps refuses it,
// str(v) as a JSON string (make_json_serializable's leaves).
func (e *jsonEncoder) orStr(b []byte, v Value, depth int) ([]byte, error) {
	n := len(b)
	e.serializable = false
	out, err := e.appendJSON(b, v, depth)
	e.serializable = true
	if err == nil {
		return out, nil
	}
	// A failed attempt wrote at most into b's spare capacity: b[:n] is intact.
	return e.str(b[:n], StrOf(v)), nil
}
