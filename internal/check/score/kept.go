package score

import (
	"bytes"
	"hash/fnv"
	"sync"

	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Kept are the verdicts one process has already reached, so that writing
// the score files at the end of a run does not score the same records a
// second time. A verdict is reused only for the same result folder, the
// same decoding and checking options and the same record bytes; anything
// else is scored again. Safe for concurrent use; the zero value is ready.
type Kept struct {
	mu sync.Mutex
	m  map[keptKey]keptVerdict
}

type keptKey struct{ model, id string }

type keptVerdict struct {
	opts   Options
	record uint64 // FNV-1a of the record's line
	v      verdict.Verdict
}

func recordSum(rec results.Record) uint64 {
	h := fnv.New64a()
	h.Write(bytes.TrimSpace(rec.Raw))
	return h.Sum64()
}

// comparable drops what does not change a verdict (the long-context data
// is the data set's, one per process).
func (o Options) comparable() Options {
	o.LongContext = nil
	return o
}

// Add keeps the verdict of rec under opts; a record without its line
// (Raw) is not kept.
func (k *Kept) Add(rec results.Record, opts Options, v verdict.Verdict) {
	if k == nil || len(rec.Raw) == 0 {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[keptKey]keptVerdict{}
	}
	k.m[keptKey{opts.ModelName, rec.ID}] = keptVerdict{opts: opts.comparable(), record: recordSum(rec), v: v}
}

// Get returns the kept verdict of rec under opts, if any.
func (k *Kept) Get(rec results.Record, opts Options) (verdict.Verdict, bool) {
	if k == nil {
		return verdict.Verdict{}, false
	}
	k.mu.Lock()
	kv, ok := k.m[keptKey{opts.ModelName, rec.ID}]
	k.mu.Unlock()
	if !ok || len(rec.Raw) == 0 || kv.opts != opts.comparable() || kv.record != recordSum(rec) {
		return verdict.Verdict{}, false
	}
	return kv.v, true
}

// Len is the number of verdicts kept.
func (k *Kept) Len() int {
	if k == nil {
		return 0
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.m)
}
