package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/services/netguard"
)

// Ollama embeds through an Ollama server's POST /api/embed
// ({"model", "input": [...]} -> {"embeddings": [[...], ...]}).
type Ollama struct {
	BaseURL string       // e.g. "http://localhost:11434"; "" means that
	Model   string       // e.g. DefaultOllamaModel; "" means DefaultOllamaModel
	Client  *http.Client // nil means a client with a 60 s timeout
	// Retries is how many times a failed request (network error or 5xx) is
	// retried, with 0.5 s, 1 s, 2 s ... pauses. 0 means 2.
	Retries int
	// MaxBody bounds a response body; a longer one is an error (not
	// retried). 0 means netguard.DefaultMaxBody.
	MaxBody int64
}

// NewOllama returns an Ollama embedder for model at baseURL.
func NewOllama(baseURL, model string) *Ollama { return &Ollama{BaseURL: baseURL, Model: model} }

// Name implements Embedder.
func (o *Ollama) Name() string { return "ollama:" + o.model() }

func (o *Ollama) model() string {
	if o.Model == "" {
		return DefaultOllamaModel
	}
	return o.Model
}

func (o *Ollama) url() string {
	b := o.BaseURL
	if b == "" {
		b = "http://localhost:11434"
	}
	return strings.TrimRight(b, "/") + "/api/embed"
}

type ollamaRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type ollamaResponse struct {
	Embeddings [][]float32 `json:"embeddings"`
	Error      string      `json:"error"`
}

// Embed implements Embedder. The vectors are re-normalised in float32.
func (o *Ollama) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	body, err := json.Marshal(ollamaRequest{Model: o.model(), Input: texts})
	if err != nil {
		return nil, err
	}
	client := o.Client
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	retries := o.Retries
	if retries <= 0 {
		retries = 2
	}
	var lastErr error
	for attempt := 0; attempt <= retries; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(250<<attempt) * time.Millisecond):
			}
		}
		vecs, retry, err := o.post(ctx, client, body)
		if err == nil {
			if len(vecs) != len(texts) {
				return nil, fmt.Errorf("embed: %s returned %d embeddings for %d texts", o.Name(), len(vecs), len(texts))
			}
			for _, v := range vecs {
				Normalize(v)
			}
			return vecs, nil
		}
		lastErr = err
		if !retry {
			break
		}
	}
	return nil, lastErr
}

func (o *Ollama) post(ctx context.Context, client *http.Client, body []byte) ([][]float32, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.url(), bytes.NewReader(body))
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, !errors.Is(err, context.Canceled), fmt.Errorf("embed: %s: %w", o.url(), err)
	}
	defer resp.Body.Close()
	b, err := netguard.ReadAll(resp.Body, o.MaxBody)
	if err != nil {
		return nil, !errors.Is(err, netguard.ErrTooLarge), fmt.Errorf("embed: reading %s (model %s): %w", o.url(), o.model(), err)
	}
	var r ollamaResponse
	jerr := json.Unmarshal(b, &r)
	if resp.StatusCode != http.StatusOK {
		msg := strings.TrimSpace(string(b))
		if jerr == nil && r.Error != "" {
			msg = r.Error
		}
		return nil, resp.StatusCode >= 500, fmt.Errorf("embed: %s (model %s): HTTP %d: %s", o.url(), o.model(), resp.StatusCode, msg)
	}
	if jerr != nil {
		return nil, false, fmt.Errorf("embed: %s: malformed response: %w", o.url(), jerr)
	}
	return r.Embeddings, false, nil
}
