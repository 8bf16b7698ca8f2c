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
