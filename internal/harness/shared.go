package harness

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/bfcl-go/bfcl/internal/dataset"
	"github.com/bfcl-go/bfcl/internal/models"
)

// Settings are the user's choices for a run, from environment variables
// and (overriding them) test-binary flags:
//
//	BFCL_MODEL        -bfcl.model         model name in models.yaml (default gold)
//	BFCL_MODELS_FILE  -bfcl.models-file   registry file (default models.yaml at the module root)
//	BFCL_DATA_DIR     -bfcl.data-dir      data set (see internal/dataset)
//	BFCL_RESULT_DIR   -bfcl.result-dir    result root (default result/ at the module root)
//	BFCL_SCORE_DIR    -bfcl.score-dir     score root (default score/ at the module root)
//	BFCL_RERUN=1      -bfcl.rerun         call the model again even when a result is stored
//	BFCL_TEMPERATURE  -bfcl.temperature   override the model's temperature
//	BFCL_CONCURRENCY  -bfcl.concurrency   override the model's concurrency
type Settings struct {
	Model, ModelsFile, DataDir, ResultDir, ScoreDir string
	Rerun                                           bool
	Temperature                                     string
	Concurrency                                     string
}

// SettingsFromEnv reads the environment.
func SettingsFromEnv() Settings {
	return Settings{
		Model:       os.Getenv("BFCL_MODEL"),
		ModelsFile:  os.Getenv(models.EnvModelsFile),
		DataDir:     os.Getenv(dataset.EnvDataDir),
		ResultDir:   os.Getenv("BFCL_RESULT_DIR"),
		ScoreDir:    os.Getenv("BFCL_SCORE_DIR"),
		Rerun:       os.Getenv("BFCL_RERUN") == "1" || os.Getenv("BFCL_RERUN") == "true",
		Temperature: os.Getenv("BFCL_TEMPERATURE"),
		Concurrency: os.Getenv("BFCL_CONCURRENCY"),
	}
}

var flagSettings struct {
	once sync.Once
	s    Settings
}

// RegisterFlags adds the -bfcl.* flags to the process's flag set (call from
// a suite's test file init). Flags left empty keep the environment's value.
func RegisterFlags() {
	flagSettings.once.Do(func() {
		s := &flagSettings.s
		flag.StringVar(&s.Model, "bfcl.model", "", "model name in models.yaml (env BFCL_MODEL; default gold)")
		flag.StringVar(&s.ModelsFile, "bfcl.models-file", "", "models registry (env BFCL_MODELS_FILE)")
		flag.StringVar(&s.DataDir, "bfcl.data-dir", "", "BFCL data directory (env BFCL_DATA_DIR)")
		flag.StringVar(&s.ResultDir, "bfcl.result-dir", "", "result root (env BFCL_RESULT_DIR)")
		flag.StringVar(&s.ScoreDir, "bfcl.score-dir", "", "score root (env BFCL_SCORE_DIR)")
		flag.BoolVar(&s.Rerun, "bfcl.rerun", false, "call the model even for entries with a stored result (env BFCL_RERUN=1)")
		flag.StringVar(&s.Temperature, "bfcl.temperature", "", "override the model's temperature (env BFCL_TEMPERATURE)")
		flag.StringVar(&s.Concurrency, "bfcl.concurrency", "", "override the model's concurrency (env BFCL_CONCURRENCY)")
	})
}

func (s Settings) overlay(o Settings) Settings {
	pick := func(a, b string) string {
		if b != "" {
			return b
		}
		return a
	}
	return Settings{
		Model: pick(s.Model, o.Model), ModelsFile: pick(s.ModelsFile, o.ModelsFile),
		DataDir: pick(s.DataDir, o.DataDir), ResultDir: pick(s.ResultDir, o.ResultDir),
		ScoreDir: pick(s.ScoreDir, o.ScoreDir), Rerun: s.Rerun || o.Rerun,
		Temperature: pick(s.Temperature, o.Temperature), Concurrency: pick(s.Concurrency, o.Concurrency),
	}
}

// moduleRoot walks up from the working directory to the folder with go.mod
// (test binaries run in their package folder).
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// Resolve turns settings into a Config. Relative paths are taken from the
// module root, so every suite writes to the same result/ and score/.
func Resolve(s Settings) (Config, error) {
	root := moduleRoot()
	abs := func(p, def string) string {
		if p == "" {
			p = def
		}
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(root, p)
	}
	var m models.Model
	name := s.Model
	if name == "" {
		name = "gold"
	}
	regFile := abs(s.ModelsFile, "models.yaml")
	reg, err := models.Load(regFile)
	switch {
	case err == nil:
		if m, err = reg.Get(name); err != nil {
			if name != "gold" {
				return Config{}, err
			}
			m = models.Gold()
		}
	case name == "gold" && s.ModelsFile == "" && errors.Is(err, os.ErrNotExist):
		m = models.Gold()
	default:
		return Config{}, err
	}
	if s.Temperature != "" {
		t, err := strconv.ParseFloat(s.Temperature, 64)
		if err != nil {
			return Config{}, fmt.Errorf("temperature %q: %w", s.Temperature, err)
		}
		m.Temperature = t
	}
	if s.Concurrency != "" {
		n, err := strconv.Atoi(s.Concurrency)
		if err != nil || n < 1 {
			return Config{}, fmt.Errorf("concurrency %q must be a positive integer", s.Concurrency)
		}
		m.Concurrency = n
	}
	var src *dataset.Source
	if s.DataDir != "" {
		src, err = dataset.Open(s.DataDir)
	} else {
		src, err = dataset.FromEnv()
	}
	if err != nil {
		return Config{}, err
	}
	return Config{
		Agentic:   agenticServices(m, root),
		Model:     m,
		Registry:  reg,
		Source:    src,
		ResultDir: abs(s.ResultDir, "result"),
		ScoreDir:  abs(s.ScoreDir, "score"),
		Rerun:     s.Rerun,
	}, nil
}

var shared struct {
	once sync.Once
	h    *Harness
	err  error
}

// Shared returns the process's harness, built once from the environment
// and the -bfcl.* flags.
func Shared() (*Harness, error) {
	shared.once.Do(func() {
		cfg, err := Resolve(SettingsFromEnv().overlay(flagSettings.s))
		if err != nil {
			shared.err = fmt.Errorf("bfcl configuration: %w", err)
			return
		}
		cfg.NewExecutor = DefaultExecutor(cfg)
		shared.h, shared.err = New(cfg)
	})
	return shared.h, shared.err
}
