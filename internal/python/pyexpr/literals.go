package pyexpr

import (
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// parseNumber converts a NUMBER token's text; it returns a message for
// forms the value model cannot hold (complex literals).
func parseNumber(text string) (pyval.Value, string) {
	if len(text) <= 18 && text[0] != '0' || text == "0" {
		// Up to 18 decimal digits, no leading zero: an int64 as it is.
		n := int64(0)
		i := 0
		for ; i < len(text) && text[i] >= '0' && text[i] <= '9'; i++ {
			n = n*10 + int64(text[i]-'0')
		}
		if i == len(text) {
			return pyval.Int(n), ""
		}
	}
	last := text[len(text)-1]
	if last == 'j' || last == 'J' {
		return nil, "complex literals are not supported"
	}
	clean := text
	if strings.IndexByte(text, '_') >= 0 {
		clean = strings.ReplaceAll(text, "_", "")
	}
	if len(clean) > 1 && clean[0] == '0' {
		base := 0
		switch clean[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			digits := clean[2:]
			if n, err := strconv.ParseInt(digits, base, 64); err == nil {
				return pyval.Int(n), ""
			}
			b, _ := new(big.Int).SetString(digits, base)
			return pyval.NormBig(b), ""
		}
	}
	if strings.IndexByte(clean, '.') >= 0 || strings.IndexByte(clean, 'e') >= 0 || strings.IndexByte(clean, 'E') >= 0 {
		f, err := strconv.ParseFloat(clean, 64)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
				return nil, "invalid decimal literal"
			}
		}
		return pyval.Float(f), ""
	}
	if n, err := strconv.ParseInt(clean, 10, 64); err == nil {
		return pyval.Int(n), ""
	}
	b, ok := new(big.Int).SetString(clean, 10)
	if !ok {
		return nil, "invalid decimal literal"
	}
	return pyval.NormBig(b), ""
}

type strPiece struct {
	raw, bytes, fstr, u bool
	body                string
	bodyOff             int
	line                int
}

func splitString(src string, t *token) strPiece {
	s := src[t.start:t.end]
	q := strings.IndexAny(s, `'"`)
	prefix := strings.ToLower(s[:q])
	quote := s[q]
	n := 1
	if len(s)-q >= 6 && s[q+1] == quote && s[q+2] == quote {
		n = 3
	}
	return strPiece{
		raw:     strings.IndexByte(prefix, 'r') >= 0,
		bytes:   strings.IndexByte(prefix, 'b') >= 0,
		fstr:    strings.IndexByte(prefix, 'f') >= 0,
		u:       prefix == "u",
		body:    s[q+n : len(s)-n],
		bodyOff: t.start + q + n,
		line:    t.line,
	}
}

func kindOf(p strPiece) string {
	if p.u {
		return "u"
	}
	return ""
}

// decodePieces is the concatenation of adjacent literals without
// f-strings: each piece's body decoded (a decoding error is a syntax error
// at the piece's line).
func (p *parser) decodePieces(pieces []strPiece, decode func(body string, raw bool) (string, string)) string {
	var b strings.Builder
	for _, pc := range pieces {
		b.WriteString(p.decoded(decode, pc.body, pc))
	}
	return b.String()
}

// decoded is decode(body) for (a part of) the body of piece pc; a decoding
// error is a syntax error at pc's line.
func (p *parser) decoded(decode func(body string, raw bool) (string, string), body string, pc strPiece) string {
	s, err := decode(body, pc.raw)
	if err != "" {
		p.failMsg(err, pc.line)
	}
	return s
}

// strings parses one or more adjacent string literals.
func (p *parser) strings() Expr {
	first := p.peek()
	start := first.start
	if n := p.peekAt(1); n.kind != tkString && n.kind != tkError {
		// One literal: its body decoded, without a piece list.
		pc := splitString(p.src, first)
		if !pc.bytes && !pc.fstr {
			p.advance()
			return &Constant{Span: Span{start, first.end}, Value: pyval.Str(p.decoded(decodeStr, pc.body, pc)), Kind: kindOf(pc)}
		}
	}
	var pieces []strPiece
	for p.peek().kind == tkString {
		pieces = append(pieces, splitString(p.src, p.peek()))
		p.advance()
	}
	end := p.prevEnd()
	isBytes := pieces[0].bytes
	hasF := false
	for _, pc := range pieces {
		if pc.bytes != isBytes {
			p.failMsg("cannot mix bytes and nonbytes literals", first.line)
		}
		hasF = hasF || pc.fstr
	}
	if isBytes {
		return &Constant{Span: Span{start, end}, Value: pyval.Bytes(p.decodePieces(pieces, decodeBytes))}
	}
	if !hasF {
		return &Constant{Span: Span{start, end}, Value: pyval.Str(p.decodePieces(pieces, decodeStr)), Kind: kindOf(pieces[0])}
	}
	js := &JoinedStr{Span: Span{start, end}}
	var lit strings.Builder
	flush := func(off int) {
		if lit.Len() > 0 {
			js.Parts = append(js.Parts, &Constant{Span: Span{off, off}, Value: pyval.Str(lit.String())})
			lit.Reset()
		}
	}
	for _, pc := range pieces {
		if !pc.fstr {
			lit.WriteString(p.decoded(decodeStr, pc.body, pc))
			continue
		}
		p.fstring(pc, js, &lit, flush)
	}
	flush(end)
	return js
}

// fstring splits an f-string body into literal text and replacement
// fields.
func (p *parser) fstring(pc strPiece, js *JoinedStr, lit *strings.Builder, flush func(int)) {
	body := pc.body
	i := 0
	litStart := 0
	emitLit := func(upto int) {
		if upto > litStart {
			lit.WriteString(p.decoded(decodeStr, body[litStart:upto], pc))
		}
	}
	// doubledBrace takes "{{" or "}}" at i as one literal brace.
	doubledBrace := func(c byte) bool {
		if i+1 >= len(body) || body[i+1] != c {
			return false
		}
		emitLit(i)
		lit.WriteByte(c)
		i += 2
		litStart = i
		return true
	}
	for i < len(body) {
		c := body[i]
		switch c {
		case '{':
			if doubledBrace('{') {
				continue
			}
			emitLit(i)
			fv, next, selfDoc := p.fstringField(pc, i)
			if selfDoc != "" {
				lit.WriteString(selfDoc)
			}
			flush(pc.bodyOff + i)
			js.Parts = append(js.Parts, fv)
			i = next
			litStart = i
		case '}':
			if doubledBrace('}') {
				continue
			}
			p.failMsg("f-string: single '}' is not allowed", pc.line)
		case '\\':
			i += 2
		default:
			i++
		}
	}
	emitLit(len(body))
}

// fstringField parses the replacement field starting at body[open] == '{'.
// It returns the field, the index after its closing '}', and the literal
// "expr=" text of a self-documenting field.
func (p *parser) fstringField(pc strPiece, open int) (*FormattedValue, int, string) {
	body := pc.body
	depth := 0
	i := open + 1
	exprEnd := -1
	var quote byte
	for ; i < len(body); i++ {
		c := body[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case '\'', '"':
			quote = c
		case '(', '[', '{':
			depth++
		case ')', ']':
			depth--
		case '}':
			if depth == 0 {
				exprEnd = i
			} else {
				depth--
			}
		case '!':
			if depth == 0 && (i+1 >= len(body) || body[i+1] != '=') {
				exprEnd = i
			}
		case ':':
			if depth == 0 {
				exprEnd = i
			}
		case '=':
			if depth == 0 && i+1 < len(body) && body[i+1] != '=' && i > open+1 &&
				!strings.ContainsRune("=!<>", rune(body[i-1])) {
				// self-documenting "expr=" when followed by } ! or :
				j := i + 1
				for j < len(body) && body[j] == ' ' {
					j++
				}
				if j < len(body) && (body[j] == '}' || body[j] == '!' || body[j] == ':') {
					exprEnd = i
				}
			}
		}
		if exprEnd >= 0 {
			break
		}
	}
	if exprEnd < 0 {
		p.failMsg("f-string: expecting '}'", pc.line)
	}
	exprText := body[open+1 : exprEnd]
	if strings.TrimSpace(exprText) == "" {
		p.failMsg("f-string: valid expression required before '}'", pc.line)
	}
	inner, err := Parse("(" + exprText + ")")
	if err != nil {
		panic(parseError{exc: err.(*pyval.Exception)})
	}
	fv := &FormattedValue{Value: inner}
	i = exprEnd
	selfDoc := ""
	if body[i] == '=' {
		selfDoc = exprText + "="
		i++
		for i < len(body) && body[i] == ' ' {
			selfDoc += " "
			i++
		}
		fv.Conversion = 'r'
	}
	if i < len(body) && body[i] == '!' {
		if i+1 >= len(body) {
			p.failMsg("f-string: expecting '}'", pc.line)
		}
		switch body[i+1] {
		case 's', 'r', 'a':
			fv.Conversion = body[i+1]
		default:
			p.failMsg("f-string: invalid conversion character: expected 's', 'r', or 'a'", pc.line)
		}
		i += 2
	}
	if i < len(body) && body[i] == ':' {
		if selfDoc != "" && fv.Conversion == 'r' {
			fv.Conversion = 0
		}
		// spec runs to the matching '}' and may hold nested fields
		specStart := i + 1
		d := 0
		j := specStart
		for ; j < len(body); j++ {
			if body[j] == '{' {
				d++
			} else if body[j] == '}' {
				if d == 0 {
					break
				}
				d--
			}
		}
		if j >= len(body) {
			p.failMsg("f-string: expecting '}'", pc.line)
		}
		spec := &JoinedStr{}
		var lit strings.Builder
		flush := func(off int) {
			if lit.Len() > 0 {
				spec.Parts = append(spec.Parts, &Constant{Span: Span{off, off}, Value: pyval.Str(lit.String())})
				lit.Reset()
			}
		}
		sub := strPiece{raw: pc.raw, fstr: true, body: body[specStart:j], bodyOff: pc.bodyOff + specStart, line: pc.line}
		p.fstring(sub, spec, &lit, flush)
		flush(sub.bodyOff + len(sub.body))
		fv.Spec = spec
		i = j
	}
	if i >= len(body) || body[i] != '}' {
		p.failMsg("f-string: expecting '}'", pc.line)
	}
	fv.Span = Span{pc.bodyOff + open, pc.bodyOff + i + 1}
	return fv, i + 1, selfDoc
}

// simpleEscapes are the one-character escapes str and bytes literals share
// (the character after the backslash -> the byte it stands for).
var simpleEscapes = map[byte]byte{
	'\\': '\\', '\'': '\'', '"': '"',
	'a': 7, 'b': 8, 'f': 12, 'n': '\n', 'r': '\r', 't': '\t', 'v': 11,
}

// octalEscape reads an octal escape whose first digit d is already
// consumed: up to two more digits from body[i:]. It returns the value and
// the index after the escape.
func octalEscape(body string, i int, d byte) (int, int) {
	v := int(d - '0')
	for k := 0; k < 2 && i < len(body) && body[i] >= '0' && body[i] <= '7'; k++ {
		v = v*8 + int(body[i]-'0')
		i++
	}
	return v, i
}

// decodeStr processes the escapes of a str literal body (nothing for raw
// strings). Error texts are CPython's "(unicode error) ..." messages, with
// byte positions counted as CPython does (each non-ASCII character counts
// as the 10 bytes of its \UXXXXXXXX form).
func decodeStr(body string, raw bool) (string, string) {
	if raw || strings.IndexByte(body, '\\') < 0 {
		if strings.IndexByte(body, '\r') >= 0 {
			body = strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n")
		}
		return body, ""
	}
	var b []byte
	b = make([]byte, 0, len(body))
	tpos := 0 // position in CPython's transformed buffer
	i := 0
	for i < len(body) {
		c := body[i]
		if c >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(body[i:])
			b = append(b, body[i:i+size]...)
			i += size
			tpos += 10
			continue
		}
		if c == '\r' {
			b = append(b, '\n')
			i++
			if i < len(body) && body[i] == '\n' {
				i++
			}
			tpos++
			continue
		}
		if c != '\\' {
			b = append(b, c)
			i++
			tpos++
			continue
		}
		escStart := tpos
		if i+1 >= len(body) {
			// a lone trailing backslash cannot occur in a tokenized literal
			b = append(b, '\\')
			i++
			continue
		}
		e := body[i+1]
		if e >= utf8.RuneSelf {
			// "\ä": kept as backslash + character
			b = append(b, '\\')
			i++
			tpos += 6
			continue
		}
		i += 2
		tpos += 2
		if c, ok := simpleEscapes[e]; ok {
			b = append(b, c)
			continue
		}
		switch e {
		case '\n':
		case '\r':
			if i < len(body) && body[i] == '\n' {
				i++
				tpos++
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, next := octalEscape(body, i, e)
			tpos += next - i
			i = next
			b = utf8.AppendRune(b, rune(v))
		case 'x', 'u', 'U':
			n := 2
			msg := `truncated \xXX escape`
			if e == 'u' {
				n, msg = 4, `truncated \uXXXX escape`
			} else if e == 'U' {
				n, msg = 8, `truncated \UXXXXXXXX escape`
			}
			var v rune
			for k := 0; k < n; k++ {
				if i >= len(body) || pyval.HexDigit(body[i]) < 0 {
					return "", unicodeErr(escStart, tpos, msg)
				}
				v = v<<4 | rune(pyval.HexDigit(body[i]))
				i++
				tpos++
			}
			if v > utf8.MaxRune {
				return "", unicodeErr(escStart, tpos, "illegal Unicode character")
			}
			b = pyval.AppendWTF8(b, v)
		case 'N':
			msg := `malformed \N character escape`
			if i < len(body) && body[i] == '{' {
				j := strings.IndexByte(body[i:], '}')
				if j < 0 {
					// runs to the end of the literal
					rest := body[i:]
					return "", unicodeErr(escStart, tpos+transformedLen(rest), msg)
				}
				name := body[i+1 : i+j]
				tpos += transformedLen(body[i : i+j+1])
				i += j + 1
				if name != "" {
					if r, ok := lookupUnicodeName(name); ok {
						b = utf8.AppendRune(b, r)
						continue
					}
					msg = "unknown Unicode character name"
				}
			}
			return "", unicodeErr(escStart, tpos, msg)
		default:
			// invalid escape: kept (SyntaxWarning in 3.12)
			b = append(b, '\\', e)
		}
	}
	return string(b), ""
}

func transformedLen(s string) int {
	n := 0
	for _, r := range s {
		if r < utf8.RuneSelf {
			n++
		} else {
			n += 10
		}
	}
	return n
}

func unicodeErr(start, end int, msg string) string {
	if end-start <= 1 {
		return "(unicode error) 'unicodeescape' codec can't decode byte 0x5c in position " + strconv.Itoa(start) + ": " + msg
	}
	return "(unicode error) 'unicodeescape' codec can't decode bytes in position " + strconv.Itoa(start) + "-" + strconv.Itoa(end-1) + ": " + msg
}

// lookupUnicodeName resolves the few \N{...} names the value model knows
// (Go's standard library has no Unicode name table).
func lookupUnicodeName(name string) (rune, bool) {
	switch strings.ToUpper(name) {
	case "EM DASH":
		return 0x2014, true
	case "EN DASH":
		return 0x2013, true
	case "NO-BREAK SPACE":
		return 0xA0, true
	case "DEGREE SIGN":
		return 0xB0, true
	case "BULLET":
		return 0x2022, true
	case "HORIZONTAL ELLIPSIS":
		return 0x2026, true
	case "LEFT SINGLE QUOTATION MARK":
		return 0x2018, true
	case "RIGHT SINGLE QUOTATION MARK":
		return 0x2019, true
	case "LEFT DOUBLE QUOTATION MARK":
		return 0x201C, true
	case "RIGHT DOUBLE QUOTATION MARK":
		return 0x201D, true
	case "EURO SIGN":
		return 0x20AC, true
	case "POUND SIGN":
		return 0xA3, true
	case "YEN SIGN":
		return 0xA5, true
	case "COPYRIGHT SIGN":
		return 0xA9, true
	case "REGISTERED SIGN":
		return 0xAE, true
	case "MICRO SIGN":
		return 0xB5, true
	case "MULTIPLICATION SIGN":
		return 0xD7, true
	case "DIVISION SIGN":
		return 0xF7, true
	case "SPACE":
		return ' ', true
	case "LINE FEED", "LF":
		return '\n', true
	case "CHARACTER TABULATION", "TAB":
		return '\t', true
	}
	return 0, false
}

// hexPair is the values of the two hexadecimal digits at body[i:] (-1
// for a missing or non-hex one).
func hexPair(body string, i int) (int, int) {
	if i+1 >= len(body) {
		return -1, -1
	}
	return pyval.HexDigit(body[i]), pyval.HexDigit(body[i+1])
}

// decodeBytes processes a bytes literal body.
func decodeBytes(body string, raw bool) (string, string) {
	for i := 0; i < len(body); i++ {
		if body[i] >= 0x80 {
			return "", "bytes can only contain ASCII literal characters"
		}
	}
	if raw || strings.IndexByte(body, '\\') < 0 {
		return body, ""
	}
	var b []byte
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' || i+1 >= len(body) {
			b = append(b, c)
			i++
			continue
		}
		e := body[i+1]
		i += 2
		if c, ok := simpleEscapes[e]; ok {
			b = append(b, c)
			continue
		}
		switch e {
		case '\n':
		case '0', '1', '2', '3', '4', '5', '6', '7':
			var v int
			v, i = octalEscape(body, i, e)
			b = append(b, byte(v))
		case 'x':
			if hi, lo := hexPair(body, i); hi >= 0 && lo >= 0 {
				b = append(b, byte(hi<<4|lo))
				i += 2
			} else {
				return "", "(value error) invalid \\x escape at position " + strconv.Itoa(i-2)
			}
		default:
			b = append(b, '\\', e)
		}
	}
	return string(b), ""
}
