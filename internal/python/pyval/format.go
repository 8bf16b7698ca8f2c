package pyval

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// FormatPercent is Python's printf-style `format % args` for str formats:
// flags "-+ #0", width and precision (also "*"), mapping keys "(name)",
// conversions s r a d i u f F e E g G x X o c and "%%".
func FormatPercent(format string, args Value) (Value, error) {
	var list []Value
	var mapping *Dict
	switch x := args.(type) {
	case Tuple:
		list = x
	case *Dict:
		mapping = x
		list = []Value{x}
	default:
		list = []Value{args}
	}
	_, isTuple := args.(Tuple)
	argi := 0
	next := func() (Value, error) {
		if argi >= len(list) {
			return nil, NewTypeError("not enough arguments for format string")
		}
		v := list[argi]
		argi++
		return v, nil
	}
	usedMapping := false
	var b strings.Builder
	i := 0
	for i < len(format) {
		c := format[i]
		if c != '%' {
			j := strings.IndexByte(format[i:], '%')
			if j < 0 {
				b.WriteString(format[i:])
				break
			}
			b.WriteString(format[i : i+j])
			i += j
			continue
		}
		start := i
		i++
		if i >= len(format) {
			return nil, NewValueError("incomplete format")
		}
		var arg Value
		if format[i] == '(' {
			if mapping == nil {
				return nil, NewTypeError("format requires a mapping")
			}
			depth := 1
			j := i + 1
			for j < len(format) && depth > 0 {
				if format[j] == '(' {
					depth++
				} else if format[j] == ')' {
					depth--
				}
				j++
			}
			if depth > 0 {
				return nil, NewValueError("incomplete format key")
			}
			key := format[i+1 : j-1]
			v, ok := mapping.Get(Str(key))
			if !ok {
				return nil, NewKeyError(Str(key))
			}
			arg = v
			usedMapping = true
			i = j
		}
		var minus, plus, space, alt, zero bool
	flags:
		for i < len(format) {
			switch format[i] {
			case '-':
				minus = true
			case '+':
				plus = true
			case ' ':
				space = true
			case '#':
				alt = true
			case '0':
				zero = true
			default:
				break flags
			}
			i++
		}
		width, prec := -1, -1
		// starArg is the int argument a '*' width or precision takes.
		starArg := func() (int, error) {
			v, err := next()
			if err != nil {
				return 0, err
			}
			n, ok := asInt64(v)
			if !ok {
				return 0, NewTypeError("* wants int")
			}
			return int(n), nil
		}
		if i < len(format) && format[i] == '*' {
			var err error
			if width, err = starArg(); err != nil {
				return nil, err
			}
			if width < 0 {
				minus = true
				width = -width
			}
			i++
		} else {
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				if width < 0 {
					width = 0
				}
				width = width*10 + int(format[i]-'0')
				i++
			}
		}
		if i < len(format) && format[i] == '.' {
			i++
			prec = 0
			if i < len(format) && format[i] == '*' {
				var err error
				if prec, err = starArg(); err != nil {
					return nil, err
				}
				i++
			} else {
				for i < len(format) && format[i] >= '0' && format[i] <= '9' {
					prec = prec*10 + int(format[i]-'0')
					i++
				}
			}
		}
		for i < len(format) && (format[i] == 'h' || format[i] == 'l' || format[i] == 'L') {
			i++
		}
		if i >= len(format) {
			return nil, NewValueError("incomplete format")
		}
		conv := format[i]
		i++
		if conv == '%' {
			b.WriteByte('%')
			continue
		}
		if arg == nil {
			v, err := next()
			if err != nil {
				return nil, err
			}
			arg = v
		}
		var body, sign string
		numeric := false
		switch conv {
		case 's':
			body = StrOf(arg)
		case 'r':
			body = Repr(arg)
		case 'a':
			body = asciiRepr(Repr(arg))
		case 'd', 'i', 'u':
			n, err := percentInt(arg, conv)
			if err != nil {
				return nil, err
			}
			numeric = true
			sign, body = splitSign(n.String())
			if prec >= 0 && len(body) < prec {
				body = strings.Repeat("0", prec-len(body)) + body
			}
		case 'x', 'X', 'o':
			n, err := percentInt(arg, conv)
			if err != nil {
				return nil, err
			}
			numeric = true
			base := 16
			if conv == 'o' {
				base = 8
			}
			sign, body = splitSign(n.Text(base))
			if prec >= 0 && len(body) < prec {
				body = strings.Repeat("0", prec-len(body)) + body
			}
			if conv == 'X' {
				body = strings.ToUpper(body)
			}
			if alt {
				switch conv {
				case 'x':
					body = "0x" + body
				case 'X':
					body = "0X" + body
				default:
					body = "0o" + body
				}
			}
		case 'f', 'F', 'e', 'E', 'g', 'G':
			fv, err := percentFloat(arg)
			if err != nil {
				return nil, err
			}
			numeric = true
			if prec < 0 {
				prec = 6
			}
			sign, body = splitSign(formatFloatConv(fv, conv, prec, alt))
		case 'c':
			switch x := arg.(type) {
			case Str:
				if len([]rune(string(x))) != 1 {
					return nil, NewTypeError("%c requires int or char")
				}
				body = string(x)
			default:
				n, ok := asInt64(arg)
				if !ok || n < 0 || n > 0x10ffff {
					if !ok {
						return nil, NewTypeError("%c requires int or char")
					}
					return nil, NewOverflowError("%c arg not in range(0x110000)")
				}
				body = string(rune(n))
			}
		default:
			return nil, NewValueError("unsupported format character '%c' (0x%x) at index %d", rune(conv), conv, i-1)
		}
		_ = start
		if !numeric && prec >= 0 && (conv == 's' || conv == 'r' || conv == 'a') {
			r := []rune(body)
			if len(r) > prec {
				body = string(r[:prec])
			}
		}
		if numeric {
			if sign == "" {
				if plus {
					sign = "+"
				} else if space {
					sign = " "
				}
			}
			if zero && !minus && width > 0 {
				pad := width - len(sign) - len(body)
				if pad > 0 {
					prefix := ""
					if alt && (conv == 'x' || conv == 'X' || conv == 'o') {
						prefix, body = body[:2], body[2:]
					}
					body = prefix + strings.Repeat("0", pad) + body
				}
			}
			body = sign + body
		}
		n := len([]rune(body))
		if width > n {
			if minus {
				body += strings.Repeat(" ", width-n)
			} else {
				body = strings.Repeat(" ", width-n) + body
			}
		}
		b.WriteString(body)
	}
	if argi < len(list) && !usedMapping && (isTuple || mapping == nil) {
		return nil, NewTypeError("not all arguments converted during string formatting")
	}
	return Str(b.String()), nil
}

func splitSign(s string) (string, string) {
	if strings.HasPrefix(s, "-") {
		return "-", s[1:]
	}
	return "", s
}

func asciiRepr(s string) string {
	var b []byte
	for _, r := range s {
		switch {
		case r < 0x80:
			b = append(b, byte(r))
		default:
			b = appendUEscape(b, r)
		}
	}
	return string(b)
}

func percentInt(v Value, conv byte) (*big.Int, error) {
	switch x := v.(type) {
	case Int, Bool, BigInt:
		return toBig(v), nil
	case Float:
		if conv == 'x' || conv == 'X' || conv == 'o' {
			return nil, NewTypeError("%" + string(conv) + " format: an integer is required, not float")
		}
		iv, err := ToInt(x)
		if err != nil {
			return nil, err
		}
		return toBig(iv), nil
	}
	if conv == 'x' || conv == 'X' || conv == 'o' {
		return nil, NewTypeError("%" + string(conv) + " format: an integer is required, not " + v.TypeName())
	}
	return nil, NewTypeError("%" + string(conv) + " format: a real number is required, not " + v.TypeName())
}

func percentFloat(v Value) (float64, error) {
	switch v.(type) {
	case Int, Bool, BigInt, Float:
		return asFloat(v)
	}
	return 0, NewTypeError("must be real number, not " + v.TypeName())
}

// formatFloatConv formats like C's %f/%e/%g with Python's inf/nan words.
func formatFloatConv(f float64, conv byte, prec int, alt bool) string {
	upper := conv == 'F' || conv == 'E' || conv == 'G'
	if math.IsInf(f, 0) || math.IsNaN(f) {
		s := "inf"
		if math.IsNaN(f) {
			s = "nan"
		} else if f < 0 {
			s = "-inf"
		}
		if upper {
			s = strings.ToUpper(s)
		}
		return s
	}
	var s string
	switch conv {
	case 'f', 'F':
		s = strconv.FormatFloat(f, 'f', prec, 64)
	case 'e', 'E':
		s = strconv.FormatFloat(f, 'e', prec, 64)
	default:
		p := prec
		if p == 0 {
			p = 1
		}
		// C %g: exponent form when exp < -4 or exp >= p.
		e := strconv.FormatFloat(f, 'e', p-1, 64)
		ei := strings.IndexByte(e, 'e')
		exp, _ := strconv.Atoi(e[ei+1:])
		if exp < -4 || exp >= p {
			mant := e[:ei]
			if !alt && strings.Contains(mant, ".") {
				mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
			}
			s = mant + e[ei:]
		} else {
			s = strconv.FormatFloat(f, 'f', p-1-exp, 64)
			if !alt && strings.Contains(s, ".") {
				s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
			}
		}
	}
	if alt && !strings.Contains(s, ".") {
		// "#": the decimal point stays even without digits after it.
		if ei := strings.IndexByte(s, 'e'); ei >= 0 {
			s = s[:ei] + "." + s[ei:]
		} else {
			s += "."
		}
	}
	if upper {
		s = strings.ToUpper(s)
	}
	return s
}

// FormatFields is tmpl.format(**fields) for templates whose replacement
// fields are bare names ("{name}", no conversion, format spec, index or
// attribute): each is replaced by str(value) in one pass (substituted text
// is not scanned again), "{{" and "}}" are literal braces. The errors are
// CPython's: KeyError for a name not in fields, ValueError for an unpaired
// brace. A field this model does not reproduce is a Go error naming it.
func FormatFields(tmpl string, fields map[string]Value) (string, error) {
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		switch {
		case c == '{' && i+1 < len(tmpl) && tmpl[i+1] == '{':
			b.WriteByte('{')
			i++
		case c == '}' && i+1 < len(tmpl) && tmpl[i+1] == '}':
			b.WriteByte('}')
			i++
		case c == '{':
			if i+1 == len(tmpl) {
				return "", NewValueError("Single '{' encountered in format string")
			}
			end := strings.IndexByte(tmpl[i:], '}')
			if end < 0 {
				return "", NewValueError("expected '}' before end of string")
			}
			name := tmpl[i+1 : i+end]
			if name == "" || strings.ContainsAny(name, "!:.[{") || (name[0] >= '0' && name[0] <= '9') {
				return "", fmt.Errorf("pyval: str.format field {%s} is not reproduced", name)
			}
			v, ok := fields[name]
			if !ok {
				return "", NewKeyError(Str(name))
			}
			b.WriteString(StrOf(v))
			i += end
		case c == '}':
			return "", NewValueError("Single '}' encountered in format string")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
