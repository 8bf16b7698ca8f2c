// Package pyexpr parses Python expressions (what eval() accepts) and
// modules made of NAME = expression statements, with CPython 3.12's error
// messages for common syntax errors, and evaluates the resulting trees with
// Python semantics on pyval values.
//
// It never executes arbitrary code: names, calls and attribute access go
// through an Env supplied by the caller.
package pyexpr

import "github.com/bfcl-go/bfcl/internal/python/pyval"

// Span is the byte range [Offset, EndOffset) of a node in its source.
type Span struct {
	Offset    int
	EndOffset int
}

// Bounds returns the node's span; every node embeds a Span.
func (s Span) Bounds() Span { return s }

// Expr is an expression node.
type Expr interface {
	Bounds() Span
	exprNode()
}

// Source returns the source text of e.
func Source(src string, e Expr) string {
	s := e.Bounds()
	if s.Offset < 0 || s.EndOffset > len(src) || s.Offset > s.EndOffset {
		return ""
	}
	return src[s.Offset:s.EndOffset]
}

// Constant is a literal: int, float, str, bytes, True, False, None or
// Ellipsis (...). Value holds the pyval value; Kind is "u" for a string
// whose first piece has the u prefix (as in Python's ast), else "".
type Constant struct {
	Span
	Value pyval.Value
	Kind  string
}

// Name is an identifier.
type Name struct {
	Span
	ID string
}

// Attribute is X.Attr.
type Attribute struct {
	Span
	X    Expr
	Attr string
}

// Keyword is one keyword argument of a call; Arg is "" for **Value.
type Keyword struct {
	Span
	Arg   string
	Value Expr
}

// Call is Func(Args..., Keywords...). Positional arguments may be
// *Starred; keyword arguments keep their source order.
type Call struct {
	Span
	Func     Expr
	Args     []Expr
	Keywords []Keyword
}

// Starred is *X (in calls and displays).
type Starred struct {
	Span
	X Expr
}

// List is [Elts...].
type List struct {
	Span
	Elts []Expr
}

// Tuple is (Elts...) or a bare comma-separated list.
type Tuple struct {
	Span
	Elts []Expr
}

// Set is {Elts...} (non-empty).
type Set struct {
	Span
	Elts []Expr
}

// Dict is {Keys[i]: Values[i], ...}; a nil key means **Values[i].
type Dict struct {
	Span
	Keys   []Expr
	Values []Expr
}

// UnaryOp is Op X with Op one of "-", "+", "~", "not".
type UnaryOp struct {
	Span
	Op string
	X  Expr
}

// BinOp is X Op Y with Op one of "+", "-", "*", "/", "//", "%", "**", "@",
// "<<", ">>", "&", "|", "^".
type BinOp struct {
	Span
	Op string
	X  Expr
	Y  Expr
}

// BoolOp is Values[0] Op Values[1] ... with Op "and" or "or".
type BoolOp struct {
	Span
	Op     string
	Values []Expr
}

// Compare is X Ops[0] Comparators[0] Ops[1] Comparators[1] ...; ops are
// "==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not".
type Compare struct {
	Span
	X           Expr
	Ops         []string
	Comparators []Expr
}

// Subscript is X[Index]; Index may be a *Slice or a *Tuple of them.
type Subscript struct {
	Span
	X     Expr
	Index Expr
}

// Slice is Lower:Upper:Step inside a subscript; absent parts are nil.
type Slice struct {
	Span
	Lower Expr
	Upper Expr
	Step  Expr
}

// IfExp is Body if Test else Else.
type IfExp struct {
	Span
	Test Expr
	Body Expr
	Else Expr
}

// NamedExpr is Target := Value.
type NamedExpr struct {
	Span
	Target *Name
	Value  Expr
}

// Lambda is lambda Params: Body (parsed, not evaluated).
type Lambda struct {
	Span
	Params []string
	Body   Expr
}

// Comprehension is one "for Target in Iter if Ifs..." clause.
type Comprehension struct {
	Target Expr
	Iter   Expr
	Ifs    []Expr
}

// Comp is a comprehension: Kind is "list", "set", "dict" or "generator";
// Key is the dict key (dict kind only), Elt the element or value.
type Comp struct {
	Span
	Kind       string
	Key        Expr
	Elt        Expr
	Generators []Comprehension
}

// FormattedValue is one {Value!Conversion:Spec} field of an f-string;
// Conversion is 0, 's', 'r' or 'a'; Spec is nil or a *JoinedStr.
type FormattedValue struct {
	Span
	Value      Expr
	Conversion byte
	Spec       Expr
}

// JoinedStr is an f-string (possibly concatenated with plain strings):
// Parts are *Constant (str) and *FormattedValue.
type JoinedStr struct {
	Span
	Parts []Expr
}

func (*Constant) exprNode()       {}
func (*Name) exprNode()           {}
func (*Attribute) exprNode()      {}
func (*Call) exprNode()           {}
func (*Starred) exprNode()        {}
func (*List) exprNode()           {}
func (*Tuple) exprNode()          {}
func (*Set) exprNode()            {}
func (*Dict) exprNode()           {}
func (*UnaryOp) exprNode()        {}
func (*BinOp) exprNode()          {}
func (*BoolOp) exprNode()         {}
func (*Compare) exprNode()        {}
func (*Subscript) exprNode()      {}
func (*Slice) exprNode()          {}
func (*IfExp) exprNode()          {}
func (*NamedExpr) exprNode()      {}
func (*Lambda) exprNode()         {}
func (*Comp) exprNode()           {}
func (*FormattedValue) exprNode() {}
func (*JoinedStr) exprNode()      {}

// Assign is one NAME = Value statement of a module.
type Assign struct {
	Name  string
	Value Expr
	Line  int
}
