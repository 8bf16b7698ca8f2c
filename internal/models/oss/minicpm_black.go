package oss

import (
	"errors"
	"sort"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// black's formatting of the statements datamodel-code-generator writes in
// a class body (black 26 with datamodel-code-generator's settings: line
// length 88, no string normalization, no preview features), for the
// expressions such a statement holds: atoms (names, numbers, strings),
// calls (Field(...), lambda: X.parse_obj(...)), keyword arguments, dict
// and list displays, and the list comprehension of a list default.
//
// A line that fits in 88 columns stays as it is. Otherwise black's
// right-hand split applies at the last bracket of the line: the opening
// bracket ends the first line, the closing one starts the last; the
// contents go on one line if they fit, except that a dict or list display
// with more than one element always gets one element per line ("always
// explode collections"), as do call arguments that do not fit together;
// an exploded element list ends with a trailing comma. Each resulting
// line is formatted again the same way. An assignment whose right-hand
// side is a lone atom gets parentheses when that makes the atom fit, or
// when the left-hand side has brackets (black prefers that to splitting
// the annotation), and is left too long otherwise. Widths are black's
// str_width (East Asian wide characters count 2). A shape outside these
// (a first line that still does not fit) is errBlackShape.

const blackLineLength = 88

var errBlackShape = errors.New("a line black would wrap in a way not reproduced here")

// bexpr is an expression of a generated statement.
type bexpr interface{ flat() string }

// batom cannot be split.
type batom struct {
	text string
}

// bkv is a keyword argument (key "name=") or a dict item (key "'k': ").
type bkv struct {
	key string
	val bexpr
}

// bbracket is prefix + open + items + close: a call (prefix "Field") or a
// display (collection: dict or list).
type bbracket struct {
	prefix, open, close string
	items               []bexpr
	collection          bool
}

// bcomp is the comprehension "elem for v in iter".
type bcomp struct {
	elem, iter bexpr
}

func (a batom) flat() string { return a.text }
func (c bcomp) flat() string { return c.elem.flat() + " for v in " + c.iter.flat() }
func (kv bkv) flat() string  { return kv.key + kv.val.flat() }
func (b bbracket) flat() string {
	parts := make([]string, len(b.items))
	for i, it := range b.items {
		parts[i] = it.flat()
	}
	return b.prefix + b.open + strings.Join(parts, ", ") + b.close
}

// pyExpr is the expression of repr(v) (dicts and lists as displays).
func pyExpr(v pyval.Value) bexpr {
	switch x := v.(type) {
	case *pyval.Dict:
		if x.Len() == 0 {
			return batom{text: "{}"}
		}
		b := bbracket{open: "{", close: "}", collection: true}
		for _, kv := range x.Items() {
			b.items = append(b.items, bkv{key: pyval.Repr(kv.Key) + ": ", val: pyExpr(kv.Value)})
		}
		return b
	case *pyval.List:
		if len(x.Items) == 0 {
			return batom{text: "[]"}
		}
		b := bbracket{open: "[", close: "]", collection: true}
		for _, it := range x.Items {
			b.items = append(b.items, pyExpr(it))
		}
		return b
	case pyval.Float:
		return batom{text: blackNumber(pyval.Repr(x))}
	}
	return batom{text: pyval.Repr(v)}
}

// blackNumber is black's normalize_numeric_literal for a float's repr: no
// "+" in the exponent ("2.5e+20" is written 2.5e20).
func blackNumber(s string) string {
	before, after, ok := strings.Cut(s, "e")
	if !ok {
		return s
	}
	sign := ""
	if strings.HasPrefix(after, "-") {
		after, sign = after[1:], "-"
	} else {
		after = strings.TrimPrefix(after, "+")
	}
	return before + "e" + sign + after
}

// blackStatement formats "lead + e" at indent, one string ending in "\n".
func blackStatement(indent int, lead string, e bexpr) (string, error) {
	lines, err := blackFormat(indent, lead, e, "", strings.HasSuffix(lead, " = "))
	if err != nil {
		return "", err
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// blackAnnotation formats the statement "name: hint": a hint without
// brackets that does not fit goes inside parentheses when it then fits
// (black's parenthesized long type hints); other long hints are
// errBlackShape.
func blackAnnotation(indent int, name, hint string) (string, error) {
	pad := strings.Repeat(" ", indent)
	line := pad + name + ": " + hint
	if blackWidth(line) <= blackLineLength {
		return line + "\n", nil
	}
	inner := strings.Repeat(" ", indent+4) + hint
	if strings.ContainsAny(hint, "[(") || blackWidth(inner) > blackLineLength || blackWidth(pad+name+": (") > blackLineLength {
		return "", errBlackShape
	}
	return pad + name + ": (\n" + inner + "\n" + pad + ")\n", nil
}

func blackFormat(indent int, lead string, e bexpr, trail string, assignment bool) ([]string, error) {
	pad := strings.Repeat(" ", indent)
	one := pad + lead + e.flat() + trail
	if blackWidth(one) <= blackLineLength {
		return []string{one}, nil
	}
	switch x := e.(type) {
	case bkv:
		return blackFormat(indent, lead+x.key, x.val, trail, false)
	case batom:
		if assignment && trail == "" {
			// The right-hand side's invisible parentheses are made visible
			// when the atom then fits, and also when it does not if the
			// left-hand side has brackets (black prefers that to
			// splitting the annotation).
			inner := strings.Repeat(" ", indent+4) + x.text
			if blackWidth(inner) <= blackLineLength || strings.ContainsAny(lead, "[(") {
				if blackWidth(pad+lead+"(") > blackLineLength {
					return nil, errBlackShape
				}
				return []string{pad + lead + "(", inner, pad + ")"}, nil
			}
		}
		return []string{one}, nil
	case bcomp:
		// black's delimiter split at "for", then each part on its own.
		first, err := blackFormat(indent, lead, x.elem, "", false)
		if err != nil {
			return nil, err
		}
		rest, err := blackFormat(indent, "for v in ", x.iter, trail, false)
		if err != nil {
			return nil, err
		}
		return append(first, rest...), nil
	case bbracket:
		head := pad + lead + x.prefix + x.open
		if blackWidth(head) > blackLineLength {
			// An assignment keeps the right-hand side whole inside
			// parentheses when its first line would not fit.
			if !assignment || trail != "" || blackWidth(pad+lead+"(") > blackLineLength {
				return nil, errBlackShape
			}
			inner, err := blackFormat(indent+4, "", x, "", false)
			if err != nil {
				return nil, err
			}
			return append(append([]string{pad + lead + "("}, inner...), pad+")"), nil
		}
		out := []string{head}
		inner := indent + 4
		explode := x.collection && len(x.items) > 1
		if !explode {
			parts := make([]string, len(x.items))
			for i, it := range x.items {
				parts[i] = it.flat()
			}
			body := strings.Repeat(" ", inner) + strings.Join(parts, ", ")
			switch {
			case blackWidth(body) <= blackLineLength:
				out = append(out, body)
			case len(x.items) == 1:
				lines, err := blackFormat(inner, "", x.items[0], "", false)
				if err != nil {
					return nil, err
				}
				out = append(out, lines...)
			default:
				explode = true
			}
		}
		if explode {
			for _, it := range x.items {
				lines, err := blackFormat(inner, "", it, ",", false)
				if err != nil {
					return nil, err
				}
				out = append(out, lines...)
			}
		}
		return append(out, pad+x.close+trail), nil
	}
	return nil, errBlackShape
}

// blackWidth is black's str_width.
func blackWidth(s string) int {
	n := 0
	for _, r := range s {
		n += blackCharWidth(r)
	}
	return n
}

func blackCharWidth(r rune) int {
	if r < 0x80 {
		return 1
	}
	c := int32(r)
	i := sort.Search(len(blackWidthTable), func(i int) bool { return blackWidthTable[i][1] >= c })
	if i < len(blackWidthTable) && blackWidthTable[i][0] <= c {
		if w := blackWidthTable[i][2]; w > 0 {
			return int(w)
		}
		return 0
	}
	return 1
}
