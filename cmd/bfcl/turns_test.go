package main

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/gold"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/internal/run/turniso"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/sim"
)

var _ = Describe("bfcl turns --isolated (built binary)", Label("dataset"), func() {
	It("scores gold's turn-isolated records: every turn passes", func() {
		data, ok := testenv.DataDir()
		if !ok {
			Skip(testenv.MissingMessage("BFCL data set", data, dataset.EnvDataDir))
		}
		src, err := dataset.Open(data)
		Expect(err).NotTo(HaveOccurred())
		lc, err := score.LongContextOf(src)
		Expect(err).NotTo(HaveOccurred())
		tmp := GinkgoT().TempDir()
		store := results.NewStore(turniso.IsolatedRoot(filepath.Join(tmp, "result")), "gold")
		entries, err := src.Load(category.MultiTurnBase)
		Expect(err).NotTo(HaveOccurred())
		opts := infer.Options{Spec: decode.Spec{Mode: "fc"}, NewExecutor: func(e *dataset.Entry) (infer.Executor, error) {
			cfg, err := e.InitialConfigDict()
			if err != nil {
				return nil, err
			}
			s := engine.New(sim.NewEnv(lc), engine.Config{ModelName: "gold", EntryID: e.ID, Involved: e.InvolvedClasses,
				InitialConfig: cfg, LongContext: e.LongContext()})
			return s, s.Init()
		}}
		turnsRun := 0
		for _, e := range entries[:50] {
			recs, _, err := turniso.RunEntry(context.Background(), func() (driver.Driver, error) { return gold.New(e) }, e, opts, store)
			Expect(err).NotTo(HaveOccurred())
			turnsRun += len(recs)
		}
		cmd := exec.Command(bfclBinary(), "turns", "--isolated", "--json", "--data-dir", data,
			"--result-dir", filepath.Join(tmp, "result"), "--score-dir", filepath.Join(tmp, "score"))
		out, err := cmd.Output()
		Expect(err).NotTo(HaveOccurred(), string(out))
		var got []struct {
			Model      string
			Categories []turniso.Summary
		}
		Expect(json.Unmarshal(out, &got)).To(Succeed(), string(out))
		Expect(got).To(HaveLen(1))
		Expect(got[0].Model).To(Equal("gold"))
		s := got[0].Categories[0]
		Expect(s.Category).To(Equal(category.MultiTurnBase))
		Expect(s.Turns).To(Equal(turnsRun))
		Expect(s.Passed).To(Equal(turnsRun))
		Expect(s.Missing).To(BeNumerically(">", 0)) // the 150 entries not run
		Expect(filepath.Join(tmp, "score_turn_isolated", "gold", "multi_turn", "BFCL_v4_multi_turn_base_score.json")).To(BeAnExistingFile())
	})
})
