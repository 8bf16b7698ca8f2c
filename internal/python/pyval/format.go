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
// conversions s r a d i u f F e E g G x X o c and "%%". Each conversion
// spec is parsed (parsePercentSpec, which also takes the "*" arguments and
// a mapping key's value), its argument fetched, converted (convertPercent)
// and padded (padPercent).
func FormatPercent(format string, args Value) (Value, error) {
	pa := newPercentArgs(args)
	var b strings.Builder
	i := 0
	for i < len(format) {
		if format[i] != '%' {
			j := strings.IndexByte(format[i:], '%')
			if j < 0 {
				b.WriteString(format[i:])
				break
			}
			b.WriteString(format[i : i+j])
			i += j
			continue
		}
		sp, next, err := parsePercentSpec(format, i+1, pa)
		if err != nil {
			return nil, err
		}
		i = next
		if sp.conv == '%' {
			b.WriteByte('%')
			continue
		}
		if sp.arg == nil {
			if sp.arg, err = pa.next(); err != nil {
				return nil, err
			}
		}
		body, sign, numeric, err := convertPercent(sp)
		if err != nil {
			return nil, err
		}
		b.WriteString(padPercent(sp, body, sign, numeric))
	}
	if pa.unconverted() {
		return nil, NewTypeError("not all arguments converted during string formatting")
	}
	return Str(b.String()), nil
}

// percentArgs are the right operand of %: the positional arguments (a
// tuple's items, else the one value) and the mapping (a dict operand).
type percentArgs struct {
	list        []Value
	mapping     *Dict
	isTuple     bool
	used        int  // positional arguments taken
	usedMapping bool // a "(key)" spec read the mapping
}

func newPercentArgs(args Value) *percentArgs {
	pa := &percentArgs{}
	switch x := args.(type) {
	case Tuple:
		pa.list, pa.isTuple = x, true
	case *Dict:
		pa.mapping = x
		pa.list = []Value{x}
	default:
		pa.list = []Value{args}
	}
	return pa
}

// next takes the next positional argument.
func (pa *percentArgs) next() (Value, error) {
	if pa.used >= len(pa.list) {
		return nil, NewTypeError("not enough arguments for format string")
	}
	v := pa.list[pa.used]
	pa.used++
	return v, nil
}

// unconverted reports CPython's "not all arguments converted": positional
// arguments left over, unless the operand was a mapping a key read (or a
// non-tuple mapping-like operand).
func (pa *percentArgs) unconverted() bool {
	return pa.used < len(pa.list) && !pa.usedMapping && (pa.isTuple || pa.mapping == nil)
}

// percentSpec is one parsed conversion spec: "%(key)flags width.prec conv".
type percentSpec struct {
	minus, plus, space, alt, zero bool
	width, prec                   int // -1: not given
	conv                          byte
	at                            int   // index of conv in the format, for errors
	arg                           Value // the mapping key's value; nil until fetched
}

// parsePercentSpec parses the spec that starts at format[i] (just after '%') and
// returns it with the index after its conversion character. A mapping key
// reads the mapping; "*" width and precision take their positional
// arguments, in CPython's order.
func parsePercentSpec(format string, i int, pa *percentArgs) (percentSpec, int, error) {
	sp := percentSpec{width: -1, prec: -1}
	if i >= len(format) {
		return sp, i, NewValueError("incomplete format")
	}
	if format[i] == '(' {
		v, next, err := mappingKey(format, i, pa)
		if err != nil {
			return sp, i, err
		}
		sp.arg, i = v, next
	}
flags:
	for i < len(format) {
		switch format[i] {
		case '-':
			sp.minus = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '#':
			sp.alt = true
		case '0':
			sp.zero = true
		default:
			break flags
		}
		i++
	}
	// starArg is the int argument a '*' width or precision takes.
	starArg := func() (int, error) {
		v, err := pa.next()
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
		if sp.width, err = starArg(); err != nil {
			return sp, i, err
		}
		if sp.width < 0 {
			sp.minus = true
			sp.width = -sp.width
		}
		i++
	} else {
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			if sp.width < 0 {
				sp.width = 0
			}
			sp.width = sp.width*10 + int(format[i]-'0')
			i++
		}
	}
	if i < len(format) && format[i] == '.' {
		i++
		sp.prec = 0
		if i < len(format) && format[i] == '*' {
			var err error
			if sp.prec, err = starArg(); err != nil {
				return sp, i, err
			}
			i++
		} else {
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				sp.prec = sp.prec*10 + int(format[i]-'0')
				i++
			}
		}
	}
	for i < len(format) && (format[i] == 'h' || format[i] == 'l' || format[i] == 'L') {
		i++
	}
	if i >= len(format) {
		return sp, i, NewValueError("incomplete format")
	}
	sp.conv, sp.at = format[i], i
	return sp, i + 1, nil
}

// mappingKey reads the "(key)" at format[i] (parentheses nest) and
// returns the mapping's value for it and the index after the key.
func mappingKey(format string, i int, pa *percentArgs) (Value, int, error) {
	if pa.mapping == nil {
		return nil, i, NewTypeError("format requires a mapping")
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
		return nil, i, NewValueError("incomplete format key")
	}
	key := format[i+1 : j-1]
	v, ok := pa.mapping.Get(Str(key))
	if !ok {
		return nil, i, NewKeyError(Str(key))
	}
	pa.usedMapping = true
	return v, j, nil
}

// convertPercent renders the spec's argument: the body (precision applied) and,
// for numeric conversions, the sign split off it for padding.
func convertPercent(sp percentSpec) (body, sign string, numeric bool, err error) {
	arg, prec := sp.arg, sp.prec
	switch sp.conv {
	case 's':
		body = StrOf(arg)
	case 'r':
		body = Repr(arg)
	case 'a':
		body = asciiRepr(Repr(arg))
	case 'd', 'i', 'u':
		n, err := percentInt(arg, sp.conv)
		if err != nil {
			return "", "", false, err
		}
		sign, body = splitSign(n.String())
		return zeroExtend(body, prec), sign, true, nil
	case 'x', 'X', 'o':
		n, err := percentInt(arg, sp.conv)
		if err != nil {
			return "", "", false, err
		}
		base := 16
		if sp.conv == 'o' {
			base = 8
		}
		sign, body = splitSign(n.Text(base))
		body = zeroExtend(body, prec)
		if sp.conv == 'X' {
			body = strings.ToUpper(body)
		}
		if sp.alt {
			switch sp.conv {
			case 'x':
				body = "0x" + body
			case 'X':
				body = "0X" + body
			default:
				body = "0o" + body
			}
		}
		return body, sign, true, nil
	case 'f', 'F', 'e', 'E', 'g', 'G':
		fv, err := percentFloat(arg)
		if err != nil {
			return "", "", false, err
		}
		if prec < 0 {
			prec = 6
		}
		sign, body = splitSign(formatFloatConv(fv, sp.conv, prec, sp.alt))
		return body, sign, true, nil
	case 'c':
		if body, err = percentChar(arg); err != nil {
			return "", "", false, err
		}
	default:
		return "", "", false, NewValueError("unsupported format character '%c' (0x%x) at index %d", rune(sp.conv), sp.conv, sp.at)
	}
	if prec >= 0 && sp.conv != 'c' {
		if r := []rune(body); len(r) > prec {
			body = string(r[:prec])
		}
	}
	return body, "", false, nil
}

// zeroExtend left-pads an integer's digits with zeros to prec digits.
func zeroExtend(digits string, prec int) string {
	if prec >= 0 && len(digits) < prec {
		return strings.Repeat("0", prec-len(digits)) + digits
	}
	return digits
}

// percentChar is %c: a one-character str, or an int code point.
func percentChar(arg Value) (string, error) {
	if x, ok := arg.(Str); ok {
		if len([]rune(string(x))) != 1 {
			return "", NewTypeError("%c requires int or char")
		}
		return string(x), nil
	}
	n, ok := asInt64(arg)
	if !ok {
		return "", NewTypeError("%c requires int or char")
	}
	if n < 0 || n > 0x10ffff {
		return "", NewOverflowError("%c arg not in range(0x110000)")
	}
	return string(rune(n)), nil
}

// padPercent applies sign flags and zero padding (numeric conversions), then the
// width.
func padPercent(sp percentSpec, body, sign string, numeric bool) string {
	if numeric {
		if sign == "" {
			if sp.plus {
				sign = "+"
			} else if sp.space {
				sign = " "
			}
		}
		if sp.zero && !sp.minus && sp.width > 0 {
			if n := sp.width - len(sign) - len(body); n > 0 {
				prefix := ""
				if sp.alt && (sp.conv == 'x' || sp.conv == 'X' || sp.conv == 'o') {
					prefix, body = body[:2], body[2:]
				}
				body = prefix + strings.Repeat("0", n) + body
			}
		}
		body = sign + body
	}
	if n := len([]rune(body)); sp.width > n {
		if sp.minus {
			return body + strings.Repeat(" ", sp.width-n)
		}
		return strings.Repeat(" ", sp.width-n) + body
	}
	return body
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
