package shard_test

import (
	"fmt"
	"math/rand/v2"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/run/shard"
)

// synthetic is a selection shaped like a BFCL run: many single-turn
// entries of cost 1, multi-turn entries of cost 5..40, and memory
// questions in chains (category/scenario) whose prerequisites cost 30.
func synthetic(single, multi, memory int) ([]shard.Item, shard.Weigher) {
	var items []shard.Item
	w := map[shard.Item]shard.Weight{}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < single; i++ {
		it := shard.Item{Category: "simple_python", ID: fmt.Sprintf("simple_python_%d", i)}
		items = append(items, it)
		w[it] = shard.Weight{Cost: 1}
	}
	for i := 0; i < multi; i++ {
		it := shard.Item{Category: "multi_turn_base", ID: fmt.Sprintf("multi_turn_base_%d", i)}
		items = append(items, it)
		w[it] = shard.Weight{Cost: float64(5 + r.IntN(36))}
	}
	for i := 0; i < memory; i++ {
		sc := []string{"student", "customer", "finance", "healthcare", "notetaker"}[i%5]
		it := shard.Item{Category: "memory_kv", ID: fmt.Sprintf("memory_kv_%d-%s-%d", i, sc, i)}
		items = append(items, it)
		w[it] = shard.Weight{Cost: 4, Chain: "memory_kv/" + sc, ChainCost: 30}
	}
	return items, func(it shard.Item) (shard.Weight, error) {
		x, ok := w[it]
		if !ok {
			return shard.Weight{}, fmt.Errorf("unknown item")
		}
		return x, nil
	}
}

func costOf(part []shard.Item, weigh shard.Weigher) float64 {
	total := 0.0
	chains := map[string]bool{}
	for _, it := range part {
		w, _ := weigh(it)
		total += w.Cost
		if w.Chain != "" && !chains[w.Chain] {
			chains[w.Chain] = true
			total += w.ChainCost
		}
	}
	return total
}

var _ = Describe("Partition", func() {
	DescribeTable("puts every entry in exactly one shard, keeps chains whole, keeps the selection's order and balances the cost",
		func(single, multi, memory, n int, maxRatio float64) {
			items, weigh := synthetic(single, multi, memory)
			parts, err := shard.Partition(items, n, weigh)
			Expect(err).NotTo(HaveOccurred())
			Expect(parts).To(HaveLen(n))
			pos := map[shard.Item]int{}
			for i, it := range items {
				pos[it] = i
			}
			owner := map[shard.Item]int{}
			chainOwner := map[string]int{}
			lo, hi := -1.0, 0.0
			for k, p := range parts {
				last := -1
				for _, it := range p {
					_, dup := owner[it]
					Expect(dup).To(BeFalse(), "%s in two shards", it)
					owner[it] = k
					Expect(pos[it]).To(BeNumerically(">", last), "shard %d is out of the selection's order", k)
					last = pos[it]
					w, _ := weigh(it)
					if w.Chain != "" {
						if o, ok := chainOwner[w.Chain]; ok {
							Expect(o).To(Equal(k), "chain %s split over shards %d and %d", w.Chain, o, k)
						}
						chainOwner[w.Chain] = k
					}
				}
				c := costOf(p, weigh)
				if lo < 0 || c < lo {
					lo = c
				}
				hi = max(hi, c)
			}
			Expect(owner).To(HaveLen(len(items)))
			Expect(lo).To(BeNumerically(">", 0))
			Expect(hi/lo).To(BeNumerically("<=", maxRatio), "max/min cost %v/%v", hi, lo)
		},
		Entry("a full run over 4 shards", 4000, 800, 155, 4, 1.01),
		Entry("over 16 shards", 4000, 800, 155, 16, 1.02),
		Entry("single-turn only over 3 shards (334/333)", 1000, 0, 0, 3, 1.0031),
		Entry("multi-turn heavy over 8 shards", 50, 400, 0, 8, 1.05),
		Entry("more shards than units leaves no shard empty only when possible (7 units, 7 shards)", 7, 0, 0, 7, 1.0),
	)

	It("depends on the set of entries only, not on their order", func() {
		items, weigh := synthetic(500, 100, 40)
		a, err := shard.Partition(items, 5, weigh)
		Expect(err).NotTo(HaveOccurred())
		shuffled := append([]shard.Item(nil), items...)
		rand.New(rand.NewPCG(7, 7)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		b, err := shard.Partition(shuffled, 5, weigh)
		Expect(err).NotTo(HaveOccurred())
		for k := range a {
			Expect(b[k]).To(ConsistOf(a[k]), "shard %d", k)
		}
		again, _ := shard.Partition(items, 5, weigh)
		Expect(again).To(Equal(a))
	})

	It("gives the shards of Select the union of the selection", func() {
		items, weigh := synthetic(300, 30, 20)
		var all []shard.Item
		for k := 0; k < 3; k++ {
			p, err := shard.Select(items, shard.Spec{Index: k, Count: 3}, weigh)
			Expect(err).NotTo(HaveOccurred())
			all = append(all, p...)
		}
		Expect(all).To(ConsistOf(items))
		whole, err := shard.Select(items, shard.Spec{}, weigh)
		Expect(err).NotTo(HaveOccurred())
		Expect(whole).To(Equal(items))
	})

	It("refuses duplicates, unknown entries and bad counts with the entry named", func() {
		items, weigh := synthetic(3, 0, 0)
		_, err := shard.Partition(append(items, items[0]), 2, weigh)
		Expect(err).To(MatchError(ContainSubstring("simple_python/simple_python_0 is selected twice")))
		_, err = shard.Partition([]shard.Item{{Category: "x", ID: "y"}}, 2, weigh)
		Expect(err).To(MatchError(ContainSubstring("x/y: unknown item")))
		_, err = shard.Partition(items, 0, weigh)
		Expect(err).To(MatchError(ContainSubstring("at least 1")))
		_, err = shard.Select(items, shard.Spec{Index: 3, Count: 3}, weigh)
		Expect(err).To(MatchError(ContainSubstring("outside 0..2")))
	})

	It("plans a shard: its part, longest first", func() {
		items, weigh := synthetic(50, 10, 10)
		part, err := shard.Select(items, shard.Spec{Index: 1, Count: 3}, weigh)
		Expect(err).NotTo(HaveOccurred())
		plan, err := shard.Plan(items, shard.Spec{Index: 1, Count: 3}, weigh)
		Expect(err).NotTo(HaveOccurred())
		Expect(plan).To(ConsistOf(part))
		first, _ := weigh(plan[0])
		last, _ := weigh(plan[len(plan)-1])
		Expect(first.Cost + first.ChainCost).To(BeNumerically(">", last.Cost))
	})

	It("orders longest first, a chain's items together in selection order", func() {
		items, weigh := synthetic(3, 2, 10)
		out, err := shard.LongestFirst(items, weigh)
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(ConsistOf(items))
		Expect(out[0].Category).To(BeEquivalentTo("memory_kv")) // each chain costs 30 + 2*4
		Expect(out[len(out)-1].Category).To(BeEquivalentTo("simple_python"))
		Expect(out[0].ID).To(Equal("memory_kv_0-student-0"))
		Expect(out[1].ID).To(Equal("memory_kv_5-student-5"))
	})
})

var _ = Describe("Parse and Resolve", func() {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	DescribeTable("reads K/N from the flag and the engines' variables",
		func(flag string, getenv func(string) string, want shard.Spec, wantErr string) {
			s, from, err := shard.Resolve(flag, getenv)
			if wantErr != "" {
				Expect(err).To(MatchError(ContainSubstring(wantErr)))
				return
			}
			Expect(err).NotTo(HaveOccurred())
			Expect(s).To(Equal(want))
			if want.Sharded() {
				Expect(from).NotTo(BeEmpty())
			}
		},
		Entry("flag", "2/4", env(), shard.Spec{Index: 2, Count: 4}, ""),
		Entry("flag wins over the engine", "1/2", env("JOB_COMPLETION_INDEX", "3"), shard.Spec{Index: 1, Count: 2}, ""),
		Entry("flag off", "off", env("SLURM_ARRAY_TASK_ID", "1", "SLURM_ARRAY_TASK_COUNT", "4"), shard.Spec{}, ""),
		Entry("flag malformed", "2", env(), shard.Spec{}, "want K/N"),
		Entry("flag not numbers", "a/b", env(), shard.Spec{}, "must be integers"),
		Entry("flag K = N", "4/4", env(), shard.Spec{}, "outside 0..3"),
		Entry("flag N = 0", "0/0", env(), shard.Spec{}, "at least 1"),
		Entry("nothing set", "", env(), shard.Spec{}, ""),
		Entry("BFCL_SHARD", "", env("BFCL_SHARD", "0/3"), shard.Spec{Index: 0, Count: 3}, ""),
		Entry("BFCL_SHARD bad", "", env("BFCL_SHARD", "3/3"), shard.Spec{}, "BFCL_SHARD"),
		Entry("BFCL_SHARD=off under Slurm", "", env("BFCL_SHARD", "off", "SLURM_ARRAY_TASK_ID", "1", "SLURM_ARRAY_TASK_COUNT", "4"), shard.Spec{}, ""),
		Entry("Kubernetes", "", env("JOB_COMPLETION_INDEX", "3", "BFCL_SHARD_COUNT", "8"), shard.Spec{Index: 3, Count: 8}, ""),
		Entry("Kubernetes without the count", "", env("JOB_COMPLETION_INDEX", "3"), shard.Spec{}, "BFCL_SHARD_COUNT is not"),
		Entry("Kubernetes index past the count", "", env("JOB_COMPLETION_INDEX", "8", "BFCL_SHARD_COUNT", "8"), shard.Spec{}, "outside 0..7"),
		Entry("Kubernetes index not a number", "", env("JOB_COMPLETION_INDEX", "x", "BFCL_SHARD_COUNT", "8"), shard.Spec{}, `JOB_COMPLETION_INDEX="x" is not an integer`),
		Entry("count without index", "", env("BFCL_SHARD_COUNT", "8"), shard.Spec{}, "says which shard"),
		Entry("Slurm 0-based", "", env("SLURM_ARRAY_TASK_ID", "2", "SLURM_ARRAY_TASK_COUNT", "4", "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_MAX", "3"), shard.Spec{Index: 2, Count: 4}, ""),
		Entry("Slurm 1-based (--array=1-4)", "", env("SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "4", "SLURM_ARRAY_TASK_MIN", "1", "SLURM_ARRAY_TASK_MAX", "4"), shard.Spec{Index: 3, Count: 4}, ""),
		Entry("Slurm with a step (--array=0-6:2)", "", env("SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "4", "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_MAX", "6", "SLURM_ARRAY_TASK_STEP", "2"), shard.Spec{Index: 2, Count: 4}, ""),
		Entry("Slurm list (--array=1,4,9)", "", env("SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "3", "SLURM_ARRAY_TASK_MIN", "1", "SLURM_ARRAY_TASK_MAX", "9"), shard.Spec{}, "not one range"),
		Entry("Slurm without the count", "", env("SLURM_ARRAY_TASK_ID", "4"), shard.Spec{}, "SLURM_ARRAY_TASK_COUNT is not"),
		Entry("Slurm count disagrees with BFCL_SHARD_COUNT", "", env("SLURM_ARRAY_TASK_ID", "0", "SLURM_ARRAY_TASK_COUNT", "4", "BFCL_SHARD_COUNT", "5"), shard.Spec{}, "disagrees"),
		Entry("both engines", "", env("SLURM_ARRAY_TASK_ID", "0", "SLURM_ARRAY_TASK_COUNT", "4", "JOB_COMPLETION_INDEX", "0"), shard.Spec{}, "both"),
	)

	It("prints K/N", func() {
		s, err := shard.Parse(" 3 / 8 ")
		Expect(err).NotTo(HaveOccurred())
		Expect(s.String()).To(Equal("3/8"))
		Expect(shard.Spec{}.String()).To(BeEmpty())
	})
})

var _ = Describe("Costs on the data set", func() {
	It("weighs multi-turn far above single-turn, keeps memory chains whole, and balances a full run over 4 shards", func() {
		dir := os.Getenv(dataset.EnvDataDir)
		if dir == "" {
			Skip("BFCL_DATA_DIR is not set: the data-set cost model is not checked (export BFCL_DATA_DIR=/work/shared/bfcl)")
		}
		src, err := dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		var items []shard.Item
		for _, c := range category.Scoring() {
			list, err := prompt.LoadCategory(src, c)
			Expect(err).NotTo(HaveOccurred())
			for _, e := range list {
				items = append(items, shard.Item{Category: c, ID: e.ID})
			}
		}
		costs := shard.NewCosts(src)
		w1, err := costs.Weigh(shard.Item{Category: "simple_python", ID: "simple_python_0"})
		Expect(err).NotTo(HaveOccurred())
		Expect(w1.Cost).To(Equal(1.0))
		// multi_turn_base_0 has four turns, each with ground-truth calls.
		w2, err := costs.Weigh(shard.Item{Category: "multi_turn_base", ID: "multi_turn_base_0"})
		Expect(err).NotTo(HaveOccurred())
		Expect(w2.Cost).To(Equal(8.0))
		var mem shard.Item
		for _, it := range items {
			if it.Category == "memory_kv" {
				mem = it
				break
			}
		}
		w3, err := costs.Weigh(mem)
		Expect(err).NotTo(HaveOccurred())
		Expect(w3.Chain).To(HavePrefix("memory_kv/"))
		Expect(w3.ChainCost).To(BeNumerically(">", 10))
		_, err = costs.Weigh(shard.Item{Category: "simple_python", ID: "simple_python_99999"})
		Expect(err).To(MatchError(ContainSubstring("no entry simple_python_99999")))

		parts, err := shard.Partition(items, 4, costs.Weigh)
		Expect(err).NotTo(HaveOccurred())
		lo, hi, n := 0.0, 0.0, 0
		chain := map[string]int{}
		for k, p := range parts {
			n += len(p)
			c := costOf(p, costs.Weigh)
			if k == 0 || c < lo {
				lo = c
			}
			hi = max(hi, c)
			for _, it := range p {
				if w, _ := costs.Weigh(it); w.Chain != "" {
					if o, ok := chain[w.Chain]; ok {
						Expect(o).To(Equal(k))
					}
					chain[w.Chain] = k
				}
			}
		}
		Expect(n).To(Equal(len(items)))
		Expect(len(chain)).To(Equal(15)) // 3 memory backends x 5 scenarios
		GinkgoWriter.Printf("%d entries, 4 shards: cost max/min %.1f/%.1f\n", n, hi, lo)
		Expect(hi / lo).To(BeNumerically("<=", 1.01))
	})
})
