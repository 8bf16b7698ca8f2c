package oss

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bfcl-go/bfcl/internal/store/hfhub"
)

// ContextWindow is the context length upstream's OSSHandler takes for a
// model folder (spin_up_local_server): config.json's
// max_position_embeddings, else tokenizer_config.json's model_max_length.
func ContextWindow(dir string) (int, error) {
	var cfg struct {
		MaxPositionEmbeddings int `json:"max_position_embeddings"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return 0, fmt.Errorf("model folder %s: %w", dir, err)
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return 0, fmt.Errorf("%s: %w", filepath.Join(dir, "config.json"), err)
	}
	if cfg.MaxPositionEmbeddings > 0 {
		return cfg.MaxPositionEmbeddings, nil
	}
	var tok struct {
		ModelMaxLength float64 `json:"model_max_length"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "tokenizer_config.json")); err == nil && json.Unmarshal(b, &tok) == nil && tok.ModelMaxLength > 0 && tok.ModelMaxLength < 1e9 {
		return int(tok.ModelMaxLength), nil
	}
	return 0, fmt.Errorf("model folder %s: config.json has no max_position_embeddings and tokenizer_config.json no model_max_length; set the model's context_window", dir)
}

// CachedModelDir is the Hugging Face cache's snapshot of a model id (e.g.
// "Qwen/Qwen3-8B") that holds config.json, as upstream's AutoConfig finds
// it when the model was downloaded; false when there is none.
func CachedModelDir(modelID string) (string, bool) {
	cache := hfhub.CacheDir()
	if cache == "" || modelID == "" {
		return "", false
	}
	for _, d := range hfhub.Snapshots(cache, modelID, "") {
		if _, err := os.Stat(filepath.Join(d, "config.json")); err == nil {
			return d, true
		}
	}
	return "", false
}
