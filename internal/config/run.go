package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/joho/godotenv"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/selection"
	"github.com/bfcl-go/bfcl/internal/config/corrections"
	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/run/shard"
	"github.com/bfcl-go/bfcl/internal/services/websearch"
)

// Run is a resolved configuration: what every verb and suite needs to know,
// with the precedence of the package comment applied.
type Run struct {
	Base       Base
	ModelsFile string             // the registry that was read ("" when none exists)
	Registry   *registry.Registry // the registry file's models, and the built-in gold
	Models     []registry.Model   // the chosen models, overrides applied
	DataDir    string             // "" means $BFCL_DATA_DIR's fallbacks (the download cache)
	// Storage is handed to the runner as it is (harness.Config embeds it).
	Storage
	Repeats int // --repeats (at least 1)
	Agentic Agentic
	// Corrections are the opt-in corrections of upstream defects that are
	// on (--correction, BFCL_CORRECTIONS); none by default (the official
	// behaviour). Every number made with one on is marked with the list.
	Corrections corrections.Set

	getenv func(string) (string, bool) // the environment upstream registry names read
}

// Storage is where a run keeps its records and scores and what it records:
// the settings the runner (internal/run/harness) takes unchanged.
type Storage struct {
	ResultDir, ScoreDir string
	Rerun               bool   // --allow-overwrite
	RequestCache        string // record/replay folder of model requests ("" for none)
	TurnIsolated        bool   // --turn-isolated
	IncludeInputLog     bool   // --include-input-log
	ExcludeStateLog     bool   // --exclude-state-log
}

// Agentic are the settings of the agentic backends' services.
type Agentic struct {
	Embedder, EmbedURL, EmbedModel, WebSearch string
	// EmbedModelDir is the folder of the built-in embedder's model
	// (--embed-model-dir); "" looks in the caches, then downloads.
	EmbedModelDir string
	AllowPrivate  bool // web-search fetches may reach non-public addresses
	// From names where each service setting came from (the flag as
	// written, its variable, or "SERPAPI_API_KEY" for the implied serpapi),
	// keyed by the setting's name ("embedder", "embed-url", ...); a setting
	// left at its default has no key. Errors about a service name it.
	From map[string]string
	// SkipUnavailable: a category whose service cannot be reached is
	// skipped (and reported N/A with the reason) instead of stopping the run.
	SkipUnavailable bool
}

// Origin is where setting name came from, for messages: the flag or
// variable that was used, else "the default".
func (a Agentic) Origin(name string) string {
	if o := a.From[name]; o != "" {
		return o
	}
	return "the default"
}

// Resolve applies the precedence to every registered setting. Models are
// looked up in the registry; "gold" is built in and needs none.
func (f *Flags) Resolve(base Base) (*Run, error) {
	r := &Run{Base: base, getenv: f.Getenv}
	if err := f.loadDotEnv(base); err != nil {
		return nil, err
	}
	path, explicit := f.ModelsFile(base)
	if path != "" {
		reg, err := registry.Load(path)
		if err != nil && (explicit || !errors.Is(err, os.ErrNotExist)) {
			return nil, err
		}
		r.Registry, r.ModelsFile = reg, path
	}
	r.Registry = withGold(r.Registry)
	if f.Has(Model) && !f.Folders {
		names := f.List(Model)
		if _, src, set := f.Lookup(Model); set && len(names) == 0 {
			return nil, fmt.Errorf("%s is empty: name a model of the registry (gold is the built-in one)", src)
		}
		if len(names) == 0 {
			names = []string{Model.Default}
		}
		for _, name := range names {
			m, err := r.Model(name)
			if err != nil {
				return nil, err
			}
			if m, err = f.ApplyModel(m); err != nil {
				return nil, err
			}
			r.Models = append(r.Models, m)
		}
	}
	r.DataDir = f.Path(DataDir, base)
	r.ResultDir = f.Path(ResultDir, base)
	r.ScoreDir = f.Path(ScoreDir, base)
	for _, b := range []struct {
		s   *Setting
		dst *bool
	}{{Rerun, &r.Rerun}, {IncludeInputLog, &r.IncludeInputLog}, {ExcludeStateLog, &r.ExcludeStateLog}, {TurnIsolated, &r.TurnIsolated}} {
		v, _, err := f.Bool(b.s)
		if err != nil {
			return nil, err
		}
		*b.dst = v
	}
	r.Repeats = 1
	if n, ok, err := f.Int(Repeats); err != nil {
		return nil, err
	} else if ok {
		if n < 1 {
			return nil, fmt.Errorf("repeats %d must be at least 1", n)
		}
		r.Repeats = n
	}
	corr, err := f.Corrections()
	if err != nil {
		return nil, err
	}
	r.Corrections = corr
	r.RequestCache = requestCache(f.String(RequestCache))
	r.Agentic = Agentic{Embedder: f.String(Embedder), EmbedURL: f.String(EmbedURL), EmbedModel: f.String(EmbedModel), WebSearch: f.String(WebSearch),
		EmbedModelDir: f.Path(EmbedModelDir, base), From: map[string]string{}}
	for _, s := range []*Setting{Embedder, EmbedModelDir, EmbedURL, EmbedModel, WebSearch} {
		if _, src, ok := f.Lookup(s); ok {
			r.Agentic.From[s.Name] = src
		}
	}
	allow, _, err := f.Bool(WebSearchAllowPrivate)
	if err != nil {
		return nil, err
	}
	r.Agentic.AllowPrivate = allow
	if r.Agentic.SkipUnavailable, _, err = f.Bool(SkipUnavailable); err != nil {
		return nil, err
	}
	if r.Agentic.WebSearch == "" && f.Getenv != nil {
		if k, ok := f.Getenv(websearch.SerpAPIKeyEnv); ok && k != "" {
			r.Agentic.WebSearch = "serpapi" // upstream's provider, when its key is there
			r.Agentic.From[WebSearch.Name] = websearch.SerpAPIKeyEnv
		}
	}
	if err := r.Agentic.check(base); err != nil {
		return nil, err
	}
	return r, nil
}

// check refuses a service setting that names no service, before anything
// runs, naming the flag or variable that was used.
func (a *Agentic) check(base Base) error {
	switch a.Embedder {
	case "", "minilm", "ollama", "hashed", "off":
	default:
		return fmt.Errorf("%s=%q: not an embedder (minilm, ollama, hashed or off)", a.Origin(Embedder.Name), a.Embedder)
	}
	switch ws := a.WebSearch; {
	case ws == "", ws == "serpapi", ws == "duckduckgo", ws == "off":
	case strings.HasPrefix(ws, "offline:"):
		dir := strings.TrimPrefix(ws, "offline:")
		if dir != "" && !filepath.IsAbs(dir) {
			dir = filepath.Join(base.Dir(), dir)
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("%s=%q: %s is not a folder of recorded searches", a.Origin(WebSearch.Name), ws, dir)
		}
		a.WebSearch = "offline:" + dir
	default:
		return fmt.Errorf("%s=%q: not a web-search provider (serpapi, duckduckgo, offline:<dir> or off)", a.Origin(WebSearch.Name), ws)
	}
	if a.EmbedURL != "" {
		if u, err := url.Parse(a.EmbedURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%s=%q: not an http(s) URL", a.Origin(EmbedURL.Name), a.EmbedURL)
		}
	}
	return nil
}

// withGold adds the built-in gold model to a registry that does not define
// its own.
func withGold(reg *registry.Registry) *registry.Registry {
	if reg == nil {
		return &registry.Registry{Models: []registry.Model{registry.Gold()}}
	}
	if _, err := reg.Get("gold"); err == nil {
		return reg
	}
	return &registry.Registry{File: reg.File, Models: append([]registry.Model{registry.Gold()}, reg.Models...)}
}

// Model returns the named registry entry (gold is built in).
// A name the registry file does not have but upstream's registry does
// (gpt-4o-2024-11-20-FC, claude-sonnet-4-5-20250929-FC, Qwen/Qwen3-8B-FC)
// is that upstream entry, run as upstream runs it (registry.FromUpstream);
// a models.yaml entry of the same name wins.
func (r *Run) Model(name string) (registry.Model, error) {
	if r.ModelsFile != "" || name == "gold" {
		m, err := r.Registry.Get(name)
		if err == nil || name == "gold" {
			return m, err
		}
		if _, ok := upstream.Lookup(name); !ok {
			return m, err
		}
	}
	if _, ok := upstream.Lookup(name); ok {
		getenv := r.getenv
		if getenv == nil {
			getenv = os.LookupEnv
		}
		return registry.FromUpstream(name, getenv)
	}
	return registry.Model{}, fmt.Errorf("model %q is not a model of upstream's registry (see `bfcl models --upstream`) and %w (looked for ./models.yaml and models.yaml at the module root; set %s or --models-file)", name, ErrNoModelsFile, ModelsFile.Env)
}

// EnvProjectRoot is upstream's BFCL_PROJECT_ROOT: the folder whose .env
// upstream loads (bfcl_eval/constants/eval_config.py DOTENV_PATH).
const EnvProjectRoot = "BFCL_PROJECT_ROOT"

// loadDotEnv applies $BFCL_PROJECT_ROOT/.env (else .env in the base
// folder), when there is one, to the process environment the way upstream
// does (load_dotenv(override=True) in bfcl_eval/__main__.py): its values
// replace variables already set. Only the real environment is changed; a
// test that replaced Getenv loads nothing.
func (f *Flags) loadDotEnv(base Base) error {
	if f.Getenv == nil || reflect.ValueOf(f.Getenv).Pointer() != reflect.ValueOf(os.LookupEnv).Pointer() {
		return nil
	}
	root, _ := f.Getenv(EnvProjectRoot)
	if root == "" {
		root = base.Dir()
	}
	path := filepath.Join(root, ".env")
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	if err := godotenv.Overload(path); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// ApplyModel overrides a model entry's own settings with the environment
// and the command line (the models.yaml level of the precedence).
func (f *Flags) ApplyModel(m registry.Model) (registry.Model, error) {
	if t, ok, err := f.Float(Temperature); err != nil {
		return m, err
	} else if ok {
		if t < 0 || t > 2 {
			return m, fmt.Errorf("temperature %v out of range [0, 2]", t)
		}
		m.Temperature = t
	}
	if n, ok, err := f.Int(Concurrency); err != nil {
		return m, err
	} else if ok {
		if n < 1 {
			return m, fmt.Errorf("concurrency %d must be at least 1", n)
		}
		m.Concurrency = n
	}
	if v, src, ok := f.Lookup(Mode); ok {
		if v != "fc" && v != "prompt" {
			return m, fmt.Errorf("%s=%q must be fc or prompt", src, v)
		}
		m.Mode = v
	}
	if b, ok, err := f.Bool(UnderscoreToDot); err != nil {
		return m, err
	} else if ok {
		m.UnderscoreToDot = b
	}
	return f.applyLocal(m)
}

// applyLocal applies upstream's local-model options (--backend,
// --skip-server-setup, --local-model-path, --lora-modules) to a model run
// under one of upstream's local-model handler classes, and gives it the
// context window upstream's OSSHandler takes (max_position_embeddings of
// the local folder, else of the Hugging Face cache's copy of the model).
func (f *Flags) applyLocal(m registry.Model) (registry.Model, error) {
	_, local := oss.ForClass(m.Handler, m.UpstreamModelName())
	for _, s := range []*Setting{Backend, LocalModelPath, LoraModules} {
		if _, src, ok := f.Lookup(s); ok && !local && m.Provider != "gold" {
			return m, fmt.Errorf("%s applies to upstream's local-model handlers; model %s runs under %q", src, m.Name, m.Handler)
		}
	}
	if _, _, err := f.Bool(SkipServerSetup); err != nil {
		return m, err
	}
	if !local {
		return m, nil
	}
	if v, src, ok := f.Lookup(Backend); ok && v != "vllm" && v != "sglang" {
		return m, fmt.Errorf("%s=%q must be vllm or sglang", src, v)
	}
	if dir, src, ok := f.Lookup(LocalModelPath); ok {
		for _, name := range []string{"config.json", "tokenizer_config.json"} {
			if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
				return m, fmt.Errorf("%s=%q: %s not found there (upstream requires config.json and tokenizer_config.json)", src, dir, name)
			}
		}
		m.Model = dir // vLLM and SGLang serve a local folder under its path
		if m.ContextWindow == 0 {
			n, err := oss.ContextWindow(dir)
			if err != nil {
				return m, fmt.Errorf("%s: %w", src, err)
			}
			m.ContextWindow = n
		}
	}
	if mods := f.List(LoraModules); len(mods) > 0 {
		name, _, ok := strings.Cut(mods[0], "=")
		if !ok || name == "" {
			_, src, _ := f.Lookup(LoraModules)
			return m, fmt.Errorf("%s=%q: each adapter is name=path", src, mods[0])
		}
		m.Model = name // the adapter is served under its name
	}
	if m.ContextWindow == 0 {
		if dir, ok := oss.CachedModelDir(m.UpstreamModelName()); ok {
			if n, err := oss.ContextWindow(dir); err == nil {
				m.ContextWindow = n
			}
		}
	}
	return m, nil
}

// Source opens the data set: --data-dir / $BFCL_DATA_DIR, else the
// download cache.
func (r *Run) Source() (*dataset.Source, error) {
	if r.DataDir != "" {
		return dataset.Open(r.DataDir)
	}
	return dataset.FromEnv()
}

// requestCache maps the setting to a folder: "" is the user cache's
// bfcl-go/requests; off, 0 and false disable recording.
func requestCache(v string) string {
	switch v {
	case "off", "0", "false":
		return ""
	case "":
		c, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(c, "bfcl-go", "requests")
	}
	return v
}

// Selection is the entry selection of the command line and environment
// (--test-category, --ids, --run-ids); def is the category spec used when
// none is given. --run-ids alone means upstream's
// test_case_ids_to_generate.json in the base folder.
func (f *Flags) Selection(base Base, def string) selection.Spec {
	sp := selection.Spec{Categories: f.List(TestCategory), IDs: f.List(IDs), Default: def}
	switch v := f.String(RunIDs); strings.ToLower(v) {
	case "", "false", "0":
	case "true", "1":
		sp.RunIDs = filepath.Join(base.Dir(), selection.UpstreamIDFile)
	default:
		if !filepath.IsAbs(v) {
			v = filepath.Join(base.Dir(), v)
		}
		sp.RunIDs = v
	}
	return sp
}

// Decoding returns the decoding overrides of the command line and the
// environment (--mode, --underscore-to-dot): mode is "" and u2d nil where
// neither sets them, so the model entry's (or the registry's) apply.
func (f *Flags) Decoding() (mode string, u2d *bool, err error) {
	if v, src, ok := f.Lookup(Mode); ok {
		if v != "fc" && v != "prompt" {
			return "", nil, fmt.Errorf("%s=%q must be fc or prompt", src, v)
		}
		mode = v
	}
	if b, ok, err := f.Bool(UnderscoreToDot); err != nil {
		return "", nil, err
	} else if ok {
		u2d = &b
	}
	return mode, u2d, nil
}

// ShardOf returns the shard this process runs: the flag or BFCL_SHARD
// ("K/N", or off), else the engines' variables (internal/run/shard), with where
// the choice came from.
func (f *Flags) ShardOf() (shard.Spec, string, error) {
	get := func(k string) string {
		if f.Getenv == nil {
			return ""
		}
		v, _ := f.Getenv(k)
		return v
	}
	flagVal := ""
	if v, src, ok := f.Lookup(Shard); ok && strings.HasPrefix(src, "-") {
		flagVal = v
	}
	return shard.Resolve(flagVal, get)
}
