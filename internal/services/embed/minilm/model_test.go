package minilm_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/services/embed/minilm"
)

// goldenRow is one line of the reference's goldens.jsonl.
type goldenRow struct {
	textRow
	Embedding []float32 `json:"embedding"`
}

// maxAbsDiff is the largest |a[i]-b[i]| (Inf when the lengths differ).
func maxAbsDiff(a, b []float32) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(float64(a[i])-float64(b[i])))
	}
	return m
}

// tinyModelDir lays out the reference's random BERT (hidden 64, 2 layers,
// 4 heads) as a Hugging Face model folder in a temporary folder: symbolic
// links to tiny/config.json, tiny/model.safetensors and the real
// tokenizer file (tokenizer.json, or vocab.txt when tokenizerFile says so).
func tinyModelDir(tokenizerFile string) string {
	ref := embedRef()
	dir := GinkgoT().TempDir()
	for dst, src := range map[string]string{
		"config.json":       filepath.Join(ref, "tiny", "config.json"),
		"model.safetensors": filepath.Join(ref, "tiny", "model.safetensors"),
		tokenizerFile:       filepath.Join(ref, tokenizerFile),
	} {
		Expect(os.Symlink(src, filepath.Join(dir, dst))).To(Succeed())
	}
	return dir
}

var _ = Describe("Model on the reference's tiny random BERT", Ordered, func() {
	var (
		m   *minilm.Model
		dir string
	)
	BeforeAll(func() {
		dir = tinyModelDir("tokenizer.json")
		var err error
		m, err = minilm.Load(dir)
		Expect(err).NotTo(HaveOccurred())
	})

	It("reads the dimensions from config.json and hashes the weights", func() {
		Expect(m.Config.HiddenSize).To(Equal(64))
		Expect(m.Config.NumHiddenLayers).To(Equal(2))
		Expect(m.Config.NumAttentionHeads).To(Equal(4))
		Expect(m.Config.IntermediateSize).To(Equal(128))
		Expect(m.SHA256()).To(Equal("fad6a192552201afcfc03c1c70415f66e649ecb0011c931454b5e3fe6ba2adfc"))
		Expect(m.Tokenizer.MaxLen).To(Equal(256))
	})

	It("reproduces every golden (tokens and vector) within 1e-5 per component", func() {
		rows := readJSONL[goldenRow](filepath.Join(embedRef(), "tiny", "goldens.jsonl"))
		Expect(rows).To(HaveLen(200))
		worst, worstText := 0.0, ""
		for _, r := range rows {
			ids := m.Tokenizer.Encode(r.Text)
			Expect(ids).To(Equal(r.IDs), r.Source)
			v, err := m.EmbedIDs(ids, 1)
			Expect(err).NotTo(HaveOccurred())
			d := maxAbsDiff(v, r.Embedding)
			Expect(d).To(BeNumerically("<=", 1e-5), r.Source)
			if d > worst {
				worst, worstText = d, r.Source
			}
		}
		fmt.Fprintf(GinkgoWriter, "goldens: max abs diff %.3g (%s) over %d texts\n", worst, worstText, len(rows))
		AddReportEntry("goldens max abs diff", fmt.Sprintf("%.3g", worst))
		Expect(worst).To(BeNumerically("<=", 1e-6)) // the README's honest routes stay below 3e-7
	})

	It("gives each text of the padded batch of 16 the batch's vector", func() {
		var b struct {
			Texts      []string    `json:"texts"`
			InputIDs   [][]int     `json:"input_ids"`
			Mask       [][]int     `json:"attention_mask"`
			Embeddings [][]float32 `json:"embeddings"`
		}
		data, err := os.ReadFile(filepath.Join(embedRef(), "tiny", "batch16.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(data, &b)).To(Succeed())
		Expect(b.Texts).To(HaveLen(16))
		e := minilm.NewEmbedder(m)
		got, err := e.Embed(ctx(), b.Texts)
		Expect(err).NotTo(HaveOccurred())
		worst := 0.0
		for i, t := range b.Texts {
			n := 0
			for _, v := range b.Mask[i] {
				n += v
			}
			Expect(e.Tokenize(t)).To(Equal(b.InputIDs[i][:n]))
			d := maxAbsDiff(got[i], b.Embeddings[i])
			Expect(d).To(BeNumerically("<=", 1e-5), t)
			worst = math.Max(worst, d)
		}
		fmt.Fprintf(GinkgoWriter, "batch16: max abs diff %.3g\n", worst)
	})

	It("matches the per-stage trace of one text", func() {
		var t map[string]json.RawMessage
		data, err := os.ReadFile(filepath.Join(embedRef(), "tiny", "trace.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(data, &t)).To(Succeed())
		var text string
		var ids []int
		Expect(json.Unmarshal(t["text"], &text)).To(Succeed())
		Expect(json.Unmarshal(t["ids"], &ids)).To(Succeed())
		Expect(m.Tokenizer.Encode(text)).To(Equal(ids))
		var tr minilm.Trace
		v, err := m.EmbedIDsTrace(ids, &tr)
		Expect(err).NotTo(HaveOccurred())
		mat := func(key string) [][]float32 {
			var x [][]float32
			Expect(json.Unmarshal(t[key], &x)).To(Succeed(), key)
			return x
		}
		vec := func(key string) []float32 {
			var x []float32
			Expect(json.Unmarshal(t[key], &x)).To(Succeed(), key)
			return x
		}
		close := func(stage string, got, want [][]float32) {
			Expect(got).To(HaveLen(len(want)), stage)
			worst := 0.0
			for i := range want {
				worst = math.Max(worst, maxAbsDiff(got[i], want[i]))
			}
			fmt.Fprintf(GinkgoWriter, "trace %s: max abs diff %.3g\n", stage, worst)
			Expect(worst).To(BeNumerically("<=", 1e-5), stage)
		}
		close("embeddings_ln", tr.EmbeddingsLN, mat("embeddings_ln"))
		var probs [][][]float32
		Expect(json.Unmarshal(t["layer_0_attention_probs [head][query][key]"], &probs)).To(Succeed())
		Expect(tr.Layer0AttentionProbs).To(HaveLen(len(probs)))
		for h := range probs {
			close(fmt.Sprintf("layer_0_attention_probs[%d]", h), tr.Layer0AttentionProbs[h], probs[h])
		}
		for l := 0; l < m.Config.NumHiddenLayers; l++ {
			close(fmt.Sprintf("layer_%d_attention_ln", l), tr.AttentionLN[l], mat(fmt.Sprintf("layer_%d_attention_ln", l)))
			close(fmt.Sprintf("layer_%d_output", l), tr.Output[l], mat(fmt.Sprintf("layer_%d_output", l)))
		}
		close("mean_pooled", [][]float32{tr.MeanPooled}, [][]float32{vec("mean_pooled")})
		close("embedding", [][]float32{v}, [][]float32{vec("embedding")})
	})
})
