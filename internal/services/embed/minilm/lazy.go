package minilm

import (
	"context"
	"sync"
)

// Lazy is the built-in embedder as a run holds it: the model is located
// (and, where allowed, downloaded) and loaded on the first Embed, so a run
// that never reaches memory_vector pays nothing, and a run that does finds
// out before its first entry (the pre-run check embeds one text) whether
// the model can be had. It is safe for concurrent use.
type Lazy struct {
	opts LocateOptions
	once sync.Once
	emb  *Embedder
	err  error
}

// NewLazy returns a Lazy that opens the model with opts on first use.
func NewLazy(opts LocateOptions) *Lazy { return &Lazy{opts: opts} }

// Open locates and loads the model (once) and returns it.
func (l *Lazy) Open(ctx context.Context) (*Embedder, error) {
	l.once.Do(func() { l.emb, l.err = Open(ctx, l.opts) })
	return l.emb, l.err
}

// Embed embeds texts with the loaded model.
func (l *Lazy) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e, err := l.Open(ctx)
	if err != nil {
		return nil, err
	}
	return e.Embed(ctx, texts)
}

// Name is the loaded model's name (with its weights' SHA-256 prefix), or
// the model's name before it is loaded.
func (l *Lazy) Name() string {
	if l.emb != nil {
		return l.emb.Name()
	}
	return "minilm:" + UpstreamModel
}

// SHA256 is the SHA-256 of the loaded model.safetensors ("" before load).
func (l *Lazy) SHA256() string {
	if l.emb != nil {
		return l.emb.SHA256()
	}
	return ""
}
