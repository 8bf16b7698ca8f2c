package decode

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Prompt-mode JavaScript decoding: upstream parses the model's text with
// tree-sitter-javascript (bfcl_eval/model_handler/parser/js_parser.py),
// fails when the tree has an ERROR node, and reads the first top-level
// expression statement that is a call: the callee's source text is the
// name, each `name=value` argument gives value's source text with one pair
// of surrounding quotes removed, bare identifiers and `true` go under the
// None key. A hand-written parser for JavaScript expressions stands in for
// tree-sitter; text it cannot parse counts as an ERROR.

type jsTok struct {
	kind    string // "ident", "num", "str", "tmpl", "op", "eof"
	text    string
	start   int
	end     int
	newline bool // a line break precedes the token
}

type jsNode struct {
	kind       string
	start, end int
	callee     *jsNode
	args       []*jsNode // call arguments
	left       *jsNode   // assignment
	right      *jsNode
}

var jsPunct = []string{">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "**", "<<", ">>", "{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-",
	"*", "/", "%", "&", "|", "^", "!", "~", "?", ":", "=", ".", "@", "#"}

func jsIdentRune(r rune, first bool) bool {
	if r == '_' || r == '$' || unicode.IsLetter(r) {
		return true
	}
	return !first && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r))
}

func jsLex(src string) ([]jsTok, bool) {
	var toks []jsTok
	nl := false
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n' || c == '\r':
			nl = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\v' || c == '\f':
			i++
			continue
		}
		if end, found, ok := cComment(src, i); found {
			if !ok {
				return nil, false
			}
			if strings.Contains(src[i:end], "\n") {
				nl = true // a block comment over lines is a line break
			}
			i = end
			continue
		}
		start := i
		r, size := utf8.DecodeRuneInString(src[i:])
		kind := ""
		switch {
		case r == 0xa0 || r == 0xfeff || unicode.Is(unicode.Zs, r):
			i += size
			continue
		case r == 0x2028 || r == 0x2029:
			nl = true
			i += size
			continue
		case jsIdentRune(r, true):
			i += size
			for i < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[i:])
				if !jsIdentRune(r2, false) {
					break
				}
				i += s2
			}
			kind = "ident"
		case c >= '0' && c <= '9' || (c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9'):
			i = jsNumberEnd(src, i)
			if i < len(src) {
				if r2, _ := utf8.DecodeRuneInString(src[i:]); jsIdentRune(r2, false) {
					return nil, false
				}
			}
			kind = "num"
		case c == '"' || c == '\'':
			end, ok := quotedEnd(src, i)
			if !ok {
				return nil, false
			}
			i = end
			kind = "str"
		case c == '`':
			end, ok := jsTemplateEnd(src, i)
			if !ok {
				return nil, false
			}
			i = end
			kind = "tmpl"
		default:
			for _, op := range jsPunct {
				if strings.HasPrefix(src[i:], op) {
					// "?." followed by a digit is "?" then a number.
					if op == "?." && i+2 < len(src) && src[i+2] >= '0' && src[i+2] <= '9' {
						continue
					}
					i += len(op)
					kind = "op"
					break
				}
			}
			if kind == "" {
				return nil, false
			}
		}
		toks = append(toks, jsTok{kind: kind, text: src[start:i], start: start, end: i, newline: nl})
		nl = false
	}
	toks = append(toks, jsTok{kind: "eof", start: len(src), end: len(src), newline: true})
	return toks, true
}

func jsNumberEnd(src string, i int) int {
	n := len(src)
	isD := func(c byte) bool { return c >= '0' && c <= '9' || c == '_' }
	if src[i] == '0' && i+1 < n && strings.ContainsRune("xXoObB", rune(src[i+1])) {
		j := i + 2
		for j < n && (isD(src[j]) || strings.ContainsRune("abcdefABCDEF", rune(src[j]))) {
			j++
		}
		if j < n && src[j] == 'n' {
			j++
		}
		return j
	}
	j := i
	for j < n && isD(src[j]) {
		j++
	}
	if j < n && src[j] == 'n' {
		return j + 1
	}
	if j < n && src[j] == '.' {
		j++
		for j < n && isD(src[j]) {
			j++
		}
	}
	if k, ok := scanExponent(src, j, isD); ok {
		j = k
	}
	return j
}

// jsTemplateEnd returns the end of the template literal starting at i.
func jsTemplateEnd(src string, i int) (int, bool) {
	i++
	for i < len(src) {
		switch src[i] {
		case '\\':
			i += 2
		case '`':
			return i + 1, true
		case '$':
			if i+1 < len(src) && src[i+1] == '{' {
				depth := 1
				i += 2
				for i < len(src) && depth > 0 {
					switch src[i] {
					case '{':
						depth++
					case '}':
						depth--
					case '`':
						end, ok := jsTemplateEnd(src, i)
						if !ok {
							return 0, false
						}
						i = end - 1
					case '"', '\'':
						q := src[i]
						i++
						for i < len(src) && src[i] != q {
							if src[i] == '\\' {
								i++
							}
							i++
						}
					}
					i++
				}
				continue
			}
			i++
		default:
			i++
		}
	}
	return 0, false
}

type jsSyntaxError struct{}

type jsParser struct {
	tokCursor[jsTok, jsSyntaxError]
}

func (p *jsParser) isWord(w string) bool { return p.peek().is("ident", w) }
func (p *jsParser) expect(op string) jsTok {
	if !p.isOp(op) {
		p.fail()
	}
	return p.next()
}
func (p *jsParser) prevEnd() int { return p.toks[p.i-1].end }

func span(kind string, start, end int) *jsNode { return &jsNode{kind: kind, start: start, end: end} }

// program := { statement }; statements end with ";", a line break, "}"
// or the end of the text.
func (p *jsParser) program() []*jsNode {
	var stmts []*jsNode
	for p.peek().kind != "eof" {
		if p.isOp(";") {
			p.i++
			continue
		}
		var st *jsNode
		if (p.isWord("let") || p.isWord("const") || p.isWord("var")) && p.peekN(1).kind == "ident" {
			st = p.declaration()
		} else {
			e := p.expression()
			st = &jsNode{kind: "expression_statement", start: e.start, end: e.end, args: []*jsNode{e}}
		}
		stmts = append(stmts, st)
		switch {
		case p.isOp(";"):
			p.i++
		case p.peek().newline:
		default:
			p.fail()
		}
	}
	return stmts
}

// declaration parses `let|const|var name [= value] {, name [= value]}`.
func (p *jsParser) declaration() *jsNode {
	start := p.next().start
	for {
		if p.peek().kind != "ident" || isJSReserved(p.peek().text) {
			p.fail()
		}
		p.i++
		if p.isOp("=") {
			p.i++
			p.assignment()
		}
		if !p.isOp(",") {
			break
		}
		p.i++
	}
	return &jsNode{kind: "lexical_declaration", start: start, end: p.prevEnd(), args: []*jsNode{span("declaration", start, p.prevEnd())}}
}

func (p *jsParser) expression() *jsNode {
	e := p.assignment()
	if p.isOp(",") {
		start := e.start
		for p.isOp(",") {
			p.i++
			e = p.assignment()
		}
		return span("sequence_expression", start, e.end)
	}
	return e
}

var jsAssignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"**=": true, "<<=": true, ">>=": true, ">>>=": true, "&=": true, "|=": true, "^=": true,
	"&&=": true, "||=": true, "??=": true}

func (p *jsParser) assignment() *jsNode {
	if a := p.tryArrow(); a != nil {
		return a
	}
	left := p.conditional()
	if t := p.peek(); t.kind == "op" && jsAssignOps[t.text] {
		p.i++
		right := p.assignment()
		kind := "augmented_assignment_expression"
		if t.text == "=" {
			kind = "assignment_expression"
		}
		return &jsNode{kind: kind, start: left.start, end: right.end, left: left, right: right}
	}
	return left
}

// tryArrow parses `x => body`, `(params) => body` and their async forms.
func (p *jsParser) tryArrow() *jsNode {
	save := p.i
	start := p.peek().start
	if p.isWord("async") && !p.peekN(1).newline && (p.peekN(1).kind == "ident" || (p.peekN(1).kind == "op" && p.peekN(1).text == "(")) {
		p.i++
	}
	switch {
	case p.peek().kind == "ident" && p.peekN(1).kind == "op" && p.peekN(1).text == "=>":
		p.i++
	case p.isOp("("):
		depth := 0
		j := p.i
		for ; j < len(p.toks); j++ {
			t := p.toks[j]
			if t.kind == "op" && (t.text == "(" || t.text == "[" || t.text == "{") {
				depth++
			} else if t.kind == "op" && (t.text == ")" || t.text == "]" || t.text == "}") {
				depth--
				if depth == 0 {
					break
				}
			} else if t.kind == "eof" {
				p.i = save
				return nil
			}
		}
		if j+1 >= len(p.toks) || p.toks[j+1].kind != "op" || p.toks[j+1].text != "=>" {
			p.i = save
			return nil
		}
		p.i = j + 1
	default:
		p.i = save
		return nil
	}
	p.expect("=>")
	var end int
	if p.isOp("{") {
		end = p.balanced("{", "}")
	} else {
		end = p.assignment().end
	}
	return span("arrow_function", start, end)
}

// balanced skips a bracketed region and returns its end.
func (p *jsParser) balanced(open, close string) int {
	p.expect(open)
	depth := 1
	for depth > 0 {
		t := p.next()
		if t.kind == "op" && t.text == open {
			depth++
		} else if t.kind == "op" && t.text == close {
			depth--
		}
	}
	return p.prevEnd()
}

func (p *jsParser) conditional() *jsNode {
	c := p.binary(0)
	if p.isOp("?") {
		p.i++
		p.assignment()
		p.expect(":")
		e := p.assignment()
		return span("ternary_expression", c.start, e.end)
	}
	return c
}

var jsBinPrec = map[string]int{"??": 1, "||": 2, "&&": 3, "|": 4, "^": 5, "&": 6, "==": 7, "!=": 7,
	"===": 7, "!==": 7, "<": 8, ">": 8, "<=": 8, ">=": 8, "instanceof": 8, "in": 8, "<<": 9,
	">>": 9, ">>>": 9, "+": 10, "-": 10, "*": 11, "/": 11, "%": 11, "**": 12}

func (p *jsParser) binary(minPrec int) *jsNode {
	left := p.unary()
	for {
		t := p.peek()
		pr := 0
		if t.kind == "op" || (t.kind == "ident" && (t.text == "instanceof" || t.text == "in")) {
			pr = jsBinPrec[t.text]
		}
		if pr == 0 || pr <= minPrec {
			return left
		}
		p.i++
		next := pr
		if t.text == "**" {
			next = pr - 1
		}
		right := p.binary(next)
		left = span("binary_expression", left.start, right.end)
	}
}

func (p *jsParser) unary() *jsNode {
	t := p.peek()
	if (t.kind == "op" && strings.Contains(" ! ~ + - ++ -- ", " "+t.text+" ")) ||
		(t.kind == "ident" && (t.text == "typeof" || t.text == "void" || t.text == "delete" || t.text == "await")) {
		p.i++
		x := p.unary()
		return span("unary_expression", t.start, x.end)
	}
	x := p.lhs()
	if (p.isOp("++") || p.isOp("--")) && !p.peek().newline {
		p.i++
		return span("update_expression", x.start, p.prevEnd())
	}
	return x
}

func (p *jsParser) arguments() ([]*jsNode, int) {
	p.expect("(")
	var args []*jsNode
	for !p.isOp(")") {
		if p.isOp("...") {
			st := p.next().start
			e := p.assignment()
			args = append(args, span("spread_element", st, e.end))
		} else {
			args = append(args, p.assignment())
		}
		if p.isOp(",") {
			p.i++
			continue
		}
		if !p.isOp(")") {
			p.fail()
		}
	}
	p.i++
	return args, p.prevEnd()
}

func (p *jsParser) lhs() *jsNode {
	x := p.primary()
	for {
		switch {
		case p.isOp("."), p.isOp("?."):
			p.i++
			if p.isOp("(") {
				args, end := p.arguments()
				x = &jsNode{kind: "call_expression", start: x.start, end: end, callee: x, args: args}
				continue
			}
			if p.isOp("[") {
				p.i++
				p.expression()
				p.expect("]")
				x = span("subscript_expression", x.start, p.prevEnd())
				continue
			}
			if p.isOp("#") {
				p.i++
			}
			if p.peek().kind != "ident" {
				p.fail()
			}
			p.i++
			x = span("member_expression", x.start, p.prevEnd())
		case p.isOp("["):
			p.i++
			p.expression()
			p.expect("]")
			x = span("subscript_expression", x.start, p.prevEnd())
		case p.isOp("("):
			args, end := p.arguments()
			x = &jsNode{kind: "call_expression", start: x.start, end: end, callee: x, args: args}
		case p.peek().kind == "tmpl":
			t := p.next()
			x = &jsNode{kind: "call_expression", start: x.start, end: t.end, callee: x}
		default:
			return x
		}
	}
}

func (p *jsParser) primary() *jsNode {
	t := p.peek()
	switch t.kind {
	case "num":
		p.i++
		return span("number", t.start, t.end)
	case "str":
		p.i++
		return span("string", t.start, t.end)
	case "tmpl":
		p.i++
		return span("template_string", t.start, t.end)
	case "ident":
		switch t.text {
		case "true", "false", "null", "undefined", "this", "super":
			p.i++
			return span(t.text, t.start, t.end)
		case "new":
			p.i++
			if p.isOp(".") {
				p.i++
				p.next()
				return span("meta_property", t.start, p.prevEnd())
			}
			callee := p.primary()
			for p.isOp(".") || p.isOp("[") {
				if p.isOp(".") {
					p.i++
					if p.peek().kind != "ident" {
						p.fail()
					}
					p.i++
				} else {
					p.i++
					p.expression()
					p.expect("]")
				}
			}
			_ = callee
			end := p.prevEnd()
			if p.isOp("(") {
				_, end = p.arguments()
			}
			return span("new_expression", t.start, end)
		case "function", "class":
			p.i++
			for !p.isOp("{") {
				if p.peek().kind == "eof" {
					p.fail()
				}
				if p.isOp("(") {
					p.balanced("(", ")")
					continue
				}
				p.i++
			}
			end := p.balanced("{", "}")
			return span(t.text, t.start, end)
		}
		if isJSReserved(t.text) {
			p.fail()
		}
		p.i++
		return span("identifier", t.start, t.end)
	case "op":
		switch t.text {
		case "(":
			p.i++
			p.expression()
			p.expect(")")
			return span("parenthesized_expression", t.start, p.prevEnd())
		case "[":
			p.i++
			for !p.isOp("]") {
				if p.isOp(",") {
					p.i++
					continue
				}
				if p.isOp("...") {
					p.i++
				}
				p.assignment()
				if p.isOp(",") {
					p.i++
					continue
				}
				if !p.isOp("]") {
					p.fail()
				}
			}
			p.i++
			return span("array", t.start, p.prevEnd())
		case "{":
			return p.object()
		}
	}
	p.fail()
	return nil
}

func isJSReserved(w string) bool {
	switch w {
	case "break", "case", "catch", "continue", "debugger", "default", "do", "else", "export",
		"extends", "finally", "for", "if", "import", "return", "switch", "throw", "try", "var",
		"const", "while", "with", "let", "in", "instanceof", "typeof", "void", "delete":
		return true
	}
	return false
}

func (p *jsParser) object() *jsNode {
	start := p.expect("{").start
	for !p.isOp("}") {
		switch {
		case p.isOp("..."):
			p.i++
			p.assignment()
		default:
			// key
			t := p.peek()
			switch {
			case t.kind == "ident" || t.kind == "str" || t.kind == "num":
				p.i++
			case t.kind == "op" && t.text == "[":
				p.i++
				p.assignment()
				p.expect("]")
			default:
				p.fail()
			}
			switch {
			case p.isOp(":"):
				p.i++
				p.assignment()
			case p.isOp("("):
				p.balanced("(", ")")
				p.balanced("{", "}")
			case p.isOp("=") && t.kind == "ident":
				// shorthand with default (only valid as a pattern)
				p.fail()
			case t.kind == "ident":
				// shorthand property
			default:
				p.fail()
			}
		}
		if p.isOp(",") {
			p.i++
			continue
		}
		if !p.isOp("}") {
			p.fail()
		}
	}
	p.i++
	return span("object", start, p.prevEnd())
}

// parseJSCall is parse_javascript_function_call.
func parseJSCall(src string) (result pyval.Value, err error) {
	syntaxErr := pyval.NewException("SyntaxError", "Error js parsing the source code.")
	toks, ok := jsLex(src)
	if !ok {
		return nil, syntaxErr
	}
	p := &jsParser{tokCursor[jsTok, jsSyntaxError]{toks: toks}}
	var stmts []*jsNode
	if !p.attempt(func() { stmts = p.program() }) {
		return nil, syntaxErr
	}
	for _, st := range stmts {
		call := st.args[0]
		if call.kind != "call_expression" || call.callee == nil {
			continue
		}
		args := pyval.NewDict()
		multi := false
		add := func(k pyval.Value, v string) {
			if old, has := args.Get(k); has {
				multi = true
				l, isList := old.(*pyval.List)
				if !isList {
					l = pyval.NewList(old)
				}
				l.Items = append(l.Items, pyval.Str(v))
				args.Set(k, l)
				return
			}
			args.Set(k, pyval.Str(v))
		}
		for _, a := range call.args {
			switch a.kind {
			case "assignment_expression":
				v := src[a.right.start:a.right.end]
				if len(v) >= 2 && ((v[0] == '"' && v[len(v)-1] == '"') || (v[0] == '\'' && v[len(v)-1] == '\'')) {
					v = v[1 : len(v)-1]
				} else if v == `"` || v == "'" {
					v = ""
				}
				add(pyval.Str(src[a.left.start:a.left.end]), v)
			case "identifier", "true":
				add(pyval.None, src[a.start:a.end])
			}
		}
		if multi {
			return nil, pyval.NewException("Exception", "Error: Multiple arguments with the same name are not supported.")
		}
		d := pyval.NewDictCap(1)
		d.Set(pyval.Str(src[call.callee.start:call.callee.end]), args)
		return pyval.NewList(d), nil
	}
	return pyval.None, nil
}
