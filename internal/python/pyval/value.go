// Package pyval is the project's model of Python values: the values that
// flow through BFCL call strings, JSON arguments, simulated-backend state and
// result strings. It reproduces CPython's equality (1 == 1.0 == True, dicts
// without order), repr()/str(), json.dumps with default settings, and the
// "pyjson v1" typed encoding used by the reference traces.
//
// Every package that compares or prints such values uses this one model.
package pyval

import "math/big"

// Value is any Python value. The concrete types are the ones declared in this
// package, plus types of other packages that implement Object.
// A nil Value means "argument not supplied" (never a Python value).
type Value interface {
	// TypeName is Python's type(v).__name__ ("int", "str", "dict", ...).
	TypeName() string
}

// NoneType is Python's None.
type NoneType struct{}

// None is the only NoneType value.
var None Value = NoneType{}

// Bool is a Python bool.
type Bool bool

// Int is a Python int that fits in 64 bits. Arithmetic that overflows
// promotes to *BigInt; results that fit are normalised back to Int.
type Int int64

// BigInt is a Python int outside the int64 range.
type BigInt struct{ V *big.Int }

// Float is a Python float.
type Float float64

// Str is a Python str.
type Str string

// List is a Python list. It is a pointer type because Python lists are
// mutable and aliased.
type List struct{ Items []Value }

// Tuple is a Python tuple.
type Tuple []Value

// EllipsisType is Python's Ellipsis (the literal ...).
type EllipsisType struct{}

// Ellipsis is the only EllipsisType value.
var Ellipsis Value = EllipsisType{}

// Object is implemented by values of other packages that behave like Python
// objects of a user-defined class (the file system's Directory and File, for
// example) or of a library type (decimal.Decimal, mpmath.mpf).
type Object interface {
	Value
	// PyRepr is repr(v).
	PyRepr() string
	// PyStr is str(v).
	PyStr() string
	// PyEqual is v == other.
	PyEqual(other Value) bool
	// PyJSON is the value's "pyjson v1" encoding (any JSON-marshalable Go
	// value), e.g. {"$decimal": "1.5"}.
	PyJSON() any
}

func (NoneType) TypeName() string     { return "NoneType" }
func (Bool) TypeName() string         { return "bool" }
func (Int) TypeName() string          { return "int" }
func (BigInt) TypeName() string       { return "int" }
func (Float) TypeName() string        { return "float" }
func (Str) TypeName() string          { return "str" }
func (*List) TypeName() string        { return "list" }
func (Tuple) TypeName() string        { return "tuple" }
func (*Dict) TypeName() string        { return "dict" }
func (*Set) TypeName() string         { return "set" }
func (EllipsisType) TypeName() string { return "ellipsis" }

// NewList returns a list holding items (not copied).
func NewList(items ...Value) *List { return &List{Items: items} }

// newListLen returns a list of n nil items for the caller to fill (before
// any other use). A short list and its items are one allocation.
func newListLen(n int) *List {
	if n == 0 {
		return &List{Items: []Value{}}
	}
	return withItems(n, func(l *List, e []Value) { l.Items = e })
}

// KV is one key/value pair, used for dict items and keyword arguments.
type KV struct {
	Key   Value
	Value Value
}
