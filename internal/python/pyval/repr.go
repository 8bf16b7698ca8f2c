package pyval

import (
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// Repr is Python's repr(v) (CPython 3.12 formatting).
func Repr(v Value) string {
	sb := getScratch()
	b := AppendRepr(sb.b[:0], v)
	s := string(b)
	putScratch(sb, b)
	return s
}

// StrOf is Python's str(v) (the name Str is taken by the str type):
// strings as they are, Objects through PyStr, everything else as Repr.
func StrOf(v Value) string {
	switch x := v.(type) {
	case Str:
		return string(x)
	case Object:
		return x.PyStr()
	}
	return Repr(v)
}

// AppendRepr appends repr(v) to b. A list or dict that contains itself is
// shown as [...] / {...} at the point of recursion, as Python does.
func AppendRepr(b []byte, v Value) []byte {
	var st reprStack
	return st.appendRepr(b, v)
}

// reprStack holds the containers being printed, to detect cycles. The
// first few live in inline, the rest in more; no field points into the
// struct itself, so a reprStack on the stack does not escape to the heap.
type reprStack struct {
	n      int
	inline [8]any
	more   []any
}

func (st *reprStack) push(p any) bool {
	for i := 0; i < st.n && i < len(st.inline); i++ {
		if st.inline[i] == p {
			return false
		}
	}
	for _, q := range st.more {
		if q == p {
			return false
		}
	}
	if st.n < len(st.inline) {
		st.inline[st.n] = p
	} else {
		st.more = append(st.more, p)
	}
	st.n++
	return true
}

func (st *reprStack) pop() {
	st.n--
	if st.n < len(st.inline) {
		st.inline[st.n] = nil
	} else {
		st.more = st.more[:len(st.more)-1]
	}
}

func (st *reprStack) appendRepr(b []byte, v Value) []byte {
	switch x := v.(type) {
	case Str:
		return AppendStrRepr(b, string(x))
	case Int:
		return strconv.AppendInt(b, int64(x), 10)
	case Bool:
		if x {
			return append(b, "True"...)
		}
		return append(b, "False"...)
	case Float:
		return AppendFloatRepr(b, float64(x))
	case NoneType:
		return append(b, "None"...)
	case BigInt:
		return x.V.Append(b, 10)
	case *List:
		if !st.push(x) {
			return append(b, "[...]"...)
		}
		b = append(b, '[')
		for i, e := range x.Items {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = st.appendRepr(b, e)
		}
		st.pop()
		return append(b, ']')
	case Tuple:
		b = append(b, '(')
		for i, e := range x {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = st.appendRepr(b, e)
		}
		if len(x) == 1 {
			b = append(b, ',')
		}
		return append(b, ')')
	case *Dict:
		if !st.push(x) {
			return append(b, "{...}"...)
		}
		b = append(b, '{')
		for i := range x.ents {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = st.appendRepr(b, x.ents[i].key)
			b = append(b, ": "...)
			b = st.appendRepr(b, x.ents[i].val)
		}
		st.pop()
		return append(b, '}')
	case *Set:
		if x.Len() == 0 {
			return append(b, "set()"...)
		}
		b = append(b, '{')
		for i := range x.d.ents {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = st.appendRepr(b, x.d.ents[i].key)
		}
		return append(b, '}')
	case EllipsisType:
		return append(b, "Ellipsis"...)
	case Bytes:
		return AppendBytesRepr(b, string(x))
	case Object:
		return append(b, x.PyRepr()...)
	case nil:
		return append(b, "<nil>"...)
	}
	return append(b, "<"+v.TypeName()+">"...)
}

// isSurrogateSeq reports whether s starts with the 3-byte generalized UTF-8
// ("WTF-8") encoding of a surrogate code point, which FromJSON uses for lone
// surrogates such as "\ud800"; it returns the code point.
func isSurrogateSeq(s string) (rune, bool) {
	if len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF {
		return rune(0xD000) | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), true
	}
	return 0, false
}

// IsPrintable is Python's str.isprintable() for one character: false for
// categories Cc, Cf, Cs, Co, Cn, Zl, Zp and Zs other than the ASCII space.
// (Go's Unicode tables are used; they may differ from CPython 3.12's
// Unicode 15.0 for recently assigned characters.)
func IsPrintable(r rune) bool {
	if r < 0x7f {
		return r >= 0x20
	}
	return unicode.IsPrint(r)
}

// reprQuote is the quote repr() of a str or bytes s uses: ' unless s holds
// a ' and no ".
func reprQuote(s string) byte {
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		return '"'
	}
	return '\''
}

// AppendStrRepr appends repr(s) for a str to b.
func AppendStrRepr(b []byte, s string) []byte {
	quote := reprQuote(s)
	b = append(b, quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			b = appendReprByte(b, c, quote)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if sr, ok := isSurrogateSeq(s[i:]); ok {
				b = appendUEscape(b, sr)
				i += 3
				continue
			}
			// Not representable in Python; show the byte.
			b = append(b, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
			i++
			continue
		}
		if IsPrintable(r) {
			b = append(b, s[i:i+size]...)
		} else {
			b = appendUEscape(b, r)
		}
		i += size
	}
	return append(b, quote)
}

func appendUEscape(b []byte, r rune) []byte {
	switch {
	case r <= 0xff:
		return append(b, '\\', 'x', hexDigits[r>>4], hexDigits[r&15])
	case r <= 0xffff:
		return append(b, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
	}
	b = append(b, '\\', 'U')
	for sh := 28; sh >= 0; sh -= 4 {
		b = append(b, hexDigits[r>>uint(sh)&15])
	}
	return b
}

// FloatRepr is Python's repr(f) for a float.
func FloatRepr(f float64) string { return string(AppendFloatRepr(nil, f)) }

// AppendFloatRepr appends repr(f): the shortest string that round-trips,
// positional when the decimal exponent is in [-4, 16) (with ".0" when
// integral), otherwise d.ddde±XX; "inf", "-inf", "nan".
func AppendFloatRepr(b []byte, f float64) []byte {
	// Integers below 2**53 are exact and their neighbours at most 1 apart,
	// so no shorter text round-trips: repr is the digits plus ".0".
	if f == math.Trunc(f) && f > -(1<<53) && f < 1<<53 {
		if f == 0 && math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(strconv.AppendInt(b, int64(f), 10), '.', '0')
	}
	bits := math.Float64bits(f)
	// splitmix64's finalizer: decimal fractions have patterned mantissas
	// that a plain multiplicative hash maps onto few slots.
	h := bits ^ bits>>33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	set := floatReprCache[2*(h>>(64-floatReprCacheBits)):]
	c0, c1 := set[0].Load(), set[1].Load()
	if c0 != nil && c0.bits == bits {
		return append(b, c0.text[:c0.n]...)
	}
	if c1 != nil && c1.bits == bits {
		return append(b, c1.text[:c1.n]...)
	}
	n := len(b)
	b = appendFloatReprSlow(b, f)
	if t := b[n:]; len(t) <= len(floatText{}.text) {
		c := &floatText{bits: bits, n: uint8(len(t))}
		copy(c.text[:], t)
		// An empty way first; else the way the hash picks.
		switch {
		case c0 == nil:
			set[0].Store(c)
		case c1 == nil:
			set[1].Store(c)
		default:
			set[h&1].Store(c)
		}
	}
	return b
}

// floatReprCache remembers the repr of recently written non-integral
// floats, in two-way sets chosen by a hash of the bits: the states and
// results the backends print hold a few thousand distinct floats (prices,
// costs, rates) written over and over, and the shortest-digits search costs
// more than the look-up. Entries are replaced whole through atomic
// pointers, so any number of goroutines may share the cache.
var floatReprCache [2 << floatReprCacheBits]atomic.Pointer[floatText]

const floatReprCacheBits = 15

// floatText is the repr of the float with the given bits (at most 24
// bytes: "-2.2250738585072014e-308").
type floatText struct {
	bits uint64
	n    uint8
	text [24]byte
}

// appendFloatReprSlow is AppendFloatRepr without the integral fast path and
// the cache.
func appendFloatReprSlow(b []byte, f float64) []byte {
	if f != f {
		return append(b, "nan"...)
	}
	if math.IsInf(f, 1) {
		return append(b, "inf"...)
	}
	if math.IsInf(f, -1) {
		return append(b, "-inf"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	// e is [-]d[.ddd]e(+|-)dd[d]
	neg := false
	if e[0] == '-' {
		neg = true
		e = e[1:]
	}
	var digits [24]byte
	nd := 0
	p := 0
	for ; p < len(e) && e[p] != 'e'; p++ {
		if e[p] != '.' {
			digits[nd] = e[p]
			nd++
		}
	}
	exp := 0
	esign := 1
	p++ // skip 'e'
	if e[p] == '-' {
		esign = -1
	}
	p++
	for ; p < len(e); p++ {
		exp = exp*10 + int(e[p]-'0')
	}
	exp *= esign
	if neg {
		b = append(b, '-')
	}
	d := digits[:nd]
	if exp < -4 || exp >= 16 {
		b = append(b, d[0])
		if nd > 1 {
			b = append(b, '.')
			b = append(b, d[1:]...)
		}
		b = append(b, 'e')
		if exp < 0 {
			b = append(b, '-')
			exp = -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(exp), 10)
	}
	decpt := exp + 1
	switch {
	case decpt <= 0:
		b = append(b, '0', '.')
		for i := 0; i < -decpt; i++ {
			b = append(b, '0')
		}
		b = append(b, d...)
	case decpt >= nd:
		b = append(b, d...)
		for i := nd; i < decpt; i++ {
			b = append(b, '0')
		}
		b = append(b, '.', '0')
	default:
		b = append(b, d[:decpt]...)
		b = append(b, '.')
		b = append(b, d[decpt:]...)
	}
	return b
}
