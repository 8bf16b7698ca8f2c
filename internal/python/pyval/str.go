package pyval

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lower is CPython's str.lower (Objects/unicodeobject.c, do_lower and
// handle_capital_sigma): the Unicode default lowercase mapping per code
// point, plus the two cases where Go's strings.ToLower differs — U+0130
// becomes "i̇" (SpecialCasing's unconditional entry) and a capital sigma in
// Final_Sigma context becomes ς.
func Lower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s))
	for i, r := range rs {
		switch {
		case r < 0x80:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteRune(r)
		case r == 0x130: // LATIN CAPITAL LETTER I WITH DOT ABOVE
			b.WriteString("i\u0307")
		case r == 0x3A3: // GREEK CAPITAL LETTER SIGMA
			if finalSigma(rs, i) {
				b.WriteRune(0x3C2)
			} else {
				b.WriteRune(0x3C3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is the Final_Sigma condition as CPython's handle_capital_sigma
// tests it: a cased character before position i and none after it, skipping
// case-ignorable characters on both sides.
func finalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && caseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !cased(rs[j]) {
		return false
	}
	k := i + 1
	for k < len(rs) && caseIgnorable(rs[k]) {
		k++
	}
	return k == len(rs) || !cased(rs[k])
}

// cased is Unicode's Cased property (DerivedCoreProperties.txt): Lowercase,
// Uppercase or Lt.
func cased(r rune) bool {
	return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable is Unicode's Case_Ignorable property: Mn, Me, Cf, Lm, Sk and
// the Word_Break classes MidLetter, MidNumLet and Single_Quote.
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', 0xB7, 0x387, 0x55F, 0x5F4, 0x2018, 0x2019, 0x2024, 0x2027,
		0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// NoAttribute is the AttributeError of v.name: "'T' object has no attribute
// 'name'".
func NoAttribute(v Value, name string) *Exception {
	return NewAttributeError("'%s' object has no attribute '%s'", v.TypeName(), name)
}

// StrMethod is the receiver of v.method(...) for a str method: the string,
// or the AttributeError Python raises when v is not a str.
func StrMethod(v Value, method string) (string, error) {
	if s, ok := v.(Str); ok {
		return string(s), nil
	}
	return "", NoAttribute(v, method)
}

// IsSpace is str.isspace for one code point: Unicode White_Space plus the
// separators U+001C..U+001F that CPython also counts.
func IsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1C && r <= 0x1F)
}

// Split is str.split() without arguments: runs of whitespace separate the
// fields, and leading or trailing whitespace yields none.
func Split(s string) []string { return strings.FieldsFunc(s, IsSpace) }

// SplitLines is str.splitlines() without keepends: CPython's line
// boundaries are \n, \r, \r\n, \v, \f, U+001C..U+001E, U+0085, U+2028 and
// U+2029.
func SplitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '\n', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
			out = append(out, s[start:i])
			i += w
			start = i
			continue
		case '\r':
			out = append(out, s[start:i])
			i += w
			if i < len(s) && s[i] == '\n' {
				i++
			}
			start = i
			continue
		}
		i += w
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// Join is sep.join(items) with Python's TypeError for an item that is not a
// str.
func Join(sep string, items []Value) (string, error) {
	var b strings.Builder
	for i, it := range items {
		s, ok := it.(Str)
		if !ok {
			return "", NewTypeError("sequence item %d: expected str instance, %s found", i, it.TypeName())
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(string(s))
	}
	return b.String(), nil
}

// Strip is str.strip() without arguments: leading and trailing whitespace
// (IsSpace) removed.
func Strip(s string) string { return strings.TrimFunc(s, IsSpace) }

// IsWord is re's \w for str patterns: str.isalnum() or "_" (letters and the
// Unicode number categories Nd, Nl, No).
func IsWord(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) }

// StrLen is len(s) for a str: its code points, a lone surrogate (held as its
// 3-byte WTF-8 form) counting as one.
func StrLen(s string) int {
	n := 0
	for i := 0; i < len(s); n++ {
		if _, ok := isSurrogateSeq(s[i:]); ok {
			i += 3
			continue
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return n
}
