package shard_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/run/harness"
	"github.com/bfcl-go/bfcl/internal/run/merge"
	"github.com/bfcl-go/bfcl/internal/run/shard"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/goldserver"
)

// The multi-process test: one fake OpenAI-compatible server (answers are
// the gold model's), one unsharded run and four shard runs, each a
// separate process (this test binary, re-executed as TestShardWorker).

const workerModel = "gold-over-http"

// e2eTake is the selection: the first n entries of each category (all of
// memory_kv, so that every memory scenario's chain is in it).
var e2eTake = []struct {
	c category.Category
	n int
}{
	{category.SimplePython, 40}, {category.Multiple, 20}, {category.LiveSimple, 20}, {category.Irrelevance, 10},
	{category.MultiTurnBase, 12}, {category.MultiTurnMissFunc, 8}, {category.MemoryKV, 1000},
}

func e2eSelection(src *dataset.Source) ([]shard.Item, []*dataset.Entry, error) {
	var items []shard.Item
	var entries []*dataset.Entry
	for _, t := range e2eTake {
		list, err := prompt.LoadCategory(src, t.c)
		if err != nil {
			return nil, nil, err
		}
		list = list[:min(t.n, len(list))]
		for _, e := range list {
			items = append(items, shard.Item{Category: t.c, ID: e.ID})
		}
		entries = append(entries, list...)
		if t.c.IsMemory() {
			for _, sc := range dataset.MemoryScenarios() {
				pre, err := src.MemoryPrereqs(t.c, sc)
				if err != nil {
					return nil, nil, err
				}
				entries = append(entries, pre...)
			}
		}
	}
	return items, entries, nil
}

// TestShardWorker is one run of the multi-process spec: it runs its shard
// (from the environment, as bfcl generate will) of the selection through
// the harness against the server at BFCL_E2E_URL, storing results below
// BFCL_E2E_RESULT.
func TestShardWorker(t *testing.T) {
	url, root := os.Getenv("BFCL_E2E_URL"), os.Getenv("BFCL_E2E_RESULT")
	if url == "" || root == "" {
		t.Skip("a subprocess of the multi-process shard spec; not run on its own")
	}
	src, err := dataset.Open(os.Getenv(dataset.EnvDataDir))
	if err != nil {
		t.Fatal(err)
	}
	items, _, err := e2eSelection(src)
	if err != nil {
		t.Fatal(err)
	}
	spec, from, err := shard.Resolve(os.Getenv("BFCL_E2E_FLAG"), os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	costs := shard.NewCosts(src)
	part, err := shard.Select(items, spec, costs.Weigh)
	if err != nil {
		t.Fatal(err)
	}
	order, err := shard.LongestFirst(part, costs.Weigh)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("shard %q (%s): %d of %d entries", spec, from, len(order), len(items))
	m := registry.Model{Name: workerModel, Provider: "openai", Model: "gold", BaseURL: url, Mode: "fc", Temperature: 0.001, MaxTokens: 4096, Concurrency: 8}
	cfg := harness.Config{Model: m, Source: src, Storage: config.Storage{ResultDir: root, ScoreDir: filepath.Join(root, "..", "score")}}
	cfg.NewExecutor = harness.DefaultExecutor(cfg)
	h, err := harness.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	work := make(chan shard.Item)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []string
	for w := 0; w < m.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range work {
				if _, err := h.Run(context.Background(), it.Category, it.ID); err != nil {
					mu.Lock()
					errs = append(errs, string(it.Category)+"/"+it.ID+": "+err.Error())
					mu.Unlock()
				}
			}
		}()
	}
	for _, it := range order {
		work <- it
	}
	close(work)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d entries failed, first: %s", len(errs), errs[0])
	}
}

// worker runs TestShardWorker in a new process.
func worker(url, root string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestShardWorker$", "-test.v")
	cmd.Env = append(os.Environ(), "BFCL_E2E_URL="+url, "BFCL_E2E_RESULT="+root, "BFCL_REQUEST_CACHE=off",
		"BFCL_SHARD=", "JOB_COMPLETION_INDEX=", "BFCL_SHARD_COUNT=", "SLURM_ARRAY_TASK_ID=", "SLURM_ARRAY_TASK_COUNT=")
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// scoreFiles returns the score files below a score root, by path relative
// to it.
func scoreFiles(root string) map[string]string {
	out := map[string]string{}
	Expect(filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || !strings.HasSuffix(p, "_score.json") {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[rel] = string(b)
		return err
	})).To(Succeed())
	return out
}

var _ = Describe("four shards in four processes", Label("e2e"), func() {
	It("merged, score exactly as one unsharded run, with every memory chain whole and in order in one shard", func() {
		dir := os.Getenv(dataset.EnvDataDir)
		if dir == "" {
			Skip("BFCL_DATA_DIR is not set: the multi-process shard test needs the data set (export BFCL_DATA_DIR=/work/shared/bfcl)")
		}
		src, err := dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		items, entries, err := e2eSelection(src)
		Expect(err).NotTo(HaveOccurred())
		srv, err := goldserver.Start(entries, 2*time.Millisecond)
		Expect(err).NotTo(HaveOccurred())
		defer srv.Close()
		tmp := GinkgoT().TempDir()

		whole := filepath.Join(tmp, "whole", "result")
		out, err := worker(srv.URL, whole, "BFCL_E2E_FLAG=off").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "unsharded run: %s", out)
		unshardedCalls := srv.Calls()

		const n = 4
		roots := make([]string, n)
		cmds := make([]*exec.Cmd, n)
		outs := make([]strings.Builder, n)
		for k := 0; k < n; k++ {
			roots[k] = filepath.Join(tmp, fmt.Sprintf("shard-%d", k), "result")
			// As a Kubernetes Indexed Job sets them.
			cmds[k] = worker(srv.URL, roots[k], fmt.Sprintf("JOB_COMPLETION_INDEX=%d", k), fmt.Sprintf("BFCL_SHARD_COUNT=%d", n))
			cmds[k].Stdout, cmds[k].Stderr = &outs[k], &outs[k]
			Expect(cmds[k].Start()).To(Succeed())
		}
		for k := 0; k < n; k++ {
			Expect(cmds[k].Wait()).To(Succeed(), "shard %d: %s", k, outs[k].String())
			Expect(outs[k].String()).To(ContainSubstring(fmt.Sprintf(`shard "%d/%d" (JOB_COMPLETION_INDEX=%d, BFCL_SHARD_COUNT=%d)`, k, n, k, n)))
		}
		Expect(srv.Calls()-unshardedCalls).To(Equal(unshardedCalls), "the shards together made the unsharded run's model calls")
		for k := range roots {
			Expect(outs[k].String()).To(MatchRegexp(`: [1-9]\d* of %d entries`, len(items)), "shard %d ran nothing", k)
		}

		merged := filepath.Join(tmp, "merged", "result")
		rep, err := merge.Run(merge.Options{Out: merged, Dirs: roots})
		Expect(err).NotTo(HaveOccurred())
		first := scoreFiles(merged)
		_, err = merge.Run(merge.Options{Out: merged, Dirs: roots})
		Expect(err).NotTo(HaveOccurred())
		Expect(scoreFiles(merged)).To(Equal(first))

		// Every selected entry once, and the same ids as the unsharded run.
		for _, t := range e2eTake {
			a, err := results.Read(results.Path(whole, workerModel, t.c))
			Expect(err).NotTo(HaveOccurred())
			b, err := results.Read(results.Path(merged, workerModel, t.c))
			Expect(err).NotTo(HaveOccurred())
			Expect(len(b)).To(Equal(len(a)), "%s", t.c)
		}
		prereqs := 0
		for _, sc := range dataset.MemoryScenarios() {
			pre, err := src.MemoryPrereqs(category.MemoryKV, sc)
			Expect(err).NotTo(HaveOccurred())
			prereqs += len(pre)
		}
		Expect(rep.Records).To(Equal(len(items) + prereqs))

		// The memory chains: each scenario's prerequisites and questions in
		// one shard, prerequisites stored in chain order.
		owner := map[string]int{}
		for k, root := range roots {
			pre, err := results.Read(filepath.Join(root, results.ModelDir(workerModel), "agentic", "memory", "kv", "BFCL_v4_memory_kv_prereq_result.json"))
			if os.IsNotExist(err) {
				continue
			}
			Expect(err).NotTo(HaveOccurred())
			next := map[string]int{}
			for _, r := range pre {
				parts := strings.Split(r.ID, "-") // memory_kv_prereq_<i>-<scenario>-<j>
				sc := parts[1]
				Expect(r.ID).To(HaveSuffix(fmt.Sprintf("-%d", next[sc])), "shard %d stored %s out of order", k, r.ID)
				next[sc]++
				if o, ok := owner[sc]; ok {
					Expect(o).To(Equal(k), "scenario %s split over shards %d and %d", sc, o, k)
				}
				owner[sc] = k
			}
			qs, err := results.Read(results.Path(root, workerModel, category.MemoryKV))
			Expect(err).NotTo(HaveOccurred())
			for _, q := range qs {
				sc := strings.Split(q.ID, "-")[1]
				Expect(owner[sc]).To(Equal(k), "question %s is not in the shard of its chain", q.ID)
			}
		}
		Expect(owner).To(HaveLen(5))

		// The verdicts: both result roots scored, score files compared.
		cats := make([]category.Category, len(e2eTake))
		for i, t := range e2eTake {
			cats[i] = t.c
		}
		for _, r := range []string{whole, merged} {
			_, err := evaluate.Run(evaluate.Options{Source: src, ResultRoot: r, ScoreRoot: filepath.Join(filepath.Dir(r), "score"), Categories: cats, Partial: true, Mode: "fc"})
			Expect(err).NotTo(HaveOccurred())
		}
		want, got := scoreFiles(filepath.Join(tmp, "whole", "score")), scoreFiles(filepath.Join(tmp, "merged", "score"))
		Expect(want).To(HaveLen(len(e2eTake)))
		names := make([]string, 0, len(want))
		for k := range want {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			Expect(got[k]).To(Equal(want[k]), "%s", k)
		}
	})
})
