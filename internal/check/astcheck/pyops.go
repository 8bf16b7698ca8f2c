package astcheck

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// This file holds the small pieces of Python semantics the checker relies
// on: `in`, len(), indexing, str.strip(), str.lower(), int() and float() of
// a string, and the character classes of Python's re module for str
// patterns (\s, \d, \w are Unicode-aware there, ASCII-only in Go's regexp).

// Character classes equivalent to Python re's \s, \d and \w on str.
const (
	reS = `[\t\n\v\f\r \x1c-\x1f\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`
	reD = `\p{Nd}`
	reW = `[\p{L}\p{N}_]`
	// reEnd is Python's `$` without MULTILINE: the end, or just before a
	// final newline.
	reEnd = `\n?\z`
)

func typeName(v pyval.Value) string {
	if v == nil {
		return "NoneType"
	}
	return v.TypeName()
}

// pyStripChars is str.strip(chars).
func pyStripChars(s, chars string) string { return strings.Trim(s, chars) }

// pySlice1 is s[1:-1] on code points.
func pySlice1(s string) string {
	if isASCII(s) {
		if len(s) <= 2 {
			return ""
		}
		return s[1 : len(s)-1]
	}
	r := []rune(s)
	if len(r) <= 2 {
		return ""
	}
	return string(r[1 : len(r)-1])
}

// pyDropLast is s[:-1] on code points.
func pyDropLast(s string) string {
	if s == "" {
		return ""
	}
	_, n := utf8.DecodeLastRuneInString(s)
	return s[:len(s)-n]
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// standardize is upstream's standardize_string: drop every space and
// , . / - _ * ^, lower-case, then turn ' into ".
func standardize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case ' ', ',', '.', '/', '-', '_', '*', '^':
			continue
		}
		b.WriteRune(r)
	}
	return strings.ReplaceAll(pyval.Lower(b.String()), "'", "\"")
}

// pyIn is Python's `x in container` for the containers a possible answer
// can hold.
func pyIn(x, container pyval.Value) (bool, error) {
	switch c := container.(type) {
	case *pyval.List:
		for _, e := range c.Items {
			if pyval.Equal(x, e) {
				return true, nil
			}
		}
		return false, nil
	case pyval.Tuple:
		for _, e := range c {
			if pyval.Equal(x, e) {
				return true, nil
			}
		}
		return false, nil
	case *pyval.Dict:
		if err := pyval.CheckHashable(x); err != nil {
			return false, err
		}
		return c.Has(x), nil
	case pyval.Str:
		s, ok := x.(pyval.Str)
		if !ok {
			return false, pyval.NewTypeError("'in <string>' requires string as left operand, not %s", typeName(x))
		}
		return strings.Contains(string(c), string(s)), nil
	}
	return false, pyval.NewTypeError("argument of type '%s' is not iterable", typeName(container))
}

// pyLen is len(v).
func pyLen(v pyval.Value) (int, error) {
	switch c := v.(type) {
	case *pyval.List:
		return len(c.Items), nil
	case pyval.Tuple:
		return len(c), nil
	case *pyval.Dict:
		return c.Len(), nil
	case pyval.Str:
		return utf8.RuneCountInString(string(c)), nil
	}
	return 0, pyval.NewTypeError("object of type '%s' has no len()", typeName(v))
}

// pyItems returns the items `for j in range(len(v)): v[j]` visits.
func pyItems(v pyval.Value) ([]pyval.Value, error) {
	switch c := v.(type) {
	case *pyval.List:
		return c.Items, nil
	case pyval.Tuple:
		return []pyval.Value(c), nil
	case pyval.Str:
		out := make([]pyval.Value, 0, len(c))
		for _, r := range string(c) {
			out = append(out, pyval.Str(string(r)))
		}
		return out, nil
	case *pyval.Dict:
		if c.Len() == 0 {
			return nil, nil
		}
		if v, ok := c.Get(pyval.Int(0)); ok {
			// Only reachable with int keys, which JSON cannot produce.
			return []pyval.Value{v}, nil
		}
		return nil, pyval.NewKeyError(pyval.Int(0))
	}
	_, err := pyLen(v)
	return nil, err
}

// pyIter returns what `for x in v` visits.
func pyIter(v pyval.Value) ([]pyval.Value, error) {
	switch c := v.(type) {
	case *pyval.Dict:
		return c.Keys(), nil
	case *pyval.List, pyval.Tuple, pyval.Str:
		return pyItems(c)
	}
	return nil, pyval.NewTypeError("'%s' object is not iterable", typeName(v))
}

// getItem is d[key] for a dict read from JSON, raising TypeError or
// KeyError as Python would.
func getItem(container pyval.Value, key string) (pyval.Value, error) {
	d, ok := container.(*pyval.Dict)
	if !ok {
		switch container.(type) {
		case *pyval.List, pyval.Tuple, pyval.Str:
			return nil, pyval.NewTypeError("%s indices must be integers or slices, not str", typeName(container))
		}
		return nil, pyval.NewTypeError("'%s' object is not subscriptable", typeName(container))
	}
	v, ok := d.GetStr(key)
	if !ok {
		return nil, pyval.NewKeyError(pyval.Str(key))
	}
	return v, nil
}

// getStrItem is getItem for a value that must be a str (a type name).
// A non-str type name fails the dict lookups upstream does with it; it is
// reported as the KeyError those lookups raise.
func getStrItem(container pyval.Value, key string) (string, pyval.Value, error) {
	v, err := getItem(container, key)
	if err != nil {
		return "", nil, err
	}
	s, _ := v.(pyval.Str)
	return string(s), v, nil
}

// digitValue returns the decimal value of a Unicode Nd character.
func digitValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	for _, rg := range unicode.Nd.R16 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	for _, rg := range unicode.Nd.R32 {
		if rune(rg.Lo) <= r && r <= rune(rg.Hi) {
			return int(r-rune(rg.Lo)) % 10
		}
	}
	return -1
}

// asciiDigits rewrites a run of Python digits (Unicode Nd, with single
// underscores between digits as PEP 515 allows) into ASCII digits. ok is
// false when s is empty or holds anything else.
func asciiDigits(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	var b strings.Builder
	prevUnderscore := true // a leading underscore is invalid
	for _, r := range s {
		if r == '_' {
			if prevUnderscore {
				return "", false
			}
			prevUnderscore = true
			continue
		}
		d := digitValue(r)
		if d < 0 || !unicode.Is(unicode.Nd, r) {
			return "", false
		}
		b.WriteByte(byte('0' + d))
		prevUnderscore = false
	}
	if prevUnderscore {
		return "", false
	}
	return b.String(), true
}

// pyInt is int(s) for a str: surrounding whitespace, a sign, decimal
// digits (any Unicode Nd) with PEP 515 underscores. ok is false where
// Python raises ValueError.
func pyInt(s string) (pyval.Value, bool) {
	s = pyval.Strip(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	digits, ok := asciiDigits(s)
	if !ok {
		return nil, false
	}
	if len(digits) < 18 {
		n, _ := strconv.ParseInt(digits, 10, 64)
		if neg {
			n = -n
		}
		return pyval.Int(n), true
	}
	z, _ := new(big.Int).SetString(digits, 10)
	if neg {
		z.Neg(z)
	}
	if z.IsInt64() {
		return pyval.Int(z.Int64()), true
	}
	return pyval.BigInt{V: z}, true
}

// pyFloat is float(s) for a str. ok is false where Python raises
// ValueError.
func pyFloat(s string) (float64, bool) {
	s = pyval.Strip(s)
	body := s
	neg := false
	if body != "" && (body[0] == '+' || body[0] == '-') {
		neg = body[0] == '-'
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if neg {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "nan":
		return math.NaN(), true
	}
	// mantissa [e exponent]
	mant, exp := body, ""
	if i := strings.IndexAny(body, "eE"); i >= 0 {
		mant, exp = body[:i], body[i+1:]
		if exp == "" {
			return 0, false
		}
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	var ip, fp string
	var ok bool
	if intPart != "" {
		if ip, ok = asciiDigits(intPart); !ok {
			return 0, false
		}
	}
	if frac != "" {
		if fp, ok = asciiDigits(frac); !ok {
			return 0, false
		}
	}
	if ip == "" && fp == "" {
		return 0, false
	}
	norm := ip
	if norm == "" {
		norm = "0"
	}
	if fp != "" {
		norm += "." + fp
	}
	if exp != "" {
		sign := ""
		if exp[0] == '+' || exp[0] == '-' {
			sign = exp[:1]
			exp = exp[1:]
		}
		ed, ok := asciiDigits(exp)
		if !ok {
			return 0, false
		}
		norm += "e" + sign + ed
	}
	f, err := strconv.ParseFloat(norm, 64)
	if err != nil {
		if ne, isNum := err.(*strconv.NumError); !isNum || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	if neg {
		f = -f
	}
	return f, true
}

// mustFloat is float(s) where the caller's regexp guarantees success.
func mustFloat(s string) pyval.Value {
	f, _ := pyFloat(s)
	return pyval.Float(f)
}

// pyIntOrError is int(s) where the caller's regexp normally guarantees
// success; a failure (a quirk the regexp lets through, such as "12n\n"
// for a JavaScript Bigint) is the ValueError Python raises.
func pyIntOrError(s string) (pyval.Value, error) {
	v, ok := pyInt(s)
	if !ok {
		return nil, pyval.NewValueError("invalid literal for int() with base 10: %s", pyval.Repr(pyval.Str(s)))
	}
	return v, nil
}
