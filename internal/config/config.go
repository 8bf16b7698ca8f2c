// Package config is the one place where a run's settings are decided. Every
// CLI verb and every test binary registers its flags here, and every setting
// is resolved with the same precedence:
//
//	built-in default < models.yaml entry < environment variable < flag
//
// (the models.yaml level exists only for the settings a model entry carries:
// temperature, concurrency, mode, underscore_to_dot). The registry file is
// found one way for all of them: the flag or $BFCL_MODELS_FILE, else
// ./models.yaml, else models.yaml at the module root.
package config

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/config/corrections"
)

// Kind is the type of a setting's value.
type Kind int

// The kinds of settings.
const (
	String Kind = iota
	Bool
	Int
	Float
	List // comma-separated, repeatable
)

// Setting is one user choice: its flag name, the environment variable that
// sets it, other spellings of the flag, and its default.
type Setting struct {
	Name    string   // canonical flag name, e.g. "result-dir"
	Aliases []string // other accepted flag names (upstream's spellings, older ones)
	Env     string   // environment variable ("" for flag-only settings)
	Kind    Kind
	Default string // as text; "" for none
	Usage   string
}

// The settings. The README's settings table lists them (a test checks that
// it does).
var (
	Model = &Setting{Name: "model", Env: "BFCL_MODEL", Kind: List, Default: "gold",
		Usage: "model name(s): models.yaml entries or upstream registry names (comma-separated for several)"}
	ModelsFile = &Setting{Name: "models-file", Env: "BFCL_MODELS_FILE",
		Usage: "models registry (default ./models.yaml, else models.yaml at the module root)"}
	DataDir = &Setting{Name: "data-dir", Env: "BFCL_DATA_DIR",
		Usage: "BFCL data set folder (default: the `bfcl data` cache)"}
	ResultDir = &Setting{Name: "result-dir", Env: "BFCL_RESULT_DIR", Default: "result",
		Usage: "result root (<model>/<group>/BFCL_v4_<category>_result.json)"}
	ScoreDir = &Setting{Name: "score-dir", Env: "BFCL_SCORE_DIR", Default: "score",
		Usage: "score root (score files, CSVs, summary.json)"}
	Rerun = &Setting{Name: "allow-overwrite", Aliases: []string{"rerun", "o"}, Env: "BFCL_RERUN", Kind: Bool,
		Usage: "call the model again for entries that already have a stored result"}
	Temperature = &Setting{Name: "temperature", Env: "BFCL_TEMPERATURE", Kind: Float,
		Usage: "sampling temperature (default: the model entry's, upstream's 0.001)"}
	Concurrency = &Setting{Name: "num-threads", Aliases: []string{"concurrency"}, Env: "BFCL_CONCURRENCY", Kind: Int,
		Usage: "requests in flight, at most (default: the model entry's concurrency)"}
	TestCategory = &Setting{Name: "test-category", Env: "BFCL_TEST_CATEGORY", Kind: List,
		Usage: "categories or groups (upstream's names; comma-separated)"}
	IDs = &Setting{Name: "ids", Env: "BFCL_IDS", Kind: List,
		Usage: "only these entry ids (comma-separated)"}
	RunIDs = &Setting{Name: "run-ids", Env: "BFCL_RUN_IDS", Kind: String,
		Usage: "run the entries of upstream's test_case_ids_to_generate.json (--run-ids) or of another such file (--run-ids=FILE); ignores --test-category"}
	IncludeInputLog = &Setting{Name: "include-input-log", Env: "BFCL_INCLUDE_INPUT_LOG", Kind: Bool,
		Usage: "record the exact request of every step in the inference log"}
	ExcludeStateLog = &Setting{Name: "exclude-state-log", Env: "BFCL_EXCLUDE_STATE_LOG", Kind: Bool,
		Usage: "leave the backends' state out of multi-turn inference logs"}
	RequestCache = &Setting{Name: "request-cache", Env: "BFCL_REQUEST_CACHE",
		Usage: "record/replay folder for model requests, or off (default: the user cache)"}
	Embedder = &Setting{Name: "embedder", Env: "BFCL_EMBEDDER",
		Usage: "memory_vector embedder: minilm (built-in all-MiniLM-L6-v2, upstream's model in pure Go) | ollama | hashed | off (default minilm; gold: hashed)"}
	EmbedURL = &Setting{Name: "embed-url", Env: "BFCL_EMBED_URL",
		Usage: "Ollama server of the embedder (default: the model's Ollama, else 127.0.0.1:11434)"}
	EmbedModelDir = &Setting{Name: "embed-model-dir", Env: "BFCL_EMBED_MODEL_DIR",
		Usage: "folder of sentence-transformers/all-MiniLM-L6-v2 in the Hugging Face layout (config.json, model.safetensors, vocab.txt or tokenizer.json) for the built-in embedder (default: the Hugging Face cache, else the user cache, else a one-time download of the pinned revision)"}
	EmbedModel = &Setting{Name: "embed-model", Env: "BFCL_EMBED_MODEL",
		Usage: "embedding model (default all-minilm:l6-v2)"}
	WebSearch = &Setting{Name: "websearch", Env: "BFCL_WEBSEARCH",
		Usage: "web-search provider: serpapi | duckduckgo | offline:<dir> | off (default serpapi when SERPAPI_API_KEY is set)"}
	WebSearchAllowPrivate = &Setting{Name: "websearch-allow-private", Env: "BFCL_WEBSEARCH_ALLOW_PRIVATE", Kind: Bool,
		Usage: "let web-search fetches reach loopback, private and link-local addresses (an internal search mirror); off: the model under test chooses the URLs"}
	Shard = &Setting{Name: "shard", Env: "BFCL_SHARD",
		Usage: "run shard K of N (K from 0, as Kubernetes numbers completions) of the selection, balanced by expected cost; off = all. Default: the engine's variables (JOB_COMPLETION_INDEX with BFCL_SHARD_COUNT, SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT)"}
	Repeats = &Setting{Name: "repeats", Env: "BFCL_REPEATS", Kind: Int, Default: "1",
		Usage: "run every entry K times (repeat k >= 2 in <result-dir>_repeat_<k>, <score-dir>_repeat_<k>); bfcl repeats summarises them"}
	TurnIsolated = &Setting{Name: "turn-isolated", Env: "BFCL_TURN_ISOLATED", Kind: Bool,
		Usage: "NOT the official score: ask each multi-turn turn with the ground truth's history (records in <result-dir>_turn_isolated)"}
	Mode = &Setting{Name: "mode", Env: "BFCL_MODE",
		Usage: "fc or prompt (default: the model entry's; evaluate: else detected per record)"}
	UnderscoreToDot = &Setting{Name: "underscore-to-dot", Env: "BFCL_UNDERSCORE_TO_DOT", Kind: Bool,
		Usage: "tool names were sent with '.' replaced by '_' (default: the model entry's)"}
	PartialEval = &Setting{Name: "partial-eval", Env: "BFCL_PARTIAL_EVAL", Kind: Bool,
		Usage: "score only the entries present in each result file"}
	StrictIrrelevance = &Setting{Name: "strict-irrelevance", Env: "BFCL_STRICT_IRRELEVANCE", Kind: Bool,
		Usage: "NOT the official score: also fail multi-turn turns without ground truth where the model still called a function"}
	SkipUnavailable = &Setting{Name: "skip-unavailable", Env: "BFCL_SKIP_UNAVAILABLE", Kind: Bool,
		Usage: "skip (N/A, reported with the reason) a category whose service (embedder, web search) cannot be used, instead of stopping before the run"}
	Handler = &Setting{Name: "handler", Env: "BFCL_HANDLER",
		Usage: "upstream handler class whose decoders read the results, e.g. QwenFCHandler (default: the model entry's, else the upstream registry entry of the folder; see `bfcl models --upstream`)"}
	Correction = &Setting{Name: "correction", Env: "BFCL_CORRECTIONS", Kind: List,
		Usage: "NOT the official score: opt-in corrections of upstream defects, comma-separated (" + strings.Join(corrections.Names(), ", ") + "); recorded in summary.json and shown beside the scores"}
	Backend = &Setting{Name: "backend", Env: "BFCL_BACKEND",
		Usage: "upstream's local-model serving engine: vllm or sglang (bfcl-go never starts a server; the value is checked and recorded)"}
	SkipServerSetup = &Setting{Name: "skip-server-setup", Env: "BFCL_SKIP_SERVER_SETUP", Kind: Bool,
		Usage: "upstream's: use the running server (always so in bfcl-go, which starts none)"}
	LocalModelPath = &Setting{Name: "local-model-path", Env: "BFCL_LOCAL_MODEL_PATH",
		Usage: "upstream's: the served model is this folder (config.json and tokenizer_config.json); its max_position_embeddings is the context window"}
	LoraModules = &Setting{Name: "lora-modules", Env: "BFCL_LORA_MODULES", Kind: List,
		Usage: "upstream's name=path LoRA adapters of a local model: requests name the first adapter's served model"}
	UpstreamAlias = &Setting{Name: "alias", Env: "BFCL_UPSTREAM_ALIASES", Kind: List,
		Usage: "folder=registry-name: score a result folder with the configuration of that upstream registry entry (comma-separated)"}
)

// All lists every setting, in the README's order.
func All() []*Setting {
	return []*Setting{Model, ModelsFile, DataDir, ResultDir, ScoreDir, Rerun, Temperature, Concurrency,
		TestCategory, IDs, RunIDs, IncludeInputLog, ExcludeStateLog, RequestCache, Embedder, EmbedModelDir, EmbedURL, EmbedModel,
		WebSearch, WebSearchAllowPrivate, SkipUnavailable, Shard, Repeats, TurnIsolated, Mode, UnderscoreToDot, PartialEval, StrictIrrelevance,
		Handler, UpstreamAlias, Correction, Backend, SkipServerSetup, LocalModelPath, LoraModules}
}

// Corrections reads the opt-in corrections (--correction, BFCL_CORRECTIONS);
// an unknown name is an error naming where it came from and the valid
// names.
func (f *Flags) Corrections() (corrections.Set, error) {
	v, src, ok := f.Lookup(Correction)
	if !ok {
		return corrections.Set{}, nil
	}
	set, err := corrections.Parse(f.List(Correction)...)
	if err != nil {
		return corrections.Set{}, fmt.Errorf("%s=%q: %w", src, v, err)
	}
	return set, nil
}

// Flags holds the settings a command registered and what its command line
// set. Values not set on the command line come from the environment, then
// from the model entry, then from the default.
type Flags struct {
	prefix   string
	settings []*Setting
	set      map[*Setting]string
	// Getenv reads the environment (os.LookupEnv unless a test replaces it).
	Getenv func(string) (string, bool)
	// Folders says the model names are result folders (evaluate): they need
	// no registry entry, so Resolve does not look them up.
	Folders bool
}

// Register adds the flags of settings to fs. prefix is "" for the CLI and
// "bfcl." for test binaries (-bfcl.model, ...).
func Register(fs *flag.FlagSet, prefix string, settings ...*Setting) *Flags {
	f := &Flags{prefix: prefix, settings: settings, set: map[*Setting]string{}, Getenv: os.LookupEnv}
	for _, s := range settings {
		v := &value{f: f, s: s}
		help := s.Usage
		if s.Env != "" {
			help += " (env " + s.Env + ")"
		}
		fs.Var(v, prefix+s.Name, help)
		for _, a := range s.Aliases {
			fs.Var(v, prefix+a, "same as -"+prefix+s.Name)
		}
	}
	return f
}

// value is the flag.Value of one setting (shared by its aliases).
type value struct {
	f *Flags
	s *Setting
}

func (v *value) String() string {
	if v == nil || v.f == nil {
		return ""
	}
	return v.f.set[v.s]
}

func (v *value) Set(x string) error {
	switch v.s.Kind {
	case Bool:
		if _, err := strconv.ParseBool(x); err != nil {
			return fmt.Errorf("%q is not true or false", x)
		}
	case Int:
		if _, err := strconv.Atoi(x); err != nil {
			return fmt.Errorf("%q is not an integer", x)
		}
	case Float:
		if _, err := strconv.ParseFloat(x, 64); err != nil {
			return fmt.Errorf("%q is not a number", x)
		}
	case List:
		if old, ok := v.f.set[v.s]; ok && old != "" {
			x = old + "," + x
		}
	}
	v.f.set[v.s] = x
	return nil
}

// IsBoolFlag lets boolean settings stand alone (--allow-overwrite); run-ids
// also stands alone, meaning upstream's default file.
func (v *value) IsBoolFlag() bool { return v.s.Kind == Bool || v.s == RunIDs }

// Lookup returns the value of s from the command line, else the
// environment, and where it came from ("" when neither sets it).
func (f *Flags) Lookup(s *Setting) (val, source string, ok bool) {
	if v, ok := f.set[s]; ok {
		return v, "-" + f.prefix + s.Name, true
	}
	if s.Env != "" && f.Getenv != nil {
		if v, ok := f.Getenv(s.Env); ok && v != "" {
			return v, s.Env, true
		}
	}
	return "", "", false
}

// Has reports whether s is one of the registered settings.
func (f *Flags) Has(s *Setting) bool {
	for _, x := range f.settings {
		if x == s {
			return true
		}
	}
	return false
}

// String returns s from the command line or the environment, else its default.
func (f *Flags) String(s *Setting) string {
	if v, _, ok := f.Lookup(s); ok {
		return v
	}
	return s.Default
}

// List returns a list setting's items (comma-separated, blanks dropped).
func (f *Flags) List(s *Setting) []string {
	return SplitList(f.String(s))
}

// SplitList splits a comma-separated list, dropping blanks.
func SplitList(v string) []string {
	var out []string
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// Bool returns a boolean setting; ok is false when neither the command line
// nor the environment sets it. An unparsable value is an error naming its
// source.
func (f *Flags) Bool(s *Setting) (b, ok bool, err error) {
	v, src, ok := f.Lookup(s)
	if !ok {
		return false, false, nil
	}
	b, err = strconv.ParseBool(v)
	if err != nil {
		return false, false, fmt.Errorf("%s=%q is not true or false", src, v)
	}
	return b, true, nil
}

// Int returns an integer setting (see Bool).
func (f *Flags) Int(s *Setting) (n int, ok bool, err error) {
	v, src, ok := f.Lookup(s)
	if !ok {
		return 0, false, nil
	}
	n, err = strconv.Atoi(v)
	if err != nil {
		return 0, false, fmt.Errorf("%s=%q is not an integer", src, v)
	}
	return n, true, nil
}

// Float returns a number setting (see Bool).
func (f *Flags) Float(s *Setting) (x float64, ok bool, err error) {
	v, src, ok := f.Lookup(s)
	if !ok {
		return 0, false, nil
	}
	x, err = strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, false, fmt.Errorf("%s=%q is not a number", src, v)
	}
	return x, true, nil
}

// Base is the folder relative paths are taken from: the working directory
// for the CLI; the module root for test binaries, which `go test` runs in
// their package folders (so every suite writes to the same result/).
type Base int

// The bases.
const (
	WorkingDir Base = iota
	ModuleRootBase
)

// Dir returns the folder of the base.
func (b Base) Dir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	if b == ModuleRootBase {
		if r, ok := ModuleRoot(wd); ok {
			return r
		}
	}
	return wd
}

// ModuleRoot walks up from dir to the folder holding go.mod (the one walker
// of the module; tests reach it through testenv.ModuleRoot).
func ModuleRoot(dir string) (string, bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && st.Mode().IsRegular() {
			return d, true
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

// Path returns a path setting, relative paths taken from base.
func (f *Flags) Path(s *Setting, base Base) string {
	p := f.String(s)
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base.Dir(), p)
}

// ModelsFile finds the registry: the flag or $BFCL_MODELS_FILE (explicit:
// must exist), else ./models.yaml, else models.yaml at the module root.
// explicit is false when the file was searched for; path is "" when none was
// found.
func (f *Flags) ModelsFile(base Base) (path string, explicit bool) {
	if v, _, ok := f.Lookup(ModelsFile); ok {
		if !filepath.IsAbs(v) {
			v = filepath.Join(base.Dir(), v)
		}
		return v, true
	}
	wd, err := os.Getwd()
	if err != nil {
		wd = "."
	}
	candidates := []string{filepath.Join(wd, "models.yaml")}
	if r, ok := ModuleRoot(wd); ok {
		candidates = append(candidates, filepath.Join(r, "models.yaml"))
	}
	for _, c := range candidates {
		if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
			return c, false
		}
	}
	return "", false
}

// Unknown reports environment variables that look like settings (BFCL_*)
// but are none, so a typo is not silently ignored.
func Unknown(environ []string) []string {
	known := map[string]bool{}
	for _, s := range All() {
		if s.Env != "" {
			known[s.Env] = true
		}
	}
	for _, e := range otherEnv {
		known[e] = true
	}
	var out []string
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "BFCL_") && !known[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// otherEnv are variables read elsewhere on purpose (test material, CI
// services, the shard engine variables, opt-ins of single packages).
var otherEnv = []string{"BFCL_REFERENCE_DIR", "BFCL_OLLAMA_URL", "BFCL_OLLAMA_MODEL", "BFCL_OLLAMA_EMBED_URL",
	"BFCL_OLLAMA_EMBED_MODEL", "BFCL_PROJECT_ROOT", "BFCL_SHARD_COUNT", "BFCL_UPSTREAM_REPO", "BFCL_UPDATE_UPSTREAM_REGISTRY",
	"BFCL_CHROMIUM", "BFCL_REPORT_KEEP", "BFCL_REQUIRE_REFERENCE", "BFCL_TRACE_FOCUS", "BFCL_BENCH_SERVE",
	// the example deployments' own variables (deploy/: the binary, the
	// run's shared folder, kubectl's wait)
	"BFCL_BIN", "BFCL_WORK", "BFCL_TIMEOUT"}

// ErrNoModelsFile is returned when a model other than gold is asked for and
// no registry exists.
var ErrNoModelsFile = errors.New("no models.yaml found")
