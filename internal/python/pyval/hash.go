package pyval

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// CPython's hashing and set iteration order under PYTHONHASHSEED=0, for the
// places where upstream prints a set (TicketAPI.edit_ticket joins a set
// difference into its error text).

// Hash is CPython's hash(v) under PYTHONHASHSEED=0 (the reference ran with
// it) for str, int and bool; ok is false for other types.
func Hash(v Value) (int64, bool) {
	var h int64
	switch x := v.(type) {
	case Str:
		h = StrHash(string(x))
	case Int:
		h = IntHash(int64(x))
	case Bool:
		if x {
			h = 1
		}
	default:
		return 0, false
	}
	return h, true
}

// IntHash is hash(n) for an int (Objects/longobject.c: n mod 2**61-1, sign kept,
// -1 becoming -2).
func IntHash(n int64) int64 {
	const mod = (1 << 61) - 1
	neg := n < 0
	u := uint64(n)
	if neg {
		u = uint64(-n)
	}
	h := int64(u % mod)
	if neg {
		h = -h
	}
	if h == -1 {
		h = -2
	}
	return h
}

// StrHash is CPython's str hash (Python/pyhash.c, Py_HASH_SIPHASH13): siphash13 with a zero key over the
// string's canonical storage (latin-1, UCS-2 or UCS-4 code units).
func StrHash(s string) int64 {
	if s == "" {
		return 0
	}
	maxR := rune(0)
	var runes []rune
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 && s[i] == 0xED && i+2 < len(s) {
			r = rune(s[i]&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
			w = 3
		}
		runes = append(runes, r)
		if r > maxR {
			maxR = r
		}
		i += w
	}
	var data []byte
	switch {
	case maxR < 0x100:
		for _, r := range runes {
			data = append(data, byte(r))
		}
	case maxR < 0x10000:
		for _, r := range runes {
			data = binary.LittleEndian.AppendUint16(data, uint16(r))
		}
	default:
		for _, r := range runes {
			data = binary.LittleEndian.AppendUint32(data, uint32(r))
		}
	}
	h := int64(siphash13(0, 0, data))
	if h == -1 {
		h = -2
	}
	return h
}

func siphash13(k0, k1 uint64, src []byte) uint64 {
	b := uint64(len(src)) << 56
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	round := func() {
		v0 += v1
		v2 += v3
		v1 = bits.RotateLeft64(v1, 13) ^ v0
		v3 = bits.RotateLeft64(v3, 16) ^ v2
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v1
		v0 += v3
		v1 = bits.RotateLeft64(v1, 17) ^ v2
		v3 = bits.RotateLeft64(v3, 21) ^ v0
		v2 = bits.RotateLeft64(v2, 32)
	}
	for len(src) >= 8 {
		mi := binary.LittleEndian.Uint64(src)
		src = src[8:]
		v3 ^= mi
		round()
		v0 ^= mi
	}
	var t uint64
	for i := len(src) - 1; i >= 0; i-- {
		t = t<<8 | uint64(src[i])
	}
	b |= t
	v3 ^= b
	round()
	v0 ^= b
	v2 ^= 0xff
	round()
	round()
	round()
	return (v0 ^ v1) ^ (v2 ^ v3)
}

// cpySet is a minimal model of CPython's set hash table (setobject.c):
// open addressing, 9 linear probes then perturbation, resize at 60% fill.
type cpySet struct {
	keys   []Value
	hashes []int64
	used   []bool
	mask   uint64
	fill   int
}

const cpyLinearProbes = 9

func newCpySet() *cpySet {
	return &cpySet{keys: make([]Value, 8), hashes: make([]int64, 8), used: make([]bool, 8), mask: 7}
}

// lookup probes for k as set_lookkey does: the slot holding k (found), or
// the first free slot of its probe sequence.
func (s *cpySet) lookup(k Value, h int64) (slot uint64, found bool) {
	mask := s.mask
	i := uint64(h) & mask
	perturb := uint64(h)
	for {
		probes := 0
		if i+cpyLinearProbes <= mask {
			probes = cpyLinearProbes
		}
		for j := 0; j <= probes; j++ {
			e := i + uint64(j)
			if !s.used[e] {
				return e, false
			}
			if s.hashes[e] == h && Equal(s.keys[e], k) {
				return e, true
			}
		}
		perturb >>= 5
		i = (i*5 + 1 + perturb) & mask
	}
}

func (s *cpySet) contains(k Value, h int64) bool {
	_, found := s.lookup(k, h)
	return found
}

func (s *cpySet) add(k Value, h int64) {
	e, found := s.lookup(k, h)
	if found {
		return
	}
	s.keys[e], s.hashes[e], s.used[e] = k, h, true
	s.fill++
	if uint64(s.fill)*5 >= s.mask*3 {
		minused := s.fill * 4
		if s.fill > 50000 {
			minused = s.fill * 2
		}
		s.resize(minused)
	}
}

func (s *cpySet) resize(minused int) {
	size := uint64(8)
	for size <= uint64(minused) {
		size <<= 1
	}
	oldKeys, oldHashes, oldUsed := s.keys, s.hashes, s.used
	s.keys, s.hashes, s.used, s.mask = make([]Value, size), make([]int64, size), make([]bool, size), size-1
	for e := range oldKeys {
		if !oldUsed[e] {
			continue
		}
		h := oldHashes[e]
		i := uint64(h) & s.mask
		perturb := uint64(h)
	probe:
		for {
			if !s.used[i] {
				s.keys[i], s.hashes[i], s.used[i] = oldKeys[e], h, true
				break
			}
			if i+cpyLinearProbes <= s.mask {
				for j := uint64(1); j <= cpyLinearProbes; j++ {
					if !s.used[i+j] {
						s.keys[i+j], s.hashes[i+j], s.used[i+j] = oldKeys[e], h, true
						break probe
					}
				}
			}
			perturb >>= 5
			i = (i*5 + 1 + perturb) & s.mask
		}
	}
}

func (s *cpySet) items() []Value {
	var out []Value
	for e := range s.keys {
		if s.used[e] {
			out = append(out, s.keys[e])
		}
	}
	return out
}

// copy is set_copy (set_merge into an empty set): same-size tables are
// copied slot for slot, otherwise entries are re-inserted in slot order.
func (s *cpySet) copy() *cpySet {
	n := newCpySet()
	used := 0
	for _, u := range s.used {
		if u {
			used++
		}
	}
	if used == 0 {
		return n
	}
	if uint64(used)*5 >= n.mask*3 {
		n.resize(used * 2)
	}
	if n.mask == s.mask {
		copy(n.keys, s.keys)
		copy(n.hashes, s.hashes)
		copy(n.used, s.used)
		n.fill = used
		return n
	}
	for e := range s.keys {
		if s.used[e] {
			n.insertClean(s.keys[e], s.hashes[e])
		}
	}
	n.fill = used
	return n
}

// insertClean is set_insert_clean: place a key known to be absent.
func (s *cpySet) insertClean(k Value, h int64) {
	i := uint64(h) & s.mask
	perturb := uint64(h)
	for {
		if !s.used[i] {
			s.keys[i], s.hashes[i], s.used[i] = k, h, true
			return
		}
		if i+cpyLinearProbes <= s.mask {
			for j := uint64(1); j <= cpyLinearProbes; j++ {
				if !s.used[i+j] {
					s.keys[i+j], s.hashes[i+j], s.used[i+j] = k, h, true
					return
				}
			}
		}
		perturb >>= 5
		i = (i*5 + 1 + perturb) & s.mask
	}
}

// discard removes k (its slot becomes a dummy: iteration order of the
// remaining keys is unchanged).
func (s *cpySet) discard(k Value, h int64) {
	for e := range s.keys {
		if s.used[e] && s.hashes[e] == h && Equal(s.keys[e], k) {
			s.used[e] = false
			s.keys[e] = nil
			return
		}
	}
}

// SetDifference is list(set(keys) - set(other)) in CPython's
// iteration order (setobject.c's set_difference, both of its paths).
// Keys of types whose hash is not modelled keep their insertion order.
func SetDifference(keys, other []Value) []Value {
	modelled := true
	for _, k := range append(append([]Value(nil), keys...), other...) {
		if _, ok := Hash(k); !ok {
			modelled = false
		}
	}
	if !modelled {
		var out []Value
		for _, k := range keys {
			in := false
			for _, o := range other {
				if Equal(k, o) {
					in = true
				}
			}
			dup := false
			for _, x := range out {
				if Equal(x, k) {
					dup = true
				}
			}
			if !in && !dup {
				out = append(out, k)
			}
		}
		return out
	}
	left := newCpySet()
	for _, k := range keys {
		h, _ := Hash(k)
		left.add(k, h)
	}
	right := newCpySet()
	for _, k := range other {
		h, _ := Hash(k)
		right.add(k, h)
	}
	if len(left.items())>>2 > len(right.items()) {
		// set_copy_and_difference: copy, then discard the common keys
		result := left.copy()
		for _, k := range right.items() {
			h, _ := Hash(k)
			result.discard(k, h)
		}
		return result.items()
	}
	result := newCpySet()
	for _, k := range left.items() {
		h, _ := Hash(k)
		if !right.contains(k, h) {
			result.add(k, h)
		}
	}
	return result.items()
}
