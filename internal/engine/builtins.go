package engine

import (
	"github.com/bfcl-go/bfcl/internal/pyval"
)

// builtin is one of Python's builtins reachable by name from a call string
// (upstream evaluates call strings with eval, so a model can call them).
// Only their argument checking is reproduced: none of them is executed.
type builtin struct {
	name string
	// minPos is the least number of positional arguments the builtin takes;
	// keyword arguments it does not accept are refused as CPython does.
	minPos int
}

func (b *builtin) TypeName() string           { return "builtin_function_or_method" }
func (b *builtin) PyRepr() string             { return "<built-in function " + b.name + ">" }
func (b *builtin) PyStr() string              { return b.PyRepr() }
func (b *builtin) PyEqual(o pyval.Value) bool { return o == pyval.Value(b) }
func (b *builtin) PyJSON() any                { return map[string]any{"$object": "builtin"} }

// builtins lists the builtins whose call is answered with CPython's
// argument error; any other use is refused as not supported (the sandbox
// never runs arbitrary Python).
var builtins = map[string]int{
	"exec": 1, "eval": 1, "print": 0, "len": 1, "open": 1, "input": 0, "compile": 3,
	"getattr": 2, "setattr": 3, "delattr": 2, "globals": 0, "locals": 0, "vars": 0, "dir": 0,
	"__import__": 1, "help": 0, "id": 1, "type": 1, "str": 0, "int": 0, "float": 0,
	"list": 0, "dict": 0, "tuple": 0, "set": 0, "bool": 0, "sum": 1, "max": 1, "min": 1,
	"sorted": 1, "abs": 1, "round": 1, "range": 1, "repr": 1, "format": 1, "any": 1, "all": 1,
}

func lookupBuiltin(name string) (*builtin, bool) {
	n, ok := builtins[name]
	if !ok {
		return nil, false
	}
	return &builtin{name: name, minPos: n}, true
}

func (b *builtin) call(args []pyval.Value, kwargs []pyval.KV) (pyval.Value, error) {
	if len(args) < b.minPos {
		plural := "s"
		if b.minPos == 1 {
			plural = ""
		}
		return nil, pyval.NewTypeError("%s() takes at least %d positional argument%s (%d given)", b.name, b.minPos, plural, len(args))
	}
	return nil, pyval.NewException("NotImplementedError", "calling the builtin "+b.name+"() is not supported by this evaluator")
}
