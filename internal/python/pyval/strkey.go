package pyval

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// StrKey is Str(s) as a Value for a string that recurs: dict keys such as
// attribute and field names. Storing a Str in a Value copies its header to
// the heap; the Values of recently used short keys are kept (in a
// direct-mapped table replaced slot by slot through atomic pointers, so
// goroutines share it) and handed out again instead. The result is the
// same Value Str(s) would give.
func StrKey(s string) Value {
	if len(s) > maxStrKey {
		return Str(s)
	}
	slot := &strKeys[maphash.String(strKeySeed, s)&(strKeysLen-1)]
	if k := slot.Load(); k != nil && k.s == s {
		return k.v
	}
	s = strings.Clone(s) // s may be part of a whole document: keep only the key
	k := &strKey{s: s, v: Str(s)}
	slot.Store(k)
	return k.v
}

// strKeysLen is the number of slots (a power of two).
const strKeysLen = 4096

// maxStrKey is the longest string StrKey keeps.
const maxStrKey = 40

type strKey struct {
	s string
	v Value
}

var (
	strKeys    [strKeysLen]atomic.Pointer[strKey]
	strKeySeed = maphash.MakeSeed()
)
