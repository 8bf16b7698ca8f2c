package pyval

import (
	"unicode/utf8"
)

// SliceValue is a Python slice object (start:stop:step); absent parts are
// None.
type SliceValue struct {
	Start, Stop, Step Value
}

// TypeName is "slice".
func (*SliceValue) TypeName() string { return "slice" }

// PyRepr is repr(slice).
func (s *SliceValue) PyRepr() string {
	return "slice(" + Repr(s.Start) + ", " + Repr(s.Stop) + ", " + Repr(s.Step) + ")"
}

// PyStr is str(slice).
func (s *SliceValue) PyStr() string { return s.PyRepr() }

// PyEqual compares slices by their parts.
func (s *SliceValue) PyEqual(o Value) bool {
	t, ok := o.(*SliceValue)
	return ok && Equal(s.Start, t.Start) && Equal(s.Stop, t.Stop) && Equal(s.Step, t.Step)
}

// PyJSON encodes the slice as an $object.
func (s *SliceValue) PyJSON() any {
	return OrderedObject{{"$object", "builtins.slice"}, {"attrs", OrderedObject{{"start", s.Start}, {"stop", s.Stop}, {"step", s.Step}}}}
}

// Subscriptable is implemented by Objects supporting obj[key].
type Subscriptable interface {
	PyGetItem(key Value) (Value, error)
}

// Iterable is implemented by Objects that can be iterated.
type Iterable interface {
	PyIter() ([]Value, error)
}

func sliceIndex(v Value) (int64, bool, error) {
	return optionalIndex(v, 1<<62, func() error {
		return NewTypeError("slice indices must be integers or None or have an __index__ method")
	})
}

// optionalIndex reads an optional integer argument: None (or absent) gives
// has false; an int or bool its value; an int too large for int64 is
// clamped to ±bound (beyond any length the caller compares it with); any
// other type is the TypeError typeErr returns.
func optionalIndex(v Value, bound int64, typeErr func() error) (n int64, has bool, err error) {
	switch x := v.(type) {
	case nil, NoneType:
		return 0, false, nil
	case Int:
		return int64(x), true, nil
	case Bool:
		return int64(boolInt(x)), true, nil
	case BigInt:
		if x.V.Sign() < 0 {
			return -bound, true, nil
		}
		return bound, true, nil
	}
	return 0, false, typeErr()
}

// Indices is slice.indices(n): normalised start, stop, step.
func (s *SliceValue) Indices(n int) (start, stop, step int, err error) {
	st, has, err := sliceIndex(s.Step)
	if err != nil {
		return 0, 0, 0, err
	}
	step64 := int64(1)
	if has {
		if st == 0 {
			return 0, 0, 0, NewValueError("slice step cannot be zero")
		}
		step64 = st
	}
	ln := int64(n)
	norm := func(v Value, def int64) (int64, error) {
		x, has, err := sliceIndex(v)
		if err != nil {
			return 0, err
		}
		if !has {
			return def, nil
		}
		if x < 0 {
			x += ln
			if x < 0 {
				if step64 < 0 {
					x = -1
				} else {
					x = 0
				}
			}
		} else if x >= ln {
			if step64 < 0 {
				x = ln - 1
			} else {
				x = ln
			}
		}
		return x, nil
	}
	var a, b int64
	if step64 < 0 {
		if a, err = norm(s.Start, ln-1); err != nil {
			return
		}
		if b, err = norm(s.Stop, -1); err != nil {
			return
		}
	} else {
		if a, err = norm(s.Start, 0); err != nil {
			return
		}
		if b, err = norm(s.Stop, ln); err != nil {
			return
		}
	}
	return int(a), int(b), int(step64), nil
}

func sliceSeq[T any](items []T, s *SliceValue) ([]T, error) {
	start, stop, step, err := s.Indices(len(items))
	if err != nil {
		return nil, err
	}
	var out []T
	if step > 0 {
		for i := start; i < stop; i += step {
			out = append(out, items[i])
		}
	} else {
		for i := start; i > stop; i += step {
			out = append(out, items[i])
		}
	}
	return out, nil
}

func seqIndex(kind string, n int, key Value) (int, error) {
	var i int64
	switch x := key.(type) {
	case Int:
		i = int64(x)
	case Bool:
		i = int64(boolInt(x))
	case BigInt:
		return 0, NewIndexError("cannot fit 'int' into an index-sized integer")
	default:
		if kind == "string" {
			return 0, NewTypeError("string indices must be integers, not '" + key.TypeName() + "'")
		}
		return 0, NewTypeError(kind + " indices must be integers or slices, not " + key.TypeName())
	}
	if i < 0 {
		i += int64(n)
	}
	if i < 0 || i >= int64(n) {
		return 0, NewIndexError(kind + " index out of range")
	}
	return int(i), nil
}

// GetItem is container[key] with Python's errors.
func GetItem(container, key Value) (Value, error) {
	switch c := container.(type) {
	case *List:
		if s, ok := key.(*SliceValue); ok {
			items, err := sliceSeq(c.Items, s)
			if err != nil {
				return nil, err
			}
			return &List{Items: items}, nil
		}
		i, err := seqIndex("list", len(c.Items), key)
		if err != nil {
			return nil, err
		}
		return c.Items[i], nil
	case Tuple:
		if s, ok := key.(*SliceValue); ok {
			items, err := sliceSeq([]Value(c), s)
			if err != nil {
				return nil, err
			}
			return Tuple(items), nil
		}
		i, err := seqIndex("tuple", len(c), key)
		if err != nil {
			return nil, err
		}
		return c[i], nil
	case Str:
		runes := []rune(string(c))
		if s, ok := key.(*SliceValue); ok {
			items, err := sliceSeq(runes, s)
			if err != nil {
				return nil, err
			}
			return Str(string(items)), nil
		}
		i, err := seqIndex("string", len(runes), key)
		if err != nil {
			return nil, err
		}
		return Str(string(runes[i])), nil
	case *Dict:
		if err := CheckHashable(key); err != nil {
			return nil, err
		}
		v, ok := c.Get(key)
		if !ok {
			return nil, NewKeyError(key)
		}
		return v, nil
	case Subscriptable:
		return c.PyGetItem(key)
	}
	return nil, NewTypeError("'" + container.TypeName() + "' object is not subscriptable")
}

// Iterate returns the items iter(v) yields: list/tuple items, the
// characters of a str, dict keys, set members (insertion order).
func Iterate(v Value) ([]Value, error) {
	switch x := v.(type) {
	case *List:
		return x.Items, nil
	case Tuple:
		return x, nil
	case Str:
		out := make([]Value, 0, utf8.RuneCountInString(string(x)))
		for _, r := range string(x) {
			out = append(out, Str(string(r)))
		}
		return out, nil
	case *Dict:
		return x.Keys(), nil
	case *Set:
		return x.Items(), nil
	case Bytes:
		out := make([]Value, len(x))
		for i := 0; i < len(x); i++ {
			out[i] = Int(x[i])
		}
		return out, nil
	case Iterable:
		return x.PyIter()
	}
	return nil, NewTypeError("'" + v.TypeName() + "' object is not iterable")
}

// ListOf is list(v): a new slice of v's items (Iterate's may alias v).
func ListOf(v Value) ([]Value, error) {
	items, err := Iterate(v)
	if err != nil {
		return nil, err
	}
	switch v.(type) {
	case *List, Tuple:
		return append([]Value(nil), items...), nil
	}
	return items, nil
}

// SetItem is container[key] = v for a dict or a list, with Python's errors.
func SetItem(container, key, v Value) error {
	switch c := container.(type) {
	case *Dict:
		if err := CheckHashable(key); err != nil {
			return err
		}
		c.Set(key, v)
		return nil
	case *List:
		i, err := seqIndex("list", len(c.Items), key)
		if err != nil {
			if IsException(err, "IndexError") {
				return NewIndexError("list assignment index out of range")
			}
			return err
		}
		c.Items[i] = v
		return nil
	}
	return NewTypeError("'%s' object does not support item assignment", container.TypeName())
}

// Append is lst.append(v), or the AttributeError of a value that is not a
// list.
func Append(lst, v Value) error {
	l, ok := lst.(*List)
	if !ok {
		return NoAttribute(lst, "append")
	}
	l.Items = append(l.Items, v)
	return nil
}

// DictGet is d.get(key, def): AttributeError when d is not a dict, TypeError
// for an unhashable key.
func DictGet(d, key, def Value) (Value, error) {
	dd, ok := d.(*Dict)
	if !ok {
		return nil, NoAttribute(d, "get")
	}
	if err := CheckHashable(key); err != nil {
		return nil, err
	}
	if v, ok := dd.Get(key); ok {
		return v, nil
	}
	return def, nil
}

// MapEach is [f(x) for x in xs] over a Go slice: the results in order, or
// the first error f gives (the rest are not asked for).
func MapEach[T, U any](xs []T, f func(T) (U, error)) ([]U, error) {
	out := make([]U, len(xs))
	for i, x := range xs {
		y, err := f(x)
		if err != nil {
			return nil, err
		}
		out[i] = y
	}
	return out, nil
}
