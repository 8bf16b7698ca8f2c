package sim

import (
	"context"
	"os"
	"path/filepath"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/services/embed/minilm"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// The vector memory with the built-in embedder, on BFCL's own texts: every
// user message of a scenario's prerequisite conversations stored in
// archival memory, each memory question of the scenario retrieved, and the
// order and scores held against a brute-force inner product of the same
// vectors (IndexFlatIP: the higher score first, the lower id on a tie).
// The weights are the reference's small random BERT of all-MiniLM-L6-v2's
// architecture (the trained ones are not available here).
var _ = Describe("MemoryAPI_vector with the built-in all-MiniLM-L6-v2", Label("reference"), func() {
	It("retrieves the prerequisite messages in IndexFlatIP's order for every memory question", func() {
		ref, okRef := testenv.ReferenceDir()
		data, okData := testenv.DataDir()
		if !okRef || !okData {
			if os.Getenv("CI") == "true" {
				Fail("CI must provide the reference and the data set (BFCL_REFERENCE_DIR, BFCL_DATA_DIR)")
			}
			Skip(testenv.MissingMessage("reference embed model and data set", ref+", "+data, "BFCL_REFERENCE_DIR / BFCL_DATA_DIR"))
		}
		dir := GinkgoT().TempDir()
		for src, dst := range map[string]string{"embed/tiny/config.json": "config.json", "embed/tiny/model.safetensors": "model.safetensors", "embed/vocab.txt": "vocab.txt"} {
			b, err := os.ReadFile(filepath.Join(ref, src))
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(filepath.Join(dir, dst), b, 0o644)).To(Succeed())
		}
		emb, err := minilm.Open(context.Background(), minilm.LocateOptions{Dir: dir})
		Expect(err).NotTo(HaveOccurred())
		src, err := dataset.Open(data)
		Expect(err).NotTo(HaveOccurred())
		questions, err := src.LoadCategory("memory_vector")
		Expect(err).NotTo(HaveOccurred())
		byScenario := map[string][]string{}
		for _, e := range questions {
			byScenario[e.Scenario] = append(byScenario[e.Scenario], e.Question[0][len(e.Question[0])-1].Content)
		}
		searches := 0
		for scenario, qs := range byScenario {
			prereqs, err := src.MemoryPrereqs("memory_vector", scenario)
			Expect(err).NotTo(HaveOccurred())
			m := NewMemoryAPIVector(&Env{})
			m.SetEmbedder(emb)
			var texts []string
			for _, p := range prereqs {
				for _, turn := range p.Question {
					for _, msg := range turn {
						if msg.Role != "user" {
							continue
						}
						r, err := call(m, "archival_memory_add", pyval.Str(msg.Content))
						Expect(err).NotTo(HaveOccurred())
						if _, ok := r.(*pyval.Dict).GetStr("id"); ok {
							texts = append(texts, msg.Content)
						}
					}
				}
			}
			Expect(texts).NotTo(BeEmpty(), scenario)
			vecs, err := emb.Embed(context.Background(), texts)
			Expect(err).NotTo(HaveOccurred())
			for _, q := range qs {
				qv, err := emb.Embed(context.Background(), []string{q})
				Expect(err).NotTo(HaveOccurred())
				type hit struct {
					id    int
					score float32
				}
				want := make([]hit, len(vecs))
				for i, v := range vecs {
					var s float32
					for j := range v {
						s += v[j] * qv[0][j]
					}
					want[i] = hit{i, s}
				}
				sort.SliceStable(want, func(a, b int) bool { return want[a].score > want[b].score })
				r, err := call(m, "archival_memory_retrieve", pyval.Str(q), pyval.Int(5))
				Expect(err).NotTo(HaveOccurred())
				res, _ := r.(*pyval.Dict).GetStr("result")
				got := res.(*pyval.List).Items
				Expect(got).To(HaveLen(min(5, len(texts))), q)
				for k, g := range got {
					d := g.(*pyval.Dict)
					id, _ := d.GetStr("id")
					score, _ := d.GetStr("similarity_score")
					if int(id.(pyval.Int)) != want[k].id {
						// only a near-tie may order differently (summation order)
						Expect(float64(score.(pyval.Float))).To(BeNumerically("~", float64(want[k].score), 1e-6), "%s: rank %d", q, k)
						continue
					}
					Expect(float64(score.(pyval.Float))).To(BeNumerically("~", float64(want[k].score), 1e-6), "%s: rank %d", q, k)
				}
				searches++
			}
		}
		AddReportEntry("memory_vector searches checked", searches)
		Expect(searches).To(BeNumerically(">=", 100))
	})
})
