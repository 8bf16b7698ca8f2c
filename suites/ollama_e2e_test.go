package suites_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/testkit/clitest"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// copyTree copies the fixture data set into dir.
func copyTree(src, dst string) {
	Expect(filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})).To(Succeed())
}

var _ = Describe("a real Ollama server, end to end", Label("real-ollama"), Ordered, func() {
	var url, model, data string
	BeforeAll(func() {
		url = os.Getenv("BFCL_OLLAMA_URL")
		model = os.Getenv("BFCL_OLLAMA_MODEL")
		if model == "" {
			model = "bfcl-tiny-scripted"
		}
		if url == "" {
			if os.Getenv("CI") == "true" {
				Fail("CI must provide the real Ollama server (.ci/ollama.sh start) but BFCL_OLLAMA_URL is empty")
			}
			Skip("SKIPPED LOUDLY: no real Ollama server (set BFCL_OLLAMA_URL; .ci/ollama.sh build && .ci/ollama.sh start)")
		}
		real := testenv.NeedDataDir(GinkgoT(), "BFCL data set (for long_context.py)")
		buildSuites()
		data = GinkgoT().TempDir()
		copyTree(filepath.Join(testenv.ModuleRoot(), "fixtures", "e2e"), data)
		lc, err := os.ReadFile(filepath.Join(real, "long_context.py"))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(data, "long_context.py"), lc, 0o644)).To(Succeed())
	})

	DescribeTable("runs the generated multi-turn spec through the driver, backends, checker and reporter",
		func(provider, path string) {
			baseURL := url + path
			registry := filepath.Join(GinkgoT().TempDir(), "models.yaml")
			Expect(os.WriteFile(registry, []byte(fmt.Sprintf(`models:
  - name: tiny
    provider: %s
    model: %s
    mode: fc
    base_url: %s
    temperature: 0
    concurrency: 1
    timeout: 120s
`, provider, model, baseURL)), 0o644)).To(Succeed())
			resDir, scoreDir := GinkgoT().TempDir(), GinkgoT().TempDir()
			var bin string
			for _, b := range suiteBinaries {
				if strings.HasSuffix(b, "multi_turn.test") {
					bin = b
				}
			}
			cmd := exec.Command(bin, "-ginkgo.focus=multi_turn_base_0$")
			// No request cache: every request must reach the real server.
			cmd.Env = append(os.Environ(), "BFCL_REQUEST_CACHE=off", "BFCL_DATA_DIR="+data, "BFCL_MODELS_FILE="+registry, "BFCL_MODEL=tiny",
				"BFCL_RESULT_DIR="+resDir, "BFCL_SCORE_DIR="+scoreDir)
			out, err := cmd.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), string(out))
			Expect(string(out)).To(ContainSubstring("1 Passed"))

			f, err := os.Open(filepath.Join(resDir, "tiny", "multi_turn", "BFCL_v4_multi_turn_base_result.json"))
			Expect(err).NotTo(HaveOccurred())
			defer f.Close()
			sc := bufio.NewScanner(f)
			Expect(sc.Scan()).To(BeTrue())
			var rec struct {
				Result [][]json.RawMessage `json:"result"`
			}
			Expect(json.Unmarshal(sc.Bytes(), &rec)).To(Succeed())
			Expect(rec.Result).To(HaveLen(2))
			Expect(string(rec.Result[0][0])).To(ContainSubstring(`"cd"`))
			Expect(string(rec.Result[1][0])).To(ContainSubstring(`"ls"`))

			header, err := os.ReadFile(filepath.Join(scoreDir, "tiny", "multi_turn", "BFCL_v4_multi_turn_base_score.json"))
			Expect(err).NotTo(HaveOccurred())
			Expect(strings.SplitN(string(header), "\n", 2)[0]).To(ContainSubstring(`"accuracy": 1.0`))
		},
		Entry("native API /api/chat", "ollama", ""),
		Entry("OpenAI-compatible /v1/chat/completions", "openai", "/v1"),
	)

	It("sends a local-model handler's raw prompt through /api/generate (upstream's Qwen3 format) and stores the answers", func() {
		bin, err := clitest.Build(GinkgoT().TempDir())
		Expect(err).NotTo(HaveOccurred())
		work := GinkgoT().TempDir()
		registry := filepath.Join(work, "models.yaml")
		Expect(os.WriteFile(registry, []byte(fmt.Sprintf(`models:
  - name: tiny-raw
    upstream: Qwen/Qwen3-8B-FC
    provider: ollama
    model: %s
    base_url: %s
    concurrency: 1
    timeout: 120s
`, model, url)), 0o644)).To(Succeed())
		cmd := exec.Command(bin, "generate", "--model", "tiny-raw", "--ids", "multi_turn_base_0", "--include-input-log",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "BFCL_REQUEST_CACHE=off", "BFCL_DATA_DIR="+data, "BFCL_MODELS_FILE="+registry)
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		b, err := os.ReadFile(filepath.Join(work, "result", "tiny-raw", "multi_turn", "BFCL_v4_multi_turn_base_result.json"))
		Expect(err).NotTo(HaveOccurred(), string(out))
		var rec struct {
			Result       [][]json.RawMessage `json:"result"`
			InferenceLog []json.RawMessage   `json:"inference_log"`
		}
		Expect(json.Unmarshal(b, &rec)).To(Succeed())
		Expect(rec.Result).NotTo(BeEmpty(), "every turn asked the real server")
		// upstream's inference_input_log of a local model: the formatted prompt
		Expect(string(b)).To(ContainSubstring(`"formatted_prompt":"<|im_start|>system\n`))
		Expect(filepath.Join(work, "score", "tiny-raw", "multi_turn", "BFCL_v4_multi_turn_base_score.json")).To(BeAnExistingFile())
	})
})
