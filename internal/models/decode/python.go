package decode

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// parsePythonCalls is the Python branch of upstream's ast_parse: strip,
// drop wrapping single quotes, parse as an expression, then read one call
// or the calls of a list/tuple/set display (resolve_ast_call).
func parsePythonCalls(text string) (pyval.Value, error) {
	cleaned := strings.Trim(strings.TrimFunc(text, pyval.IsSpace), "'")
	e, err := pyexpr.ParseAST(cleaned)
	if err != nil {
		return nil, astParseError(err)
	}
	if c, isCall := e.(*pyexpr.Call); isCall {
		d, err := resolveCall(c)
		if err != nil {
			return nil, err
		}
		return pyval.NewList(d), nil
	}
	var elts []pyexpr.Expr
	switch b := e.(type) {
	case *pyexpr.List:
		elts = b.Elts
	case *pyexpr.Tuple:
		elts = b.Elts
	case *pyexpr.Set:
		elts = b.Elts
	default:
		return nil, pyval.NewAttributeError("'%s' object has no attribute 'elts'", astClass(e))
	}
	out := make([]pyval.Value, 0, len(elts))
	for _, el := range elts {
		c, isCall := el.(*pyexpr.Call)
		if !isCall {
			return nil, pyval.NewException("AssertionError", "")
		}
		d, err := resolveCall(c)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return pyval.NewList(out...), nil
}

// astParseError turns the parser's eval()-style error into what
// ast.parse raises: same text, but the file name is "<unknown>".
func astParseError(err error) error {
	exc, isExc := err.(*pyval.Exception)
	if !isExc {
		return pyval.NewException("SyntaxError", err.Error())
	}
	msg := strings.Replace(exc.Msg, "(<string>, line ", "(<unknown>, line ", 1)
	return pyval.NewException(exc.Type, msg)
}

// astClass is the name of the Python ast class for a node, NoneType for a
// missing one (type(None).__name__).
func astClass(e pyexpr.Expr) string {
	if e == nil {
		return "NoneType"
	}
	return pyexpr.NodeName(e)
}

// resolveCall is resolve_ast_call: the dotted name of the callee (an
// attribute chain ending in a name; other bases contribute nothing) and
// the keyword arguments; positional arguments are ignored.
func resolveCall(c *pyexpr.Call) (pyval.Value, error) {
	var parts []string
	f := c.Func
	for {
		a, isAttr := f.(*pyexpr.Attribute)
		if !isAttr {
			break
		}
		parts = append(parts, a.Attr)
		f = a.X
	}
	if n, isName := f.(*pyexpr.Name); isName {
		parts = append(parts, n.ID)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	args := pyval.NewDictCap(len(c.Keywords))
	for _, kw := range c.Keywords {
		v, err := resolveByType(kw.Value)
		if err != nil {
			return nil, err
		}
		var key pyval.Value = pyval.Str(kw.Arg)
		if kw.Arg == "" {
			key = pyval.None
		}
		args.Set(key, v)
	}
	d := pyval.NewDictCap(1)
	d.Set(pyval.Str(strings.Join(parts, ".")), args)
	return d, nil
}

// nodeValueAttr returns what `node.value` is for the node classes that
// have a "value" field, as a node (Constant's value is handled by the
// caller).
func nodeValueAttr(e pyexpr.Expr) (pyexpr.Expr, bool) {
	switch x := e.(type) {
	case *pyexpr.Attribute:
		return x.X, true
	case *pyexpr.Subscript:
		return x.X, true
	case *pyexpr.Starred:
		return x.X, true
	case *pyexpr.NamedExpr:
		return x.Value, true
	case *pyexpr.FormattedValue:
		return x.Value, true
	}
	return nil, false
}

// resolveByType is resolve_ast_by_type.
func resolveByType(e pyexpr.Expr) (pyval.Value, error) {
	switch x := e.(type) {
	case *pyexpr.Constant:
		if x.Value == pyval.Ellipsis {
			return pyval.Str("..."), nil
		}
		return x.Value, nil
	case *pyexpr.UnaryOp:
		// Upstream negates operand.value whatever the operator is.
		if c, isConst := x.X.(*pyexpr.Constant); isConst {
			return pyval.Neg(c.Value)
		}
		if inner, has := nodeValueAttr(x.X); has {
			return nil, pyval.NewTypeError("bad operand type for unary -: '%s'", astClass(inner))
		}
		return nil, pyval.NewAttributeError("'%s' object has no attribute 'value'", astClass(x.X))
	case *pyexpr.List:
		out := make([]pyval.Value, 0, len(x.Elts))
		for _, el := range x.Elts {
			v, err := resolveByType(el)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return pyval.NewList(out...), nil
	case *pyexpr.Dict:
		d := pyval.NewDictCap(len(x.Keys))
		for i, k := range x.Keys {
			if k == nil {
				return nil, pyval.NewException("Exception", "Unsupported AST type: <class 'NoneType'>")
			}
			if err := pyexpr.EvalDictItem(d, k, x.Values[i], resolveByType); err != nil {
				return nil, err
			}
		}
		return d, nil
	case *pyexpr.BinOp:
		return evalExpr(x)
	case *pyexpr.Name:
		return pyval.Str(x.ID), nil
	case *pyexpr.Call:
		if len(x.Keywords) == 0 {
			return pyval.Str(pyexpr.Unparse(x)), nil
		}
		return resolveCall(x)
	case *pyexpr.Tuple:
		out := make(pyval.Tuple, 0, len(x.Elts))
		for _, el := range x.Elts {
			v, err := resolveByType(el)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case *pyexpr.Lambda:
		return nil, pyval.NewTypeError("'%s' object is not subscriptable", astClass(x.Body))
	case *pyexpr.Subscript:
		return pyval.Str(pyexpr.Unparse(x.X) + "[" + pyexpr.Unparse(x.Index) + "]"), nil
	}
	return nil, pyval.NewException("Exception", "Unsupported AST type: <class 'ast."+astClass(e)+"'>")
}

// evalExpr is eval(ast.unparse(node)) as upstream runs it in the module
// namespace of bfcl_eval/model_handler/utils.py: the arithmetic a model
// writes (6+1, 2**10, "a"*3, [1]+[2]) evaluates with Python semantics. The
// names that module happens to hold (its imports, builtins such as len)
// are not modelled: every free name is a NameError, as an unknown one is
// upstream.
func evalExpr(e pyexpr.Expr) (pyval.Value, error) {
	return pyexpr.Eval(e, noNames{})
}

// noNames is an evaluation environment without any names.
type noNames struct{}

func (noNames) LookupName(name string) (pyval.Value, error) {
	return nil, pyval.NewNameError("name '%s' is not defined", name)
}

func (noNames) Call(fn pyval.Value, args []pyval.Value, kwargs []pyval.KV) (pyval.Value, error) {
	return nil, pyval.NewTypeError("'%s' object is not callable", fn.TypeName())
}

func (noNames) GetAttr(obj pyval.Value, name string) (pyval.Value, error) {
	return nil, pyval.NewAttributeError("'%s' object has no attribute '%s'", obj.TypeName(), name)
}
