package minilm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/bfcl-go/bfcl/internal/store/hfhub"
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

// PinnedRevision is the commit of huggingface.co/sentence-transformers/
// all-MiniLM-L6-v2 that Locate looks for first and downloads. It was chosen
// as the newest main revision in evidence without hub access from here:
// model cards written by sentence-transformers 5.6-6.1 record "at revision
// 1110a243…" for this base model (those of 5.2 and older record c9745ed1…,
// and of 3.x fa97f6e7…), and several independent projects pin 1110a243…
// together with model.safetensors SHA-256 PinnedSHA256 (90,868,376 bytes)
// and vocab.txt SHA-256 07eced37…, the reference vocabulary's. The
// weights file has not changed since it was added (hub PR #53), so the
// older revisions hold the same model.safetensors.
const PinnedRevision = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41"

// PinnedSHA256 is the SHA-256 of model.safetensors at PinnedRevision; a
// download of that revision must match it.
const PinnedSHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"

// DefaultEndpoint is the Hugging Face hub (HF_ENDPOINT overrides it, as in
// huggingface_hub).
const DefaultEndpoint = "https://huggingface.co"

// LocateOptions says where Locate looks for the model. The zero value looks
// in the Hugging Face cache and this program's cache, without downloading.
type LocateOptions struct {
	// Dir is an explicit model folder (--embed-model-dir /
	// BFCL_EMBED_MODEL_DIR). When set, it is the only place looked at.
	Dir string
	// Revision is the hub commit (default PinnedRevision).
	Revision string
	// HubCache is the Hugging Face hub cache (default $HF_HUB_CACHE, else
	// $HF_HOME/hub, else $XDG_CACHE_HOME/huggingface/hub, else
	// ~/.cache/huggingface/hub). $SENTENCE_TRANSFORMERS_HOME, when set, is
	// looked at too.
	HubCache string
	// CacheDir is this program's model cache; the model lives in
	// CacheDir/<revision> (default os.UserCacheDir()/bfcl-go/models/
	// all-MiniLM-L6-v2).
	CacheDir string
	// Download allows fetching the revision into CacheDir when it is found
	// nowhere.
	Download bool
	// Endpoint is the hub's base URL (default $HF_ENDPOINT, else
	// DefaultEndpoint).
	Endpoint string
	// ExpectSHA256 is the SHA-256 a downloaded model.safetensors must have
	// (default PinnedSHA256 for PinnedRevision, none for other revisions).
	ExpectSHA256 string
	// Client makes the download requests (default http.DefaultClient).
	Client *http.Client
	// Log, when set, receives one line per download step.
	Log func(msg string)
}

func (o *LocateOptions) defaults() {
	if o.Revision == "" {
		o.Revision = PinnedRevision
	}
	if o.ExpectSHA256 == "" && o.Revision == PinnedRevision {
		o.ExpectSHA256 = PinnedSHA256
	}
	if o.HubCache == "" {
		o.HubCache = HubCacheDir()
	}
	if o.CacheDir == "" {
		if d, err := os.UserCacheDir(); err == nil {
			o.CacheDir = filepath.Join(d, "bfcl-go", "models", UpstreamModel)
		}
	}
	if o.Endpoint == "" {
		o.Endpoint = os.Getenv("HF_ENDPOINT")
	}
	if o.Endpoint == "" {
		o.Endpoint = DefaultEndpoint
	}
	o.Endpoint = strings.TrimRight(o.Endpoint, "/")
	if o.Client == nil {
		o.Client = http.DefaultClient
	}
	if o.Log == nil {
		o.Log = func(string) {}
	}
}

// HubCacheDir is the Hugging Face hub cache as huggingface_hub resolves it
// ("" if there is no home folder); see hfhub.CacheDir.
func HubCacheDir() string { return hfhub.CacheDir() }

// Locate returns the folder of a complete all-MiniLM-L6-v2 download: the
// explicit Dir, else the Hugging Face cache's snapshot of the revision,
// else the snapshot refs/main names (in the hub cache, then in
// $SENTENCE_TRANSFORMERS_HOME), else CacheDir/<revision>, else (when
// Download allows) a fresh download of the revision into
// CacheDir/<revision>.
func Locate(ctx context.Context, opts LocateOptions) (string, error) {
	opts.defaults()
	if opts.Revision == "." || opts.Revision == ".." || strings.ContainsAny(opts.Revision, `/\`) {
		return "", fmt.Errorf("revision %q is not a commit hash or branch name of %s", opts.Revision, HubRepo)
	}
	if opts.Dir != "" {
		if err := checkFiles(opts.Dir); err != nil {
			return "", err
		}
		return opts.Dir, nil
	}
	var looked []string
	hubs := []string{opts.HubCache}
	// sentence-transformers downloads into $SENTENCE_TRANSFORMERS_HOME, in
	// the hub cache layout, when that is set.
	if d := os.Getenv("SENTENCE_TRANSFORMERS_HOME"); d != "" && d != opts.HubCache {
		hubs = append(hubs, d)
	}
	for _, hub := range hubs {
		if hub == "" {
			continue
		}
		for _, d := range hfhub.Snapshots(hub, HubRepo, opts.Revision) {
			if checkFiles(d) == nil {
				return d, nil
			}
		}
		looked = append(looked, filepath.Join(hfhub.RepoDir(hub, HubRepo), "snapshots"))
	}
	if opts.CacheDir == "" {
		return "", fmt.Errorf("%s not found in %s and there is no user cache folder to download it into; %s", UpstreamModel, strings.Join(looked, ", "), fixHint)
	}
	final := filepath.Join(opts.CacheDir, opts.Revision)
	if checkFiles(final) == nil {
		return final, nil
	}
	looked = append(looked, final)
	if !opts.Download {
		return "", fmt.Errorf("%s not found in %s; %s", UpstreamModel, strings.Join(looked, " nor "), fixHint)
	}
	if err := download(ctx, &opts, final); err != nil {
		return "", err
	}
	return final, nil
}

// hubFile is one file of the hub repository.
type hubFile struct {
	name     string
	optional bool
	limit    int64
}

var hubFiles = []hubFile{
	{"config.json", false, 1 << 20},
	{"sentence_bert_config.json", true, 1 << 20},
	{"1_Pooling/config.json", true, 1 << 20},
	{"tokenizer.json", true, 64 << 20},
	{"vocab.txt", true, 64 << 20},
	{"model.safetensors", false, 2 << 30},
}

// download fetches the revision's files into a temporary folder beside
// final, checks them, and renames the folder to final: a reader never sees
// a half-downloaded model.
func download(ctx context.Context, o *LocateOptions, final string) error {
	if err := os.MkdirAll(o.CacheDir, 0o755); err != nil {
		return fmt.Errorf("creating the model cache %s: %w", o.CacheDir, err)
	}
	tmp, err := os.MkdirTemp(o.CacheDir, "."+o.Revision+".download-*")
	if err != nil {
		return fmt.Errorf("creating the model cache %s: %w", o.CacheDir, err)
	}
	defer os.RemoveAll(tmp) // after a successful rename there is nothing left
	base := o.Endpoint + "/" + HubRepo + "/resolve/" + o.Revision + "/"
	o.Log(fmt.Sprintf("downloading %s@%s from %s into %s", HubRepo, o.Revision, o.Endpoint, final))
	var sha string
	for _, f := range hubFiles {
		sum, found, err := fetchFile(ctx, o.Client, base+f.name, filepath.Join(tmp, filepath.FromSlash(f.name)), f.limit)
		if err != nil {
			return fmt.Errorf("downloading %s: %w", base+f.name, err)
		}
		if !found && !f.optional {
			return fmt.Errorf("downloading %s: not found (404); is revision %s of %s right?", base+f.name, o.Revision, HubRepo)
		}
		if f.name == "model.safetensors" {
			sha = sum
		}
	}
	if o.ExpectSHA256 != "" && !strings.EqualFold(sha, o.ExpectSHA256) {
		return fmt.Errorf("downloaded %smodel.safetensors has SHA-256 %s, want %s; not kept", base, sha, o.ExpectSHA256)
	}
	if err := checkFiles(tmp); err != nil {
		return fmt.Errorf("the download from %s is incomplete: %w", base, err)
	}
	cfg, err := ReadConfig(filepath.Join(tmp, "config.json"))
	if err != nil {
		return fmt.Errorf("the download from %s is unusable: %w", base, err)
	}
	if err := CheckTensors(filepath.Join(tmp, "model.safetensors"), cfg); err != nil {
		return fmt.Errorf("the download from %s is unusable: %w", base, err)
	}
	if _, err := loadTokenizer(tmp, DefaultMaxSeqLength); err != nil {
		return fmt.Errorf("the download from %s is unusable: %w", base, err)
	}
	if err := os.Rename(tmp, final); err != nil {
		if checkFiles(final) == nil { // another process finished first
			return nil
		}
		return fmt.Errorf("storing the model in %s: %w", final, err)
	}
	o.Log(fmt.Sprintf("stored %s@%s in %s (model.safetensors SHA-256 %s)", HubRepo, o.Revision, final, sha))
	return nil
}

// fetchFile GETs url into path (found false on 404) and returns the hex
// SHA-256 of the body.
func fetchFile(ctx context.Context, c *http.Client, url, path string, limit int64) (string, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", false, err
	}
	req.Header.Set("User-Agent", "bfcl-go/minilm")
	resp, err := c.Do(req)
	if err != nil {
		return "", false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return "", false, nil
	}
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return "", false, fmt.Errorf("HTTP %s: %s", resp.Status, strings.TrimSpace(string(msg)))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", false, err
	}
	f, err := os.Create(path)
	if err != nil {
		return "", false, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(resp.Body, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", false, err
	}
	if n > limit {
		return "", false, fmt.Errorf("larger than %d bytes", limit)
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return "", false, fmt.Errorf("got %d of %d bytes", n, resp.ContentLength)
	}
	return hex.EncodeToString(h.Sum(nil)), true, nil
}
