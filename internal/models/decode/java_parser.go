package decode

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Prompt-mode Java decoding: upstream parses the model's text with
// tree-sitter-java (bfcl_eval/model_handler/parser/java_parser.py), fails
// when the tree has an ERROR node, and reads the first method invocation
// found in pre-order. This file reproduces that with a hand-written parser
// for Java expression statements: text it cannot parse counts as an ERROR
// (tree-sitter's error recovery is not modelled), and argument values are
// rebuilt from the tree the way upstream's traverse_node does (string
// literals keep their escapes, nested tokens are concatenated without
// spaces, anonymous class bodies are dropped).

type jnode struct {
	kind  string // tree-sitter node type for the kinds upstream looks at
	start int    // byte offsets in the source
	end   int
	kids  []*jnode
	// field children used by upstream
	name, object, args, typ, value, left, right *jnode
	op                                          string
}

type jtok struct {
	kind  string // "ident", "kw", "num", "str", "char", "op", "eof"
	text  string
	start int
	end   int
	lit   string // literal node type for num
}

var javaKeywords = map[string]bool{
	"abstract": true, "assert": true, "boolean": true, "break": true, "byte": true, "case": true,
	"catch": true, "char": true, "class": true, "const": true, "continue": true, "default": true,
	"do": true, "double": true, "else": true, "enum": true, "extends": true, "final": true,
	"finally": true, "float": true, "for": true, "goto": true, "if": true, "implements": true,
	"import": true, "instanceof": true, "int": true, "interface": true, "long": true, "native": true,
	"new": true, "package": true, "private": true, "protected": true, "public": true, "return": true,
	"short": true, "static": true, "strictfp": true, "super": true, "switch": true, "synchronized": true,
	"this": true, "throw": true, "throws": true, "transient": true, "try": true, "void": true,
	"volatile": true, "while": true, "true": true, "false": true, "null": true,
}

var javaPrimitive = map[string]string{
	"byte": "integral_type", "short": "integral_type", "int": "integral_type", "long": "integral_type",
	"char": "integral_type", "float": "floating_point_type", "double": "floating_point_type",
	"boolean": "boolean_type", "void": "void_type",
}

var javaOps = []string{">>>=", "<<=", ">>=", "...", "->", "::", "++", "--", "&&", "||", "==", "!=", "<=", ">=",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", "(", ")", "{", "}", "[", "]", ";", ",", ".", "@",
	"=", ">", "<", "!", "~", "?", ":", "+", "-", "*", "/", "&", "|", "^", "%"}

type javaSyntaxError struct{}

func javaLex(src string) ([]jtok, bool) {
	var toks []jtok
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
			continue
		}
		if end, found, ok := cComment(src, i); found {
			if !ok {
				return nil, false
			}
			i = end
			continue
		}
		start := i
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == '_' || r == '$' || unicode.IsLetter(r):
			i += size
			for i < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[i:])
				if r2 == '_' || r2 == '$' || unicode.IsLetter(r2) || unicode.IsDigit(r2) {
					i += s2
					continue
				}
				break
			}
			w := src[start:i]
			k := "ident"
			if javaKeywords[w] {
				k = "kw"
			}
			toks = append(toks, jtok{kind: k, text: w, start: start, end: i})
		case c >= '0' && c <= '9' || (c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9'):
			end, lit, ok := javaNumber(src, i)
			if !ok {
				return nil, false
			}
			i = end
			toks = append(toks, jtok{kind: "num", text: src[start:i], start: start, end: i, lit: lit})
		case c == '"':
			if strings.HasPrefix(src[i:], `"""`) {
				j := strings.Index(src[i+3:], `"""`)
				if j < 0 {
					return nil, false
				}
				i += j + 6
			} else {
				end, ok := quotedEnd(src, i)
				if !ok {
					return nil, false
				}
				i = end
			}
			toks = append(toks, jtok{kind: "str", text: src[start:i], start: start, end: i})
		case c == '\'':
			end, ok := quotedEnd(src, i)
			if !ok {
				return nil, false
			}
			i = end
			toks = append(toks, jtok{kind: "char", text: src[start:i], start: start, end: i})
		default:
			matched := false
			for _, op := range javaOps {
				if strings.HasPrefix(src[i:], op) {
					i += len(op)
					toks = append(toks, jtok{kind: "op", text: op, start: start, end: i})
					matched = true
					break
				}
			}
			if !matched {
				return nil, false
			}
		}
	}
	toks = append(toks, jtok{kind: "eof", start: len(src), end: len(src)})
	return toks, true
}

// quotedEnd is the offset just past the literal that the quote byte at
// src[i] opens and the same byte closes on the same line, a backslash
// escaping the byte after it (Java's string and character literals,
// JavaScript's strings); false when a newline or the end of src comes
// first.
func quotedEnd(src string, i int) (int, bool) {
	q := src[i]
	for i++; i < len(src) && src[i] != q; i++ {
		if src[i] == '\n' {
			return 0, false
		}
		if src[i] == '\\' {
			i++
		}
	}
	if i >= len(src) {
		return 0, false
	}
	return i + 1, true
}

// javaNumber scans a Java numeric literal and names its node type.
func javaNumber(src string, i int) (int, string, bool) {
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' || c == '_' }
	isHex := func(c byte) bool {
		return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	n := len(src)
	if src[i] == '0' && i+1 < n && (src[i+1] == 'x' || src[i+1] == 'X') {
		j := i + 2
		for j < n && isHex(src[j]) {
			j++
		}
		if j < n && (src[j] == 'l' || src[j] == 'L') {
			j++
		}
		return j, "hex_integer_literal", j > i+2
	}
	if src[i] == '0' && i+1 < n && (src[i+1] == 'b' || src[i+1] == 'B') {
		j := i + 2
		for j < n && (src[j] == '0' || src[j] == '1' || src[j] == '_') {
			j++
		}
		if j < n && (src[j] == 'l' || src[j] == 'L') {
			j++
		}
		return j, "binary_integer_literal", j > i+2
	}
	j := i
	for j < n && isDigit(src[j]) {
		j++
	}
	float := false
	if j < n && src[j] == '.' && (j+1 >= n || src[j+1] != '.') {
		float = true
		j++
		for j < n && isDigit(src[j]) {
			j++
		}
	}
	if k, ok := scanExponent(src, j, isDigit); ok {
		j = k
		float = true
	}
	if j < n {
		switch src[j] {
		case 'f', 'F', 'd', 'D':
			return j + 1, "decimal_floating_point_literal", true
		case 'l', 'L':
			if !float {
				return j + 1, "decimal_integer_literal", true
			}
		}
	}
	if float {
		return j, "decimal_floating_point_literal", true
	}
	if src[i] == '0' && j > i+1 {
		return j, "octal_integer_literal", true
	}
	return j, "decimal_integer_literal", true
}

type jparser struct {
	tokCursor[jtok, javaSyntaxError]
	src string
}

func (p *jparser) isKw(kw string) bool { return p.peek().is("kw", kw) }
func (p *jparser) expect(op string) *jnode {
	if !p.isOp(op) {
		p.fail()
	}
	return p.leaf(op)
}

// leaf consumes one token as a leaf node of the given kind.
func (p *jparser) leaf(kind string) *jnode {
	t := p.next()
	return &jnode{kind: kind, start: t.start, end: t.end}
}

func compose(kind string, kids ...*jnode) *jnode {
	n := &jnode{kind: kind, kids: kids}
	n.start, n.end = kids[0].start, kids[len(kids)-1].end
	return n
}

// program := { statement }. A statement is a local variable declaration
// or an expression, optionally ended by ";", possibly behind labels
// ("Answer: f(a=1)"). tree-sitter accepts a
// missing ";" after a method invocation that has an object or arguments
// (and after a declaration); after anything else its recovery leaves an
// ERROR node, which is what this parser reports.
func (p *jparser) program() []*jnode {
	var stmts []*jnode
	for p.peek().kind != "eof" {
		if p.isOp(";") {
			p.i++
			continue
		}
		labeled := false
		for p.peek().kind == "ident" && p.peekN(1).kind == "op" && p.peekN(1).text == ":" {
			p.i += 2
			labeled = true
		}
		if p.peek().kind == "eof" {
			p.fail()
		}
		if d := p.tryDeclaration(); d != nil {
			stmts = append(stmts, d)
			if p.isOp(";") {
				p.i++
			}
			continue
		}
		e := p.expression()
		stmts = append(stmts, e)
		if p.isOp(";") {
			p.i++
			continue
		}
		if labeled {
			continue
		}
		if e.kind != "method_invocation" || (e.object == nil && len(e.args.kids) <= 2) {
			p.fail()
		}
	}
	return stmts
}

// tryDeclaration parses `Type name [= value] {, name [= value]}`.
func (p *jparser) tryDeclaration() (decl *jnode) {
	save := p.i
	t := p.peek()
	if !(t.kind == "ident" || (t.kind == "kw" && javaPrimitive[t.text] != "" && t.text != "void")) {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			if _, isSyn := r.(javaSyntaxError); !isSyn {
				panic(r)
			}
			p.i = save
			decl = nil
		}
	}()
	typ := p.typeNode()
	if p.peek().kind != "ident" {
		p.i = save
		return nil
	}
	kids := []*jnode{typ}
	for {
		name := p.leaf("identifier")
		kids = append(kids, name)
		if p.isOp("=") {
			kids = append(kids, p.leaf("="))
			if p.isOp("{") {
				kids = append(kids, p.arrayInit())
			} else {
				kids = append(kids, p.expression())
			}
		}
		if !p.isOp(",") {
			break
		}
		kids = append(kids, p.leaf(","))
	}
	return compose("local_variable_declaration", kids...)
}

var javaAssignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true,
	"&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true, ">>>=": true}

func (p *jparser) expression() *jnode {
	if lam := p.tryLambda(); lam != nil {
		return lam
	}
	left := p.ternary()
	if t := p.peek(); t.kind == "op" && javaAssignOps[t.text] {
		op := p.leaf(t.text)
		right := p.expression()
		n := compose("assignment_expression", left, op, right)
		n.left, n.right = left, right
		return n
	}
	return left
}

// tryLambda parses `x -> body` or `(a, b) -> body` when it is one.
func (p *jparser) tryLambda() *jnode {
	save := p.i
	var params *jnode
	switch {
	case p.peek().kind == "ident" && p.peekN(1).kind == "op" && p.peekN(1).text == "->":
		params = p.leaf("identifier")
	case p.isOp("("):
		depth, j := 0, p.i
		for ; j < len(p.toks); j++ {
			t := p.toks[j]
			if t.kind == "op" && t.text == "(" {
				depth++
			} else if t.kind == "op" && t.text == ")" {
				depth--
				if depth == 0 {
					break
				}
			} else if t.kind == "eof" {
				return nil
			}
		}
		if j+1 >= len(p.toks) || p.toks[j+1].kind != "op" || p.toks[j+1].text != "->" {
			return nil
		}
		first := p.leaf("(")
		kids := []*jnode{first}
		for !p.isOp(")") {
			kids = append(kids, p.leaf("tok"))
		}
		kids = append(kids, p.leaf(")"))
		params = compose("formal_parameters", kids...)
	default:
		return nil
	}
	if !p.isOp("->") {
		p.i = save
		return nil
	}
	arrow := p.leaf("->")
	var body *jnode
	if p.isOp("{") {
		body = p.balanced("{", "}", "block")
	} else {
		body = p.expression()
	}
	return compose("lambda_expression", params, arrow, body)
}

// balanced consumes a bracketed region whose contents are not modelled.
func (p *jparser) balanced(open, close, kind string) *jnode {
	first := p.expect(open)
	kids := []*jnode{first}
	depth := 1
	for depth > 0 {
		t := p.peek()
		if t.kind == "eof" {
			p.fail()
		}
		if t.kind == "op" && t.text == open {
			depth++
		} else if t.kind == "op" && t.text == close {
			depth--
		}
		kids = append(kids, p.leaf("tok"))
	}
	return compose(kind, kids...)
}

func (p *jparser) ternary() *jnode {
	cond := p.binary(0)
	if p.isOp("?") {
		q := p.leaf("?")
		a := p.expression()
		c := p.expect(":")
		b := p.expression()
		return compose("ternary_expression", cond, q, a, c, b)
	}
	return cond
}

var javaBinPrec = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
	"<": 7, ">": 7, "<=": 7, ">=": 7, "instanceof": 7, "<<": 8, ">>": 8, ">>>": 8,
	"+": 9, "-": 9, "*": 10, "/": 10, "%": 10}

func (p *jparser) binOp() (string, int) {
	t := p.peek()
	if t.kind == "kw" && t.text == "instanceof" {
		return "instanceof", 7
	}
	if t.kind != "op" {
		return "", 0
	}
	// ">>" and ">>>" are lexed as separate ">" tokens (generics need that).
	if t.text == ">" && p.peekN(1).kind == "op" && p.peekN(1).text == ">" && p.peekN(1).start == t.end {
		if p.peekN(2).kind == "op" && p.peekN(2).text == ">" && p.peekN(2).start == p.peekN(1).end {
			return ">>>", 8
		}
		return ">>", 8
	}
	if pr, isBin := javaBinPrec[t.text]; isBin {
		return t.text, pr
	}
	return "", 0
}

func (p *jparser) binary(minPrec int) *jnode {
	left := p.unary()
	for {
		op, pr := p.binOp()
		if pr == 0 || pr <= minPrec {
			return left
		}
		var opNode *jnode
		switch op {
		case ">>":
			a, b := p.leaf(">"), p.leaf(">")
			opNode = compose("tok", a, b)
		case ">>>":
			a, b, c := p.leaf(">"), p.leaf(">"), p.leaf(">")
			opNode = compose("tok", a, b, c)
		default:
			opNode = p.leaf(op)
		}
		var right *jnode
		if op == "instanceof" {
			right = p.typeNode()
		} else {
			right = p.binary(pr)
		}
		left = compose("binary_expression", left, opNode, right)
	}
}

func (p *jparser) unary() *jnode {
	t := p.peek()
	if t.kind == "op" {
		switch t.text {
		case "+", "-", "!", "~", "++", "--":
			op := p.leaf(t.text)
			x := p.unary()
			return compose("unary_expression", op, x)
		case "(":
			if c := p.tryCast(); c != nil {
				return c
			}
		}
	}
	return p.postfix(p.primary())
}

// tryCast parses `(Type) operand` when the parenthesis holds a type.
func (p *jparser) tryCast() *jnode {
	save := p.i
	defer func() {
		if r := recover(); r != nil {
			if _, isSyn := r.(javaSyntaxError); !isSyn {
				panic(r)
			}
			p.i = save
		}
	}()
	open := p.leaf("(")
	nt := p.peek()
	if nt.kind != "ident" && !(nt.kind == "kw" && javaPrimitive[nt.text] != "") {
		p.i = save
		return nil
	}
	typ := p.typeNode()
	if !p.isOp(")") {
		p.i = save
		return nil
	}
	closeP := p.leaf(")")
	next := p.peek()
	primitive := nt.kind == "kw"
	switch {
	case primitive:
	case next.kind == "ident" || next.kind == "num" || next.kind == "str" || next.kind == "char" ||
		(next.kind == "kw" && (next.text == "new" || next.text == "this" || next.text == "true" || next.text == "false" || next.text == "null")) ||
		(next.kind == "op" && (next.text == "(" || next.text == "!" || next.text == "~")):
	default:
		p.i = save
		return nil
	}
	x := p.unary()
	return compose("cast_expression", open, typ, closeP, x)
}

// typeNode parses a type: primitive or dotted name with type arguments,
// followed by [] dimensions.
func (p *jparser) typeNode() *jnode {
	var n *jnode
	t := p.peek()
	switch {
	case t.kind == "kw" && javaPrimitive[t.text] != "":
		n = p.leaf(javaPrimitive[t.text])
	case t.kind == "ident":
		n = p.leaf("type_identifier")
		for p.isOp(".") && p.peekN(1).kind == "ident" {
			dot := p.leaf(".")
			id := p.leaf("type_identifier")
			n = compose("scoped_type_identifier", n, dot, id)
		}
		if p.isOp("<") {
			n = compose("generic_type", n, p.typeArgs())
		}
	case t.kind == "op" && t.text == "?":
		n = p.leaf("wildcard")
		if p.isKw("extends") || p.isKw("super") {
			kw := p.leaf("tok")
			n = compose("wildcard", n, kw, p.typeNode())
		}
	default:
		p.fail()
	}
	for p.isOp("[") && p.peekN(1).kind == "op" && p.peekN(1).text == "]" {
		a, b := p.leaf("["), p.leaf("]")
		n = compose("array_type", n, compose("dimensions", a, b))
	}
	return n
}

func (p *jparser) typeArgs() *jnode {
	kids := []*jnode{p.expect("<")}
	for !p.isOp(">") {
		kids = append(kids, p.typeNode())
		if p.isOp(",") {
			kids = append(kids, p.leaf(","))
			continue
		}
		if !p.isOp(">") {
			p.fail()
		}
	}
	kids = append(kids, p.leaf(">"))
	return compose("type_arguments", kids...)
}

func (p *jparser) arguments() *jnode {
	kids := []*jnode{p.expect("(")}
	for !p.isOp(")") {
		kids = append(kids, p.expression())
		if p.isOp(",") {
			kids = append(kids, p.leaf(","))
			if p.isOp(")") {
				p.fail()
			}
			continue
		}
		if !p.isOp(")") {
			p.fail()
		}
	}
	kids = append(kids, p.leaf(")"))
	return compose("argument_list", kids...)
}

func (p *jparser) primary() *jnode {
	t := p.peek()
	switch t.kind {
	case "num":
		return p.leaf(t.lit)
	case "str":
		return p.leaf("string_literal")
	case "char":
		return p.leaf("character_literal")
	case "ident":
		if p.peekN(1).kind == "op" && p.peekN(1).text == "(" {
			name := p.leaf("identifier")
			args := p.arguments()
			n := compose("method_invocation", name, args)
			n.name, n.args = name, args
			return n
		}
		// Type.class
		if p.peekN(1).kind == "op" && p.peekN(1).text == "." && p.peekN(2).kind == "kw" && p.peekN(2).text == "class" {
			typ := p.leaf("type_identifier")
			dot := p.leaf(".")
			cls := p.leaf("class")
			return compose("class_literal", typ, dot, cls)
		}
		return p.leaf("identifier")
	case "kw":
		switch t.text {
		case "true", "false":
			return p.leaf(t.text)
		case "null":
			return p.leaf("null_literal")
		case "this", "super":
			return p.leaf(t.text)
		case "new":
			return p.creation()
		}
		if javaPrimitive[t.text] != "" && p.peekN(1).kind == "op" && p.peekN(1).text == "." {
			typ := p.leaf(javaPrimitive[t.text])
			dot := p.leaf(".")
			if !p.isKw("class") {
				p.fail()
			}
			cls := p.leaf("class")
			return compose("class_literal", typ, dot, cls)
		}
	case "op":
		if t.text == "(" {
			open := p.leaf("(")
			x := p.expression()
			closeP := p.expect(")")
			return compose("parenthesized_expression", open, x, closeP)
		}
	}
	p.fail()
	return nil
}

// creation parses `new Type(args) [class body]` or an array creation.
func (p *jparser) creation() *jnode {
	newKw := p.leaf("new")
	var typ *jnode
	t := p.peek()
	switch {
	case t.kind == "kw" && javaPrimitive[t.text] != "":
		typ = p.leaf(javaPrimitive[t.text])
	case t.kind == "ident":
		typ = p.leaf("type_identifier")
		for p.isOp(".") && p.peekN(1).kind == "ident" {
			dot := p.leaf(".")
			id := p.leaf("type_identifier")
			typ = compose("scoped_type_identifier", typ, dot, id)
		}
		if p.isOp("<") {
			typ = compose("generic_type", typ, p.typeArgs())
		}
	default:
		p.fail()
	}
	if p.isOp("[") {
		kids := []*jnode{newKw, typ}
		for p.isOp("[") {
			open := p.leaf("[")
			if p.isOp("]") {
				kids = append(kids, compose("dimensions", open, p.leaf("]")))
				continue
			}
			x := p.expression()
			kids = append(kids, compose("dimensions_expr", open, x, p.expect("]")))
		}
		n := &jnode{kind: "array_creation_expression", typ: typ}
		if p.isOp("{") {
			n.value = p.arrayInit()
			kids = append(kids, n.value)
		}
		n.kids = kids
		n.start, n.end = kids[0].start, kids[len(kids)-1].end
		return n
	}
	args := p.arguments()
	kids := []*jnode{newKw, typ, args}
	if p.isOp("{") {
		kids = append(kids, p.balanced("{", "}", "class_body"))
	}
	n := compose("object_creation_expression", kids...)
	n.typ, n.args = typ, args
	return n
}

func (p *jparser) arrayInit() *jnode {
	kids := []*jnode{p.expect("{")}
	for !p.isOp("}") {
		if p.isOp("{") {
			kids = append(kids, p.arrayInit())
		} else {
			kids = append(kids, p.expression())
		}
		if p.isOp(",") {
			kids = append(kids, p.leaf(","))
			continue
		}
		if !p.isOp("}") {
			p.fail()
		}
	}
	kids = append(kids, p.leaf("}"))
	return compose("array_initializer", kids...)
}

func (p *jparser) postfix(x *jnode) *jnode {
	for {
		switch {
		case p.isOp("."):
			dot := p.leaf(".")
			t := p.peek()
			switch {
			case t.kind == "ident" && p.peekN(1).kind == "op" && p.peekN(1).text == "(":
				name := p.leaf("identifier")
				args := p.arguments()
				n := compose("method_invocation", x, dot, name, args)
				n.object, n.name, n.args = x, name, args
				x = n
			case t.kind == "ident":
				x = compose("field_access", x, dot, p.leaf("identifier"))
			case t.kind == "kw" && t.text == "class":
				x = compose("class_literal", x, dot, p.leaf("class"))
			case t.kind == "kw" && (t.text == "this" || t.text == "new"):
				if t.text == "new" {
					x = compose("object_creation_expression", x, dot, p.creation())
				} else {
					x = compose("field_access", x, dot, p.leaf("this"))
				}
			default:
				p.fail()
			}
		case p.isOp("["):
			open := p.leaf("[")
			idx := p.expression()
			x = compose("array_access", x, open, idx, p.expect("]"))
		case p.isOp("::"):
			op := p.leaf("::")
			t := p.peek()
			if t.kind == "ident" || (t.kind == "kw" && t.text == "new") {
				x = compose("method_reference", x, op, p.leaf("identifier"))
			} else {
				p.fail()
			}
		case p.isOp("++") || p.isOp("--"):
			x = compose("update_expression", x, p.leaf("tok"))
		default:
			return x
		}
	}
}

// javaText is upstream's get_text: the source sliced with the node's byte
// offsets, applied (as upstream does) to the string's code points.
func javaText(runes []rune, n *jnode) string {
	s, e := n.start, n.end
	if s > len(runes) {
		s = len(runes)
	}
	if e > len(runes) {
		e = len(runes)
	}
	if s > e {
		return ""
	}
	return string(runes[s:e])
}

// javaTraverse is traverse_node.
func javaTraverse(runes []rune, n *jnode, nested bool) (string, error) {
	if n == nil {
		return "", pyval.NewAttributeError("'NoneType' object has no attribute 'type'")
	}
	switch n.kind {
	case "string_literal", "character_literal":
		t := javaText(runes, n)
		if nested {
			return t, nil
		}
		r := []rune(t)
		if len(r) <= 2 {
			return "", nil
		}
		return string(r[1 : len(r)-1]), nil
	case "identifier", "class_literal", "type_identifier", "method_invocation":
		return javaText(runes, n), nil
	case "array_creation_expression":
		tt, err := javaTraverse(runes, n.typ, true)
		if err != nil {
			return "", err
		}
		vt, err := javaTraverse(runes, n.value, true)
		if err != nil {
			return "", err
		}
		return "new " + tt + "[]" + vt, nil
	case "object_creation_expression":
		if n.typ == nil {
			break
		}
		tt, err := javaTraverse(runes, n.typ, true)
		if err != nil {
			return "", err
		}
		var parts []string
		for _, k := range n.args.kids {
			if k.kind == "," || k.kind == "(" || k.kind == ")" {
				continue
			}
			at, err := javaTraverse(runes, k, true)
			if err != nil {
				return "", err
			}
			parts = append(parts, at)
		}
		return "new " + tt + "(" + strings.Join(parts, ", ") + ")", nil
	}
	if len(n.kids) > 0 {
		var b strings.Builder
		for _, k := range n.kids {
			t, err := javaTraverse(runes, k, true)
			if err != nil {
				return "", err
			}
			b.WriteString(t)
		}
		return b.String(), nil
	}
	return javaText(runes, n), nil
}

// firstInvocation finds the first method_invocation in pre-order.
func firstInvocation(n *jnode) *jnode {
	if n.kind == "method_invocation" && n.args != nil {
		return n
	}
	for _, k := range n.kids {
		if f := firstInvocation(k); f != nil {
			return f
		}
	}
	return nil
}

// parseJavaCall is parse_java_function_call.
func parseJavaCall(src string) (result pyval.Value, err error) {
	syntaxErr := pyval.NewException("SyntaxError", "Error parsing java the source code.")
	toks, ok := javaLex(src)
	if !ok {
		return nil, syntaxErr
	}
	p := &jparser{tokCursor: tokCursor[jtok, javaSyntaxError]{toks: toks}, src: src}
	var stmts []*jnode
	if !p.attempt(func() { stmts = p.program() }) {
		return nil, syntaxErr
	}
	runes := []rune(src)
	for _, st := range stmts {
		inv := firstInvocation(st)
		if inv == nil {
			continue
		}
		name := javaText(runes, inv.name)
		if inv.object != nil {
			name = javaText(runes, inv.object) + "." + name
		}
		args := pyval.NewDict()
		multi := map[pyval.Value]bool{}
		add := func(k pyval.Value, v string) {
			if old, has := args.Get(k); has {
				l, isList := old.(*pyval.List)
				if !isList || !multi[k] {
					l = pyval.NewList(old)
					multi[k] = true
				}
				l.Items = append(l.Items, pyval.Str(v))
				args.Set(k, l)
				return
			}
			args.Set(k, pyval.Str(v))
		}
		for _, k := range inv.args.kids {
			switch k.kind {
			case "assignment_expression":
				v, err := javaTraverse(runes, k.right, false)
				if err != nil {
					return nil, err
				}
				add(pyval.Str(javaText(runes, k.left)), v)
			case "identifier", "class_literal":
				v, err := javaTraverse(runes, k, false)
				if err != nil {
					return nil, err
				}
				add(pyval.None, v)
			}
		}
		if len(multi) > 0 {
			return nil, pyval.NewException("Exception", "Error: Multiple arguments with the same name are not supported.")
		}
		d := pyval.NewDictCap(1)
		d.Set(pyval.Str(name), args)
		return pyval.NewList(d), nil
	}
	return pyval.NewDict(), nil
}
