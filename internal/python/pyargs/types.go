package pyargs

import "github.com/bfcl-go/bfcl/internal/python/pyval"

// The typed views of bound arguments, one per BFCL schema type. V is the
// value as the model sent it (nil when not supplied); Get returns it as the
// schema's Go type when it has that Python type.

// Str is a parameter of schema type "string".
type Str struct{ V pyval.Value }

// Int is a parameter of schema type "integer".
type Int struct{ V pyval.Value }

// Float is a parameter of schema type "float" or "number".
type Float struct{ V pyval.Value }

// Bool is a parameter of schema type "boolean".
type Bool struct{ V pyval.Value }

// List is a parameter of schema type "array" or "tuple".
type List struct{ V pyval.Value }

// Dict is a parameter of schema type "dict" or "object".
type Dict struct{ V pyval.Value }

// Any is a parameter of schema type "any" or an unknown type.
type Any struct{ V pyval.Value }

// Supplied reports whether the caller passed the argument.
func (a Str) Supplied() bool { return a.V != nil }

// Get returns the value as a Go string when it is a Python str.
func (a Str) Get() (string, bool) { s, ok := a.V.(pyval.Str); return string(s), ok }

// Supplied reports whether the caller passed the argument.
func (a Int) Supplied() bool { return a.V != nil }

// Get returns the value as an int64 when it is a Python int (not bool).
func (a Int) Get() (int64, bool) { i, ok := a.V.(pyval.Int); return int64(i), ok }

// Supplied reports whether the caller passed the argument.
func (a Float) Supplied() bool { return a.V != nil }

// Get returns the value as a float64 when it is a Python float or int.
func (a Float) Get() (float64, bool) {
	switch x := a.V.(type) {
	case pyval.Float:
		return float64(x), true
	case pyval.Int:
		return float64(x), true
	}
	return 0, false
}

// Supplied reports whether the caller passed the argument.
func (a Bool) Supplied() bool { return a.V != nil }

// Get returns the value as a Go bool when it is a Python bool.
func (a Bool) Get() (bool, bool) { b, ok := a.V.(pyval.Bool); return bool(b), ok }

// Supplied reports whether the caller passed the argument.
func (a List) Supplied() bool { return a.V != nil }

// Get returns the items when the value is a Python list or tuple.
func (a List) Get() ([]pyval.Value, bool) {
	switch x := a.V.(type) {
	case *pyval.List:
		return x.Items, true
	case pyval.Tuple:
		return x, true
	}
	return nil, false
}

// Supplied reports whether the caller passed the argument.
func (a Dict) Supplied() bool { return a.V != nil }

// Get returns the value when it is a Python dict.
func (a Dict) Get() (*pyval.Dict, bool) { d, ok := a.V.(*pyval.Dict); return d, ok }

// Supplied reports whether the caller passed the argument.
func (a Any) Supplied() bool { return a.V != nil }

// Keys is d.keys() as upstream calls it on the argument: the keys in
// insertion order, or the AttributeError Python raises when the model sent
// something other than a dict.
func (a Dict) Keys() ([]pyval.Value, error) {
	d, ok := a.V.(*pyval.Dict)
	if !ok {
		return nil, pyval.NoAttribute(a.V, "keys")
	}
	return d.Keys(), nil
}

// Items is d.items(): the pairs in insertion order, or Python's
// AttributeError for a value that is not a dict.
func (a Dict) Items() ([]pyval.KV, error) {
	d, ok := a.V.(*pyval.Dict)
	if !ok {
		return nil, pyval.NoAttribute(a.V, "items")
	}
	return d.Items(), nil
}

// Iter is list(v) of the argument: a new slice of its items, or Python's
// TypeError for a value that is not iterable.
func (a List) Iter() ([]pyval.Value, error) { return pyval.ListOf(a.V) }

// Method is the string a str method called on the argument works on
// (s.startswith(...), s.lower() ...), or Python's AttributeError naming the
// method when the model sent something other than a str.
func (a Str) Method(name string) (string, error) { return pyval.StrMethod(a.V, name) }

// Lower is s.lower() on the argument, or Python's AttributeError when it is
// not a str.
func (a Str) Lower() (pyval.Str, error) {
	s, err := a.Method("lower")
	return pyval.Str(pyval.Lower(s)), err
}
