package turns_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/scores/turns"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

var _ = Describe("Diagnose on the reference multi-turn results", Label("reference"), func() {
	It("finds the turn where upstream's checker stopped (its execution logs) and adds up", func() {
		ref := testenv.NeedReferenceDir(GinkgoT(), "reference results")
		src := testenv.OpenDataSet(GinkgoT())
		const run, model = "2025-11-12-harmony-fixes-2", "openai_gpt-oss-120b"
		scoreRoot := GinkgoT().TempDir()
		u2d := true
		cats := []category.Category{category.MultiTurnBase, category.MultiTurnMissFunc, category.MultiTurnMissParam}
		reported, err := turns.Report(src, scoreRoot, model)
		Expect(err).To(MatchError(ContainSubstring("no multi-turn score file under")))
		Expect(reported).To(BeEmpty())
		_, err = evaluate.Run(evaluate.Options{Source: src, ResultRoot: filepath.Join(ref, "results", "results", run, "result"),
			ScoreRoot: scoreRoot, Models: []string{model}, Categories: cats, Mode: "fc", UnderscoreToDot: &u2d})
		Expect(err).NotTo(HaveOccurred())
		compared := 0
		var diags []turns.Category
		for _, c := range cats {
			entries, err := src.Load(c)
			Expect(err).NotTo(HaveOccurred())
			turnsOf := map[string]int{}
			for _, e := range entries {
				var gt [][]string
				Expect(json.Unmarshal(e.Answer, &gt)).To(Succeed())
				turnsOf[e.ID] = len(gt)
			}
			Expect(turns.TurnCounts(src, c)).To(Equal(turnsOf))
			// Upstream's execution log per entry: one item per turn run.
			logTurns := map[string]int{}
			f, err := os.Open(filepath.Join(ref, "multi_turn_verdicts", run, model, "BFCL_v4_"+string(c)+"_execlog.jsonl"))
			Expect(err).NotTo(HaveOccurred())
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
			for sc.Scan() {
				var l struct {
					ID    string            `json:"id"`
					Turns []json.RawMessage `json:"turns"`
				}
				Expect(json.Unmarshal(sc.Bytes(), &l)).To(Succeed())
				logTurns[l.ID] = len(l.Turns)
			}
			f.Close()
			path := report.ScoreFilePath(scoreRoot, model, c)
			_, err = report.VisitScoreFile(path, c, func(id string, line []byte) error {
				o, _, err := verdict.ScoreLineTurns(line)
				if err != nil {
					return err
				}
				t, ok := o.FailingTurn()
				if !ok {
					return nil
				}
				n, ok := logTurns[id]
				if !ok {
					return fmt.Errorf("%s: no upstream execution log", id)
				}
				if t != n-1 {
					return fmt.Errorf("%s: first failing turn %d, upstream's log has %d turns", id, t, n)
				}
				compared++
				return nil
			})
			Expect(err).NotTo(HaveOccurred())
			d, err := turns.Diagnose(path, c, turnsOf)
			Expect(err).NotTo(HaveOccurred())
			diags = append(diags, d)
			sum := d.Unchecked
			for _, n := range d.FirstFailing {
				sum += n
			}
			Expect(sum).To(Equal(d.Entries-d.Passed), string(c))
			Expect(d.TurnAccuracy).To(BeNumerically(">=", float64(d.Passed)/float64(d.Entries)*0.5))
			Expect(d.TurnAccuracy).To(BeNumerically("<=", 1))
			fmt.Fprintf(GinkgoWriter, "%s: accuracy %d/%d, turn accuracy %.4f, mean progress %.4f, first failing %v, unchecked %d\n",
				c, d.Passed, d.Entries, d.TurnAccuracy, d.MeanProgress, d.FirstFailing, d.Unchecked)
		}
		Expect(compared).To(BeNumerically(">", 200))
		reported, err = turns.Report(src, scoreRoot, "")
		Expect(err).NotTo(HaveOccurred())
		Expect(reported).To(Equal([]turns.Model{{Model: model, Note: turns.Note, Categories: diags}}))
	})
})
