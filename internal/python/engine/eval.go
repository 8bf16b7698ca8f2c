package engine

import (
	"fmt"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/sim"
)

// evalEnv resolves names and calls while an expression is evaluated, as the
// globals of upstream's multi_turn_utils module plus Python's builtins do.
// With canon, the canonical instance names of callCache's trees resolve
// too.
type evalEnv struct {
	s     *Session
	canon bool
}

// instanceRef is a backend instance bound to its variable name.
type instanceRef struct {
	name string
	cl   string
	inst sim.Instance
}

func (r *instanceRef) TypeName() string           { return r.cl }
func (r *instanceRef) PyRepr() string             { return fmt.Sprintf("<%s object>", r.cl) }
func (r *instanceRef) PyStr() string              { return r.PyRepr() }
func (r *instanceRef) PyEqual(o pyval.Value) bool { return o == pyval.Value(r) }
func (r *instanceRef) PyJSON() any                { return map[string]any{"$object": r.cl} }

// boundMethod is instance.method, ready to be called.
type boundMethod struct {
	ref    *instanceRef
	method string
}

func (m *boundMethod) TypeName() string { return "method" }
func (m *boundMethod) PyRepr() string {
	return fmt.Sprintf("<bound method %s.%s of %s>", m.ref.cl, m.method, m.ref.PyRepr())
}
func (m *boundMethod) PyStr() string              { return m.PyRepr() }
func (m *boundMethod) PyEqual(o pyval.Value) bool { return o == pyval.Value(m) }
func (m *boundMethod) PyJSON() any                { return map[string]any{"$object": "method"} }

// LookupName resolves a bare name: an instance variable of this side, a
// builtin, or a NameError as Python reports it.
func (e evalEnv) LookupName(name string) (pyval.Value, error) {
	if r, ok := e.s.variable(name, e.canon); ok {
		return r, nil
	}
	if b, ok := lookupBuiltin(name); ok {
		return b, nil
	}
	return nil, pyval.NewNameError("name '%s' is not defined", name)
}

// GetAttr resolves obj.name: public methods of backend instances; anything
// else is Python's AttributeError.
func (e evalEnv) GetAttr(obj pyval.Value, name string) (pyval.Value, error) {
	if r, ok := obj.(*instanceRef); ok {
		if stubs.HasMethod(r.cl, name) {
			return &boundMethod{ref: r, method: name}, nil
		}
		return nil, pyval.NewAttributeError("'%s' object has no attribute '%s'", r.cl, name)
	}
	return nil, pyval.NewAttributeError("'%s' object has no attribute '%s'", obj.TypeName(), name)
}

// Call invokes a bound backend method through the generated stubs, or a
// builtin.
func (e evalEnv) Call(fn pyval.Value, args []pyval.Value, kwargs []pyval.KV) (pyval.Value, error) {
	switch f := fn.(type) {
	case *boundMethod:
		return stubs.Call(f.ref.inst, f.method, args, kwargs)
	case *builtin:
		return f.call(args, kwargs)
	}
	return nil, pyval.NewTypeError("'%s' object is not callable", fn.TypeName())
}
