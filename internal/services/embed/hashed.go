package embed

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
	"unicode"
)

// Hashed is a deterministic embedder: lower-cased text, padded with spaces,
// cut into character n-grams (N = 3 by default) and words; each feature is
// hashed (FNV-1a) into one of Dim buckets with a hashed sign; the vector is
// L2-normalised. It needs no model and no network. It is NOT upstream's
// embedding model; use it for tests and offline runs only.
type Hashed struct {
	Dim int // vector dimension; 0 means UpstreamDim (384)
	N   int // character n-gram length; 0 means 3
}

// Name implements Embedder.
func (h Hashed) Name() string { return fmt.Sprintf("hashed-ngrams(n=%d,dim=%d)", h.n(), h.dim()) }

func (h Hashed) dim() int {
	if h.Dim <= 0 {
		return UpstreamDim
	}
	return h.Dim
}

func (h Hashed) n() int {
	if h.N <= 0 {
		return 3
	}
	return h.N
}

// Embed implements Embedder.
func (h Hashed) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = h.vector(t)
	}
	return out, nil
}

func (h Hashed) vector(text string) []float32 {
	dim, n := h.dim(), h.n()
	v := make([]float32, dim)
	add := func(feature string, weight float32) {
		f := fnv.New64a()
		f.Write([]byte(feature))
		x := f.Sum64()
		idx := int(x % uint64(dim))
		if x>>63 == 1 {
			weight = -weight
		}
		v[idx] += weight
	}
	lower := strings.ToLower(text)
	rs := []rune(" " + lower + " ")
	for i := 0; i+n <= len(rs); i++ {
		add("c:"+string(rs[i:i+n]), 1)
	}
	for _, w := range strings.FieldsFunc(lower, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		add("w:"+w, 2)
	}
	Normalize(v)
	return v
}
