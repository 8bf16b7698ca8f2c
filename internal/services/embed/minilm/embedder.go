package minilm

import (
	"context"
	"errors"
	"runtime"
	"sync"
)

// UpstreamModel is the sentence-transformers model upstream's vector memory
// encodes with.
const UpstreamModel = "all-MiniLM-L6-v2"

// HubRepo is its Hugging Face repository.
const HubRepo = "sentence-transformers/" + UpstreamModel

// MaxCached bounds the Embedder's vector cache (entries); past it new
// vectors are computed but not kept. BFCL's memory categories embed a few
// thousand distinct texts.
const MaxCached = 1 << 17

// Embedder embeds texts with a Model, as
// SentenceTransformer(...).encode(texts, normalize_embeddings=True) does,
// each text on its own (a batch of one). It keeps every vector it computed
// by text, so a repeated text costs nothing. It is safe for concurrent use.
type Embedder struct {
	m *Model

	mu    sync.Mutex
	cache map[string]*cacheEntry
}

type cacheEntry struct {
	done chan struct{} // closed when vec or err is set
	vec  []float32
	err  error
}

// NewEmbedder wraps a loaded model.
func NewEmbedder(m *Model) *Embedder {
	return &Embedder{m: m, cache: map[string]*cacheEntry{}}
}

// Model is the wrapped model.
func (e *Embedder) Model() *Model { return e.m }

// Name identifies the embedder, the model and its weights:
// "minilm:all-MiniLM-L6-v2@" + the first 12 hex digits of
// model.safetensors' SHA-256.
func (e *Embedder) Name() string {
	sha := e.m.SHA256()
	if len(sha) > 12 {
		sha = sha[:12]
	}
	return "minilm:" + UpstreamModel + "@" + sha
}

// SHA256 is the hex SHA-256 of the weights file (for run metadata).
func (e *Embedder) SHA256() string { return e.m.SHA256() }

// Dim is the vector dimension.
func (e *Embedder) Dim() int { return e.m.Dim() }

// Tokenize returns text's token ids as the model sees them ([CLS] … [SEP],
// truncated to max_seq_length).
func (e *Embedder) Tokenize(text string) []int { return e.m.Tokenizer.Encode(text) }

// Embed returns one L2-normalised vector per text, in order. Texts are
// embedded in parallel (up to GOMAXPROCS at once; a lone text uses the
// cores inside its matrix products). The returned slices are the caller's.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	entries := make([]*cacheEntry, len(texts))
	var todo []string // texts this call computes
	var mine []*cacheEntry
	local := map[string]*cacheEntry{} // new texts of this call
	e.mu.Lock()
	for i, t := range texts {
		ent, ok := e.cache[t]
		if !ok {
			ent, ok = local[t] // a text repeated within texts is computed once
		}
		if !ok {
			ent = &cacheEntry{done: make(chan struct{})}
			local[t] = ent
			todo = append(todo, t)
			mine = append(mine, ent)
			if len(e.cache) < MaxCached {
				e.cache[t] = ent
			}
		}
		entries[i] = ent
	}
	e.mu.Unlock()

	if len(todo) > 0 {
		e.compute(ctx, todo, mine)
	}
	for i, ent := range entries {
		select {
		case <-ent.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		vec, err := ent.vec, ent.err
		if err != nil && ctx.Err() == nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
			// Another call, since cancelled, was computing this text.
			vec, err = e.m.EmbedIDs(e.m.Tokenizer.Encode(texts[i]), 0)
		}
		if err != nil {
			return nil, err
		}
		out[i] = append([]float32(nil), vec...)
	}
	return out, nil
}

// compute fills the entries of texts, dropping failed ones from the cache
// so that a later call tries again.
func (e *Embedder) compute(ctx context.Context, texts []string, ents []*cacheEntry) {
	procs := runtime.GOMAXPROCS(0)
	workers := min(procs, len(texts))
	par := max(1, procs/len(texts)) // goroutines inside one forward pass
	finish := func(i int, vec []float32, err error) {
		ents[i].vec, ents[i].err = vec, err
		if err != nil {
			e.mu.Lock()
			if e.cache[texts[i]] == ents[i] {
				delete(e.cache, texts[i])
			}
			e.mu.Unlock()
		}
		close(ents[i].done)
	}
	parallel(len(texts), workers, func(i int) {
		if err := ctx.Err(); err != nil {
			finish(i, nil, err)
			return
		}
		vec, err := e.m.EmbedIDs(e.m.Tokenizer.Encode(texts[i]), par)
		finish(i, vec, err)
	})
}

// Open locates the model (see Locate), loads it and wraps it in an
// Embedder.
func Open(ctx context.Context, opts LocateOptions) (*Embedder, error) {
	dir, err := Locate(ctx, opts)
	if err != nil {
		return nil, err
	}
	m, err := Load(dir)
	if err != nil {
		return nil, err
	}
	return NewEmbedder(m), nil
}
