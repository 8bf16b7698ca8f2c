package pyval

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// StrKey is Str(s) as a Value for a string that recurs: dict keys such as
// attribute and field names. Storing a Str in a Value copies its header to
// the heap; the Values of recently used short keys are kept (in two-way
// sets chosen by a hash, replaced entry by entry through atomic pointers,
// so goroutines share them) and handed out again instead. The result is
// the same Value Str(s) would give.
func StrKey(s string) Value {
	if len(s) > maxStrKey {
		return Str(s)
	}
	h := maphash.String(strKeySeed, s)
	set := strKeys[2*(h&(strKeySets-1)):]
	k0, k1 := set[0].Load(), set[1].Load()
	if k0 != nil && k0.s == s {
		return k0.v
	}
	if k1 != nil && k1.s == s {
		return k1.v
	}
	s = strings.Clone(s) // s may be part of a whole document: keep only the key
	k := &strKey{s: s, v: Str(s)}
	// An empty way first; else the way the hash picks.
	switch {
	case k0 == nil:
		set[0].Store(k)
	case k1 == nil:
		set[1].Store(k)
	default:
		set[h>>63].Store(k)
	}
	return k.v
}

// strKeySets is the number of two-way sets (a power of two).
const strKeySets = 4096

// maxStrKey is the longest string StrKey keeps.
const maxStrKey = 40

type strKey struct {
	s string
	v Value
}

var (
	strKeys    [2 * strKeySets]atomic.Pointer[strKey]
	strKeySeed = maphash.MakeSeed()
)
