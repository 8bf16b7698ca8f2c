package decode

import (
	"math"
	"strings"

	"github.com/bfcl-go/bfcl/internal/pyexpr"
	"github.com/bfcl-go/bfcl/internal/pyval"
)

// unparse is ast.unparse (CPython 3.12) for the expression nodes a model's
// call can contain: precedence-driven parentheses, ", " separators, repr()
// for constants. Comprehensions, lambdas and f-strings, which the
// single-turn decoder can only meet inside a positional-free call or a
// subscript, fall back to their source text.

// Precedence levels of ast._Precedence.
const (
	precNamedExpr = iota + 1
	precTuple
	precYield
	precTest
	precOr
	precAnd
	precNot
	precCmp
	precBor // == EXPR
	precBxor
	precBand
	precShift
	precArith
	precTerm
	precFactor
	precPower
	precAwait
	precAtom
)

var binopPrec = map[string]int{
	"+": precArith, "-": precArith, "*": precTerm, "@": precTerm, "/": precTerm,
	"%": precTerm, "//": precTerm, "**": precPower, "<<": precShift, ">>": precShift,
	"|": precBor, "^": precBxor, "&": precBand,
}

func unparse(src string, e pyexpr.Expr) string {
	u := unparser{src: src}
	u.node(e, precTest)
	return u.b.String()
}

type unparser struct {
	src string
	b   strings.Builder
}

func (u *unparser) open(need bool) {
	if need {
		u.b.WriteByte('(')
	}
}

func (u *unparser) close(need bool) {
	if need {
		u.b.WriteByte(')')
	}
}

// node writes e, which sits where precedence prec is expected.
func (u *unparser) node(e pyexpr.Expr, prec int) {
	switch x := e.(type) {
	case *pyexpr.Constant:
		u.constant(x.Value)
	case *pyexpr.Name:
		u.b.WriteString(x.ID)
	case *pyexpr.Attribute:
		u.node(x.X, precAtom)
		if c, isConst := x.X.(*pyexpr.Constant); isConst {
			switch c.Value.(type) {
			case pyval.Int, pyval.BigInt:
				u.b.WriteByte(' ')
			}
		}
		u.b.WriteByte('.')
		u.b.WriteString(x.Attr)
	case *pyexpr.Call:
		u.node(x.Func, precAtom)
		u.b.WriteByte('(')
		first := true
		for _, a := range x.Args {
			if !first {
				u.b.WriteString(", ")
			}
			first = false
			u.node(a, precTest)
		}
		for _, k := range x.Keywords {
			if !first {
				u.b.WriteString(", ")
			}
			first = false
			if k.Arg == "" {
				u.b.WriteString("**")
			} else {
				u.b.WriteString(k.Arg)
				u.b.WriteByte('=')
			}
			u.node(k.Value, precTest)
		}
		u.b.WriteByte(')')
	case *pyexpr.Starred:
		u.b.WriteByte('*')
		u.node(x.X, precBor)
	case *pyexpr.List:
		u.b.WriteByte('[')
		u.items(x.Elts)
		u.b.WriteByte(']')
	case *pyexpr.Tuple:
		need := len(x.Elts) == 0 || prec > precTuple
		u.open(need)
		u.items(x.Elts)
		if len(x.Elts) == 1 {
			u.b.WriteByte(',')
		}
		u.close(need)
	case *pyexpr.Set:
		if len(x.Elts) == 0 {
			u.b.WriteString("{*()}")
			return
		}
		u.b.WriteByte('{')
		u.items(x.Elts)
		u.b.WriteByte('}')
	case *pyexpr.Dict:
		u.b.WriteByte('{')
		for i, k := range x.Keys {
			if i > 0 {
				u.b.WriteString(", ")
			}
			if k == nil {
				u.b.WriteString("**")
				u.node(x.Values[i], precBor)
				continue
			}
			u.node(k, precTest)
			u.b.WriteString(": ")
			u.node(x.Values[i], precTest)
		}
		u.b.WriteByte('}')
	case *pyexpr.UnaryOp:
		p := precFactor
		if x.Op == "not" {
			p = precNot
		}
		need := prec > p
		u.open(need)
		u.b.WriteString(x.Op)
		if p != precFactor {
			u.b.WriteByte(' ')
		}
		u.node(x.X, p)
		u.close(need)
	case *pyexpr.BinOp:
		p := binopPrec[x.Op]
		need := prec > p
		u.open(need)
		left, right := p, p+1
		if x.Op == "**" {
			left, right = p+1, p
		}
		u.node(x.X, left)
		u.b.WriteString(" " + x.Op + " ")
		u.node(x.Y, right)
		u.close(need)
	case *pyexpr.BoolOp:
		p := precAnd
		if x.Op == "or" {
			p = precOr
		}
		need := prec > p
		u.open(need)
		level := p
		for i, v := range x.Values {
			if i > 0 {
				u.b.WriteString(" " + x.Op + " ")
			}
			level++
			u.node(v, level)
		}
		u.close(need)
	case *pyexpr.Compare:
		need := prec > precCmp
		u.open(need)
		u.node(x.X, precCmp+1)
		for i, op := range x.Ops {
			u.b.WriteString(" " + op + " ")
			u.node(x.Comparators[i], precCmp+1)
		}
		u.close(need)
	case *pyexpr.Subscript:
		u.node(x.X, precAtom)
		u.b.WriteByte('[')
		if t, isTuple := x.Index.(*pyexpr.Tuple); isTuple && len(t.Elts) > 0 {
			u.items(t.Elts)
			if len(t.Elts) == 1 {
				u.b.WriteByte(',')
			}
		} else {
			u.node(x.Index, precTest)
		}
		u.b.WriteByte(']')
	case *pyexpr.Slice:
		if x.Lower != nil {
			u.node(x.Lower, precTest)
		}
		u.b.WriteByte(':')
		if x.Upper != nil {
			u.node(x.Upper, precTest)
		}
		if x.Step != nil {
			u.b.WriteByte(':')
			u.node(x.Step, precTest)
		}
	case *pyexpr.IfExp:
		need := prec > precTest
		u.open(need)
		u.node(x.Body, precTest+1)
		u.b.WriteString(" if ")
		u.node(x.Test, precTest+1)
		u.b.WriteString(" else ")
		u.node(x.Else, precTest)
		u.close(need)
	case *pyexpr.NamedExpr:
		need := prec > precNamedExpr
		u.open(need)
		u.b.WriteString(x.Target.ID)
		u.b.WriteString(" := ")
		u.node(x.Value, precAtom)
		u.close(need)
	default:
		u.b.WriteString(pyexpr.Source(u.src, e))
	}
}

func (u *unparser) items(elts []pyexpr.Expr) {
	for i, el := range elts {
		if i > 0 {
			u.b.WriteString(", ")
		}
		u.node(el, precTest)
	}
}

// constant is _write_constant: repr(), with infinities as 1e309.
func (u *unparser) constant(v pyval.Value) {
	switch x := v.(type) {
	case pyval.Float:
		f := float64(x)
		switch {
		case math.IsInf(f, 1):
			u.b.WriteString("1e309")
			return
		case math.IsInf(f, -1):
			u.b.WriteString("-1e309")
			return
		case math.IsNaN(f):
			u.b.WriteString("(1e309-1e309)")
			return
		}
	case pyval.EllipsisType:
		u.b.WriteString("...")
		return
	}
	u.b.WriteString(pyval.Repr(v))
}
