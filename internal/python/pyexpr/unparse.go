package pyexpr

import (
	"math"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Operator precedence levels of CPython's ast unparser.
const (
	precNamedExpr = iota + 1
	precTuple
	precYield
	precTest
	precOr
	precAnd
	precNot
	precCmp
	precExpr // also BOR
	precBXor
	precBAnd
	precShift
	precArith
	precTerm
	precFactor
	precPower
	precAwait
	precAtom
)

const precBOr = precExpr

func binopPrec(op string) int {
	switch op {
	case "+", "-":
		return precArith
	case "*", "@", "/", "%", "//":
		return precTerm
	case "<<", ">>":
		return precShift
	case "|":
		return precBOr
	case "^":
		return precBXor
	case "&":
		return precBAnd
	case "**":
		return precPower
	}
	return precTest
}

func nextPrec(p int) int {
	if p >= precAtom {
		return precAtom
	}
	return p + 1
}

// Unparse is Python 3.12's ast.unparse for the nodes of this package:
// canonical spacing, the minimal parentheses, repr() of constants (with
// 1e309 for infinities), and the u prefix kept on u” strings.
// f-strings are rendered in a simplified way (single or double quotes).
func Unparse(e Expr) string {
	u := &unparser{prec: map[Expr]int{}}
	u.visit(e)
	return u.b.String()
}

type unparser struct {
	b    strings.Builder
	prec map[Expr]int
}

func (u *unparser) get(e Expr) int {
	if p, ok := u.prec[e]; ok {
		return p
	}
	return precTest
}

func (u *unparser) set(p int, es ...Expr) {
	for _, e := range es {
		if e != nil {
			u.prec[e] = p
		}
	}
}

func (u *unparser) w(s string) { u.b.WriteString(s) }

// parens writes f's output, parenthesised when e binds looser than p.
func (u *unparser) parens(p int, e Expr, f func()) {
	need := u.get(e) > p
	if need {
		u.w("(")
	}
	f()
	if need {
		u.w(")")
	}
}

func (u *unparser) constant(v pyval.Value) {
	switch x := v.(type) {
	case pyval.Float:
		f := float64(x)
		switch {
		case math.IsNaN(f):
			u.w("(1e309-1e309)")
		case math.IsInf(f, 1):
			u.w("1e309")
		case math.IsInf(f, -1):
			u.w("-1e309")
		default:
			u.w(pyval.Repr(x))
		}
	case pyval.EllipsisType:
		u.w("...")
	default:
		u.w(pyval.Repr(v))
	}
}

func (u *unparser) items(es []Expr) {
	for i, e := range es {
		if i > 0 {
			u.w(", ")
		}
		u.visit(e)
	}
}

func (u *unparser) visit(e Expr) {
	switch x := e.(type) {
	case *Constant:
		if x.Kind == "u" {
			u.w("u")
		}
		u.constant(x.Value)
	case *Name:
		u.w(x.ID)
	case *Attribute:
		u.set(precAtom, x.X)
		u.visit(x.X)
		if c, ok := x.X.(*Constant); ok {
			switch c.Value.(type) {
			case pyval.Int, pyval.BigInt:
				u.w(" ")
			}
		}
		u.w(".")
		u.w(x.Attr)
	case *Call:
		u.set(precAtom, x.Func)
		u.visit(x.Func)
		u.w("(")
		first := true
		for _, a := range x.Args {
			if !first {
				u.w(", ")
			}
			first = false
			u.visit(a)
		}
		for _, k := range x.Keywords {
			if !first {
				u.w(", ")
			}
			first = false
			if k.Arg == "" {
				u.w("**")
			} else {
				u.w(k.Arg)
				u.w("=")
			}
			u.visit(k.Value)
		}
		u.w(")")
	case *Starred:
		u.w("*")
		u.set(precExpr, x.X)
		u.visit(x.X)
	case *List:
		u.w("[")
		u.items(x.Elts)
		u.w("]")
	case *Tuple:
		need := len(x.Elts) == 0 || u.get(e) > precTuple
		if need {
			u.w("(")
		}
		u.items(x.Elts)
		if len(x.Elts) == 1 {
			u.w(",")
		}
		if need {
			u.w(")")
		}
	case *Set:
		if len(x.Elts) == 0 {
			u.w("{*()}")
			return
		}
		u.w("{")
		u.items(x.Elts)
		u.w("}")
	case *Dict:
		u.w("{")
		for i, k := range x.Keys {
			if i > 0 {
				u.w(", ")
			}
			if k == nil {
				u.w("**")
				u.set(precExpr, x.Values[i])
				u.visit(x.Values[i])
				continue
			}
			u.visit(k)
			u.w(": ")
			u.visit(x.Values[i])
		}
		u.w("}")
	case *UnaryOp:
		p := precFactor
		if x.Op == "not" {
			p = precNot
		}
		u.parens(p, e, func() {
			u.w(x.Op)
			if p != precFactor {
				u.w(" ")
			}
			u.set(p, x.X)
			u.visit(x.X)
		})
	case *BinOp:
		p := binopPrec(x.Op)
		u.parens(p, e, func() {
			lp, rp := p, nextPrec(p)
			if x.Op == "**" {
				lp, rp = nextPrec(p), p
			}
			u.set(lp, x.X)
			u.set(rp, x.Y)
			u.visit(x.X)
			u.w(" " + x.Op + " ")
			u.visit(x.Y)
		})
	case *BoolOp:
		p := precAnd
		if x.Op == "or" {
			p = precOr
		}
		u.parens(p, e, func() {
			cur := p
			for i, v := range x.Values {
				if i > 0 {
					u.w(" " + x.Op + " ")
				}
				cur = nextPrec(cur)
				u.set(cur, v)
				u.visit(v)
			}
		})
	case *Compare:
		u.parens(precCmp, e, func() {
			u.set(nextPrec(precCmp), x.X)
			u.set(nextPrec(precCmp), x.Comparators...)
			u.visit(x.X)
			for i, op := range x.Ops {
				u.w(" " + op + " ")
				u.visit(x.Comparators[i])
			}
		})
	case *Subscript:
		u.set(precAtom, x.X)
		u.visit(x.X)
		u.w("[")
		if t, ok := x.Index.(*Tuple); ok && len(t.Elts) > 0 {
			u.items(t.Elts)
			if len(t.Elts) == 1 {
				u.w(",")
			}
		} else {
			u.visit(x.Index)
		}
		u.w("]")
	case *Slice:
		if x.Lower != nil {
			u.visit(x.Lower)
		}
		u.w(":")
		if x.Upper != nil {
			u.visit(x.Upper)
		}
		if x.Step != nil {
			u.w(":")
			u.visit(x.Step)
		}
	case *IfExp:
		u.parens(precTest, e, func() {
			u.set(nextPrec(precTest), x.Body, x.Test)
			u.visit(x.Body)
			u.w(" if ")
			u.visit(x.Test)
			u.w(" else ")
			u.set(precTest, x.Else)
			u.visit(x.Else)
		})
	case *NamedExpr:
		u.parens(precNamedExpr, e, func() {
			u.set(precAtom, x.Target, x.Value)
			u.visit(x.Target)
			u.w(" := ")
			u.visit(x.Value)
		})
	case *Lambda:
		u.parens(precTest, e, func() {
			u.w("lambda")
			if len(x.Params) > 0 {
				u.w(" " + strings.Join(x.Params, ", "))
			}
			u.w(": ")
			u.set(precTest, x.Body)
			u.visit(x.Body)
		})
	case *Comp:
		open, close := "[", "]"
		switch x.Kind {
		case "generator":
			open, close = "(", ")"
		case "set", "dict":
			open, close = "{", "}"
		}
		u.w(open)
		if x.Kind == "dict" {
			u.visit(x.Key)
			u.w(": ")
		}
		u.visit(x.Elt)
		for _, g := range x.Generators {
			u.w(" for ")
			u.set(precTuple, g.Target)
			u.visit(g.Target)
			u.w(" in ")
			u.set(nextPrec(precTest), g.Iter)
			u.set(nextPrec(precTest), g.Ifs...)
			u.visit(g.Iter)
			for _, c := range g.Ifs {
				u.w(" if ")
				u.visit(c)
			}
		}
		u.w(close)
	case *JoinedStr:
		u.w("f")
		inner := u.fstringBody(x)
		quote := "'"
		if strings.Contains(inner, "'") && !strings.Contains(inner, `"`) {
			quote = `"`
		} else if strings.Contains(inner, "'") {
			inner = strings.ReplaceAll(inner, "'", `\'`)
		}
		u.w(quote + inner + quote)
	case *FormattedValue:
		u.w(u.fieldText(x))
	}
}

func (u *unparser) fstringBody(j *JoinedStr) string {
	var b strings.Builder
	for _, p := range j.Parts {
		switch x := p.(type) {
		case *Constant:
			s := pyval.StrOf(x.Value)
			r := pyval.Repr(pyval.Str(s))
			body := r[1 : len(r)-1]
			if r[0] == '"' {
				body = strings.ReplaceAll(body, "'", "'")
			} else {
				body = strings.ReplaceAll(body, `\'`, "'")
			}
			body = strings.ReplaceAll(body, "{", "{{")
			body = strings.ReplaceAll(body, "}", "}}")
			b.WriteString(body)
		case *FormattedValue:
			b.WriteString(u.fieldText(x))
		}
	}
	return b.String()
}

func (u *unparser) fieldText(f *FormattedValue) string {
	sub := &unparser{prec: map[Expr]int{}}
	sub.set(nextPrec(precTest), f.Value)
	sub.visit(f.Value)
	expr := sub.b.String()
	var b strings.Builder
	b.WriteString("{")
	if strings.HasPrefix(expr, "{") {
		b.WriteString(" ")
	}
	b.WriteString(expr)
	if f.Conversion != 0 {
		b.WriteString("!" + string(f.Conversion))
	}
	if js, ok := f.Spec.(*JoinedStr); ok {
		b.WriteString(":")
		b.WriteString(u.fstringBody(js))
	}
	b.WriteString("}")
	return b.String()
}
