// Package memo remembers the results of pure functions of byte strings
// (a function document's tool schema, its language-hinted form), which a
// run computes again and again for the same inputs: every step of a
// multi-turn entry resends the same documents, and many entries share
// the documents of their backend classes. Entries are never evicted: the
// inputs are the data set's documents, a bounded set.
package memo

import (
	"bytes"
	"hash/maphash"
	"sync"
)

// Table maps (k, input bytes) to a V. The zero Table is ready to use and
// safe for concurrent use.
type Table[K comparable, V any] struct {
	once sync.Once
	seed maphash.Seed
	m    sync.Map // key[K] -> []item[V]
}

type key[K comparable] struct {
	k K
	h uint64
}

type item[V any] struct {
	in []byte
	v  V
}

// Get returns the remembered value of (k, in), computing it with f the
// first time (f's errors are not remembered). Callers must not modify in
// after the call, nor a returned value that shares memory.
func (t *Table[K, V]) Get(k K, in []byte, f func() (V, error)) (V, error) {
	t.once.Do(func() { t.seed = maphash.MakeSeed() })
	key := key[K]{k, maphash.Bytes(t.seed, in)}
	if v, ok := t.m.Load(key); ok {
		for _, it := range v.([]item[V]) {
			if bytes.Equal(it.in, in) {
				return it.v, nil
			}
		}
	}
	v, err := f()
	if err != nil {
		return v, err
	}
	it := item[V]{in: bytes.Clone(in), v: v}
	for {
		old, loaded := t.m.LoadOrStore(key, []item[V]{it})
		if !loaded {
			return v, nil
		}
		prev := old.([]item[V])
		for _, p := range prev {
			if bytes.Equal(p.in, in) {
				return p.v, nil // another goroutine computed it meanwhile
			}
		}
		if t.m.CompareAndSwap(key, old, append(append([]item[V](nil), prev...), it)) {
			return v, nil
		}
	}
}

// Recent remembers values by key, for keys that name an input by its
// identity (an address and a length, the value holding the input so the
// address stays its own) rather than by its bytes. It holds at most Max
// bytes of values, as Put's callers count them, and forgets everything
// when one more would pass that. The zero Recent (with Max set) is ready
// to use and safe for concurrent use.
type Recent[K comparable, V any] struct {
	Max int

	mu   sync.Mutex
	m    map[K]V
	used int
}

// Get returns the value remembered for k.
func (r *Recent[K, V]) Get(k K) (V, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.m[k]
	return v, ok
}

// Put remembers v, of size bytes, for k.
func (r *Recent[K, V]) Put(k K, v V, size int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil || r.used+size > r.Max {
		r.m, r.used = map[K]V{}, 0
	}
	r.m[k] = v
	r.used += size
}
