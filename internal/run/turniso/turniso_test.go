package turniso_test

import (
	"context"
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/gold"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/internal/run/turniso"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/sim"
)

// scripted answers like gold, except on the turns in fail, where it
// answers with text and no call.
type scripted struct {
	entry *dataset.Entry
	gold  *gold.Driver
	fail  map[int]bool
}

func (s *scripted) Name() string { return "scripted" }
func (s *scripted) Complete(ctx context.Context, req driver.Request) (driver.Response, error) {
	if s.fail[gold.TurnOf(s.entry, req)] {
		return driver.Response{Text: "I would rather not."}, nil
	}
	return s.gold.Complete(ctx, req)
}

// promptGold answers one turn in prompt mode with the given text, then
// with text that ends the turn.
type promptGold struct {
	text    string
	stepped bool
}

func (p *promptGold) Name() string { return "prompt-gold" }
func (p *promptGold) Complete(_ context.Context, req driver.Request) (driver.Response, error) {
	if !p.stepped && p.text != "" {
		p.stepped = true
		return driver.Response{Text: p.text}, nil
	}
	return driver.Response{Text: "Done."}, nil
}

var _ = Describe("turn-isolated mode", Label("dataset"), Ordered, func() {
	var (
		src *dataset.Source
		lc  *longcontext.Data
	)
	BeforeAll(func() {
		dir, ok := testenv.DataDir()
		if !ok {
			Skip(testenv.MissingMessage("BFCL data set", dir, dataset.EnvDataDir))
		}
		var err error
		src, err = dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		lc, err = score.LongContextOf(src)
		Expect(err).NotTo(HaveOccurred())
	})
	opts := func(mode string) infer.Options {
		return infer.Options{Spec: decode.Spec{Mode: mode}, NewExecutor: func(e *dataset.Entry) (infer.Executor, error) {
			cfg, err := e.InitialConfigDict()
			if err != nil {
				return nil, err
			}
			s := engine.New(sim.NewEnv(lc), engine.Config{ModelName: "gold", EntryID: e.ID, Involved: e.InvolvedClasses,
				InitialConfig: cfg, LongContext: e.LongContext()})
			return s, s.Init()
		}}
	}
	check := func(mode string) multiturn.Options {
		return multiturn.Options{Spec: decode.Spec{Mode: mode}, ModelName: "gold", LongContext: lc}
	}
	runTurn := func(model driver.Driver, e *dataset.Entry, t int, mode string) turniso.Verdict {
		rec, _, err := turniso.Run(context.Background(), model, e, t, opts(mode))
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.ID).To(Equal(turniso.ID(e.ID, t)))
		var turns []json.RawMessage
		Expect(json.Unmarshal(rec.Result, &turns)).To(Succeed())
		Expect(turns).To(HaveLen(t + 1))
		v, err := turniso.Score(e, t, rec, check(mode))
		Expect(err).NotTo(HaveOccurred())
		return v
	}

	It("scores every turn of every entry with gold (FC), base and miss_func", func() {
		checked := 0
		for _, c := range []category.Category{category.MultiTurnBase, category.MultiTurnMissFunc} {
			entries, err := src.Load(c)
			Expect(err).NotTo(HaveOccurred())
			for _, e := range entries {
				n, err := turniso.Turns(e)
				Expect(err).NotTo(HaveOccurred())
				for t := 0; t < n; t++ {
					g, err := gold.New(e)
					Expect(err).NotTo(HaveOccurred())
					v := runTurn(g, e, t, "fc")
					Expect(v.Valid).To(BeTrue(), fmt.Sprintf("%s: %s %v", v.ID, v.ErrorType, v.Errors))
					checked++
				}
			}
		}
		fmt.Fprintf(GinkgoWriter, "isolated turns scored with gold: %d\n", checked)
		Expect(checked).To(BeNumerically(">", 1000))
	})

	It("fails only turn 2 of a 4-turn entry when the model fails only that turn", func() {
		entries, err := src.Load(category.MultiTurnBase)
		Expect(err).NotTo(HaveOccurred())
		var e *dataset.Entry
		for _, x := range entries {
			var gt [][]string
			Expect(json.Unmarshal(x.Answer, &gt)).To(Succeed())
			if len(gt) == 4 && len(gt[2]) > 0 {
				e = x
				break
			}
		}
		Expect(e).NotTo(BeNil())
		newModel := func() driver.Driver {
			g, err := gold.New(e)
			Expect(err).NotTo(HaveOccurred())
			return &scripted{entry: e, gold: g, fail: map[int]bool{2: true}}
		}
		var failed []int
		for t := 0; t < 4; t++ {
			v := runTurn(newModel(), e, t, "fc")
			Expect(v.PrefixFailed).To(BeFalse())
			if !v.Valid {
				failed = append(failed, t)
				Expect(v.ErrorType).To(Equal(multiturn.ErrEmptyTurn))
			}
		}
		Expect(failed).To(Equal([]int{2}), e.ID)
		// The ordinary run of the same model fails the whole entry at turn 2.
		rec, _, err := infer.Run(context.Background(), newModel(), e, opts("fc"))
		Expect(err).NotTo(HaveOccurred())
		r, err := multiturn.Check(e, rec, check("fc"))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Verdict.Valid).To(BeFalse())
		Expect(r.Executed).To(HaveLen(3))
	})

	It("builds the prompt-mode history from the ground-truth calls as text", func() {
		entries, err := src.Load(category.MultiTurnMissParam)
		Expect(err).NotTo(HaveOccurred())
		for _, e := range entries[:40] {
			g, err := gold.New(e)
			Expect(err).NotTo(HaveOccurred())
			n, err := turniso.Turns(e)
			Expect(err).NotTo(HaveOccurred())
			for t := 0; t < n; t++ {
				text, err := g.PromptAnswer(t)
				Expect(err).NotTo(HaveOccurred())
				v := runTurn(&promptGold{text: text}, e, t, "prompt")
				Expect(v.Valid).To(BeTrue(), fmt.Sprintf("%s: %s %v", v.ID, v.ErrorType, v.Errors))
			}
		}
	})

	It("stores one record per turn in its own folders, resumes, and writes an isolated score file", func() {
		entries, err := src.Load(category.MultiTurnBase)
		Expect(err).NotTo(HaveOccurred())
		entries = entries[:5]
		tmp := GinkgoT().TempDir()
		resultRoot, scoreRoot := turniso.IsolatedRoot(tmp+"/result"), turniso.IsolatedRoot(tmp+"/score")
		Expect(resultRoot).To(Equal(tmp + "/result_turn_isolated"))
		store := results.NewStore(resultRoot, "scripted")
		calls := 0
		var recs []results.Record
		for _, e := range entries {
			newModel := func() (driver.Driver, error) {
				calls++
				g, err := gold.New(e)
				return &scripted{entry: e, gold: g, fail: map[int]bool{1: true}}, err
			}
			rs, _, err := turniso.RunEntry(context.Background(), newModel, e, opts("fc"), store)
			Expect(err).NotTo(HaveOccurred())
			recs = append(recs, rs...)
		}
		first := calls
		Expect(first).To(Equal(len(recs)))
		// Resume: a new store on the same folder asks nothing again.
		again := results.NewStore(resultRoot, "scripted")
		for _, e := range entries {
			_, _, err := turniso.RunEntry(context.Background(), func() (driver.Driver, error) {
				calls++
				return nil, fmt.Errorf("must not be called")
			}, e, opts("fc"), again)
			Expect(err).NotTo(HaveOccurred())
		}
		Expect(calls).To(Equal(first))
		sum, vs, err := turniso.Evaluate(category.MultiTurnBase, entries, recs, check("fc"))
		Expect(err).NotTo(HaveOccurred())
		_, err = report.WriteScoreDirFile(scoreRoot, "scripted", category.MultiTurnBase, vs)
		Expect(err).NotTo(HaveOccurred())
		Expect(sum.Turns).To(Equal(len(recs)))
		Expect(sum.Missing).To(Equal(0))
		// Turn 1 fails wherever its ground truth has calls; every other turn passes.
		wantFailed := 0
		for _, e := range entries {
			var gt [][]string
			Expect(json.Unmarshal(e.Answer, &gt)).To(Succeed())
			if len(gt[1]) > 0 {
				wantFailed++
			}
		}
		Expect(wantFailed).To(BeNumerically(">", 0))
		Expect(sum.Turns - sum.Passed).To(Equal(wantFailed))
		Expect(sum.ByTurn[1].Total - sum.ByTurn[1].Correct).To(Equal(wantFailed))
		for t, ts := range sum.ByTurn {
			if t != 1 {
				Expect(ts.Correct).To(Equal(ts.Total), fmt.Sprint(t))
			}
		}
		out, err := report.ReadModelOutcomes(scoreRoot, "scripted")
		Expect(err).NotTo(HaveOccurred())
		o := out[category.MultiTurnBase]
		Expect(o.Score.Total).To(Equal(len(recs)))
		for _, id := range o.Failed {
			Expect(id).To(HaveSuffix(":turn_1"))
		}
	})

	It("rejects bad turns and ids", func() {
		entries, err := src.Load(category.MultiTurnBase)
		Expect(err).NotTo(HaveOccurred())
		_, err = turniso.Truncate(entries[0], 99)
		Expect(err).To(MatchError(ContainSubstring("no turn 99")))
		id, t, err := turniso.ParseID(turniso.ID("multi_turn_base_7", 3))
		Expect(err).NotTo(HaveOccurred())
		Expect(id).To(Equal("multi_turn_base_7"))
		Expect(t).To(Equal(3))
		_, _, err = turniso.ParseID("multi_turn_base_7")
		Expect(err).To(HaveOccurred())
		c, err := category.FromEntryID(turniso.ID("multi_turn_miss_func_12", 1))
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(category.MultiTurnMissFunc))
	})
})
