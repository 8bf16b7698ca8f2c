package config_test

import (
	"flag"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/config"
)

var _ = Describe("upstream registry names as models", func() {
	BeforeEach(func() {
		wd, err := os.Getwd()
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(os.Chdir, wd)
	})

	It("resolves a registry name without models.yaml, with the handler's variables", func() {
		Expect(os.Chdir(GinkgoT().TempDir())).To(Succeed())
		_, rc, err := resolve("", map[string]string{"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "--model", "gpt-4o-2024-11-20-FC,claude-sonnet-4-5-20250929")
		Expect(err).NotTo(HaveOccurred())
		Expect(rc.ModelsFile).To(BeEmpty())
		Expect(rc.Models).To(HaveLen(2))
		Expect(rc.Models[0].Provider).To(Equal("responses"))
		Expect(rc.Models[0].BaseURL).To(Equal("http://127.0.0.1:9/v1"))
		Expect(rc.Models[0].Mode).To(Equal("fc"))
		Expect(rc.Models[1].Provider).To(Equal("anthropic"))
		Expect(rc.Models[1].Mode).To(Equal("prompt"))
	})

	It("prefers a models.yaml entry of the same name and falls back to the registry for other names", func() {
		dir := GinkgoT().TempDir()
		Expect(os.Chdir(dir)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "models.yaml"), []byte("models:\n  - {name: gemini-2.5-flash-FC, provider: openai, model: g, base_url: http://proxy:1/v1}\n"), 0o644)).To(Succeed())
		_, rc, err := resolve("", nil, "--model", "gemini-2.5-flash-FC,gemini-2.5-flash")
		Expect(err).NotTo(HaveOccurred())
		Expect(rc.Models[0].Provider).To(Equal("openai"))
		Expect(rc.Models[1].Provider).To(Equal("gemini"))
		_, _, err = resolve("", nil, "--model", "no-such-model")
		Expect(err).To(MatchError(ContainSubstring(`no model "no-such-model"`)))
	})

	It("names both registries when a name is in neither", func() {
		Expect(os.Chdir(GinkgoT().TempDir())).To(Succeed())
		_, _, err := resolve("", nil, "--model", "gpt-4o")
		Expect(err).To(MatchError(config.ErrNoModelsFile))
		Expect(err).To(MatchError(ContainSubstring("not a model of upstream's registry")))
	})

	It("applies BFCL_PROJECT_ROOT/.env over the environment, as upstream's load_dotenv(override=True)", func() {
		root := GinkgoT().TempDir()
		Expect(os.Chdir(GinkgoT().TempDir())).To(Succeed())
		GinkgoT().Setenv("BFCL_PROJECT_ROOT", root)
		GinkgoT().Setenv("OPENAI_BASE_URL", "http://shell:1/v1")
		GinkgoT().Setenv("OPENAI_API_KEY", "from-shell")
		Expect(os.WriteFile(filepath.Join(root, ".env"), []byte("OPENAI_BASE_URL=http://dotenv:2/v1\nOPENAI_API_KEY=from-dotenv\n"), 0o644)).To(Succeed())
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		f := config.Register(fs, "", config.Model)
		Expect(fs.Parse([]string{"--model", "gpt-4o-2024-11-20"})).To(Succeed())
		rc, err := f.Resolve(config.WorkingDir)
		Expect(err).NotTo(HaveOccurred())
		Expect(rc.Models[0].BaseURL).To(Equal("http://dotenv:2/v1"))
		Expect(rc.Models[0].APIKey()).To(Equal("from-dotenv"))
	})
})
