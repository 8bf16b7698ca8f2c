package engine

import (
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// builtin is one of Python's builtins reachable by name from a call string
// (upstream evaluates call strings with eval, so a model can call them).
// The pure ones a model plausibly nests in its arguments are evaluated with
// Python's semantics; the others only get CPython's argument check and are
// never run.
type builtin struct {
	name string
	// minPos is the least number of positional arguments the builtin takes.
	minPos int
	run    func(args []pyval.Value, kwargs []pyval.KV) (pyval.Value, error)
}

func (b *builtin) TypeName() string           { return "builtin_function_or_method" }
func (b *builtin) PyRepr() string             { return "<built-in function " + b.name + ">" }
func (b *builtin) PyStr() string              { return b.PyRepr() }
func (b *builtin) PyEqual(o pyval.Value) bool { return o == pyval.Value(b) }
func (b *builtin) PyJSON() any                { return map[string]any{"$object": "builtin"} }

// one adapts a one-argument builtin (no keywords).
func one(name string, f func(pyval.Value) (pyval.Value, error)) func([]pyval.Value, []pyval.KV) (pyval.Value, error) {
	return func(args []pyval.Value, kw []pyval.KV) (pyval.Value, error) {
		if len(kw) > 0 {
			return nil, pyval.NewTypeError("%s() takes no keyword arguments", name)
		}
		if len(args) != 1 {
			return nil, pyval.NewTypeError("%s() takes exactly one argument (%d given)", name, len(args))
		}
		return f(args[0])
	}
}

// builtinTable lists the builtins. Evaluated: len, abs, round, sum, min,
// max, str, int, float, bool, repr, list, tuple, sorted, print (which
// returns None, as upstream records it). Argument-checked only: the rest.
func builtinTable(name string) (*builtin, bool) {
	switch name {
	case "len":
		return &builtin{name: name, minPos: 1, run: one(name, func(v pyval.Value) (pyval.Value, error) {
			n, err := pyval.Len(v)
			return pyval.Int(n), err
		})}, true
	case "abs":
		return &builtin{name: name, minPos: 1, run: one(name, pyval.Abs)}, true
	case "str":
		return &builtin{name: name, run: func(args []pyval.Value, kw []pyval.KV) (pyval.Value, error) {
			if len(args) == 0 && len(kw) == 0 {
				return pyval.Str(""), nil
			}
			if len(args) == 1 && len(kw) == 0 {
				return pyval.Str(pyval.StrOf(args[0])), nil
			}
			return nil, pyval.NewTypeError("str() arguments beyond one are not supported by this evaluator")
		}}, true
	case "repr":
		return &builtin{name: name, minPos: 1, run: one(name, func(v pyval.Value) (pyval.Value, error) { return pyval.Str(pyval.Repr(v)), nil })}, true
	case "int":
		return conversion(name, pyval.Int(0), pyval.ToInt, func(int) error {
			return pyval.NewTypeError("int() with a base is not supported by this evaluator")
		}), true
	case "float":
		return conversion(name, pyval.Float(0), pyval.ToFloat, func(n int) error {
			return pyval.NewTypeError("float expected at most 1 argument, got %d", n)
		}), true
	case "bool":
		return &builtin{name: name, run: func(args []pyval.Value, kw []pyval.KV) (pyval.Value, error) {
			if len(args) == 0 && len(kw) == 0 {
				return pyval.Bool(false), nil
			}
			if len(args) == 1 && len(kw) == 0 {
				return pyval.Bool(pyval.Truthy(args[0])), nil
			}
			return nil, pyval.NewTypeError("bool expected at most 1 argument, got %d", len(args))
		}}, true
	case "round":
		return &builtin{name: name, minPos: 1, run: func(args []pyval.Value, kw []pyval.KV) (pyval.Value, error) {
			if len(kw) > 0 || len(args) > 2 {
				return nil, pyval.NewTypeError("round() takes at most 2 positional arguments here")
			}
			var nd pyval.Value = pyval.None
			if len(args) == 2 {
				nd = args[1]
			}
			return pyval.Round(args[0], nd)
		}}, true
	case "sum":
		return &builtin{name: name, minPos: 1, run: func(args []pyval.Value, kw []pyval.KV) (pyval.Value, error) {
			if len(kw) > 0 || len(args) > 2 {
				return nil, pyval.NewTypeError("sum() takes at most 2 positional arguments here")
			}
			items, err := pyval.Iterate(args[0])
			if err != nil {
				return nil, err
			}
			var start pyval.Value = pyval.Int(0)
			if len(args) == 2 {
				start = args[1]
			}
			return pyval.Sum(items, start)
		}}, true
	case "min", "max":
		return &builtin{name: name, minPos: 1, run: func(args []pyval.Value, kw []pyval.KV) (pyval.Value, error) {
			if len(kw) > 0 {
				return nil, pyval.NewTypeError("%s() keyword arguments are not supported by this evaluator", name)
			}
			items := args
			if len(args) == 1 {
				var err error
				if items, err = pyval.Iterate(args[0]); err != nil {
					return nil, err
				}
			}
			if len(items) == 0 {
				return nil, pyval.NewValueError("%s() iterable argument is empty", name)
			}
			best := items[0]
			for _, it := range items[1:] {
				var better bool
				var err error
				if name == "min" {
					better, err = pyval.Less(it, best)
				} else {
					better, err = pyval.Less(best, it)
				}
				if err != nil {
					return nil, err
				}
				if better {
					best = it
				}
			}
			return best, nil
		}}, true
	case "list", "tuple", "sorted":
		return &builtin{name: name, run: func(args []pyval.Value, kw []pyval.KV) (pyval.Value, error) {
			if len(kw) > 0 || len(args) > 1 || (name == "sorted" && len(args) == 0) {
				return nil, pyval.NewTypeError("%s() takes one positional argument here", name)
			}
			var items []pyval.Value
			if len(args) == 1 {
				var err error
				if items, err = pyval.Iterate(args[0]); err != nil {
					return nil, err
				}
			}
			items = append([]pyval.Value(nil), items...)
			if name == "sorted" {
				var sortErr error
				insertionSort(items, &sortErr)
				if sortErr != nil {
					return nil, sortErr
				}
			}
			if name == "tuple" {
				return pyval.Tuple(items), nil
			}
			return pyval.NewList(items...), nil
		}}, true
	case "print":
		return &builtin{name: name, run: func([]pyval.Value, []pyval.KV) (pyval.Value, error) { return pyval.None, nil }}, true
	}
	if n, ok := checkedOnly[name]; ok {
		return &builtin{name: name, minPos: n}, true
	}
	return nil, false
}

// checkedOnly are builtins that are never run: their minimum number of
// positional arguments, for CPython's message when it is not met.
var checkedOnly = map[string]int{
	"exec": 1, "eval": 1, "open": 1, "input": 0, "compile": 3, "getattr": 2, "setattr": 3,
	"delattr": 2, "globals": 0, "locals": 0, "vars": 0, "dir": 0, "__import__": 1, "help": 0,
	"id": 1, "type": 1, "dict": 0, "set": 0, "range": 1, "format": 1, "any": 1, "all": 1,
}

// insertionSort is a stable sort with Python's < (sorted() is stable too).
func insertionSort(items []pyval.Value, errOut *error) {
	for i := 1; i < len(items); i++ {
		for j := i; j > 0; j-- {
			less, err := pyval.Less(items[j], items[j-1])
			if err != nil {
				*errOut = err
				return
			}
			if !less {
				break
			}
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
}

func lookupBuiltin(name string) (*builtin, bool) { return builtinTable(name) }

func (b *builtin) call(args []pyval.Value, kwargs []pyval.KV) (pyval.Value, error) {
	if b.run != nil {
		return b.run(args, kwargs)
	}
	if len(args) < b.minPos {
		plural := "s"
		if b.minPos == 1 {
			plural = ""
		}
		return nil, pyval.NewTypeError("%s() takes at least %d positional argument%s (%d given)", b.name, b.minPos, plural, len(args))
	}
	return nil, pyval.NewException("NotImplementedError", "calling the builtin "+b.name+"() is not supported by this evaluator")
}

// conversion is int() or float() as this evaluator runs them: no argument
// gives zero, one positional argument is converted, anything else is the
// TypeError other returns (n: the number of positional arguments).
func conversion(name string, zero pyval.Value, convert func(pyval.Value) (pyval.Value, error), other func(n int) error) *builtin {
	return &builtin{name: name, run: func(args []pyval.Value, kw []pyval.KV) (pyval.Value, error) {
		switch {
		case len(args) == 0 && len(kw) == 0:
			return zero, nil
		case len(args) == 1 && len(kw) == 0:
			return convert(args[0])
		}
		return nil, other(len(args))
	}}
}
