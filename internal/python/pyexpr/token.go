package pyexpr

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

type tokKind uint8

const (
	tkName tokKind = iota
	tkNumber
	tkString
	tkOp
	tkNewline
	tkEOF   // end of input
	tkError // tokenizer error: reading this token raises err
)

// token is one lexical token; start/end are byte offsets into the source
// (the text of a name or an operator is src[start:end]). A token holds no
// pointer, so buffers of them are not scanned by the collector.
type token struct {
	kind  tokKind
	start int
	end   int
	line  int
	level int // parenthesis depth after this token
}

// tokens is the token stream of one source: toks ends with tkEOF, or with
// one tkError token whose exception is err.
type tokens struct {
	toks []token
	err  *pyval.Exception
	// override marks a real tokenizer exception, which CPython reports in
	// preference to a parser error found earlier in the source (not an
	// unclosed bracket or an unexpected indent found at the end).
	override bool
	buf      *[]token // the pooled buffer toks lives in
}

// maxParenLevel is CPython's MAXLEVEL.
const maxParenLevel = 200

type lexer struct {
	src  string
	pos  int
	line int
	// parens[:depth] are the open brackets (an array: no allocation).
	parens   [maxParenLevel]parenOpen
	depth    int
	toks     []token
	err      *pyval.Exception
	override bool
	eval     bool
	startPos int
	// atLineStart is true when the next token starts a logical line.
	atLineStart bool
}

type parenOpen struct {
	ch   byte
	line int32
}

// syntaxErr builds CPython's SyntaxError text "msg (<string>, line N)".
func syntaxErr(msg string, line int) *pyval.Exception {
	return &pyval.Exception{Type: "SyntaxError", Msg: msg + " (<string>, line " + strconv.Itoa(line) + ")"}
}

func (lx *lexer) emitErr(e *pyval.Exception) {
	lx.toks = append(lx.toks, token{kind: tkError, start: lx.pos, end: lx.pos, line: lx.line, level: lx.depth})
	lx.err, lx.override = e, true
}

// emitSoftErr records an error that is only raised when the parser reads
// the token (EOF inside brackets, unexpected indent).
func (lx *lexer) emitSoftErr(e *pyval.Exception) {
	lx.emitErr(e)
	lx.override = false
}

// tokenPool recycles token buffers between parses: the tokens of a source
// are dropped once its tree is built (nodes copy what they keep).
var tokenPool = sync.Pool{New: func() any { return new([]token) }}

// maxPooledTokens bounds the buffers kept in tokenPool.
const maxPooledTokens = 1 << 14

// tokenize splits src into tokens. It stops at the first tokenizer error,
// which becomes a final tkError token (raised when the parser reads it).
// The buffer comes from tokenPool; release gives it back.
func tokenize(src string, eval bool) tokens {
	buf := tokenPool.Get().(*[]token)
	lx := lexer{src: src, line: 1, eval: eval, atLineStart: true, toks: (*buf)[:0]}
	if eval {
		// builtin eval() strips leading spaces and tabs.
		for lx.pos < len(src) && (src[lx.pos] == ' ' || src[lx.pos] == '\t') {
			lx.pos++
		}
		lx.startPos = lx.pos
	}
	if want := estimateTokens(src[lx.pos:]); cap(lx.toks) < want {
		lx.toks = make([]token, 0, want)
	}
	lx.run()
	*buf = lx.toks
	return tokens{toks: lx.toks, err: lx.err, override: lx.override, buf: buf}
}

// release gives the token buffer back to tokenPool; ts must not be used
// after.
func (ts *tokens) release() {
	if ts.buf == nil {
		return
	}
	if cap(*ts.buf) <= maxPooledTokens {
		tokenPool.Put(ts.buf)
	}
	ts.buf, ts.toks = nil, nil
}

// estimateTokens is an upper estimate of the number of tokens of src for
// the usual sources (calls, displays): every token is an operator or is
// next to one, so twice the operator characters plus a few.
func estimateTokens(src string) int {
	n := 0
	for i := 0; i < len(src); i++ {
		if opByte[src[i]] {
			n++
		}
	}
	return 2*n + 4
}

var opByte = func() (t [256]bool) {
	for _, c := range []byte("()[]{},:.=+-*/%<>&|^~@!;\n") {
		t[c] = true
	}
	return t
}()

func isIdentStartByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentByte(c byte) bool {
	return isIdentStartByte(c) || c >= '0' && c <= '9'
}

func (lx *lexer) run() {
	src := lx.src
	for {
		if lx.atLineStart && lx.depth == 0 {
			// Measure indentation of a new logical line.
			p := lx.pos
			for p < len(src) && (src[p] == ' ' || src[p] == '\t' || src[p] == '\f') {
				p++
			}
			indented := p > lx.pos
			lx.pos = p
			if p >= len(src) {
				if indented && (len(lx.toks) > 0 || !lx.eval) {
					lx.emitSoftErr(&pyval.Exception{Type: "IndentationError", Msg: "unexpected indent (<string>, line " + strconv.Itoa(lx.line) + ")"})
					return
				}
				break
			}
			c := src[p]
			if c == '#' || c == '\n' || c == '\r' || (c == '\\' && p+1 < len(src) && (src[p+1] == '\n' || src[p+1] == '\r')) {
				// blank line: fall through to normal scanning, no indent check
			} else if indented {
				lx.emitSoftErr(&pyval.Exception{Type: "IndentationError", Msg: "unexpected indent (<string>, line " + strconv.Itoa(lx.line) + ")"})
				return
			}
			lx.atLineStart = false
		}
		if lx.pos >= len(src) {
			break
		}
		c := src[lx.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			lx.pos++
			continue
		case c == '#':
			for lx.pos < len(src) && src[lx.pos] != '\n' && src[lx.pos] != '\r' {
				lx.pos++
			}
			continue
		case c == '\n' || c == '\r':
			start := lx.pos
			lx.pos++
			if c == '\r' && lx.pos < len(src) && src[lx.pos] == '\n' {
				lx.pos++
			}
			if lx.depth == 0 {
				// NEWLINE only after a non-blank logical line.
				if n := len(lx.toks); n > 0 && lx.toks[n-1].kind != tkNewline {
					lx.toks = append(lx.toks, token{kind: tkNewline, start: start, end: lx.pos, line: lx.line})
				}
				lx.atLineStart = true
			}
			lx.line++
			continue
		case c == '\\':
			if lx.pos+1 < len(src) && (src[lx.pos+1] == '\n' || src[lx.pos+1] == '\r') {
				lx.pos += 2
				if src[lx.pos-1] == '\r' && lx.pos < len(src) && src[lx.pos] == '\n' {
					lx.pos++
				}
				lx.line++
				continue
			}
			lx.emitErr(syntaxErr("unexpected character after line continuation character", lx.line))
			return
		case c >= '0' && c <= '9' || (c == '.' && lx.pos+1 < len(src) && src[lx.pos+1] >= '0' && src[lx.pos+1] <= '9'):
			if !lx.number() {
				return
			}
			continue
		case c == '"' || c == '\'':
			if !lx.str(lx.pos, lx.pos) {
				return
			}
			continue
		case isIdentStartByte(c):
			start := lx.pos
			p := lx.pos
			for p < len(src) && isIdentByte(src[p]) {
				p++
			}
			// string prefix?
			if p < len(src) && (src[p] == '"' || src[p] == '\'') && p-start <= 2 && isStringPrefix(src[start:p]) {
				lx.pos = p
				if !lx.str(start, p) {
					return
				}
				continue
			}
			word := src[start:p]
			if !isASCII(word) {
				if bad, ok := firstInvalidIdentRune(word); ok {
					lx.pos = start
					if pyval.IsPrintable(bad) {
						lx.emitErr(syntaxErr("invalid character '"+string(bad)+"' (U+"+hex4(bad)+")", lx.line))
					} else {
						lx.emitErr(syntaxErr("invalid non-printable character U+"+hex4(bad), lx.line))
					}
					return
				}
			}
			lx.pos = p
			lx.toks = append(lx.toks, token{kind: tkName, start: start, end: p, line: lx.line, level: lx.depth})
			continue
		}
		if !lx.operator() {
			return
		}
	}
	// end of input
	if lx.depth > 0 {
		po := lx.parens[lx.depth-1]
		lx.emitSoftErr(syntaxErr("'"+string(po.ch)+"' was never closed", int(po.line)))
		return
	}
	if n := len(lx.toks); n > 0 && lx.toks[n-1].kind != tkNewline {
		lx.toks = append(lx.toks, token{kind: tkNewline, start: lx.pos, end: lx.pos, line: lx.line})
	}
	eofLine := lx.line
	if len(lx.src) == lx.startPos {
		eofLine = 0
	} else if lx.src[len(lx.src)-1] == '\n' || lx.src[len(lx.src)-1] == '\r' {
		eofLine = lx.line - 1
	}
	lx.toks = append(lx.toks, token{kind: tkEOF, start: lx.pos, end: lx.pos, line: eofLine})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func hex4(r rune) string {
	s := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	for len(s) < 4 {
		s = "0" + s
	}
	return s
}

func isIDStart(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.Is(unicode.Nl, r) || unicode.Is(unicode.Other_ID_Start, r)
}

func isIDContinue(r rune) bool {
	return isIDStart(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Nd, r) ||
		unicode.Is(unicode.Pc, r) || unicode.Is(unicode.Other_ID_Continue, r)
}

// firstInvalidIdentRune returns the first character that makes word an
// invalid identifier (CPython's verify_identifier).
func firstInvalidIdentRune(word string) (rune, bool) {
	for i, r := range word {
		if r == utf8.RuneError {
			return r, true
		}
		if i == 0 {
			if !isIDStart(r) {
				return r, true
			}
		} else if !isIDContinue(r) {
			return r, true
		}
	}
	return 0, false
}

func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "u", "b", "br", "rb", "f", "fr", "rf":
		return true
	}
	return false
}

// str scans a string literal whose prefix starts at start and quote at q.
func (lx *lexer) str(start, q int) bool {
	src := lx.src
	quote := src[q]
	triple := q+2 < len(src) && src[q+1] == quote && src[q+2] == quote
	startLine := lx.line
	p := q + 1
	if triple {
		p = q + 3
	}
	for {
		if p >= len(src) {
			if triple {
				detected := lx.line
				if p > 0 && (src[p-1] == '\n' || src[p-1] == '\r') {
					detected--
				}
				lx.emitErr(syntaxErr("unterminated triple-quoted string literal (detected at line "+strconv.Itoa(detected)+")", startLine))
			} else {
				lx.emitErr(syntaxErr("unterminated string literal (detected at line "+strconv.Itoa(lx.line)+")", startLine))
			}
			return false
		}
		c := src[p]
		switch {
		case c == '\\':
			if p+1 < len(src) {
				if src[p+1] == '\n' || src[p+1] == '\r' {
					lx.line++
					if src[p+1] == '\r' && p+2 < len(src) && src[p+2] == '\n' {
						p++
					}
				}
				p += 2
			} else {
				p++
			}
			continue
		case c == '\n' || c == '\r':
			if !triple {
				lx.emitErr(syntaxErr("unterminated string literal (detected at line "+strconv.Itoa(lx.line)+")", startLine))
				return false
			}
			if c == '\r' && p+1 < len(src) && src[p+1] == '\n' {
				p++
			}
			lx.line++
			p++
			continue
		case c == quote:
			if !triple {
				p++
				lx.toks = append(lx.toks, token{kind: tkString, start: start, end: p, line: startLine, level: lx.depth})
				lx.pos = p
				return true
			}
			if p+2 < len(src) && src[p+1] == quote && src[p+2] == quote {
				p += 3
				lx.toks = append(lx.toks, token{kind: tkString, start: start, end: p, line: startLine, level: lx.depth})
				lx.pos = p
				return true
			}
		}
		p++
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number scans a numeric literal with CPython's error messages.
func (lx *lexer) number() bool {
	src := lx.src
	start := lx.pos
	p := lx.pos
	fail := func(msg string) bool {
		lx.emitErr(syntaxErr(msg, lx.line))
		return false
	}
	at := func(i int) byte {
		if i < len(src) {
			return src[i]
		}
		return 0
	}
	// digits with single underscores; returns new position or -1
	decTail := func(i int) (int, bool) {
		for {
			for isDigit(at(i)) {
				i++
			}
			if at(i) != '_' {
				return i, true
			}
			i++
			if !isDigit(at(i)) {
				return i, false
			}
		}
	}
	finish := func(end int, kind string) bool {
		if !lx.verifyEnd(end, kind) {
			return false
		}
		lx.toks = append(lx.toks, token{kind: tkNumber, start: start, end: end, line: lx.line, level: lx.depth})
		lx.pos = end
		return true
	}
	exponent := func(i int) (int, bool, bool) {
		// at(i) is 'e' or 'E'; returns end, ok(err free), consumed
		j := i + 1
		if at(j) == '+' || at(j) == '-' {
			j++
			if !isDigit(at(j)) {
				return j, false, true
			}
		} else if !isDigit(at(j)) {
			return i, true, false
		}
		j, ok := decTail(j)
		return j, ok, true
	}
	fraction := func(i int) bool {
		// at(i) == '.'
		i++
		if isDigit(at(i)) {
			var ok bool
			if i, ok = decTail(i); !ok {
				return fail("invalid decimal literal")
			}
		}
		if at(i) == 'e' || at(i) == 'E' {
			j, ok, consumed := exponent(i)
			if !ok {
				return fail("invalid decimal literal")
			}
			if consumed {
				i = j
			} else {
				return finish(i, "decimal")
			}
		}
		if at(i) == 'j' || at(i) == 'J' {
			i++
		}
		return finish(i, "decimal")
	}
	// decimalSuffix finishes a decimal literal whose digits end at p when a
	// fraction, an exponent or an imaginary suffix follows (done true).
	decimalSuffix := func(p int) (result, done bool) {
		switch at(p) {
		case '.':
			return fraction(p), true
		case 'e', 'E':
			j, ok, consumed := exponent(p)
			if !ok {
				return fail("invalid decimal literal"), true
			}
			if consumed {
				if at(j) == 'j' || at(j) == 'J' {
					j++
				}
				return finish(j, "decimal"), true
			}
		case 'j', 'J':
			return finish(p+1, "decimal"), true
		}
		return false, false
	}
	if src[p] == '.' {
		return fraction(p)
	}
	if src[p] == '0' {
		n := at(p + 1)
		switch n {
		case 'x', 'X', 'o', 'O', 'b', 'B':
			p += 2
			var kind string
			var valid func(c byte) bool
			switch n {
			case 'x', 'X':
				kind = "hexadecimal"
				valid = func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
			case 'o', 'O':
				kind = "octal"
				valid = func(c byte) bool { return c >= '0' && c <= '7' }
			default:
				kind = "binary"
				valid = func(c byte) bool { return c == '0' || c == '1' }
			}
			for {
				if at(p) == '_' {
					p++
				}
				if !valid(at(p)) {
					if kind != "hexadecimal" && isDigit(at(p)) {
						return fail("invalid digit '" + string(at(p)) + "' in " + kind + " literal")
					}
					return fail("invalid " + kind + " literal")
				}
				for valid(at(p)) {
					p++
				}
				if at(p) != '_' {
					break
				}
			}
			if kind != "hexadecimal" && isDigit(at(p)) {
				return fail("invalid digit '" + string(at(p)) + "' in " + kind + " literal")
			}
			return finish(p, kind)
		}
		// leading zeros
		nonzero := false
		p++
		for {
			for at(p) == '0' {
				p++
			}
			if at(p) != '_' {
				break
			}
			p++
			if !isDigit(at(p)) {
				return fail("invalid decimal literal")
			}
		}
		zerosEnd := p
		if isDigit(at(p)) {
			nonzero = true
			var ok bool
			if p, ok = decTail(p); !ok {
				return fail("invalid decimal literal")
			}
		}
		if r, done := decimalSuffix(p); done {
			return r
		}
		if nonzero {
			lx.pos = zerosEnd
			return fail("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
		}
		return finish(p, "decimal")
	}
	p, ok := decTail(p)
	if !ok {
		return fail("invalid decimal literal")
	}
	if r, done := decimalSuffix(p); done {
		return r
	}
	return finish(p, "decimal")
}

// verifyEnd is CPython's verify_end_of_number: a number may be followed
// directly by a keyword (and, else, for, if, in, is, not, or), but not by
// another identifier character.
func (lx *lexer) verifyEnd(end int, kind string) bool {
	src := lx.src
	if end >= len(src) || !isIdentByte(src[end]) {
		return true
	}
	rest := src[end:]
	for _, kw := range [...]string{"and", "else", "for", "if", "in", "is", "not", "or"} {
		if strings.HasPrefix(rest, kw) {
			return true
		}
	}
	lx.emitErr(syntaxErr("invalid "+kind+" literal", lx.line))
	return false
}

// opLen returns the length of the operator at the start of rest (1, 2 or
// 3 bytes).
func opLen(rest string) int {
	c := rest[0]
	var n byte
	if len(rest) > 1 {
		n = rest[1]
	}
	switch c {
	case '*', '/':
		if n == c {
			if len(rest) > 2 && rest[2] == '=' {
				return 3
			}
			return 2
		}
		if n == '=' {
			return 2
		}
	case '<', '>':
		if n == c {
			if len(rest) > 2 && rest[2] == '=' {
				return 3
			}
			return 2
		}
		if n == '=' || (c == '<' && n == '>') {
			return 2
		}
	case '.':
		if n == '.' && len(rest) > 2 && rest[2] == '.' {
			return 3
		}
	case '-':
		if n == '>' || n == '=' {
			return 2
		}
	case ':':
		if n == '=' {
			return 2
		}
	case '=', '!', '+', '%', '&', '|', '^', '@':
		if n == '=' {
			return 2
		}
	}
	return 1
}

func (lx *lexer) operator() bool {
	src := lx.src
	rest := src[lx.pos:]
	op := ""
	if n := opLen(rest); n > 1 {
		op = rest[:n]
	}
	if op == "" {
		c := rest[0]
		switch c {
		case '(', '[', '{':
			if lx.depth >= maxParenLevel {
				lx.emitErr(syntaxErr("too many nested parentheses", lx.line))
				return false
			}
			lx.parens[lx.depth] = parenOpen{c, int32(lx.line)}
			lx.depth++
			op = rest[:1]
		case ')', ']', '}':
			if lx.depth == 0 {
				lx.emitErr(syntaxErr("unmatched '"+string(c)+"'", lx.line))
				return false
			}
			po := lx.parens[lx.depth-1]
			want := byte(')')
			switch po.ch {
			case '[':
				want = ']'
			case '{':
				want = '}'
			}
			if c != want {
				msg := "closing parenthesis '" + string(c) + "' does not match opening parenthesis '" + string(po.ch) + "'"
				if int(po.line) != lx.line {
					msg += " on line " + strconv.Itoa(int(po.line))
				}
				lx.emitErr(syntaxErr(msg, lx.line))
				return false
			}
			lx.depth--
			op = rest[:1]
		case '+', '-', '*', '/', '%', '@', '&', '|', '^', '~', '<', '>', ',', ':', '.', ';', '=', '!', '$', '?', '`':
			op = rest[:1]
		default:
			if c < 0x20 || c == 0x7f {
				r := rune(c)
				lx.emitErr(syntaxErr("invalid non-printable character U+"+hex4(r), lx.line))
				return false
			}
			op = rest[:1]
		}
	}
	lx.toks = append(lx.toks, token{kind: tkOp, start: lx.pos, end: lx.pos + len(op), line: lx.line, level: lx.depth})
	lx.pos += len(op)
	return true
}
