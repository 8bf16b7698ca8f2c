package minilm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Load reads a model folder in the Hugging Face / sentence-transformers
// layout: config.json, model.safetensors, tokenizer.json or vocab.txt
// (tokenizer.json is preferred: it is what BertTokenizerFast reads), and,
// if present, sentence_bert_config.json (max_seq_length, default 256) and
// 1_Pooling/config.json (which must ask for mean pooling).
func Load(dir string) (*Model, error) {
	if err := checkFiles(dir); err != nil {
		return nil, err
	}
	cfg, err := ReadConfig(filepath.Join(dir, "config.json"))
	if err != nil {
		return nil, err
	}
	maxLen, err := readMaxSeqLength(dir)
	if err != nil {
		return nil, err
	}
	if maxLen > cfg.MaxPositionEmbeddings {
		maxLen = cfg.MaxPositionEmbeddings
	}
	if err := checkPooling(dir); err != nil {
		return nil, err
	}
	tok, err := loadTokenizer(dir, maxLen)
	if err != nil {
		return nil, err
	}
	for _, sp := range tok.specials {
		if sp.id >= cfg.VocabSize {
			return nil, fmt.Errorf("%s: token %s has id %d, outside vocab_size %d of config.json", dir, sp.text, sp.id, cfg.VocabSize)
		}
	}
	for t, id := range tok.vocab {
		if id < 0 || id >= cfg.VocabSize {
			return nil, fmt.Errorf("%s: vocabulary token %q has id %d, outside vocab_size %d of config.json", dir, t, id, cfg.VocabSize)
		}
	}
	st, err := ReadSafeTensors(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		return nil, err
	}
	m, err := weightsFrom(st, cfg)
	if err != nil {
		return nil, err
	}
	m.Tokenizer = tok
	m.Dir = dir
	return m, nil
}

// checkFiles reports the first required file missing from dir.
func checkFiles(dir string) error {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return fmt.Errorf("%s model folder %s does not exist; %s", UpstreamModel, dir, fixHint)
	}
	for _, f := range []string{"config.json", "model.safetensors"} {
		if !isFile(filepath.Join(dir, f)) {
			return fmt.Errorf("%s not found in %s (missing %s); %s", UpstreamModel, dir, f, fixHint)
		}
	}
	if !isFile(filepath.Join(dir, "tokenizer.json")) && !isFile(filepath.Join(dir, "vocab.txt")) {
		return fmt.Errorf("%s not found in %s (missing tokenizer.json and vocab.txt); %s", UpstreamModel, dir, fixHint)
	}
	return nil
}

// fixHint ends the errors about a missing or unusable model folder.
const fixHint = "set --embed-model-dir / BFCL_EMBED_MODEL_DIR to a sentence-transformers download of " + HubRepo + ", or allow the one-time download"

func isFile(path string) bool {
	st, err := os.Stat(path) // follows the symbolic links of the HF cache
	return err == nil && st.Mode().IsRegular()
}

func readMaxSeqLength(dir string) (int, error) {
	path := filepath.Join(dir, "sentence_bert_config.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return DefaultMaxSeqLength, nil
	}
	if err != nil {
		return 0, err
	}
	var sb struct {
		MaxSeqLength *int `json:"max_seq_length"`
	}
	if err := json.Unmarshal(data, &sb); err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	if sb.MaxSeqLength == nil {
		return DefaultMaxSeqLength, nil
	}
	if *sb.MaxSeqLength < 2 {
		return 0, fmt.Errorf("%s: max_seq_length %d is too small", path, *sb.MaxSeqLength)
	}
	return *sb.MaxSeqLength, nil
}

// checkPooling refuses a sentence-transformers pooling other than the mean.
func checkPooling(dir string) error {
	path := filepath.Join(dir, "1_Pooling", "config.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for k, v := range p {
		on, _ := v.(bool)
		if on && k != "pooling_mode_mean_tokens" && k != "include_prompt" {
			return fmt.Errorf("%s: %s is not supported (this embedder does mean pooling only)", path, k)
		}
	}
	if v, ok := p["pooling_mode_mean_tokens"].(bool); ok && !v {
		return fmt.Errorf("%s: pooling_mode_mean_tokens is false (this embedder does mean pooling only)", path)
	}
	return nil
}

func loadTokenizer(dir string, maxLen int) (*Tokenizer, error) {
	if p := filepath.Join(dir, "tokenizer.json"); isFile(p) {
		return ReadTokenizerJSON(p, maxLen)
	}
	p := filepath.Join(dir, "vocab.txt")
	vocab, err := ReadVocabTxt(p)
	if err != nil {
		return nil, err
	}
	t, err := NewTokenizer(vocab, maxLen)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return t, nil
}
