package evaluate_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver/replay"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/sim"
)

// jsonLines reads a JSON Lines file into id -> decoded line (the header
// line of a score file, which has no id, is skipped) and id -> raw line.
func jsonLines(path string) (map[string]map[string]any, map[string]string) {
	f, err := os.Open(path)
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	decoded, raw := map[string]map[string]any{}, map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	for sc.Scan() {
		var m map[string]any
		Expect(json.Unmarshal(sc.Bytes(), &m)).To(Succeed())
		id, _ := m["id"].(string)
		if id == "" {
			continue
		}
		decoded[id], raw[id] = m, sc.Text()
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return decoded, raw
}

var _ = Describe("inference logs in multi-turn score lines", Label("reference"), func() {
	It("copies each failed entry's inference_log, from upstream's result files and from ours made of the same model outputs", func() {
		ref := testenv.NeedReferenceDir(GinkgoT(), "reference results")
		src := testenv.OpenDataSet(GinkgoT())
		const model = "openai_gpt-oss-120b"
		upstreamRoot := filepath.Join(ref, "results", "results", "2025-11-12-harmony-fixes-2", "result")
		cats := []category.Category{"multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param"}
		u2d := true

		// Our result files: upstream's model outputs replayed through our
		// inference loop (the entries upstream's handler failed on have no
		// outputs to replay and are left out).
		oursRoot := GinkgoT().TempDir()
		store := results.NewStore(oursRoot, model)
		for _, c := range cats {
			entries, err := src.Load(c)
			Expect(err).NotTo(HaveOccurred())
			recs, err := results.Read(results.Path(upstreamRoot, model, c))
			Expect(err).NotTo(HaveOccurred())
			byID := map[string]*dataset.Entry{}
			for _, e := range entries {
				byID[e.ID] = e
			}
			for _, r := range recs {
				if len(r.InferenceLog) == 0 {
					continue
				}
				d, err := replay.New(r, true)
				Expect(err).NotTo(HaveOccurred())
				rec, _, err := infer.Run(context.Background(), d, byID[r.ID], infer.Options{Spec: decode.Spec{Mode: "fc"}, NewExecutor: func(e *dataset.Entry) (infer.Executor, error) {
					conf, err := e.InitialConfigDict()
					if err != nil {
						return nil, err
					}
					s := engine.New(sim.NewEnv(nil), engine.Config{ModelName: "openai_gpt_oss_120b", EntryID: e.ID, Involved: e.InvolvedClasses, InitialConfig: conf})
					return s, s.Init()
				}})
				Expect(err).NotTo(HaveOccurred(), r.ID)
				Expect(store.Append(c, rec)).To(Succeed())
			}
		}

		upstreamScores, oursScores := GinkgoT().TempDir(), GinkgoT().TempDir()
		_, err := evaluate.Run(evaluate.Options{Source: src, ResultRoot: upstreamRoot, ScoreRoot: upstreamScores, Models: []string{model}, Categories: cats, Mode: "fc", UnderscoreToDot: &u2d})
		Expect(err).NotTo(HaveOccurred())
		_, err = evaluate.Run(evaluate.Options{Source: src, ResultRoot: oursRoot, ScoreRoot: oursScores, Models: []string{model}, Categories: cats, Mode: "fc", UnderscoreToDot: &u2d, Partial: true})
		Expect(err).NotTo(HaveOccurred())

		failed, withLog, sameLine := 0, 0, 0
		for _, c := range cats {
			resultLines, _ := jsonLines(results.Path(upstreamRoot, model, c))
			theirs, theirsRaw := jsonLines(filepath.Join(upstreamScores, model, filepath.FromSlash(c.ScorePath())))
			ours, oursRaw := jsonLines(filepath.Join(oursScores, model, filepath.FromSlash(c.ScorePath())))
			for id, line := range theirs {
				failed++
				want, has := resultLines[id]["inference_log"]
				if !has {
					want = "" // upstream's .get("inference_log", "")
				}
				Expect(line).To(HaveKey("inference_log"), id)
				Expect(reflect.DeepEqual(line["inference_log"], want)).To(BeTrue(), "%s: the score line's inference_log is not the result file's", id)
				if !has {
					Expect(ours).NotTo(HaveKey(id))
					continue
				}
				withLog++
				Expect(oursRaw).To(HaveKey(id), "%s failed on upstream's file only", id)
				Expect(oursRaw[id]).To(Equal(theirsRaw[id]), "%s: score lines differ", id)
				sameLine++
			}
			Expect(ours).To(HaveLen(countWithLog(theirs, resultLines)), string(c))
		}
		GinkgoWriter.Printf("multi-turn score lines: %d failed entries, %d with an inference log; from our result files %d identical lines\n", failed, withLog, sameLine)
		Expect(withLog).To(BeNumerically(">", 100))
	})
})

func countWithLog(score map[string]map[string]any, result map[string]map[string]any) int {
	n := 0
	for id := range score {
		if _, ok := result[id]["inference_log"]; ok {
			n++
		}
	}
	return n
}
