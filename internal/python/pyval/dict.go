package pyval

import (
	"math"
	"math/big"
	"strconv"
)

// smallDict is the size up to which a Dict is searched linearly; bigger
// dicts keep hash indexes.
const smallDict = 8

// maxUnindexed is the size up to which a dict made in one piece (a copy,
// a parsed JSON object) starts without its index: it is searched linearly
// until it is first changed (Set builds the index before adding to a dict
// bigger than smallDict). Reads never build an index, so dicts shared by
// goroutines that only read them stay safe to share.
const maxUnindexed = 32

type dictEntry struct {
	key Value
	val Value
}

// Dict is a Python dict: insertion-ordered, keys compared with Python's
// equality and hashing rules (1, 1.0 and True are one key; "1" is another;
// tuples of hashable values are keys). The zero value is an empty dict.
//
// Setting an existing key keeps its position and the key object first
// stored (d[1] = x; d[1.0] = y leaves key 1 with value y), as CPython does.
//
// Unhashable keys (list, dict, set, objects without Hashable) are accepted
// and found by a linear scan with Equal; callers that must reproduce
// Python's "unhashable type" TypeError check CheckHashable first.
type Dict struct {
	ents []dictEntry
	idx  *dictIndex // nil while len(ents) <= smallDict, or <= maxUnindexed for a dict made in one piece and not changed since
}

type dictIndex struct {
	str   map[string]int
	num   map[int64]int
	other map[any]int
	slow  []int // positions of unhashable keys
}

// Hashable is implemented by Objects that may be dict keys or set members
// and must match plain values: PyHashKey returns a plain hashable Value
// (Int, Float, Str, Tuple, ...) that this object is equal to for key
// purposes, or an arbitrary comparable Go value wrapped in a Str-free form.
// Two objects with equal PyHashKey results are treated as the same key.
type Hashable interface {
	PyHashKey() Value
}

// key kinds
const (
	kindStr = iota
	kindNum
	kindOther
	kindUnhashable
)

type floatKey float64
type bigKey string
type tupleKey string

// keyOf classifies v for the hash index.
func keyOf(v Value) (kind int, s string, n int64, o any) {
	switch x := v.(type) {
	case Str:
		return kindStr, string(x), 0, nil
	case Int:
		return kindNum, "", int64(x), nil
	case Bool:
		if x {
			return kindNum, "", 1, nil
		}
		return kindNum, "", 0, nil
	case Float:
		f := float64(x)
		if f != f {
			return kindUnhashable, "", 0, nil // NaN never equals anything
		}
		if f == math.Trunc(f) {
			if f >= -9.223372036854775808e18 && f < 9.223372036854775808e18 {
				return kindNum, "", int64(f), nil
			}
			if !math.IsInf(f, 0) {
				bi, _ := big.NewFloat(f).Int(nil)
				return kindOther, "", 0, bigKey(bi.String())
			}
		}
		return kindOther, "", 0, floatKey(f)
	case BigInt:
		if x.V.IsInt64() {
			return kindNum, "", x.V.Int64(), nil
		}
		return kindOther, "", 0, bigKey(x.V.String())
	case NoneType, EllipsisType, Bytes:
		return kindOther, "", 0, v
	case Tuple:
		b, ok := appendTupleKey(nil, x)
		if !ok {
			return kindUnhashable, "", 0, nil
		}
		return kindOther, "", 0, tupleKey(b)
	case Hashable:
		hk := x.PyHashKey()
		if hk == nil {
			return kindUnhashable, "", 0, nil
		}
		if _, isObj := hk.(Object); isObj {
			return kindUnhashable, "", 0, nil
		}
		return keyOf(hk)
	}
	return kindUnhashable, "", 0, nil
}

func appendTupleKey(b []byte, t Tuple) ([]byte, bool) {
	b = append(b, '(')
	for _, e := range t {
		kind, s, n, o := keyOf(e)
		switch kind {
		case kindStr:
			b = appendSized(b, 's', s)
		case kindNum:
			b = append(b, 'i')
			b = strconv.AppendInt(b, n, 10)
			b = append(b, ';')
		case kindOther:
			switch y := o.(type) {
			case floatKey:
				b = append(b, 'f')
				b = strconv.AppendUint(b, math.Float64bits(float64(y)), 16)
				b = append(b, ';')
			case bigKey:
				b = append(b, 'b')
				b = append(b, y...)
				b = append(b, ';')
			case tupleKey:
				b = appendSized(b, 't', string(y))
			case NoneType:
				b = append(b, 'N')
			case EllipsisType:
				b = append(b, 'E')
			case Bytes:
				b = appendSized(b, 'y', string(y))
			default:
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return append(b, ')'), true
}

// CheckHashable returns Python's TypeError ("unhashable type: 'list'") when
// v cannot be a dict key or set member, nil otherwise.
func CheckHashable(v Value) error {
	switch x := v.(type) {
	case *List, *Dict, *Set:
		return NewTypeError("unhashable type: '%s'", v.TypeName())
	case Tuple:
		for _, e := range x {
			if err := CheckHashable(e); err != nil {
				return err
			}
		}
		return nil
	case Float, Str, Int, Bool, BigInt, NoneType, EllipsisType, Bytes:
		return nil
	case Hashable:
		return nil
	case Object:
		return NewTypeError("unhashable type: '%s'", v.TypeName())
	}
	return nil
}

// newDictLen returns a dict of n zero entries for the caller to fill
// (before any other use). A small dict and its entries are one allocation.
func newDictLen(n int) *Dict {
	if n == 0 {
		return &Dict{ents: []dictEntry{}}
	}
	return withItems(n, func(d *Dict, e []dictEntry) { d.ents = e })
}

// withItems returns a new T holding n zero items of E (attach stores the
// slice in it): up to 8 items share one allocation with the T.
func withItems[T, E any](n int, attach func(*T, []E)) *T {
	switch {
	case n <= 2:
		p := new(struct {
			v T
			e [2]E
		})
		attach(&p.v, p.e[:n])
		return &p.v
	case n <= 4:
		p := new(struct {
			v T
			e [4]E
		})
		attach(&p.v, p.e[:n])
		return &p.v
	case n <= 8:
		p := new(struct {
			v T
			e [8]E
		})
		attach(&p.v, p.e[:n])
		return &p.v
	}
	v := new(T)
	attach(v, make([]E, n))
	return v
}

// NewDict returns an empty dict.
func NewDict() *Dict { return &Dict{} }

// NewDictCap returns an empty dict with room for n entries.
func NewDictCap(n int) *Dict { return &Dict{ents: make([]dictEntry, 0, n)} }

// DictFromItems builds a dict from pairs, later duplicates overriding values
// (dict(pairs) semantics).
func DictFromItems(items []KV) *Dict {
	d := newDictLen(len(items))
	allStr := true
	for i, kv := range items {
		d.ents[i] = dictEntry{kv.Key, kv.Value}
		if _, ok := kv.Key.(Str); !ok {
			allStr = false
		}
	}
	if allStr && indexDistinctStr(d) {
		return d
	}
	return dictBySetting(d.ents)
}

func (d *Dict) find(k Value) int {
	if d.idx == nil {
		if ks, ok := k.(Str); ok {
			for i := range d.ents {
				switch ek := d.ents[i].key.(type) {
				case Str:
					if ek == ks {
						return i
					}
				case Object:
					if ek.PyEqual(k) {
						return i
					}
				}
			}
			return -1
		}
		for i := range d.ents {
			if Equal(d.ents[i].key, k) {
				return i
			}
		}
		return -1
	}
	kind, s, n, o := keyOf(k)
	switch kind {
	case kindStr:
		if i, ok := d.idx.str[s]; ok {
			return i
		}
	case kindNum:
		if i, ok := d.idx.num[n]; ok {
			return i
		}
	case kindOther:
		if i, ok := d.idx.other[o]; ok {
			return i
		}
	case kindUnhashable:
		for _, i := range d.idx.slow {
			if Equal(d.ents[i].key, k) {
				return i
			}
		}
	}
	return -1
}

func (d *Dict) indexAdd(k Value, i int) {
	kind, s, n, o := keyOf(k)
	switch kind {
	case kindStr:
		if d.idx.str == nil {
			d.idx.str = make(map[string]int)
		}
		d.idx.str[s] = i
	case kindNum:
		if d.idx.num == nil {
			d.idx.num = make(map[int64]int)
		}
		d.idx.num[n] = i
	case kindOther:
		if d.idx.other == nil {
			d.idx.other = make(map[any]int)
		}
		d.idx.other[o] = i
	default:
		d.idx.slow = append(d.idx.slow, i)
	}
}

func (d *Dict) rebuildIndex() {
	if len(d.ents) <= smallDict {
		d.idx = nil
		return
	}
	d.idx = &dictIndex{}
	for i := range d.ents {
		if i == 0 {
			// Most dicts have keys of one kind: size that map for all.
			switch kind, _, _, _ := keyOf(d.ents[0].key); kind {
			case kindStr:
				d.idx.str = make(map[string]int, len(d.ents))
			case kindNum:
				d.idx.num = make(map[int64]int, len(d.ents))
			}
		}
		d.indexAdd(d.ents[i].key, i)
	}
}

// madeWhole finishes a dict whose entries were filled in one piece (with
// distinct keys): only a big one is indexed now, see maxUnindexed.
func (d *Dict) madeWhole() {
	d.idx = nil
	if len(d.ents) > maxUnindexed {
		d.rebuildIndex()
	}
}

// dictOfStrEntries returns a dict of the entries, whose keys are all Str,
// as setting them in order would make it (a repeated key keeps its first
// position and takes the last value). The entries are copied.
func dictOfStrEntries(ents []dictEntry) *Dict {
	d := newDictLen(len(ents))
	copy(d.ents, ents)
	if indexDistinctStr(d) {
		return d
	}
	return dictBySetting(ents)
}

// indexDistinctStr completes d, whose entries (Str keys) were filled in
// one piece, and reports true; false when a key is repeated (d is then
// to be dropped).
func indexDistinctStr(d *Dict) bool {
	ents := d.ents
	if len(ents) <= maxUnindexed {
		for i := 1; i < len(ents); i++ {
			ki := ents[i].key.(Str)
			for j := 0; j < i; j++ {
				if ents[j].key.(Str) == ki {
					return false
				}
			}
		}
		return true
	}
	d.idx = &dictIndex{str: make(map[string]int, len(ents))}
	for i := range ents {
		s := string(ents[i].key.(Str))
		if _, dup := d.idx.str[s]; dup {
			return false
		}
		d.idx.str[s] = i
	}
	return true
}

func dictBySetting(ents []dictEntry) *Dict {
	d := NewDictCap(len(ents))
	for _, e := range ents {
		d.Set(e.key, e.val)
	}
	return d
}

// Get returns d[k].
func (d *Dict) Get(k Value) (Value, bool) {
	if i := d.find(k); i >= 0 {
		return d.ents[i].val, true
	}
	return nil, false
}

// GetStr returns d[k] for a str key (without boxing k).
func (d *Dict) GetStr(k string) (Value, bool) {
	if d.idx != nil {
		if i, ok := d.idx.str[k]; ok {
			return d.ents[i].val, true
		}
		if len(d.idx.slow) == 0 {
			return nil, false
		}
		return d.Get(Str(k))
	}
	for i := range d.ents {
		switch ek := d.ents[i].key.(type) {
		case Str:
			if string(ek) == k {
				return d.ents[i].val, true
			}
		case Object:
			if ek.PyEqual(Str(k)) {
				return d.ents[i].val, true
			}
		}
	}
	return nil, false
}

// Has reports k in d.
func (d *Dict) Has(k Value) bool { return d.find(k) >= 0 }

// Set does d[k] = v.
func (d *Dict) Set(k, v Value) {
	if d.idx == nil && len(d.ents) > smallDict {
		d.rebuildIndex()
	}
	if i := d.find(k); i >= 0 {
		d.ents[i].val = v
		return
	}
	d.ents = append(d.ents, dictEntry{k, v})
	if d.idx != nil {
		d.indexAdd(k, len(d.ents)-1)
	} else if len(d.ents) > smallDict {
		d.rebuildIndex()
	}
}

// SetStr does d[k] = v for a str key (boxed with StrKey: str keys recur).
func (d *Dict) SetStr(k string, v Value) { d.Set(StrKey(k), v) }

// SetDefault is d.setdefault(k, v): returns the existing value, or stores
// and returns v.
func (d *Dict) SetDefault(k, v Value) Value {
	if i := d.find(k); i >= 0 {
		return d.ents[i].val
	}
	d.Set(k, v)
	return v
}

// Delete does del d[k]; it reports whether k was present.
func (d *Dict) Delete(k Value) bool {
	i := d.find(k)
	if i < 0 {
		return false
	}
	copy(d.ents[i:], d.ents[i+1:])
	d.ents[len(d.ents)-1] = dictEntry{}
	d.ents = d.ents[:len(d.ents)-1]
	if d.idx != nil {
		d.rebuildIndex()
	}
	return true
}

// Pop is d.pop(k): removes k and returns its value.
func (d *Dict) Pop(k Value) (Value, bool) {
	i := d.find(k)
	if i < 0 {
		return nil, false
	}
	v := d.ents[i].val
	d.Delete(d.ents[i].key)
	return v, true
}

// Clear empties d.
func (d *Dict) Clear() {
	d.ents = nil
	d.idx = nil
}

// Len is len(d).
func (d *Dict) Len() int {
	if d == nil {
		return 0
	}
	return len(d.ents)
}

// Keys returns the keys in insertion order (a new slice).
func (d *Dict) Keys() []Value {
	out := make([]Value, len(d.ents))
	for i := range d.ents {
		out[i] = d.ents[i].key
	}
	return out
}

// Values returns the values in insertion order (a new slice).
func (d *Dict) Values() []Value {
	out := make([]Value, len(d.ents))
	for i := range d.ents {
		out[i] = d.ents[i].val
	}
	return out
}

// Items returns the pairs in insertion order (a new slice).
func (d *Dict) Items() []KV {
	out := make([]KV, len(d.ents))
	for i := range d.ents {
		out[i] = KV{d.ents[i].key, d.ents[i].val}
	}
	return out
}

// Range calls f for each pair in insertion order until f returns false.
// f must not modify d.
func (d *Dict) Range(f func(k, v Value) bool) {
	for i := range d.ents {
		if !f(d.ents[i].key, d.ents[i].val) {
			return
		}
	}
}

// At returns the i-th pair in insertion order (0 <= i < Len()).
func (d *Dict) At(i int) (Value, Value) { return d.ents[i].key, d.ents[i].val }

// Copy is d.copy() (shallow).
func (d *Dict) Copy() *Dict {
	nd := newDictLen(len(d.ents))
	copy(nd.ents, d.ents)
	nd.madeWhole()
	return nd
}

// Update is d.update(other).
func (d *Dict) Update(other *Dict) {
	for i := range other.ents {
		d.Set(other.ents[i].key, other.ents[i].val)
	}
}

// appendSized appends tag, len(s), ':' and s: a key part whose length
// keeps it from running into the next part.
func appendSized(b []byte, tag byte, s string) []byte {
	b = append(b, tag)
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}
