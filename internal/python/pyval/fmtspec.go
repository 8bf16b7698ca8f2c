package pyval

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Formatter is implemented by Objects with their own __format__.
type Formatter interface {
	PyFormat(spec string) (string, error)
}

type fmtSpec struct {
	fill     rune
	align    byte
	sign     byte
	alt      bool
	zero     bool
	width    int
	grouping byte
	prec     int
	typ      byte
}

func parseSpec(spec string) (fmtSpec, error) {
	fs := fmtSpec{fill: ' ', prec: -1}
	s := spec
	isAlign := func(c byte) bool { return c == '<' || c == '>' || c == '^' || c == '=' }
	if r, size := utf8.DecodeRuneInString(s); size > 0 && size < len(s) && isAlign(s[size]) {
		fs.fill, fs.align = r, s[size]
		s = s[size+1:]
	} else if len(s) > 0 && isAlign(s[0]) {
		fs.align = s[0]
		s = s[1:]
	}
	if len(s) > 0 && (s[0] == '+' || s[0] == '-' || s[0] == ' ') {
		fs.sign = s[0]
		s = s[1:]
	}
	if len(s) > 0 && s[0] == 'z' {
		s = s[1:]
	}
	if len(s) > 0 && s[0] == '#' {
		fs.alt = true
		s = s[1:]
	}
	if len(s) > 0 && s[0] == '0' {
		fs.zero = true
		s = s[1:]
	}
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n > 0 {
		fs.width, _ = strconv.Atoi(s[:n])
		s = s[n:]
	}
	if len(s) > 0 && (s[0] == ',' || s[0] == '_') {
		fs.grouping = s[0]
		s = s[1:]
	}
	if len(s) > 0 && s[0] == '.' {
		n = 1
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n == 1 {
			return fs, NewValueError("Format specifier missing precision")
		}
		fs.prec, _ = strconv.Atoi(s[1:n])
		s = s[n:]
	}
	if len(s) > 1 {
		return fs, NewValueError("Invalid format specifier '" + spec + "' for object of type '%s'")
	}
	if len(s) == 1 {
		fs.typ = s[0]
	}
	return fs, nil
}

// Format is Python's format(v, spec) for str, int, bool, float and None
// (the format-spec mini-language), and Objects implementing Formatter.
func Format(v Value, spec string) (string, error) {
	if f, ok := v.(Formatter); ok {
		return f.PyFormat(spec)
	}
	if spec == "" {
		return StrOf(v), nil
	}
	fs, err := parseSpec(spec)
	if err != nil {
		if e, ok := err.(*Exception); ok && strings.Contains(e.Msg, "%s") {
			e.Msg = strings.Replace(e.Msg, "%s", v.TypeName(), 1)
		}
		return "", err
	}
	unknown := func() (string, error) {
		return "", NewValueError("Unknown format code '" + string(fs.typ) + "' for object of type '" + v.TypeName() + "'")
	}
	switch x := v.(type) {
	case Str:
		if fs.typ != 0 && fs.typ != 's' {
			return unknown()
		}
		if fs.sign != 0 {
			return "", NewValueError("Sign not allowed in string format specifier")
		}
		if fs.align == '=' {
			return "", NewValueError("'=' alignment not allowed in string format specifier")
		}
		s := string(x)
		if fs.prec >= 0 {
			r := []rune(s)
			if len(r) > fs.prec {
				s = string(r[:fs.prec])
			}
		}
		if fs.align == 0 {
			fs.align = '<'
		}
		return pad(s, "", fs), nil
	case Bool, Int, BigInt:
		if fs.typ == 0 && isBoolValue(v) {
			// bool with a non-empty spec formats as int only if a numeric
			// spec is used; plain alignment formats str(True).
			if fs.sign == 0 && !fs.alt && !fs.zero && fs.grouping == 0 {
				return pad(StrOf(v), "", withAlign(fs, '<')), nil
			}
		}
		switch fs.typ {
		case 0, 'd', 'n', 'b', 'o', 'x', 'X', 'c':
			if fs.prec >= 0 {
				return "", NewValueError("Precision not allowed in integer format specifier")
			}
			return formatInt(toBig(v), fs)
		case 'e', 'E', 'f', 'F', 'g', 'G', '%':
			f, err := asFloat(v)
			if err != nil {
				return "", err
			}
			return formatFloatSpec(f, fs)
		}
		return unknown()
	case Float:
		switch fs.typ {
		case 0, 'e', 'E', 'f', 'F', 'g', 'G', '%', 'n':
			return formatFloatSpec(float64(x), fs)
		}
		return unknown()
	case NoneType:
		return "", NewTypeError("unsupported format string passed to NoneType.__format__")
	}
	return "", NewTypeError("unsupported format string passed to " + v.TypeName() + ".__format__")
}

func isBoolValue(v Value) bool {
	_, ok := v.(Bool)
	return ok
}

func withAlign(fs fmtSpec, a byte) fmtSpec {
	if fs.align == 0 {
		fs.align = a
	}
	return fs
}

func group(digits string, sep byte, every int) string {
	if sep == 0 || len(digits) <= every {
		return digits
	}
	var b []byte
	first := len(digits) % every
	if first > 0 {
		b = append(b, digits[:first]...)
	}
	for i := first; i < len(digits); i += every {
		if len(b) > 0 {
			b = append(b, sep)
		}
		b = append(b, digits[i:i+every]...)
	}
	return string(b)
}

func formatInt(n *big.Int, fs fmtSpec) (string, error) {
	neg := n.Sign() < 0
	a := new(big.Int).Abs(n)
	var digits, prefix string
	every := 3
	switch fs.typ {
	case 'b':
		digits, prefix, every = a.Text(2), "0b", 4
	case 'o':
		digits, prefix, every = a.Text(8), "0o", 4
	case 'x':
		digits, prefix, every = a.Text(16), "0x", 4
	case 'X':
		digits, prefix, every = strings.ToUpper(a.Text(16)), "0X", 4
	case 'c':
		if !n.IsInt64() || n.Int64() < 0 || n.Int64() > 0x10ffff {
			return "", NewOverflowError("%c arg not in range(0x110000)")
		}
		return pad(string(rune(n.Int64())), "", withAlign(fs, '<')), nil
	default:
		digits = a.Text(10)
	}
	if !fs.alt {
		prefix = ""
	}
	digits = group(digits, fs.grouping, every)
	return padNumber(fs.signOf(neg)+prefix, digits, fs), nil
}

func formatFloatSpec(f float64, fs fmtSpec) (string, error) {
	neg := math.Signbit(f) && !math.IsNaN(f)
	a := math.Abs(f)
	var body string
	switch {
	case math.IsInf(a, 0):
		body = "inf"
		if fs.typ == 'E' || fs.typ == 'F' || fs.typ == 'G' {
			body = "INF"
		}
		if fs.typ == '%' {
			body += "%"
		}
	case math.IsNaN(a):
		body = "nan"
		if fs.typ == 'E' || fs.typ == 'F' || fs.typ == 'G' {
			body = "NAN"
		}
	default:
		switch fs.typ {
		case 'f', 'F':
			p := fs.prec
			if p < 0 {
				p = 6
			}
			body = strconv.FormatFloat(a, 'f', p, 64)
		case 'e', 'E':
			p := fs.prec
			if p < 0 {
				p = 6
			}
			body = strconv.FormatFloat(a, 'e', p, 64)
		case '%':
			p := fs.prec
			if p < 0 {
				p = 6
			}
			body = strconv.FormatFloat(a*100, 'f', p, 64) + "%"
		case 'g', 'G', 'n':
			p := fs.prec
			if p < 0 {
				p = 6
			}
			body = formatFloatConv(a, 'g', p, fs.alt)
		default: // no type
			if fs.prec < 0 {
				body = FloatRepr(a)
			} else {
				p := fs.prec
				if p == 0 {
					p = 1
				}
				body = formatFloatConv(a, 'g', p, fs.alt)
				if !strings.ContainsAny(body, ".e") {
					body += ".0"
				}
			}
		}
		if fs.typ == 'E' || fs.typ == 'G' {
			body = strings.ToUpper(body)
		}
		if fs.alt && !strings.Contains(body, ".") {
			if i := strings.IndexAny(body, "eE%"); i >= 0 {
				body = body[:i] + "." + body[i:]
			} else {
				body += "."
			}
		}
		if fs.grouping != 0 {
			intEnd := strings.IndexAny(body, ".eE%")
			if intEnd < 0 {
				intEnd = len(body)
			}
			body = group(body[:intEnd], fs.grouping, 3) + body[intEnd:]
		}
	}
	return padNumber(fs.signOf(neg), body, fs), nil
}

// padNumber applies width/fill/alignment to a number, honouring the '0'
// flag and '=' alignment (padding between sign and digits).
func padNumber(prefix, digits string, fs fmtSpec) string {
	if fs.zero && fs.align == 0 {
		fs.fill, fs.align = '0', '='
	}
	if fs.align == 0 {
		fs.align = '>'
	}
	if fs.align == '=' {
		n := utf8.RuneCountInString(prefix) + utf8.RuneCountInString(digits)
		if fs.width > n {
			return prefix + strings.Repeat(string(fs.fill), fs.width-n) + digits
		}
		return prefix + digits
	}
	return pad(prefix+digits, "", fs)
}

func pad(s, _ string, fs fmtSpec) string {
	n := utf8.RuneCountInString(s)
	if fs.width <= n {
		return s
	}
	fill := string(fs.fill)
	total := fs.width - n
	switch fs.align {
	case '<':
		return s + strings.Repeat(fill, total)
	case '^':
		left := total / 2
		return strings.Repeat(fill, left) + s + strings.Repeat(fill, total-left)
	}
	return strings.Repeat(fill, total) + s
}

// signOf is the sign a number formatted with fs shows: "-" for a negative
// one, else "+" or " " as the spec's sign option asks ("" by default).
func (fs fmtSpec) signOf(neg bool) string {
	switch {
	case neg:
		return "-"
	case fs.sign == '+':
		return "+"
	case fs.sign == ' ':
		return " "
	}
	return ""
}
