package config_test

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// registry is a models.yaml whose entry sets every model-level setting to a
// value that differs from the built-in defaults.
const registry = `models:
  - name: m
    provider: openai
    model: served-m
    base_url: http://127.0.0.1:1
    mode: prompt
    temperature: 0.7
    concurrency: 3
    underscore_to_dot: true
`

// resolve registers every setting (CLI spelling, or the test binaries'
// -bfcl. prefix), parses args with env as the whole environment, and
// resolves in dir.
func resolve(prefix string, env map[string]string, args ...string) (*config.Flags, *config.Run, error) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := config.Register(fs, prefix, config.All()...)
	f.Getenv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	if err := fs.Parse(args); err != nil {
		return f, nil, err
	}
	rc, err := f.Resolve(config.WorkingDir)
	return f, rc, err
}

var _ = Describe("precedence: default < models.yaml < environment < flag", func() {
	var dir, regFile string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		regFile = filepath.Join(dir, "models.yaml")
		Expect(os.WriteFile(regFile, []byte(registry), 0o644)).To(Succeed())
		wd, _ := os.Getwd()
		Expect(os.Chdir(dir)).To(Succeed())
		DeferCleanup(os.Chdir, wd)
	})

	// get reads one resolved setting as text.
	type getter func(f *config.Flags, rc *config.Run) string
	model := func(f *config.Flags, rc *config.Run) string { return rc.Models[0].Name }
	path := func(p func(*config.Run) string) getter {
		return func(_ *config.Flags, rc *config.Run) string {
			if v := p(rc); v != "" {
				return filepath.Base(v)
			}
			return ""
		}
	}
	str := func(s *config.Setting) getter {
		return func(f *config.Flags, _ *config.Run) string { return f.String(s) }
	}
	boolOf := func(p func(*config.Run) bool) getter {
		return func(_ *config.Flags, rc *config.Run) string {
			if p(rc) {
				return "true"
			}
			return "false"
		}
	}
	type row struct {
		s                       *config.Setting
		get                     getter
		def, yaml, env, flagVal string // flagVal is what the flag is set to; env what the variable holds
		wantEnv, wantFlag       string // what get returns for them
		needsModel              bool   // the setting is read off the model entry "m"
	}
	rows := []row{
		{s: config.Model, get: model, def: "gold", env: "m", flagVal: "gold", wantEnv: "m", wantFlag: "gold"},
		{s: config.ResultDir, get: path(func(r *config.Run) string { return r.ResultDir }), def: "result", env: "res-env", flagVal: "res-flag"},
		{s: config.ScoreDir, get: path(func(r *config.Run) string { return r.ScoreDir }), def: "score", env: "score-env", flagVal: "score-flag"},
		{s: config.DataDir, get: path(func(r *config.Run) string { return r.DataDir }), def: "", env: "data-env", flagVal: "data-flag"},
		{s: config.Rerun, get: boolOf(func(r *config.Run) bool { return r.Rerun }), def: "false", env: "1", flagVal: "false", wantEnv: "true", wantFlag: "false"},
		{s: config.IncludeInputLog, get: boolOf(func(r *config.Run) bool { return r.IncludeInputLog }), def: "false", env: "true", flagVal: "false", wantEnv: "true", wantFlag: "false"},
		{s: config.ExcludeStateLog, get: boolOf(func(r *config.Run) bool { return r.ExcludeStateLog }), def: "false", env: "true", flagVal: "false", wantEnv: "true", wantFlag: "false"},
		{s: config.RequestCache, get: path(func(r *config.Run) string { return r.RequestCache }), def: "requests", env: "cache-env", flagVal: "off", wantFlag: ""},
		{s: config.Embedder, get: str(config.Embedder), def: "", env: "hashed", flagVal: "off"},
		{s: config.EmbedURL, get: str(config.EmbedURL), def: "", env: "http://e:1", flagVal: "http://f:2"},
		{s: config.EmbedModel, get: str(config.EmbedModel), def: "", env: "e-model", flagVal: "f-model"},
		{s: config.WebSearch, get: str(config.WebSearch), def: "", env: "duckduckgo", flagVal: "off"},
		{s: config.WebSearchAllowPrivate, get: boolOf(func(r *config.Run) bool { return r.Agentic.AllowPrivate }), def: "false", env: "1", flagVal: "false", wantEnv: "true", wantFlag: "false"},
		{s: config.TestCategory, get: str(config.TestCategory), def: "", env: "multi_turn", flagVal: "simple_python"},
		{s: config.IDs, get: str(config.IDs), def: "", env: "simple_python_1", flagVal: "simple_python_2"},
		{s: config.RunIDs, get: str(config.RunIDs), def: "", env: "ids-env.json", flagVal: "ids-flag.json"},
		{s: config.PartialEval, get: str(config.PartialEval), def: "", env: "true", flagVal: "false"},
		{s: config.Repeats, get: func(_ *config.Flags, rc *config.Run) string { return itoa(rc.Repeats) }, def: "1", env: "3", flagVal: "2"},
		{s: config.TurnIsolated, get: boolOf(func(r *config.Run) bool { return r.TurnIsolated }), def: "false", env: "1", flagVal: "false", wantEnv: "true", wantFlag: "false"},
		{s: config.Handler, get: str(config.Handler), def: "", env: "QwenFCHandler", flagVal: "OpenAICompletionsHandler"},
		{s: config.UpstreamAlias, get: str(config.UpstreamAlias), def: "", env: "a=b", flagVal: "c=d"},
		{s: config.StrictIrrelevance, get: str(config.StrictIrrelevance), def: "", env: "true", flagVal: "false"},
		// The model-level settings: the entry's value beats the default.
		{s: config.Temperature, get: func(_ *config.Flags, rc *config.Run) string { return ftoa(rc.Models[0].Temperature) },
			def: "0.001", yaml: "0.7", env: "0.2", flagVal: "0.3", needsModel: true},
		{s: config.Concurrency, get: func(_ *config.Flags, rc *config.Run) string { return itoa(rc.Models[0].Concurrency) },
			def: "4", yaml: "3", env: "5", flagVal: "6", needsModel: true},
		{s: config.Mode, get: func(_ *config.Flags, rc *config.Run) string { return rc.Models[0].Mode },
			def: "fc", yaml: "prompt", env: "fc", flagVal: "prompt", needsModel: true},
		{s: config.UnderscoreToDot, get: func(_ *config.Flags, rc *config.Run) string { return btoa(rc.Models[0].UnderscoreToDot) },
			def: "false", yaml: "true", env: "false", flagVal: "true", needsModel: true},
	}
	for _, prefix := range []string{"", "bfcl."} {
		for _, r := range rows {
			r, prefix := r, prefix
			It("resolves -"+prefix+r.s.Name+" / "+r.s.Env, func() {
				base := map[string]string{}
				if r.needsModel {
					base["BFCL_MODEL"] = "m"
				}
				with := func(k, v string) map[string]string {
					m := map[string]string{}
					for a, b := range base {
						m[a] = b
					}
					m[k] = v
					return m
				}
				wantEnv, wantFlag := r.env, r.flagVal
				if r.wantEnv != "" {
					wantEnv = r.wantEnv
				}
				if r.wantFlag != "" || r.s == config.RequestCache {
					wantFlag = r.wantFlag
				}
				if r.s.Kind == config.Bool && r.wantEnv == "" {
					wantEnv = r.env
				}
				// default (and, for model-level settings, the models.yaml entry)
				if r.needsModel {
					// the built-in default: gold carries it
					f, rc, err := resolve(prefix, map[string]string{})
					Expect(err).NotTo(HaveOccurred())
					Expect(r.get(f, rc)).To(Equal(r.def), "default")
					f, rc, err = resolve(prefix, base)
					Expect(err).NotTo(HaveOccurred())
					Expect(r.get(f, rc)).To(Equal(r.yaml), "models.yaml entry beats the default")
				} else {
					f, rc, err := resolve(prefix, base)
					Expect(err).NotTo(HaveOccurred())
					Expect(r.get(f, rc)).To(Equal(r.def), "default")
				}
				// environment beats the entry and the default
				f, rc, err := resolve(prefix, with(r.s.Env, r.env))
				Expect(err).NotTo(HaveOccurred())
				Expect(r.get(f, rc)).To(Equal(wantEnv), "environment")
				// the flag beats the environment
				f, rc, err = resolve(prefix, with(r.s.Env, r.env), "-"+prefix+r.s.Name+"="+r.flagVal)
				Expect(err).NotTo(HaveOccurred())
				Expect(r.get(f, rc)).To(Equal(wantFlag), "flag")
				// every alias is the same setting
				for _, a := range r.s.Aliases {
					f, rc, err = resolve(prefix, with(r.s.Env, r.env), "-"+prefix+a+"="+r.flagVal)
					Expect(err).NotTo(HaveOccurred())
					Expect(r.get(f, rc)).To(Equal(wantFlag), "alias "+a)
				}
			})
		}
	}

	It("takes boolean flags alone and =false", func() {
		_, rc, err := resolve("", nil, "--allow-overwrite")
		Expect(err).NotTo(HaveOccurred())
		Expect(rc.Rerun).To(BeTrue())
		_, rc, err = resolve("", map[string]string{"BFCL_RERUN": "1"}, "--rerun=false")
		Expect(err).NotTo(HaveOccurred())
		Expect(rc.Rerun).To(BeFalse())
		f, _, err := resolve("", nil, "--underscore-to-dot")
		Expect(err).NotTo(HaveOccurred())
		b, ok, err := f.Bool(config.UnderscoreToDot)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok && b).To(BeTrue())
		_, _, err = resolve("", nil, "--underscore-to-dot=maybe")
		Expect(err).To(MatchError(ContainSubstring(`"maybe" is not true or false`)))
	})

	It("names the source of a bad environment value", func() {
		_, _, err := resolve("", map[string]string{"BFCL_MODEL": "m", "BFCL_CONCURRENCY": "many"})
		Expect(err).To(MatchError(`BFCL_CONCURRENCY="many" is not an integer`))
		_, _, err = resolve("", map[string]string{"BFCL_MODEL": "m", "BFCL_TEMPERATURE": "9"})
		Expect(err).To(MatchError(ContainSubstring("out of range")))
	})

	It("joins repeated and comma-separated lists", func() {
		f, rc, err := resolve("", nil, "--model=gold,m", "--model", "gold", "--test-category=simple_python , multi_turn")
		Expect(err).NotTo(HaveOccurred())
		Expect(rc.Models).To(HaveLen(3))
		Expect(f.List(config.TestCategory)).To(Equal([]string{"simple_python", "multi_turn"}))
	})

	It("names an unknown model and the known ones", func() {
		_, _, err := resolve("", map[string]string{"BFCL_MODEL": "nope"})
		Expect(err).To(MatchError(And(ContainSubstring(`no model "nope"`), ContainSubstring("known: gold, m"))))
	})
})

var _ = Describe("finding models.yaml", func() {
	It("prefers the flag or BFCL_MODELS_FILE, then ./models.yaml, then the module root's", func() {
		root := testenv.ModuleRoot()
		wd, _ := os.Getwd()
		DeferCleanup(os.Chdir, wd)

		// A folder inside the module without its own models.yaml: the module root's.
		Expect(os.Chdir(filepath.Join(root, "internal", "config"))).To(Succeed())
		f := config.Register(flag.NewFlagSet("t", flag.ContinueOnError), "")
		f.Getenv = func(string) (string, bool) { return "", false }
		p, explicit := f.ModelsFile(config.WorkingDir)
		Expect(p).To(Equal(filepath.Join(root, "models.yaml")))
		Expect(explicit).To(BeFalse())

		// ./models.yaml wins over the module root's.
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "models.yaml"), []byte(registry), 0o644)).To(Succeed())
		Expect(os.Chdir(dir)).To(Succeed())
		p, _ = f.ModelsFile(config.WorkingDir)
		Expect(p).To(Equal(filepath.Join(dir, "models.yaml")))

		// The environment names one explicitly; a missing explicit file is an error.
		f.Getenv = func(k string) (string, bool) { return "/nonexistent/models.yaml", k == "BFCL_MODELS_FILE" }
		p, explicit = f.ModelsFile(config.WorkingDir)
		Expect(p).To(Equal("/nonexistent/models.yaml"))
		Expect(explicit).To(BeTrue())
		_, err := f.Resolve(config.WorkingDir)
		Expect(err).To(MatchError(ContainSubstring("/nonexistent/models.yaml")))

		// Outside any module and without ./models.yaml: none, and gold still works.
		empty := GinkgoT().TempDir()
		Expect(os.Chdir(empty)).To(Succeed())
		g := config.Register(flag.NewFlagSet("t", flag.ContinueOnError), "", config.Model)
		g.Getenv = func(string) (string, bool) { return "", false }
		rc, err := g.Resolve(config.WorkingDir)
		Expect(err).NotTo(HaveOccurred())
		Expect(rc.ModelsFile).To(BeEmpty())
		Expect(rc.Models[0].Provider).To(Equal("gold"))
		g.Getenv = func(k string) (string, bool) { return "m", k == "BFCL_MODEL" }
		_, err = g.Resolve(config.WorkingDir)
		Expect(err).To(MatchError(config.ErrNoModelsFile))
	})

	It("takes relative paths from the module root for test binaries", func() {
		wd, _ := os.Getwd()
		f := config.Register(flag.NewFlagSet("t", flag.ContinueOnError), "bfcl.", config.ResultDir)
		f.Getenv = func(string) (string, bool) { return "", false }
		Expect(f.Path(config.ResultDir, config.ModuleRootBase)).To(Equal(filepath.Join(testenv.ModuleRoot(), "result")))
		Expect(f.Path(config.ResultDir, config.WorkingDir)).To(Equal(filepath.Join(wd, "result")))
	})
})

var _ = Describe("the README", func() {
	It("lists every setting with its flag and environment variable", func() {
		b, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "README.md"))
		Expect(err).NotTo(HaveOccurred())
		readme := string(b)
		for _, s := range config.All() {
			Expect(readme).To(ContainSubstring("`--"+s.Name+"`"), s.Name)
			if s.Env != "" {
				Expect(readme).To(ContainSubstring("`"+s.Env), s.Name)
			}
			for _, a := range s.Aliases {
				if len(a) > 1 {
					Expect(readme).To(ContainSubstring("`--"+a+"`"), s.Name+" alias")
				}
			}
		}
	})
	It("has no stray BFCL_ variables in the environment check", func() {
		Expect(config.Unknown([]string{"BFCL_MODEL=x", "BFCL_MODLE=y", "HOME=/"})).To(Equal([]string{"BFCL_MODLE"}))
		Expect(strings.Join(config.Unknown(nil), "")).To(BeEmpty())
		// the example deployments' variables are not typos (issue 26)
		Expect(config.Unknown([]string{"BFCL_BIN=bfcl", "BFCL_WORK=/w", "BFCL_TIMEOUT=1h", "BFCL_SHARD_COUNT=4"})).To(BeEmpty())
	})
})

func ftoa(f float64) string {
	switch f {
	case 0.001:
		return "0.001"
	case 0.7:
		return "0.7"
	case 0.2:
		return "0.2"
	case 0.3:
		return "0.3"
	}
	return "?"
}

func itoa(n int) string { return string(rune('0' + n)) }

func btoa(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
