// Package embed turns texts into vectors for the vector memory backend
// (sim.MemoryAPI_vector).
//
// Upstream (memory_vector.py) encodes with sentence-transformers'
// "all-MiniLM-L6-v2" on CPU (384 dimensions, normalize_embeddings=True) and
// searches a FAISS IndexFlatIP, i.e. cosine similarity in float32. This
// package offers:
//
//   - Ollama: the /api/embed endpoint of an Ollama server; with the model
//     "all-minilm:l6-v2" (a GGUF conversion of the same all-MiniLM-L6-v2
//     weights) it is the closest available stand-in. Its vectors are close
//     to, not bit-identical with, sentence-transformers' (different kernels
//     and weight precision), so similarity scores differ in the low digits
//     and near-ties may rank differently.
//   - Hashed: a deterministic local embedder (hashed character n-grams) for
//     tests and offline runs. It is NOT upstream's model: its scores and
//     rankings are not comparable with upstream's.
//
// Every embedder returns L2-normalised float32 vectors.
package embed

import (
	"context"
	"math"
)

// UpstreamModel is the sentence-transformers model upstream's vector memory
// uses (bfcl_eval/.../memory_vector.py, ENCODER).
const UpstreamModel = "all-MiniLM-L6-v2"

// UpstreamDim is that model's embedding dimension.
const UpstreamDim = 384

// DefaultOllamaModel is the Ollama model with upstream's weights.
const DefaultOllamaModel = "all-minilm:l6-v2"

// Embedder maps texts to L2-normalised vectors of one fixed dimension.
// Implementations must be safe for concurrent use.
type Embedder interface {
	// Embed returns one vector per text, in order.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Name identifies the embedder and model (for logs and reports).
	Name() string
}

// Normalize scales v to unit L2 norm in place, as
// torch.nn.functional.normalize does (norm clamped below by 1e-12), in
// float32.
func Normalize(v []float32) {
	var sum float32
	for _, x := range v {
		sum += x * x
	}
	n := float32(math.Sqrt(float64(sum)))
	if n < 1e-12 {
		n = 1e-12
	}
	for i := range v {
		v[i] /= n
	}
}

// Dot is the float32 inner product (IndexFlatIP's similarity).
func Dot(a, b []float32) float32 {
	var s float32
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	for i := 0; i < n; i++ {
		s += a[i] * b[i]
	}
	return s
}
