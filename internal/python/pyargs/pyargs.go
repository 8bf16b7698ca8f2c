// Package pyargs binds Python-style call arguments (positional values and
// keyword pairs) to a method's parameters with CPython 3.12's rules and
// error messages, and gives the generated stubs typed views of the bound
// values. Values stay dynamic Python values: a model that passes a string
// where the schema says integer gets exactly what upstream's Python would
// do with it.
package pyargs

import (
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Param is one parameter of a method's Python signature (self excluded).
type Param struct {
	Name     string // Python parameter name
	Optional bool   // has a default in the Python signature
	// Default is the value Bind supplies when the caller does not. It is nil
	// for a required parameter and for a mutable default (a list upstream
	// shares between calls), which the backend applies itself.
	Default pyval.Value
}

// Method is one public method of a backend class.
type Method struct {
	Name   string  // Python method name, e.g. "place_order"
	GoName string  // Go method name on the backend, e.g. "PlaceOrder"
	Params []Param // in Python declaration order
}

// Bind assigns pos and kw to params as CPython does for a method
// (self excluded from params but counted in messages), returning one value
// per parameter; a parameter left out gets its Default (nil for a mutable
// default, which the backend applies). qualname is
// "Class.method". Errors are TypeErrors with CPython's text, checked in
// CPython's order: unexpected or duplicated keywords first, then too many
// positional arguments, then missing required ones.
func Bind(qualname string, params []Param, pos []pyval.Value, kw []pyval.KV) ([]pyval.Value, error) {
	out := make([]pyval.Value, len(params))
	n := len(pos)
	if n > len(params) {
		n = len(params)
	}
	copy(out, pos[:n])
	for _, p := range kw {
		name, _ := p.Key.(pyval.Str)
		idx := -1
		for i, prm := range params {
			if prm.Name == string(name) {
				idx = i
				break
			}
		}
		if idx < 0 {
			return nil, pyval.NewTypeError("%s() got an unexpected keyword argument '%s'", qualname, string(name))
		}
		if out[idx] != nil {
			return nil, pyval.NewTypeError("%s() got multiple values for argument '%s'", qualname, string(name))
		}
		out[idx] = p.Value
	}
	if len(pos) > len(params) {
		required := 0
		for _, p := range params {
			if !p.Optional {
				required++
			}
		}
		// Counts include self, as CPython reports them for methods.
		takes := strconv.Itoa(len(params) + 1)
		if required < len(params) {
			takes = "from " + strconv.Itoa(required+1) + " to " + takes
		}
		word := "arguments"
		if takes == "1" {
			word = "argument"
		}
		was := "were"
		if len(pos)+1 == 1 {
			was = "was"
		}
		return nil, pyval.NewTypeError("%s() takes %s positional %s but %d %s given", qualname, takes, word, len(pos)+1, was)
	}
	var missing []string
	for i, p := range params {
		if out[i] == nil && !p.Optional {
			missing = append(missing, "'"+p.Name+"'")
		}
	}
	if len(missing) > 0 {
		word := "argument"
		if len(missing) > 1 {
			word = "arguments"
		}
		return nil, pyval.NewTypeError("%s() missing %d required positional %s: %s", qualname, len(missing), word, joinNames(missing))
	}
	for i, p := range params {
		if out[i] == nil {
			out[i] = p.Default
		}
	}
	return out, nil
}

// joinNames lists names as CPython does: 'a', 'a' and 'b', 'a', 'b', and 'c'.
func joinNames(ns []string) string {
	switch len(ns) {
	case 1:
		return ns[0]
	case 2:
		return ns[0] + " and " + ns[1]
	}
	return strings.Join(ns[:len(ns)-1], ", ") + ", and " + ns[len(ns)-1]
}
