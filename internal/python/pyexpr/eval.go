package pyexpr

import (
	"strconv"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Env supplies what an expression may reach: names, calls and attributes.
// Errors it returns are passed through unchanged (they should be
// *pyval.Exception values with Python's texts).
type Env interface {
	// LookupName resolves a free name (NameError text if unknown:
	// "name 'x' is not defined").
	LookupName(name string) (pyval.Value, error)
	// Call calls fn with positional args and keyword args in source order.
	Call(fn pyval.Value, args []pyval.Value, kwargs []pyval.KV) (pyval.Value, error)
	// GetAttr is getattr(obj, name).
	GetAttr(obj pyval.Value, name string) (pyval.Value, error)
}

// LiteralEval is ast.literal_eval on a parsed expression: constants, tuple,
// list, set, dict displays, set() with no arguments, and unary +/- on
// numbers. Anything else gives ValueError("malformed node or string on
// line 1: <ast.Name object>") as Python does (without the address).
func LiteralEval(e Expr) (pyval.Value, error) {
	switch x := e.(type) {
	case *Constant:
		return x.Value, nil
	case *Tuple:
		out, err := pyval.MapEach(x.Elts, LiteralEval)
		if err != nil {
			return nil, err
		}
		return pyval.Tuple(out), nil
	case *List:
		out, err := pyval.MapEach(x.Elts, LiteralEval)
		if err != nil {
			return nil, err
		}
		return pyval.NewList(out...), nil
	case *Set:
		// set(map(_convert, elts)): each element is hashed as it is
		// converted, so an unhashable one fails before a later malformed one.
		return buildSet(len(x.Elts), func(i int) (pyval.Value, error) { return LiteralEval(x.Elts[i]) })
	case *Dict:
		d := pyval.NewDictCap(len(x.Keys))
		for i, k := range x.Keys {
			if k == nil {
				return nil, malformed(x.Values[i])
			}
			if err := EvalDictItem(d, k, x.Values[i], LiteralEval); err != nil {
				return nil, err
			}
		}
		return d, nil
	case *Call:
		if n, ok := x.Func.(*Name); ok && n.ID == "set" && len(x.Args) == 0 && len(x.Keywords) == 0 {
			return pyval.NewSet(), nil
		}
	case *UnaryOp:
		if x.Op == "-" || x.Op == "+" {
			if c, ok := x.X.(*Constant); ok {
				switch c.Value.(type) {
				case pyval.Int, pyval.BigInt, pyval.Float, pyval.Bool:
					if x.Op == "-" {
						return pyval.Neg(c.Value)
					}
					return pyval.Pos(c.Value)
				}
			}
		}
		return nil, malformed(x.X)
	}
	return nil, malformed(e)
}

// NodeName is the name of the Python ast class of a node ("expr" for
// one it does not know).
func NodeName(e Expr) string {
	switch x := e.(type) {
	case *Constant:
		return "Constant"
	case *Name:
		return "Name"
	case *Attribute:
		return "Attribute"
	case *Call:
		return "Call"
	case *Starred:
		return "Starred"
	case *List:
		return "List"
	case *Tuple:
		return "Tuple"
	case *Set:
		return "Set"
	case *Dict:
		return "Dict"
	case *UnaryOp:
		return "UnaryOp"
	case *BinOp:
		return "BinOp"
	case *BoolOp:
		return "BoolOp"
	case *Compare:
		return "Compare"
	case *Subscript:
		return "Subscript"
	case *Slice:
		return "Slice"
	case *IfExp:
		return "IfExp"
	case *NamedExpr:
		return "NamedExpr"
	case *Lambda:
		return "Lambda"
	case *Comp:
		switch x.Kind {
		case "list":
			return "ListComp"
		case "set":
			return "SetComp"
		case "dict":
			return "DictComp"
		}
		return "GeneratorExp"
	case *JoinedStr:
		return "JoinedStr"
	case *FormattedValue:
		return "FormattedValue"
	}
	return "expr"
}

func malformed(e Expr) error {
	return pyval.NewValueError("malformed node or string on line 1: <ast." + NodeName(e) + " object>")
}

// Eval evaluates e with Python semantics. Names, calls and attributes go
// through env; operators use the pyval operators. Evaluation order is
// Python's: the function, then positional arguments left to right, then
// keyword arguments in order. Comprehension variables and := targets live
// in a local scope that shadows env.
func Eval(e Expr, env Env) (pyval.Value, error) {
	ev := &evaluator{env: env}
	return ev.eval(e)
}

type evaluator struct {
	env    Env
	locals map[string]pyval.Value
}

func (ev *evaluator) lookup(name string) (pyval.Value, error) {
	if ev.locals != nil {
		if v, ok := ev.locals[name]; ok {
			return v, nil
		}
	}
	return ev.env.LookupName(name)
}

func (ev *evaluator) evalSeq(elts []Expr) ([]pyval.Value, error) {
	out := make([]pyval.Value, 0, len(elts))
	for _, el := range elts {
		if s, ok := el.(*Starred); ok {
			v, err := ev.eval(s.X)
			if err != nil {
				return nil, err
			}
			items, err := pyval.Iterate(v)
			if err != nil {
				if ex, ok := err.(*pyval.Exception); ok && ex.Type == "TypeError" {
					return nil, pyval.NewTypeError("Value after * must be an iterable, not " + v.TypeName())
				}
				return nil, err
			}
			out = append(out, items...)
			continue
		}
		v, err := ev.eval(el)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (ev *evaluator) eval(e Expr) (pyval.Value, error) {
	switch x := e.(type) {
	case *Constant:
		return x.Value, nil
	case *Name:
		return ev.lookup(x.ID)
	case *Attribute:
		obj, err := ev.eval(x.X)
		if err != nil {
			return nil, err
		}
		return ev.env.GetAttr(obj, x.Attr)
	case *Call:
		return ev.call(x)
	case *List:
		items, err := ev.evalSeq(x.Elts)
		if err != nil {
			return nil, err
		}
		return pyval.NewList(items...), nil
	case *Tuple:
		items, err := ev.evalSeq(x.Elts)
		if err != nil {
			return nil, err
		}
		return pyval.Tuple(items), nil
	case *Set:
		items, err := ev.evalSeq(x.Elts)
		if err != nil {
			return nil, err
		}
		return buildSet(len(items), func(i int) (pyval.Value, error) { return items[i], nil })
	case *Dict:
		d := pyval.NewDictCap(len(x.Keys))
		for i, k := range x.Keys {
			if k == nil {
				m, err := ev.eval(x.Values[i])
				if err != nil {
					return nil, err
				}
				md, ok := m.(*pyval.Dict)
				if !ok {
					return nil, pyval.NewTypeError("'" + m.TypeName() + "' object is not a mapping")
				}
				d.Update(md)
				continue
			}
			if err := EvalDictItem(d, k, x.Values[i], ev.eval); err != nil {
				return nil, err
			}
		}
		return d, nil
	case *UnaryOp:
		v, err := ev.eval(x.X)
		if err != nil {
			return nil, err
		}
		switch x.Op {
		case "-":
			return pyval.Neg(v)
		case "+":
			return pyval.Pos(v)
		case "~":
			return pyval.Invert(v)
		}
		return pyval.Not(v), nil
	case *BinOp:
		a, err := ev.eval(x.X)
		if err != nil {
			return nil, err
		}
		b, err := ev.eval(x.Y)
		if err != nil {
			return nil, err
		}
		return pyval.BinaryOp(x.Op, a, b)
	case *BoolOp:
		var v pyval.Value
		for _, operand := range x.Values {
			var err error
			if v, err = ev.eval(operand); err != nil {
				return nil, err
			}
			t := pyval.Truthy(v)
			if (x.Op == "or" && t) || (x.Op == "and" && !t) {
				return v, nil
			}
		}
		return v, nil
	case *Compare:
		left, err := ev.eval(x.X)
		if err != nil {
			return nil, err
		}
		for i, op := range x.Ops {
			right, err := ev.eval(x.Comparators[i])
			if err != nil {
				return nil, err
			}
			r, err := pyval.Compare(op, left, right)
			if err != nil {
				return nil, err
			}
			if !r {
				return pyval.Bool(false), nil
			}
			left = right
		}
		return pyval.Bool(true), nil
	case *Subscript:
		obj, err := ev.eval(x.X)
		if err != nil {
			return nil, err
		}
		idx, err := ev.eval(x.Index)
		if err != nil {
			return nil, err
		}
		return pyval.GetItem(obj, idx)
	case *Slice:
		s := &pyval.SliceValue{Start: pyval.None, Stop: pyval.None, Step: pyval.None}
		var err error
		if x.Lower != nil {
			if s.Start, err = ev.eval(x.Lower); err != nil {
				return nil, err
			}
		}
		if x.Upper != nil {
			if s.Stop, err = ev.eval(x.Upper); err != nil {
				return nil, err
			}
		}
		if x.Step != nil {
			if s.Step, err = ev.eval(x.Step); err != nil {
				return nil, err
			}
		}
		return s, nil
	case *IfExp:
		t, err := ev.eval(x.Test)
		if err != nil {
			return nil, err
		}
		if pyval.Truthy(t) {
			return ev.eval(x.Body)
		}
		return ev.eval(x.Else)
	case *NamedExpr:
		v, err := ev.eval(x.Value)
		if err != nil {
			return nil, err
		}
		if ev.locals == nil {
			ev.locals = make(map[string]pyval.Value)
		}
		ev.locals[x.Target.ID] = v
		return v, nil
	case *Starred:
		return nil, pyval.NewSyntaxError("can't use starred expression here")
	case *Lambda:
		return nil, pyval.NewException("NotImplementedError", "lambda expressions are not supported by this evaluator")
	case *Comp:
		return ev.comp(x)
	case *JoinedStr:
		return ev.joined(x)
	case *FormattedValue:
		s, err := ev.formatted(x)
		if err != nil {
			return nil, err
		}
		return pyval.Str(s), nil
	}
	return nil, pyval.NewSyntaxError("cannot evaluate node " + NodeName(e))
}

func (ev *evaluator) call(c *Call) (pyval.Value, error) {
	fn, err := ev.eval(c.Func)
	if err != nil {
		return nil, err
	}
	args, err := ev.evalSeq(c.Args)
	if err != nil {
		return nil, err
	}
	var kwargs []pyval.KV
	if len(c.Keywords) > 0 {
		kwargs = make([]pyval.KV, 0, len(c.Keywords))
	}
	for _, k := range c.Keywords {
		v, err := ev.eval(k.Value)
		if err != nil {
			return nil, err
		}
		if k.Arg != "" {
			kwargs = append(kwargs, pyval.KV{Key: pyval.Str(k.Arg), Value: v})
			continue
		}
		d, ok := v.(*pyval.Dict)
		if !ok {
			return nil, pyval.NewTypeError("argument after ** must be a mapping, not " + v.TypeName())
		}
		for _, it := range d.Items() {
			ks, ok := it.Key.(pyval.Str)
			if !ok {
				return nil, pyval.NewTypeError("keywords must be strings")
			}
			for _, prev := range kwargs {
				if prev.Key.(pyval.Str) == ks {
					return nil, pyval.NewTypeError("got multiple values for keyword argument '" + string(ks) + "'")
				}
			}
			kwargs = append(kwargs, pyval.KV{Key: ks, Value: it.Value})
		}
	}
	return ev.env.Call(fn, args, kwargs)
}

// assign binds a comprehension target.
func (ev *evaluator) assign(target Expr, v pyval.Value) error {
	switch t := target.(type) {
	case *Name:
		ev.locals[t.ID] = v
		return nil
	case *Tuple, *List:
		var elts []Expr
		if tt, ok := t.(*Tuple); ok {
			elts = tt.Elts
		} else {
			elts = t.(*List).Elts
		}
		items, err := pyval.Iterate(v)
		if err != nil {
			return pyval.NewTypeError("cannot unpack non-iterable " + v.TypeName() + " object")
		}
		if len(items) != len(elts) {
			if len(items) > len(elts) {
				return pyval.NewValueError("too many values to unpack (expected " + strconv.Itoa(len(elts)) + ")")
			}
			return pyval.NewValueError("not enough values to unpack (expected " + strconv.Itoa(len(elts)) + ", got " + strconv.Itoa(len(items)) + ")")
		}
		for i, el := range elts {
			if err := ev.assign(el, items[i]); err != nil {
				return err
			}
		}
		return nil
	}
	return pyval.NewSyntaxError("cannot assign to " + NodeName(target))
}

func (ev *evaluator) comp(c *Comp) (pyval.Value, error) {
	saved := ev.locals
	ev.locals = make(map[string]pyval.Value, len(saved)+2)
	for k, v := range saved {
		ev.locals[k] = v
	}
	defer func() { ev.locals = saved }()
	var list []pyval.Value
	var dict *pyval.Dict
	var set *pyval.Set
	switch c.Kind {
	case "dict":
		dict = pyval.NewDict()
	case "set":
		set = pyval.NewSet()
	}
	var run func(level int) error
	run = func(level int) error {
		if level == len(c.Generators) {
			if dict != nil {
				return EvalDictItem(dict, c.Key, c.Elt, ev.eval)
			}
			v, err := ev.eval(c.Elt)
			if err != nil {
				return err
			}
			if set != nil {
				return addHashable(set, v)
			}
			list = append(list, v)
			return nil
		}
		g := c.Generators[level]
		src, err := ev.eval(g.Iter)
		if err != nil {
			return err
		}
		items, err := pyval.Iterate(src)
		if err != nil {
			return err
		}
	next:
		for _, it := range items {
			if err := ev.assign(g.Target, it); err != nil {
				return err
			}
			for _, cond := range g.Ifs {
				cv, err := ev.eval(cond)
				if err != nil {
					return err
				}
				if !pyval.Truthy(cv) {
					continue next
				}
			}
			if err := run(level + 1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := run(0); err != nil {
		return nil, err
	}
	switch {
	case dict != nil:
		return dict, nil
	case set != nil:
		return set, nil
	}
	// list comprehensions and generator expressions both materialise.
	return pyval.NewList(list...), nil
}

func (ev *evaluator) joined(j *JoinedStr) (pyval.Value, error) {
	var b []byte
	for _, part := range j.Parts {
		switch p := part.(type) {
		case *Constant:
			b = append(b, pyval.StrOf(p.Value)...)
		case *FormattedValue:
			s, err := ev.formatted(p)
			if err != nil {
				return nil, err
			}
			b = append(b, s...)
		}
	}
	return pyval.Str(string(b)), nil
}

func (ev *evaluator) formatted(f *FormattedValue) (string, error) {
	v, err := ev.eval(f.Value)
	if err != nil {
		return "", err
	}
	switch f.Conversion {
	case 'r':
		v = pyval.Str(pyval.Repr(v))
	case 's':
		v = pyval.Str(pyval.StrOf(v))
	case 'a':
		v = pyval.Str(asciiOf(pyval.Repr(v)))
	}
	spec := ""
	if f.Spec != nil {
		sv, err := ev.eval(f.Spec)
		if err != nil {
			return "", err
		}
		spec = pyval.StrOf(sv)
	}
	return pyval.Format(v, spec)
}

func asciiOf(s string) string {
	var b []byte
	for _, r := range s {
		switch {
		case r < 0x80:
			b = append(b, byte(r))
		case r <= 0xff:
			b = append(b, '\\', 'x', hexdig(r>>4), hexdig(r))
		case r <= 0xffff:
			b = append(b, '\\', 'u', hexdig(r>>12), hexdig(r>>8), hexdig(r>>4), hexdig(r))
		default:
			b = append(b, '\\', 'U')
			for sh := 28; sh >= 0; sh -= 4 {
				b = append(b, hexdig(r>>uint(sh)))
			}
		}
	}
	return string(b)
}

func hexdig(r rune) byte { return "0123456789abcdef"[r&15] }

// EvalDictItem stores one key: value entry of a dict display in d: the key
// and then the value evaluated by eval, TypeError ("unhashable type") for a
// key that cannot be hashed. A dict display, ast.literal_eval and the
// decoders' AST walks all build their dicts this way.
func EvalDictItem(d *pyval.Dict, key, value Expr, eval func(Expr) (pyval.Value, error)) error {
	kv, err := eval(key)
	if err != nil {
		return err
	}
	vv, err := eval(value)
	if err != nil {
		return err
	}
	if err := pyval.CheckHashable(kv); err != nil {
		return err
	}
	d.Set(kv, vv)
	return nil
}

// buildSet is a set of the n values item gives for 0..n-1, each hashed
// (TypeError "unhashable type") and added before the next is asked for.
func buildSet(n int, item func(i int) (pyval.Value, error)) (pyval.Value, error) {
	s := pyval.NewSet()
	for i := 0; i < n; i++ {
		v, err := item(i)
		if err != nil {
			return nil, err
		}
		if err := addHashable(s, v); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// addHashable adds v to the set s, TypeError ("unhashable type") for a
// value that cannot be hashed.
func addHashable(s *pyval.Set, v pyval.Value) error {
	if err := pyval.CheckHashable(v); err != nil {
		return err
	}
	s.Add(v)
	return nil
}
