package decode

import "strings"

// lexToken is what tokCursor needs of a token of the Java and JavaScript
// readers (jtok, jsTok).
type lexToken interface {
	is(kind, text string) bool
	isEOF() bool
}

func (t jtok) is(kind, text string) bool  { return t.kind == kind && t.text == text }
func (t jtok) isEOF() bool                { return t.kind == "eof" }
func (t jsTok) is(kind, text string) bool { return t.kind == kind && t.text == text }
func (t jsTok) isEOF() bool               { return t.kind == "eof" }

// tokCursor is the position of a recursive-descent parser in its token
// list, which ends with an "eof" token. A syntax error panics with E's zero
// value (javaSyntaxError, jsSyntaxError), which the parser's entry point
// recovers.
type tokCursor[T lexToken, E any] struct {
	toks []T
	i    int
}

func (p *tokCursor[T, E]) peek() T { return p.toks[p.i] }

// peekN is the token n places ahead, or the final eof past the end.
func (p *tokCursor[T, E]) peekN(n int) T {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *tokCursor[T, E]) isOp(op string) bool { return p.peek().is("op", op) }

func (p *tokCursor[T, E]) fail() {
	var e E
	panic(e)
}

// next consumes the current token; there is none past eof.
func (p *tokCursor[T, E]) next() T {
	t := p.peek()
	if t.isEOF() {
		p.fail()
	}
	p.i++
	return t
}

// cComment is the end of the // or /* */ comment that starts at src[i]
// (found is false when none does): a line comment ends before its line
// break, a block comment after its "*/"; ok is false for a block comment
// never closed.
func cComment(src string, i int) (end int, found, ok bool) {
	if src[i] != '/' || i+1 >= len(src) {
		return i, false, true
	}
	switch src[i+1] {
	case '/':
		if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
			return i + j, true, true
		}
		return len(src), true, true
	case '*':
		j := strings.Index(src[i+2:], "*/")
		if j < 0 {
			return i, true, false
		}
		return i + j + 4, true, true
	}
	return i, false, true
}

// attempt runs parse, reporting false when it fails with a syntax error
// (any other panic goes on).
func (p *tokCursor[T, E]) attempt(parse func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isSyn := r.(E); !isSyn {
				panic(r)
			}
			ok = false
		}
	}()
	parse()
	return true
}
