// Package readmetest runs every command block of the README (issue 26): a
// README example that fails breaks the build. It is its own package so its
// minutes of make, ginkgo and go test runs have their own test timeout.
package readmetest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/store/runmeta"
	"github.com/bfcl-go/bfcl/internal/testkit/clitest"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func TestReadme(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "README command blocks")
}

const refRun = "results/results/2025-11-12-harmony-fixes-2/result"

var bfclBin string

var _ = BeforeSuite(func() {
	dir, err := os.MkdirTemp("", "bfcl-readme-")
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(os.RemoveAll, dir)
	bfclBin, err = clitest.Build(dir)
	Expect(err).NotTo(HaveOccurred())
})

// cliEnv is a clean environment for the binary (clitest.Env).
func cliEnv(data string, extra ...string) []string { return clitest.Env(data, extra...) }

func needData() string {
	return testenv.NeedDataDir(GinkgoT(), "BFCL data set")
}

func needReference() string {
	return testenv.NeedReferenceDir(GinkgoT(), "reference results")
}

// readmeExceptions are the README command lines the test does not run,
// each with the reason (the test checks that each is still in the README).
var readmeExceptions = map[string]string{
	"make test": "it is the command that runs this test (recursion)",
	"OPENAI_API_KEY=... bfcl generate --model gpt-4o-2024-11-20-FC --test-category simple_python":                                                        "a hosted API and its key; cmd/bfcl/requests_test.go runs this registry name against a recording fake server (OPENAI_BASE_URL)",
	"ANTHROPIC_API_KEY=... bfcl generate --model claude-sonnet-4-5-20250929-FC --test-category multi_turn":                                               "a hosted API and its key; cmd/bfcl/requests_test.go runs this registry name against a recording fake server (ANTHROPIC_BASE_URL)",
	"GOOGLE_API_KEY=... bfcl generate --model gemini-2.5-flash-FC --test-category live":                                                                  "a hosted API and its key; cmd/bfcl/requests_test.go runs this registry name against a recording fake server (GOOGLE_GEMINI_BASE_URL)",
	"REMOTE_OPENAI_BASE_URL=http://gpu7:8000/v1 bfcl generate --model Qwen/Qwen3-8B-FC --backend vllm --skip-server-setup --test-category simple_python": "needs a vLLM/SGLang server; cmd/bfcl/requests_test.go runs this command against a fake completions server",
}

// shBlocks returns the ```sh blocks of a Markdown file, each with its line.
func shBlocks(path string) (blocks []string, lines []int) {
	b, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	in := false
	var cur []string
	for i, l := range strings.Split(string(b), "\n") {
		switch {
		case !in && strings.TrimSpace(l) == "```sh":
			in, cur = true, nil
			lines = append(lines, i+2)
		case in && strings.TrimSpace(l) == "```":
			in = false
			blocks = append(blocks, strings.Join(cur, "\n"))
		case in:
			cur = append(cur, l)
		}
	}
	return blocks, lines
}

// Issue 26: every command block of the README runs, as written, with the
// gold model standing in for the README's real models. The go, bfcl and
// make on PATH are the real ones, seen from the module root (go tool
// ginkgo, go test, make) or from the scratch folder (bfcl, go run
// ./cmd/bfcl, which runs the binary under test).
var _ = Describe("the README's command blocks", Label("e2e", "readme"), Ordered, func() {
	var work, env0 []string
	var scratch string
	BeforeAll(func() {
		data, ref := needData(), needReference()
		root := testenv.ModuleRoot()
		realGo, err := exec.LookPath("go")
		Expect(err).NotTo(HaveOccurred())
		realMake, err := exec.LookPath("make")
		if err != nil {
			Skip("no make on PATH")
		}
		scratch = GinkgoT().TempDir()
		bin := filepath.Join(scratch, ".bin")
		Expect(os.MkdirAll(bin, 0o755)).To(Succeed())
		Expect(os.Symlink(bfclBin, filepath.Join(bin, "bfcl"))).To(Succeed())
		Expect(os.WriteFile(filepath.Join(bin, "go"), []byte(`#!/bin/bash
if [ "$1" = run ] && [ "$2" = ./cmd/bfcl ]; then shift 2; exec `+bfclBin+` "$@"; fi
cd `+root+` && exec `+realGo+` "$@"
`), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(bin, "make"), []byte("#!/bin/bash\nexec "+realMake+" -C "+root+" \"$@\"\n"), 0o755)).To(Succeed())
		reg := filepath.Join(scratch, ".models.yaml")
		Expect(os.WriteFile(reg, []byte(`models:
  - {name: qwen3-8b, provider: gold}
  - {name: llama3.1-8b, provider: gold}
  - name: openai/gpt-oss-120b
    provider: replay
    model: openai_gpt-oss-120b
    replay_dir: `+filepath.Join(ref, refRun)+`
    upstream: openbmb/MiniCPM-SALA-FC
`), 0o644)).To(Succeed())
		env0 = cliEnv(data, "PATH="+bin+":"+os.Getenv("PATH"), "BFCL_MODELS_FILE="+reg,
			"BFCL_RESULT_DIR="+filepath.Join(scratch, "result"), "BFCL_SCORE_DIR="+filepath.Join(scratch, "score"),
			"GOFLAGS=-count=1")
		// upstream-run/result: a folder named after upstream's Qwen/Qwen3-8B-FC
		gen := exec.Command(bfclBin, "generate", "--test-category", "simple_python", "--result-dir", "upstream-run/result", "--score-dir", "upstream-run/score")
		gen.Dir, gen.Env = scratch, env0
		out, err := gen.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(os.Rename(filepath.Join(scratch, "upstream-run/result/gold"), filepath.Join(scratch, "upstream-run/result/Qwen_Qwen3-8B-FC"))).To(Succeed())
		Expect(os.Remove(runmeta.Path(filepath.Join(scratch, "upstream-run/result/Qwen_Qwen3-8B-FC")))).To(Succeed())
		Expect(os.RemoveAll(filepath.Join(scratch, "upstream-run/score"))).To(Succeed())
		work = []string{ref}
	})

	It("run every sh block in order, as written", func() {
		readme := filepath.Join(testenv.ModuleRoot(), "README.md")
		blocks, lines := shBlocks(readme)
		Expect(len(blocks)).To(BeNumerically(">=", 6))
		b, _ := os.ReadFile(readme)
		for line := range readmeExceptions {
			Expect(string(b)).To(ContainSubstring(line), "an exception that is no longer in the README")
		}
		// the reference folder is ../shared/reference beside the main checkout
		refPath := regexp.MustCompile(`\.\./shared/reference`)
		for i, blk := range blocks {
			var keep []string
			for _, l := range strings.Split(blk, "\n") {
				cmd := strings.TrimSpace(strings.SplitN(l, "#", 2)[0])
				if _, skip := readmeExceptions[cmd]; skip {
					continue
				}
				keep = append(keep, refPath.ReplaceAllString(l, work[0]))
			}
			script := "set -euo pipefail\n" + strings.Join(keep, "\n") + "\n"
			cmd := exec.Command("bash", "-c", script)
			cmd.Dir, cmd.Env = scratch, env0
			out, err := cmd.CombinedOutput()
			tail := string(out)
			if len(tail) > 4000 {
				tail = "…" + tail[len(tail)-4000:]
			}
			Expect(err).NotTo(HaveOccurred(), "README.md:%d (block %d) failed:\n%s\n--- output ---\n%s", lines[i], i+1, script, tail)
			fmt.Fprintf(GinkgoWriter, "README.md:%d block %d ok\n", lines[i], i+1)
		}
		Expect(filepath.Join(scratch, "score", "report.html")).To(BeAnExistingFile())
		Expect(filepath.Join(scratch, "report.html")).To(BeAnExistingFile())
	})
})
