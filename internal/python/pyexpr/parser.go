package pyexpr

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// parseError carries a SyntaxError out of the recursive descent.
type parseError struct {
	exc *pyval.Exception
	// tok is true when the error was raised by reading a tokenizer error
	// token.
	tok bool
}

type parser struct {
	src string
	tokens
	i        int
	deferred *pyval.Exception // raised only if the whole parse succeeds
	// compileErr is an error CPython's compiler raises, not its parser
	// (a repeated keyword argument): eval() reports it, ast.parse does not.
	compileErr *pyval.Exception
}

// Parse parses one Python expression, as eval() does (leading spaces and
// tabs are ignored, trailing newlines and comments allowed). Errors are
// *pyval.Exception values of type SyntaxError (or IndentationError) whose
// text is what str(e) gives for eval(src) in CPython 3.12 for the common
// cases, e.g. "invalid syntax (<string>, line 1)".
func Parse(src string) (e Expr, err error) {
	if strings.IndexByte(src, 0) >= 0 {
		return nil, &pyval.Exception{Type: "SyntaxError", Msg: "source code string cannot contain null bytes"}
	}
	if err := checkUTF8(src); err != nil {
		return nil, err
	}
	p := &parser{src: src, tokens: tokenize(src, true)}
	defer p.release()
	defer p.recoverTo(&err)
	e = p.parseEval()
	if p.deferred != nil {
		return nil, p.deferred
	}
	if p.compileErr != nil {
		return nil, p.compileErr
	}
	return e, nil
}

// ParseAST is ast.parse(src, mode="eval"): like Parse, but leading
// whitespace is not stripped (it is an IndentationError, as for
// compile()), errors name the file "<unknown>" as ast.parse does, e.g.
// "invalid syntax (<unknown>, line 1)", and what only the compiler
// rejects is accepted: f(a=1, a=2) parses with both keywords, in order.
func ParseAST(src string) (Expr, error) {
	if strings.IndexByte(src, 0) >= 0 {
		return nil, &pyval.Exception{Type: "SyntaxError", Msg: "source code string cannot contain null bytes"}
	}
	if err := checkUTF8(src); err != nil {
		return nil, renameFile(err, "<unknown>")
	}
	p := &parser{src: src, tokens: tokenize(src, false)}
	defer p.release()
	var e Expr
	var err error
	func() {
		defer p.recoverTo(&err)
		e = p.parseEval()
	}()
	if err == nil && p.deferred != nil {
		err = p.deferred
	}
	if err != nil {
		return nil, renameFile(err, "<unknown>")
	}
	return e, nil
}

// renameFile replaces the "<string>" file name in a SyntaxError text.
func renameFile(err error, name string) error {
	ex, ok := err.(*pyval.Exception)
	if !ok {
		return err
	}
	i := strings.LastIndex(ex.Msg, " (<string>, line ")
	if i < 0 {
		return err
	}
	return &pyval.Exception{Type: ex.Type, Msg: ex.Msg[:i] + " (" + name + ex.Msg[i+len(" (<string>"):]}
}

// ParseModule parses a module made only of "NAME = expression" statements
// (plus blank lines and comments), such as BFCL's long_context.py.
func ParseModule(src string) (out []Assign, err error) {
	if strings.IndexByte(src, 0) >= 0 {
		return nil, &pyval.Exception{Type: "SyntaxError", Msg: "source code string cannot contain null bytes"}
	}
	if err := checkUTF8(src); err != nil {
		return nil, err
	}
	p := &parser{src: src, tokens: tokenize(src, false)}
	defer p.release()
	defer p.recoverTo(&err)
	out = p.parseModule()
	if p.deferred != nil {
		return nil, p.deferred
	}
	if p.compileErr != nil {
		return nil, p.compileErr
	}
	return out, nil
}

// checkUTF8 rejects source that is not valid UTF-8 (CPython decodes the
// source first).
func checkUTF8(src string) error {
	if utf8.ValidString(src) {
		return nil
	}
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == utf8.RuneError && size == 1 {
			line := 1 + strings.Count(src[:i], "\n")
			return syntaxErr("(unicode error) 'utf-8' codec can't decode byte 0x"+strconv.FormatUint(uint64(src[i]), 16)+
				" in position "+strconv.Itoa(i)+": invalid start byte", line)
		}
		i += size
	}
	return nil
}

func (p *parser) recoverTo(err *error) {
	r := recover()
	if r == nil {
		return
	}
	pe, ok := r.(parseError)
	if !ok {
		panic(r)
	}
	if !pe.tok {
		// CPython re-tokenizes the rest of the source after a parser error
		// and reports a tokenizer error found there instead.
		if last := p.toks[len(p.toks)-1]; last.kind == tkError && p.override {
			*err = p.err
			return
		}
	}
	*err = pe.exc
}

func (p *parser) peek() *token {
	t := &p.toks[p.i]
	if t.kind == tkError {
		panic(parseError{p.err, true})
	}
	return t
}

// peekAt returns the token n ahead without raising tokenizer errors.
func (p *parser) peekAt(n int) *token {
	j := p.i + n
	if j >= len(p.toks) {
		j = len(p.toks) - 1
	}
	return &p.toks[j]
}

// text is the source text of a name or operator token ("" for others).
func (p *parser) text(t *token) string {
	if t.kind == tkName || t.kind == tkOp {
		return p.src[t.start:t.end]
	}
	return ""
}

func (p *parser) advance() {
	if p.toks[p.i].kind != tkEOF {
		p.i++
	}
}

func (p *parser) isOp(op string) bool {
	t := p.peek()
	return t.kind == tkOp && p.text(t) == op
}

func (p *parser) isKw(kw string) bool {
	t := p.peek()
	return t.kind == tkName && p.text(t) == kw
}

func (p *parser) prevEnd() int {
	if p.i == 0 {
		return 0
	}
	return p.toks[p.i-1].end
}

func (p *parser) fail() {
	t := p.peek()
	panic(parseError{exc: syntaxErr("invalid syntax", t.line)})
}

func (p *parser) failMsg(msg string, line int) {
	panic(parseError{exc: syntaxErr(msg, line)})
}

func (p *parser) expectOp(op string) {
	if !p.isOp(op) {
		p.fail()
	}
	p.advance()
}

func isKeyword(s string) bool {
	switch s {
	case "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
		"def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
		"is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield":
		return true
	}
	return false
}

// isSoftKeyword is the SOFT_KEYWORD lookahead of the missing-comma rule.
// It is CPython 3.12's test as written (_PyPegen_soft_keyword_token compares
// only the token's length of each soft keyword), so any non-empty prefix
// of one counts: "m", "ma", "c", "ty" are soft keywords for it too, which
// is why "[m c]" gets no "Perhaps you forgot a comma?" hint.
func isSoftKeyword(s string) bool {
	if s == "" {
		return false
	}
	for _, k := range []string{"_", "case", "match", "type"} {
		if strings.HasPrefix(k, s) {
			return true
		}
	}
	return false
}

// startsPrimary reports whether t begins a primary that the levels of the
// precedence chain above it pass through unchanged: not a keyword
// operator (lambda, not, await) nor a unary sign.
func (p *parser) startsPrimary(t *token) bool {
	switch t.kind {
	case tkNumber, tkString:
		return true
	case tkName:
		w := p.text(t)
		return !isKeyword(w) || w == "True" || w == "False" || w == "None"
	case tkOp:
		switch p.text(t) {
		case "(", "[", "{":
			return true
		}
	}
	return false
}

// endsOperand reports whether t, after a primary, is read by no level of
// the precedence chain (no operator, keyword operator or conditional).
func (p *parser) endsOperand(t *token) bool {
	switch t.kind {
	case tkNewline, tkEOF:
		return true
	case tkOp:
		switch p.text(t) {
		case ",", ")", "]", "}", ":", "=":
			return true
		}
	}
	return false
}

// canStartExpr reports whether t can begin an expression.
func (p *parser) canStartExpr(t *token) bool {
	switch t.kind {
	case tkNumber, tkString:
		return true
	case tkName:
		if !isKeyword(p.text(t)) {
			return true
		}
		switch p.text(t) {
		case "True", "False", "None", "not", "lambda", "await":
			return true
		}
		return false
	case tkOp:
		switch p.text(t) {
		case "(", "[", "{", "-", "+", "~", "...":
			return true
		}
	}
	return false
}

// checkMissingComma raises CPython's "Perhaps you forgot a comma?" (or the
// legacy print message) when the element that started at token elemStart
// is directly followed by another expression inside brackets.
func (p *parser) checkMissingComma(elemStart int, elem Expr) {
	if !p.canStartExpr(p.peek()) {
		return
	}
	st := &p.toks[elemStart]
	legacy := false
	if n, ok := elem.(*Name); ok && (n.ID == "print" || n.ID == "exec") {
		legacy = true
	}
	if !legacy && st.kind == tkName {
		if elemStart+1 < len(p.toks) && p.toks[elemStart+1].kind == tkString {
			return
		}
		if isSoftKeyword(p.text(st)) {
			return
		}
	}
	save := p.i
	ok := p.probe(func() { p.expression() })
	level := p.toks[p.i-1].level
	p.i = save
	if !ok {
		return
	}
	if legacy {
		name := elem.(*Name).ID
		p.failMsg("Missing parentheses in call to '"+name+"'. Did you mean "+name+"(...)?", st.line)
	}
	if level == 0 {
		return
	}
	p.failMsg("invalid syntax. Perhaps you forgot a comma?", st.line)
}

// probe runs f and reports whether it parsed without a parser error;
// tokenizer errors propagate.
func (p *parser) probe(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			pe, isPE := r.(parseError)
			if !isPE || pe.tok {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

func (p *parser) parseEval() Expr {
	start := p.i
	e := p.expressions()
	newline := false
	for p.peek().kind == tkNewline {
		p.advance()
		newline = true
	}
	if p.peek().kind != tkEOF {
		// The missing-comma rule needs the next expression right after
		// this one; across a NEWLINE CPython fails at the token itself,
		// without reading further ("f\n{bad" is "invalid syntax" on line
		// 2, not "'{' was never closed").
		if !newline {
			p.checkMissingComma(start, e)
		}
		p.fail()
	}
	return e
}

func (p *parser) parseModule() []Assign {
	var out []Assign
	for {
		t := p.peek()
		if t.kind == tkNewline {
			p.advance()
			continue
		}
		if t.kind == tkEOF {
			return out
		}
		if t.kind != tkName || isKeyword(p.text(t)) {
			p.fail()
		}
		name, line := p.text(t), t.line
		p.advance()
		p.expectOp("=")
		start := p.i
		v := p.expressions()
		if k := p.peek().kind; k != tkNewline && k != tkEOF {
			p.checkMissingComma(start, v)
			p.fail()
		}
		out = append(out, Assign{Name: name, Value: v, Line: line})
	}
}

// expressions: expression (',' expression)* [','] -> Tuple when a comma
// appears.
func (p *parser) expressions() Expr {
	first := p.expression()
	if !p.isOp(",") {
		return first
	}
	elts := []Expr{first}
	for p.isOp(",") {
		p.advance()
		if !p.canStartExpr(p.peek()) {
			break
		}
		elts = append(elts, p.expression())
	}
	return &Tuple{Span{first.Bounds().Offset, p.prevEnd()}, elts}
}

func (p *parser) expression() Expr {
	if p.startsPrimary(p.peek()) {
		// Most operands (call arguments, display items) are a primary
		// followed by a delimiter no level of the precedence chain reads:
		// then the chain would return the primary as it is.
		save := p.i
		x := p.primary()
		if p.endsOperand(p.peek()) {
			return x
		}
		p.i = save
	}
	if p.isKw("lambda") {
		return p.lambdef()
	}
	start := p.i
	d := p.disjunction()
	if p.isKw("if") {
		p.advance()
		test := p.disjunction()
		if !p.isKw("else") {
			if p.isOp(":") {
				p.fail()
			}
			p.failMsg("expected 'else' after 'if' expression", p.toks[start].line)
		}
		p.advance()
		els := p.expression()
		return &IfExp{Span{d.Bounds().Offset, p.prevEnd()}, test, d, els}
	}
	return d
}

func (p *parser) lambdef() Expr {
	start := p.peek().start
	p.advance()
	var params []string
	for !p.isOp(":") {
		t := p.peek()
		switch {
		case t.kind == tkOp && (p.text(t) == "*" || p.text(t) == "**"):
			p.advance()
			if nt := p.peek(); nt.kind == tkName && !isKeyword(p.text(nt)) {
				params = append(params, p.text(t)+p.text(nt))
				p.advance()
			} else if p.text(t) == "**" {
				p.fail()
			}
		case t.kind == tkOp && p.text(t) == "/":
			p.advance()
		case t.kind == tkName && !isKeyword(p.text(t)):
			params = append(params, p.text(t))
			p.advance()
			if p.isOp("=") {
				p.advance()
				p.expression()
			}
		default:
			p.fail()
		}
		if p.isOp(",") {
			p.advance()
		} else if !p.isOp(":") {
			p.fail()
		}
	}
	p.advance()
	body := p.expression()
	return &Lambda{Span{start, p.prevEnd()}, params, body}
}

func (p *parser) namedExpression() Expr {
	t := p.peek()
	if t.kind == tkName && !isKeyword(p.text(t)) {
		if n := p.peekAt(1); n.kind == tkOp && p.text(n) == ":=" {
			name := &Name{Span{t.start, t.end}, p.text(t)}
			p.advance()
			p.advance()
			v := p.expression()
			return &NamedExpr{Span{t.start, p.prevEnd()}, name, v}
		}
	}
	return p.expression()
}

// starNamed parses an element of a display: *bitor or a named expression.
func (p *parser) starNamed() Expr {
	if p.isOp("*") {
		start := p.peek().start
		p.advance()
		x := p.bitor()
		return &Starred{Span{start, p.prevEnd()}, x}
	}
	return p.namedExpression()
}

func (p *parser) disjunction() Expr {
	x := p.conjunction()
	if !p.isKw("or") {
		return x
	}
	vals := []Expr{x}
	for p.isKw("or") {
		p.advance()
		vals = append(vals, p.conjunction())
	}
	return &BoolOp{Span{x.Bounds().Offset, p.prevEnd()}, "or", vals}
}

func (p *parser) conjunction() Expr {
	x := p.inversion()
	if !p.isKw("and") {
		return x
	}
	vals := []Expr{x}
	for p.isKw("and") {
		p.advance()
		vals = append(vals, p.inversion())
	}
	return &BoolOp{Span{x.Bounds().Offset, p.prevEnd()}, "and", vals}
}

func (p *parser) inversion() Expr {
	if p.isKw("not") {
		start := p.peek().start
		p.advance()
		x := p.inversion()
		return &UnaryOp{Span{start, p.prevEnd()}, "not", x}
	}
	return p.comparison()
}

func (p *parser) compOp() string {
	t := p.peek()
	switch t.kind {
	case tkOp:
		switch p.text(t) {
		case "==", "!=", "<", "<=", ">", ">=":
			return p.text(t)
		}
	case tkName:
		switch p.text(t) {
		case "in":
			return "in"
		case "not":
			if n := p.peekAt(1); n.kind == tkName && p.text(n) == "in" {
				return "not in"
			}
		case "is":
			if n := p.peekAt(1); n.kind == tkName && p.text(n) == "not" {
				return "is not"
			}
			return "is"
		}
	}
	return ""
}

func (p *parser) comparison() Expr {
	x := p.bitor()
	op := p.compOp()
	if op == "" {
		return x
	}
	var ops []string
	var comps []Expr
	for op != "" {
		p.advance()
		if op == "not in" || op == "is not" {
			p.advance()
		}
		ops = append(ops, op)
		comps = append(comps, p.bitor())
		op = p.compOp()
	}
	return &Compare{Span{x.Bounds().Offset, p.prevEnd()}, x, ops, comps}
}

func (p *parser) binary(x Expr, op string, y Expr) Expr {
	return &BinOp{Span{x.Bounds().Offset, p.prevEnd()}, op, x, y}
}

func (p *parser) bitor() Expr {
	x := p.bitxor()
	for p.isOp("|") {
		p.advance()
		x = p.binary(x, "|", p.bitxor())
	}
	return x
}

func (p *parser) bitxor() Expr {
	x := p.bitand()
	for p.isOp("^") {
		p.advance()
		x = p.binary(x, "^", p.bitand())
	}
	return x
}

func (p *parser) bitand() Expr {
	x := p.shift()
	for p.isOp("&") {
		p.advance()
		x = p.binary(x, "&", p.shift())
	}
	return x
}

func (p *parser) shift() Expr {
	x := p.sum()
	for {
		t := p.peek()
		if t.kind != tkOp || (p.text(t) != "<<" && p.text(t) != ">>") {
			return x
		}
		op := p.text(t)
		p.advance()
		x = p.binary(x, op, p.sum())
	}
}

func (p *parser) sum() Expr {
	x := p.term()
	for {
		t := p.peek()
		if t.kind != tkOp || (p.text(t) != "+" && p.text(t) != "-") {
			return x
		}
		op := p.text(t)
		p.advance()
		x = p.binary(x, op, p.term())
	}
}

func (p *parser) term() Expr {
	x := p.factor()
	for {
		t := p.peek()
		if t.kind != tkOp {
			return x
		}
		switch p.text(t) {
		case "*", "/", "//", "%", "@":
		default:
			return x
		}
		op := p.text(t)
		p.advance()
		x = p.binary(x, op, p.factor())
	}
}

func (p *parser) factor() Expr {
	t := p.peek()
	if t.kind == tkOp && (p.text(t) == "-" || p.text(t) == "+" || p.text(t) == "~") {
		start, op := t.start, p.text(t)
		p.advance()
		x := p.factor()
		return &UnaryOp{Span{start, p.prevEnd()}, op, x}
	}
	return p.power()
}

func (p *parser) power() Expr {
	if t := p.peek(); t.kind == tkName && p.text(t) == "await" {
		p.advance()
		x := p.primary()
		if p.deferred == nil {
			p.deferred = syntaxErr("'await' outside function", t.line)
		}
		return x
	}
	x := p.primary()
	if p.isOp("**") {
		p.advance()
		y := p.factor()
		return p.binary(x, "**", y)
	}
	return x
}

func (p *parser) primary() Expr {
	x := p.atom()
	for {
		t := p.peek()
		if t.kind != tkOp {
			return x
		}
		switch p.text(t) {
		case ".":
			p.advance()
			n := p.peek()
			if n.kind != tkName || isKeyword(p.text(n)) {
				p.fail()
			}
			p.advance()
			x = &Attribute{Span{x.Bounds().Offset, n.end}, x, p.text(n)}
		case "(":
			x = p.call(x)
		case "[":
			p.advance()
			idx := p.slices()
			p.expectOp("]")
			x = &Subscript{Span{x.Bounds().Offset, p.prevEnd()}, x, idx}
		default:
			return x
		}
	}
}

// checkUnpackingAssign raises CPython 3.12's error for "*a=1" / "**a=1"
// in a call: an unpacked argument followed by "=" and an expression.
func (p *parser) checkUnpackingAssign(star *token, msg string) {
	if !p.isOp("=") {
		return
	}
	save := p.i
	ok := p.probe(func() {
		p.advance()
		p.expression()
	})
	p.i = save
	if ok {
		p.failMsg(msg, star.line)
	}
}

// bracketItems counts, from the opening bracket at p.i to its closing one,
// the items (top-level commas plus one) and the top-level "=" signs: the
// capacity hints of a call's argument lists and of displays.
func (p *parser) bracketItems() (items, assigns int) {
	open := p.toks[p.i].level // depth inside the bracket
	items = 1
	for j := p.i + 1; j < len(p.toks); j++ {
		t := &p.toks[j]
		if t.level < open || t.kind == tkEOF || t.kind == tkError {
			break
		}
		if t.level == open && t.kind == tkOp {
			switch p.text(t) {
			case ",":
				items++
			case "=":
				assigns++
			}
		}
	}
	return items, assigns
}

func (p *parser) call(fn Expr) Expr {
	items, assigns := p.bracketItems()
	p.advance() // (
	c := &Call{Func: fn}
	if assigns > 0 {
		c.Keywords = make([]Keyword, 0, assigns)
	}
	if items > assigns {
		c.Args = make([]Expr, 0, items-assigns)
	}
	seenKw, seenStarStar := false, false
	var last Expr
	for !p.isOp(")") {
		argStart := p.i
		t := p.peek()
		switch {
		case t.kind == tkOp && p.text(t) == "*":
			p.advance()
			x := p.expression()
			if p.isKw("for") {
				p.failMsg("iterable unpacking cannot be used in comprehension", t.line)
			}
			if seenStarStar {
				p.failMsg("iterable argument unpacking follows keyword argument unpacking", t.line)
			}
			p.checkUnpackingAssign(t, "cannot assign to iterable argument unpacking")
			last = &Starred{Span{t.start, p.prevEnd()}, x}
			c.Args = append(c.Args, last)
		case t.kind == tkOp && p.text(t) == "**":
			p.advance()
			x := p.expression()
			p.checkUnpackingAssign(t, "cannot assign to keyword argument unpacking")
			c.Keywords = append(c.Keywords, Keyword{Span: Span{t.start, p.prevEnd()}, Value: x})
			seenStarStar = true
			last = x
		case t.kind == tkName && p.peekAt(1).kind == tkOp && p.text(p.peekAt(1)) == "=":
			switch p.text(t) {
			case "True", "False", "None":
				p.failMsg("cannot assign to "+p.text(t), t.line)
			}
			if isKeyword(p.text(t)) {
				p.fail()
			}
			p.advance()
			p.advance()
			if p.isOp(",") || p.isOp(")") {
				p.failMsg("expected argument value expression", t.line)
			}
			x := p.expression()
			if p.isKw("for") {
				p.failMsg("invalid syntax. Maybe you meant '==' or ':=' instead of '='?", t.line)
			}
			for _, k := range c.Keywords {
				if k.Arg == p.text(t) && p.compileErr == nil {
					p.compileErr = syntaxErr("keyword argument repeated: "+p.text(t), t.line)
				}
			}
			c.Keywords = append(c.Keywords, Keyword{Span: Span{t.start, p.prevEnd()}, Arg: p.text(t), Value: x})
			seenKw = true
			last = x
			argStart = p.i - 1
			for p.toks[argStart].start != x.Bounds().Offset && argStart > 0 {
				argStart--
			}
		default:
			x := p.namedExpression()
			if p.isKw("for") {
				g := p.comprehension(x, nil, "generator")
				if len(c.Args)+len(c.Keywords) > 0 || !p.isOp(")") {
					p.failMsg("Generator expression must be parenthesized", t.line)
				}
				x = g
			}
			if p.isOp("=") {
				p.failMsg(`expression cannot contain assignment, perhaps you meant "=="?`, t.line)
			}
			if seenStarStar {
				p.failMsg("positional argument follows keyword argument unpacking", t.line)
			}
			if seenKw {
				p.failMsg("positional argument follows keyword argument", t.line)
			}
			c.Args = append(c.Args, x)
			last = x
		}
		if p.isOp(",") {
			p.advance()
			continue
		}
		if p.isOp(")") {
			break
		}
		p.checkMissingComma(argStart, last)
		p.fail()
	}
	p.advance() // )
	c.Span = Span{fn.Bounds().Offset, p.prevEnd()}
	return c
}

// slices parses the inside of a subscript.
func (p *parser) slices() Expr {
	start := p.peek().start
	first := p.slice()
	if !p.isOp(",") {
		return first
	}
	elts := []Expr{first}
	for p.isOp(",") {
		p.advance()
		if p.isOp("]") {
			break
		}
		elts = append(elts, p.slice())
	}
	return &Tuple{Span{start, p.prevEnd()}, elts}
}

func (p *parser) slice() Expr {
	start := p.peek().start
	var lower Expr
	if !p.isOp(":") {
		if p.isOp("*") {
			return p.starNamed()
		}
		startTok := p.i
		lower = p.namedExpression()
		if !p.isOp(":") {
			if !p.isOp(",") && !p.isOp("]") {
				p.checkMissingComma(startTok, lower)
			}
			return lower
		}
	}
	p.advance() // :
	s := &Slice{Lower: lower}
	if !p.isOp(":") && !p.isOp(",") && !p.isOp("]") {
		s.Upper = p.expression()
	}
	if p.isOp(":") {
		p.advance()
		if !p.isOp(",") && !p.isOp("]") {
			s.Step = p.expression()
		}
	}
	s.Span = Span{start, p.prevEnd()}
	return s
}

// comprehension parses the for/if clauses after elt (and key for dicts).
func (p *parser) comprehension(elt, key Expr, kind string) Expr {
	c := &Comp{Kind: kind, Key: key, Elt: elt}
	for p.isKw("for") {
		p.advance()
		tstart := p.peek().start
		target := p.bitor()
		if p.isOp(",") {
			elts := []Expr{target}
			for p.isOp(",") {
				p.advance()
				if p.isKw("in") {
					break
				}
				elts = append(elts, p.bitor())
			}
			target = &Tuple{Span{tstart, p.prevEnd()}, elts}
		}
		if !p.isKw("in") {
			p.fail()
		}
		p.advance()
		iter := p.disjunction()
		cl := Comprehension{Target: target, Iter: iter}
		for p.isKw("if") {
			p.advance()
			cl.Ifs = append(cl.Ifs, p.disjunction())
		}
		c.Generators = append(c.Generators, cl)
	}
	start := elt.Bounds().Offset
	if key != nil {
		start = key.Bounds().Offset
	}
	c.Span = Span{start, p.prevEnd()}
	if s, ok := elt.(*Starred); ok {
		p.failMsg("iterable unpacking cannot be used in comprehension", p.lineAt(s.Offset))
	}
	return c
}

func (p *parser) lineAt(offset int) int {
	return 1 + strings.Count(p.src[:offset], "\n")
}

func (p *parser) atom() Expr {
	t := p.peek()
	switch t.kind {
	case tkName:
		switch p.text(t) {
		case "True":
			p.advance()
			return &Constant{Span: Span{t.start, t.end}, Value: pyval.Bool(true)}
		case "False":
			p.advance()
			return &Constant{Span: Span{t.start, t.end}, Value: pyval.Bool(false)}
		case "None":
			p.advance()
			return &Constant{Span: Span{t.start, t.end}, Value: pyval.None}
		}
		if isKeyword(p.text(t)) {
			p.fail()
		}
		p.advance()
		return &Name{Span{t.start, t.end}, p.text(t)}
	case tkNumber:
		p.advance()
		v, err := parseNumber(p.src[t.start:t.end])
		if err != "" {
			p.failMsg(err, t.line)
		}
		return &Constant{Span: Span{t.start, t.end}, Value: v}
	case tkString:
		return p.strings()
	case tkOp:
		switch p.text(t) {
		case "...":
			p.advance()
			return &Constant{Span: Span{t.start, t.end}, Value: pyval.Ellipsis}
		case "(":
			return p.paren()
		case "[":
			return p.list()
		case "{":
			return p.brace()
		}
	}
	p.fail()
	return nil
}

func (p *parser) paren() Expr {
	open := p.peek()
	start := open.start
	p.advance()
	if p.isOp(")") {
		p.advance()
		return &Tuple{Span{start, p.prevEnd()}, nil}
	}
	if p.isKw("yield") {
		p.fail()
	}
	firstTok := p.i
	first := p.starNamed()
	if p.isKw("for") {
		g := p.comprehension(first, nil, "generator")
		p.expectOp(")")
		return g
	}
	if p.isOp(")") {
		p.advance()
		if _, ok := first.(*Starred); ok {
			p.failMsg("cannot use starred expression here", open.line)
		}
		return first
	}
	if !p.isOp(",") {
		p.checkMissingComma(firstTok, first)
		p.fail()
	}
	elts := []Expr{first}
	for p.isOp(",") {
		p.advance()
		if p.isOp(")") {
			break
		}
		et := p.i
		e := p.starNamed()
		elts = append(elts, e)
		if !p.isOp(",") && !p.isOp(")") {
			p.checkMissingComma(et, e)
			p.fail()
		}
	}
	p.expectOp(")")
	return &Tuple{Span{start, p.prevEnd()}, elts}
}

func (p *parser) list() Expr {
	start := p.peek().start
	p.advance()
	var elts []Expr
	if p.isOp("]") {
		p.advance()
		return &List{Span{start, p.prevEnd()}, elts}
	}
	p.i--
	items, _ := p.bracketItems()
	p.i++
	elts = make([]Expr, 0, items)
	firstTok := p.i
	first := p.starNamed()
	if p.isKw("for") {
		g := p.comprehension(first, nil, "list")
		p.expectOp("]")
		g.(*Comp).Span = Span{start, p.prevEnd()}
		return g
	}
	elts = append(elts, first)
	et, e := firstTok, first
	for {
		if p.isOp("]") {
			break
		}
		if !p.isOp(",") {
			p.checkMissingComma(et, e)
			p.fail()
		}
		p.advance()
		if p.isOp("]") {
			break
		}
		et = p.i
		e = p.starNamed()
		elts = append(elts, e)
	}
	p.advance()
	return &List{Span{start, p.prevEnd()}, elts}
}

func (p *parser) brace() Expr {
	open := p.peek()
	start := open.start
	p.advance()
	if p.isOp("}") {
		p.advance()
		return &Dict{Span: Span{start, p.prevEnd()}}
	}
	firstTok := p.i
	if p.isOp("**") {
		p.advance()
		v := p.bitor()
		d := &Dict{Keys: []Expr{nil}, Values: []Expr{v}}
		return p.dictRest(d, start, firstTok, v)
	}
	first := p.starNamed()
	if _, starred := first.(*Starred); !starred && p.isOp(":") {
		p.advance()
		if p.isOp("}") || p.isOp(",") {
			p.failMsg("expression expected after dictionary key and ':'", p.toks[firstTok].line)
		}
		vt := p.i
		v := p.expression()
		if p.isKw("for") {
			g := p.comprehension(v, first, "dict")
			p.expectOp("}")
			g.(*Comp).Span = Span{start, p.prevEnd()}
			return g
		}
		d := &Dict{Keys: []Expr{first}, Values: []Expr{v}}
		return p.dictRest(d, start, vt, v)
	}
	if p.isKw("for") {
		g := p.comprehension(first, nil, "set")
		p.expectOp("}")
		g.(*Comp).Span = Span{start, p.prevEnd()}
		return g
	}
	elts := []Expr{first}
	et, e := firstTok, first
	for {
		if p.isOp("}") {
			break
		}
		if !p.isOp(",") {
			p.checkMissingComma(et, e)
			p.fail()
		}
		p.advance()
		if p.isOp("}") {
			break
		}
		et = p.i
		e = p.starNamed()
		elts = append(elts, e)
	}
	p.advance()
	return &Set{Span{start, p.prevEnd()}, elts}
}

// dictRest parses the items after the first one; lastTok/last is the
// previous value (for the missing-comma check).
func (p *parser) dictRest(d *Dict, start, lastTok int, last Expr) Expr {
	for {
		if p.isOp("}") {
			break
		}
		if !p.isOp(",") {
			p.checkMissingComma(lastTok, last)
			p.fail()
		}
		p.advance()
		if p.isOp("}") {
			break
		}
		if p.isOp("**") {
			p.advance()
			lastTok = p.i
			v := p.bitor()
			d.Keys = append(d.Keys, nil)
			d.Values = append(d.Values, v)
			last = v
			continue
		}
		kt := p.i
		k := p.expression()
		if !p.isOp(":") {
			p.checkMissingComma(kt, k)
			p.failMsg("':' expected after dictionary key", p.toks[kt].line)
		}
		p.advance()
		if p.isOp("}") || p.isOp(",") {
			p.failMsg("expression expected after dictionary key and ':'", p.toks[kt].line)
		}
		lastTok = p.i
		v := p.expression()
		d.Keys = append(d.Keys, k)
		d.Values = append(d.Values, v)
		last = v
	}
	p.advance()
	d.Span = Span{start, p.prevEnd()}
	return d
}
