package main

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/store/runmeta"
)

// Issue 26, item 1: a result folder of unknown origin is refused (upstream
// stops on an unknown model name) instead of being scored with guessed
// decoders; one bfcl-go produced carries its runmeta file and is scored as
// it was generated, from any working directory; every evaluate says per
// model how it was scored.
var _ = Describe("where a result folder comes from", Label("e2e"), func() {
	It("refuses a folder of unknown origin, naming it and the ways to tie it", func() {
		data, ref := needData(), needReference()
		w := GinkgoT().TempDir()
		src := filepath.Join(ref, refRun, "openai_gpt-oss-120b", "non_live", "BFCL_v4_simple_python_result.json")
		dst := filepath.Join(w, "result", "my-model", "non_live", "BFCL_v4_simple_python_result.json")
		Expect(os.MkdirAll(filepath.Dir(dst), 0o755)).To(Succeed())
		b, err := os.ReadFile(src)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(dst, b, 0o644)).To(Succeed())
		env := cliEnv(data)
		r := bfcl(w, env, "evaluate", "--test-category", "simple_python")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("result folder " + filepath.Join(w, "result", "my-model") + ": unknown origin"))
		Expect(r.stderr).To(ContainSubstring("--alias my-model=<registry name>"))
		Expect(filepath.Join(w, "score")).NotTo(BeADirectory(), "nothing is scored")
		// tied by an alias it scores as upstream does (85.75 %), and says so
		r = bfcl(w, env, "evaluate", "--test-category", "simple_python", "--alias", "my-model=openbmb/MiniCPM-SALA-FC")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stderr).To(ContainSubstring("my-model: scored as alias to upstream registry entry openbmb/MiniCPM-SALA-FC: mode fc, underscore_to_dot true"))
		Expect(r.stderr).To(MatchRegexp(`my-model simple_python\s+85\.75%`))
		// or by the command line's decoding, which the line names
		r = bfcl(w, env, "evaluate", "--test-category", "simple_python", "--mode", "fc", "--underscore-to-dot")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stderr).To(ContainSubstring("my-model: scored as the command line: mode fc, underscore_to_dot true, handler default (set by --mode fc, --underscore-to-dot=true)"))
	})

	It("scores a folder bfcl-go produced as it was generated, from another working directory", func() {
		data, ref := needData(), needReference()
		a, b := GinkgoT().TempDir(), GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(a, "models.yaml"), []byte("models:\n  - {name: org/replayed, provider: replay, model: openai_gpt-oss-120b, mode: fc, underscore_to_dot: true, replay_dir: "+filepath.Join(ref, refRun)+"}\n"), 0o644)).To(Succeed())
		env := cliEnv(data)
		r := bfcl(a, env, "generate", "--model", "org/replayed", "--test-category", "simple_python")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stdout).To(MatchRegexp(`85\.75`))
		meta, err := runmeta.Read(filepath.Join(a, "result", "org_replayed"))
		Expect(err).NotTo(HaveOccurred())
		Expect(meta.Model).To(Equal("org/replayed"))
		Expect(meta.Provider).To(Equal("replay"))
		Expect(meta.Mode).To(Equal("fc"))
		Expect(meta.UnderscoreToDot).To(BeTrue())
		// b has no models.yaml: the folder's own file says how to score it
		r = bfcl(b, env, "evaluate", "--result-dir", filepath.Join(a, "result"), "--test-category", "simple_python")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stderr).To(ContainSubstring("org_replayed: scored as the folder's " + runmeta.FileName + " (provider replay, mode fc, underscore_to_dot true"))
		Expect(r.stderr).To(MatchRegexp(`org_replayed simple_python\s+85\.75%`))
		// without it, the folder is of unknown origin
		Expect(os.Remove(runmeta.Path(filepath.Join(a, "result", "org_replayed")))).To(Succeed())
		r = bfcl(b, env, "evaluate", "--result-dir", filepath.Join(a, "result"), "--test-category", "simple_python")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("unknown origin"))
	})

	It("generate takes --mode and --underscore-to-dot and records them", func() {
		data := needData()
		w := GinkgoT().TempDir()
		r := bfcl(w, cliEnv(data), "generate", "--ids", "simple_python_0", "--mode", "fc", "--underscore-to-dot=false")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stderr).To(ContainSubstring("gold: 1 entry of 1 category\n"))
		meta, err := runmeta.Read(filepath.Join(w, "result", "gold"))
		Expect(err).NotTo(HaveOccurred())
		Expect(meta.Mode).To(Equal("fc"))
		r = bfcl(w, cliEnv(data), "generate", "--ids", "simple_python_0", "--mode", "xml")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring(`-mode="xml" must be fc or prompt`))
	})

	It("refuses an empty --model instead of running gold", func() {
		r := bfcl(GinkgoT().TempDir(), cliEnv(needData()), "generate", "--model", "", "--ids", "simple_python_0")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("-model is empty"))
	})

	It("answers --version", func() {
		r := bfcl(GinkgoT().TempDir(), cliEnv("/nonexistent"), "--version")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stdout).To(HavePrefix("bfcl-go "))
	})
})
