package pyval

import "math/big"

// Truther is implemented by Objects with a custom truth value (__bool__ /
// __len__); Objects without it are true.
type Truther interface {
	PyBool() bool
}

// DeepCopier is implemented by Objects that copy.deepcopy must copy; other
// Objects are shared, as immutable values are.
type DeepCopier interface {
	PyDeepCopy() Value
}

// Truthy is Python's bool(v).
func Truthy(v Value) bool {
	switch x := v.(type) {
	case Bool:
		return bool(x)
	case Int:
		return x != 0
	case Str:
		return x != ""
	case NoneType:
		return false
	case Float:
		return x != 0
	case BigInt:
		return x.V.Sign() != 0
	case *List:
		return len(x.Items) > 0
	case Tuple:
		return len(x) > 0
	case *Dict:
		return x.Len() > 0
	case *Set:
		return x.Len() > 0
	case Bytes:
		return x != ""
	case Truther:
		return x.PyBool()
	case nil:
		return false
	}
	return true
}

// DeepCopy is copy.deepcopy(v): lists, dicts, sets and tuples are copied
// recursively (a container reached twice is copied once, so aliasing is
// preserved), Objects implementing DeepCopier are copied with PyDeepCopy,
// everything else is immutable and returned as is.
func DeepCopy(v Value) Value {
	var memo copyMemo
	return deepCopy(v, &memo)
}

// copyMemo maps the containers already copied to their copies (deepcopy's
// memo): the first few in arrays searched linearly, a map once there are
// more. Most copied values are small trees, for which a map would be most
// of the cost.
type copyMemo struct {
	n    int
	orig [12]any
	copy [12]Value
	m    map[any]Value
}

func (c *copyMemo) get(x any) (Value, bool) {
	if c.m != nil {
		v, ok := c.m[x]
		return v, ok
	}
	for i := 0; i < c.n; i++ {
		if c.orig[i] == x {
			return c.copy[i], true
		}
	}
	return nil, false
}

// remember records cp as the copy of the container x.
func remember(c *copyMemo, x any, cp Value) {
	if c.m == nil {
		if c.n < len(c.orig) {
			c.orig[c.n], c.copy[c.n] = x, cp
			c.n++
			return
		}
		c.m = make(map[any]Value, 2*len(c.orig))
		for i := 0; i < c.n; i++ {
			c.m[c.orig[i]] = c.copy[i]
		}
	}
	c.m[x] = cp
}

// copyInto sets dst[i] to the deep copy of src[i].
func copyInto(dst, src []Value, memo *copyMemo) {
	for i, e := range src {
		dst[i] = deepCopy(e, memo)
	}
}

func deepCopy(v Value, memo *copyMemo) Value {
	switch x := v.(type) {
	case Str, Int, Float, Bool, NoneType, EllipsisType:
		return v
	case BigInt:
		return BigInt{new(big.Int).Set(x.V)}
	case *List:
		if c, ok := memo.get(x); ok {
			return c
		}
		nl := newListLen(len(x.Items))
		remember(memo, x, nl)
		copyInto(nl.Items, x.Items, memo)
		return nl
	case Tuple:
		nt := make(Tuple, len(x))
		copyInto(nt, x, memo)
		return nt
	case *Dict:
		if c, ok := memo.get(x); ok {
			return c
		}
		nd := newDictLen(len(x.ents))
		remember(memo, x, nd)
		for i := range x.ents {
			nd.ents[i] = dictEntry{deepCopy(x.ents[i].key, memo), deepCopy(x.ents[i].val, memo)}
		}
		nd.madeWhole()
		return nd
	case *Set:
		if c, ok := memo.get(x); ok {
			return c
		}
		ns := &Set{}
		remember(memo, x, ns)
		ns.d.ents = make([]dictEntry, len(x.d.ents))
		for i := range x.d.ents {
			ns.d.ents[i] = dictEntry{deepCopy(x.d.ents[i].key, memo), None}
		}
		ns.d.madeWhole()
		return ns
	case DeepCopier:
		return x.PyDeepCopy()
	}
	return v
}
