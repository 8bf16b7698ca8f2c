package compare_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"sort"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/scores/compare"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

const (
	refRun   = "2025-11-12-harmony-fixes-2"
	refModel = "openai_gpt-oss-120b"
)

// exactTwoSided is 2 * P(X <= min(b, c)), X ~ Binomial(b+c, 1/2), capped at
// 1: the exact binomial test, by the definition.
func exactTwoSided(b, c int) float64 {
	n, k := b+c, min(b, c)
	if n == 0 {
		return 1
	}
	sum := new(big.Rat)
	for i := 0; i <= k; i++ {
		sum.Add(sum, new(big.Rat).SetFrac(new(big.Int).Binomial(int64(n), int64(i)), new(big.Int).Lsh(big.NewInt(1), uint(n))))
	}
	f, _ := sum.Mul(sum, big.NewRat(2, 1)).Float64()
	return math.Min(1, f)
}

// rewriteResults replaces the "result" of the given ids in a result file.
func rewriteResults(path string, repl map[string]string) {
	raw, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	var out bytes.Buffer
	done := 0
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var m map[string]json.RawMessage
		Expect(json.Unmarshal(line, &m)).To(Succeed())
		var id string
		Expect(json.Unmarshal(m["id"], &id)).To(Succeed())
		if r, ok := repl[id]; ok {
			m["result"] = json.RawMessage(r)
			b, err := json.Marshal(m)
			Expect(err).NotTo(HaveOccurred())
			line = b
			done++
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	Expect(done).To(Equal(len(repl)), path)
	Expect(os.WriteFile(path, out.Bytes(), 0o644)).To(Succeed())
}

func copyTree(src, dst string) {
	Expect(os.CopyFS(dst, os.DirFS(src))).To(Succeed())
}

var _ = Describe("compare on the reference result set and a copy with known changes", Label("reference"), Ordered, func() {
	var (
		src            *dataset.Source
		scoreA, scoreB string
		toFail, toPass map[category.Category][]string
	)
	score := func(resultRoot, scoreRoot string) {
		u2d := true
		all, err := category.Expand("all_scoring")
		Expect(err).NotTo(HaveOccurred())
		_, err = evaluate.Run(evaluate.Options{Source: src, ResultRoot: resultRoot, ScoreRoot: scoreRoot,
			Models: []string{refModel}, Categories: all, Mode: "fc", UnderscoreToDot: &u2d})
		Expect(err).NotTo(HaveOccurred())
	}
	BeforeAll(func() {
		ref, ok := testenv.ReferenceDir()
		if !ok {
			Skip(testenv.MissingMessage("reference results", ref, "BFCL_REFERENCE_DIR"))
		}
		dir, ok := testenv.DataDir()
		if !ok {
			Skip(testenv.MissingMessage("BFCL data set", dir, dataset.EnvDataDir))
		}
		var err error
		src, err = dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		resultA := filepath.Join(ref, "results", "results", refRun, "result")
		tmp := GinkgoT().TempDir()
		scoreA = filepath.Join(tmp, "score_a")
		score(resultA, scoreA)
		runA, err := compare.Load("A", scoreA, refModel)
		Expect(err).NotTo(HaveOccurred())

		// Pick entries by their verdicts in A: passing ones to break
		// (an empty call list fails an AST entry, an empty turn list a
		// multi-turn entry, a call fails an irrelevance entry), failing
		// irrelevance entries to fix (no call passes them).
		pick := func(c category.Category, passing bool, n int) []string {
			entries, err := src.Load(c)
			Expect(err).NotTo(HaveOccurred())
			failed := map[string]bool{}
			for _, id := range runA.Outcomes[c].Failed {
				failed[id] = true
			}
			var out []string
			for i := len(entries) - 1; i >= 0 && len(out) < n; i -= 3 { // spread over the file
				if id := entries[i].ID; failed[id] != passing {
					out = append(out, id)
				}
			}
			Expect(out).To(HaveLen(n), string(c))
			return out
		}
		toFail = map[category.Category][]string{
			category.SimplePython:    pick(category.SimplePython, true, 3),
			category.LiveMultiple:    pick(category.LiveMultiple, true, 2),
			category.MultiTurnBase:   pick(category.MultiTurnBase, true, 1),
			category.LiveIrrelevance: pick(category.LiveIrrelevance, true, 1),
		}
		toPass = map[category.Category][]string{
			category.Irrelevance:     pick(category.Irrelevance, false, 2),
			category.LiveIrrelevance: pick(category.LiveIrrelevance, false, 8),
		}
		resultB := filepath.Join(tmp, "result_b")
		copyTree(resultA, resultB)
		edits := map[category.Category]map[string]string{}
		for c, ids := range toFail {
			edits[c] = map[string]string{}
			for _, id := range ids {
				switch {
				case c.IsMultiTurn():
					edits[c][id] = `[]`
				case c.IsRelevanceOrIrrelevance():
					edits[c][id] = `[{"get_weather": "{\"city\": \"Berkeley\"}"}]`
				default:
					edits[c][id] = `[]`
				}
			}
		}
		for c, ids := range toPass {
			if edits[c] == nil {
				edits[c] = map[string]string{}
			}
			for _, id := range ids {
				edits[c][id] = `[]`
			}
		}
		for c, m := range edits {
			rewriteResults(filepath.Join(resultB, refModel, filepath.FromSlash(c.ResultPath())), m)
		}
		scoreB = filepath.Join(tmp, "score_b")
		score(resultB, scoreB)
	})

	It("finds exactly the changed entries as discordant, with the exact binomial p-values", func() {
		a, err := compare.Load("A", scoreA, refModel)
		Expect(err).NotTo(HaveOccurred())
		b, err := compare.Load("B", scoreB, refModel)
		Expect(err).NotTo(HaveOccurred())
		res, err := compare.Two(a, b, stats.Options{Resamples: 2000})
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Categories).To(HaveLen(16))
		sorted := func(ids []string) []string {
			out := append([]string{}, ids...)
			sort.Slice(out, func(i, j int) bool { return category.CompareIDs(out[i], out[j]) < 0 })
			return out
		}
		seen := 0
		for _, row := range res.Rows {
			if row.Scope != "category" {
				Expect(row.AOnly).To(BeNil())
				Expect(row.PValue).To(BeNil())
				continue
			}
			seen++
			c := category.Category(row.Category)
			Expect(row.AOnly).To(Equal(sorted(toFail[c])), row.Category)
			Expect(row.BOnly).To(Equal(sorted(toPass[c])), row.Category)
			Expect(*row.PValue).To(Equal(exactTwoSided(len(toFail[c]), len(toPass[c]))), row.Category)
			Expect(row.A).To(Equal(a.Outcomes[c].Score.Accuracy))
			Expect(row.B).To(Equal(b.Outcomes[c].Score.Accuracy))
			Expect(row.Delta).To(BeNumerically("~", float64(len(toPass[c])-len(toFail[c]))/float64(row.N), 1e-12))
			switch c {
			case category.LiveIrrelevance: // 1 vs 8: p = 2*(1+9)/512
				Expect(*row.PValue).To(Equal(20.0 / 512))
				Expect(row.Verdict).To(Equal(compare.VerdictB))
			case category.SimplePython: // 3 vs 0: p = 2/8
				Expect(*row.PValue).To(Equal(0.25))
				Expect(row.Verdict).To(Equal(compare.VerdictNone))
			default:
				Expect(row.Verdict).To(Equal(compare.VerdictNone))
			}
			if len(toFail[c])+len(toPass[c]) == 0 {
				Expect(row.CI95).To(Equal(&[2]float64{0, 0}), "no discordant entry: every resample has delta 0")
			}
		}
		Expect(seen).To(Equal(16))
		var overall compare.Row
		for _, row := range res.Rows {
			if row.Category == "overall" {
				overall = row
			}
		}
		Expect(overall.Scope).To(Equal("overall"))
		Expect(overall.CI95[0]).To(BeNumerically("<=", overall.Delta))
		Expect(overall.CI95[1]).To(BeNumerically(">=", overall.Delta))
		Expect(overall.Verdict).To(Equal(compare.VerdictNone))
	})

	It("ranks the reference, the changed copy and the reference again, the identical runs tied", func() {
		a, _ := compare.Load("A", scoreA, refModel)
		b, _ := compare.Load("B", scoreB, refModel)
		a2, _ := compare.Load("A again", scoreA, refModel)
		r, err := compare.Rank([]compare.Run{a, b, a2}, stats.Options{Resamples: 2000})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Standings).To(HaveLen(3))
		for _, s := range r.Standings {
			Expect(s.Rank).To(Equal(1), s.Label)
			Expect(s.TiedWith).To(HaveLen(2), s.Label)
		}
	})
})
