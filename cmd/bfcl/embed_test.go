package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// tinyModelDir lays out the reference's small random BERT as a Hugging Face
// model folder (its weights and config, and the real vocabulary).
func tinyModelDir(ref string) string {
	dir := GinkgoT().TempDir()
	for src, dst := range map[string]string{
		filepath.Join(ref, "embed", "tiny", "config.json"):       "config.json",
		filepath.Join(ref, "embed", "tiny", "model.safetensors"): "model.safetensors",
		filepath.Join(ref, "embed", "vocab.txt"):                 "vocab.txt",
	} {
		b, err := os.ReadFile(src)
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dir, dst), b, 0o644)).To(Succeed())
	}
	return dir
}

type embedLine struct {
	Text      string    `json:"text"`
	IDs       []int     `json:"ids"`
	Embedding []float32 `json:"embedding"`
}

func embedLines(ref, name string) []embedLine {
	f, err := os.Open(filepath.Join(ref, "embed", name))
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	var out []embedLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var l embedLine
		Expect(json.Unmarshal(sc.Bytes(), &l)).To(Succeed())
		out = append(out, l)
	}
	return out
}

// runEmbed feeds texts to `bfcl embed` as JSON objects, one per line.
func runEmbed(env []string, texts []string, args ...string) ([]embedLine, run) {
	dir := GinkgoT().TempDir()
	var in strings.Builder
	for _, t := range texts {
		b, _ := json.Marshal(map[string]string{"text": t})
		in.Write(b)
		in.WriteByte('\n')
	}
	p := filepath.Join(dir, "in.jsonl")
	Expect(os.WriteFile(p, []byte(in.String()), 0o644)).To(Succeed())
	res := bfcl(dir, env, append([]string{"embed", "--in", p}, args...)...)
	var out []embedLine
	for _, l := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		if l == "" {
			continue
		}
		var e embedLine
		Expect(json.Unmarshal([]byte(l), &e)).To(Succeed(), l)
		out = append(out, e)
	}
	return out, res
}

var _ = Describe("bfcl embed", Label("e2e", "reference"), func() {
	It("reproduces Hugging Face's token ids and the PyTorch goldens of the small BERT", func() {
		ref := needReference()
		dir := tinyModelDir(ref)
		env := cliEnv(needData())
		tokens := embedLines(ref, "tokens.jsonl")
		texts := make([]string, len(tokens))
		for i, t := range tokens {
			texts[i] = t.Text
		}
		got, res := runEmbed(env, texts, "--embed-model-dir", dir, "--no-download")
		Expect(res.exit).To(Equal(0), res.stderr)
		Expect(got).To(HaveLen(len(tokens)))
		for i := range tokens {
			Expect(got[i].IDs).To(Equal(tokens[i].IDs), "ids of %q", tokens[i].Text)
		}
		goldens := embedLines(ref, "tiny/goldens.jsonl")
		texts = texts[:0]
		for _, g := range goldens {
			texts = append(texts, g.Text)
		}
		got, res = runEmbed(env, texts, "--embed-model-dir", dir, "--no-download")
		Expect(res.exit).To(Equal(0), res.stderr)
		worst := 0.0
		for i, g := range goldens {
			Expect(got[i].IDs).To(Equal(g.IDs))
			Expect(got[i].Embedding).To(HaveLen(len(g.Embedding)))
			for j := range g.Embedding {
				worst = math.Max(worst, math.Abs(float64(got[i].Embedding[j]-g.Embedding[j])))
			}
		}
		Expect(worst).To(BeNumerically("<=", 1e-5))
		AddReportEntry("bfcl embed vs PyTorch float32", worst)
	})

	It("says in one line where the model is missing, with no download allowed", func() {
		empty := GinkgoT().TempDir()
		_, res := runEmbed(cliEnv(needData()), []string{"x"}, "--embed-model-dir", empty, "--no-download")
		Expect(res.exit).To(Equal(1))
		Expect(strings.Count(strings.TrimSpace(res.stderr), "\n")).To(Equal(0), res.stderr)
		Expect(res.stderr).To(ContainSubstring(empty))
		Expect(res.stderr).To(ContainSubstring("--embed-model-dir"))
	})

	It("rejects a malformed JSON input line, naming it", func() {
		ref := needReference()
		dir := GinkgoT().TempDir()
		p := filepath.Join(dir, "in.txt")
		Expect(os.WriteFile(p, []byte("plain text is fine\n{\"txt\": 1}\n"), 0o644)).To(Succeed())
		res := bfcl(dir, cliEnv(needData()), "embed", "--in", p, "--embed-model-dir", tinyModelDir(ref), "--no-download")
		Expect(res.exit).To(Equal(1))
		Expect(res.stderr).To(ContainSubstring("line 2"))
		Expect(strings.Count(res.stdout, "\n")).To(Equal(1), "the first line was embedded")
	})
})

var _ = Describe("memory_vector's built-in embedder in a run", Label("e2e"), func() {
	It("runs memory_vector with all-MiniLM-L6-v2 from --embed-model-dir, no Ollama, and records the weights' SHA-256", func() {
		ref := needReference()
		data := needData()
		work := GinkgoT().TempDir()
		r := bfcl(work, cliEnv(data, "HF_ENDPOINT=http://127.0.0.1:9", "HF_HUB_CACHE="+GinkgoT().TempDir(), "XDG_CACHE_HOME="+GinkgoT().TempDir()),
			"generate", "--model", "gold", "--embedder", "minilm", "--embed-model-dir", tinyModelDir(ref),
			"--ids", "memory_vector_0-customer-0", "--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).To(Equal(0), r.stdout+r.stderr)
		sum, err := os.ReadFile(filepath.Join(work, "score", "summary.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(sum)).To(ContainSubstring(`"memory_vector_embedder_sha256": "fad6a192552201afcfc03c1c70415f66e649ecb0011c931454b5e3fe6ba2adfc"`))
	})

	It("stops before the run with one line when the model is nowhere and cannot be downloaded", func() {
		data := needData()
		work := GinkgoT().TempDir()
		r := bfcl(work, cliEnv(data, "HF_ENDPOINT=http://127.0.0.1:9", "HF_HUB_CACHE="+GinkgoT().TempDir(), "XDG_CACHE_HOME="+GinkgoT().TempDir()),
			"generate", "--model", "gold", "--embedder", "minilm", "--ids", "memory_vector_0-customer-0",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).NotTo(Equal(0))
		Expect(r.stderr).To(ContainSubstring("built-in embedder cannot load sentence-transformers/all-MiniLM-L6-v2"))
		Expect(r.stderr).To(ContainSubstring("--embed-model-dir"))
		_, err := os.Stat(filepath.Join(work, "result", "gold", "agentic", "memory", "vector"))
		Expect(os.IsNotExist(err)).To(BeTrue(), "nothing ran")
	})
})
