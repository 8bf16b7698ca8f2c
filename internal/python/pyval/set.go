package pyval

import "sort"

// Set is a Python set. Items iterates in insertion order, which is NOT
// CPython's hash-table order (that order is not reproduced); callers that
// print a set in a way that must match CPython should use SortedItems or
// avoid relying on order. The zero value is an empty set.
type Set struct {
	d Dict
}

// NewSet returns a set holding items (duplicates collapse, first kept).
func NewSet(items ...Value) *Set {
	s := &Set{}
	for _, it := range items {
		s.Add(it)
	}
	return s
}

// Add does s.add(v).
func (s *Set) Add(v Value) {
	if s.d.find(v) < 0 {
		s.d.Set(v, None)
	}
}

// Contains reports v in s.
func (s *Set) Contains(v Value) bool { return s.d.find(v) >= 0 }

// Remove does s.discard(v) and reports whether v was present.
func (s *Set) Remove(v Value) bool { return s.d.Delete(v) }

// Len is len(s).
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	return s.d.Len()
}

// Items returns the members in insertion order (a new slice).
func (s *Set) Items() []Value { return s.d.Keys() }

// SortedItems returns the members sorted: numbers (by value) first, then
// strings (by code point), then the rest ordered by their repr. This is a
// deterministic order, not CPython's iteration order.
func (s *Set) SortedItems() []Value {
	items := s.d.Keys()
	sort.SliceStable(items, func(i, j int) bool { return sortLess(items[i], items[j]) })
	return items
}

// Copy is s.copy().
func (s *Set) Copy() *Set {
	ns := &Set{}
	ns.d = *s.d.Copy()
	return ns
}

func sortRank(v Value) int {
	switch v.(type) {
	case Bool, Int, BigInt, Float:
		return 0
	case Str:
		return 1
	}
	return 2
}

func sortLess(a, b Value) bool {
	ra, rb := sortRank(a), sortRank(b)
	if ra != rb {
		return ra < rb
	}
	switch ra {
	case 0:
		return numCompare(a, b) < 0
	case 1:
		return a.(Str) < b.(Str)
	}
	return Repr(a) < Repr(b)
}
