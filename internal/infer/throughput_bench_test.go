package infer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bfcl-go/bfcl/internal/category"
	"github.com/bfcl-go/bfcl/internal/dataset"
	"github.com/bfcl-go/bfcl/internal/driver"
	"github.com/bfcl-go/bfcl/internal/goldserver"
	"github.com/bfcl-go/bfcl/internal/harness"
	"github.com/bfcl-go/bfcl/internal/infer"
	"github.com/bfcl-go/bfcl/internal/models"
	"github.com/bfcl-go/bfcl/internal/prompt"
	"github.com/bfcl-go/bfcl/internal/results"
	"github.com/bfcl-go/bfcl/internal/sched"
	"github.com/bfcl-go/bfcl/internal/shard"
)

// benchLatency is the fixed latency of the fake server, as in the
// measurement of issue 12.
const benchLatency = 40 * time.Millisecond

// mix is a selection of entries: n of each of some categories. Both are
// of the size of the measurement in issue 12 (930 entries, 3,109 calls).
type mix struct {
	name string
	take map[category.Category]int
}

var mixes = []mix{
	{"single-turn-heavy", map[category.Category]int{
		category.SimplePython: 100, category.Multiple: 100, category.Parallel: 100, category.ParallelMultiple: 100,
		category.LiveSimple: 100, category.LiveMultiple: 100, category.Irrelevance: 100, category.LiveIrrelevance: 100,
		category.MultiTurnBase: 10, category.MultiTurnMissFunc: 10, category.MultiTurnMissParam: 10, category.MultiTurnLongContext: 10,
	}},
	{"multi-turn-heavy", map[category.Category]int{
		category.SimplePython: 25, category.Multiple: 25, category.LiveSimple: 25, category.LiveMultiple: 25,
		category.MultiTurnBase: 100, category.MultiTurnMissFunc: 100, category.MultiTurnMissParam: 100, category.MultiTurnLongContext: 100,
	}},
}

func (m mix) entries(b *testing.B, src *dataset.Source) []*dataset.Entry {
	var out []*dataset.Entry
	for _, c := range category.SortCanonical(keys(m.take)) {
		list, err := prompt.LoadCategory(src, string(c))
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, list[:min(m.take[c], len(list))]...)
	}
	return out
}

func keys(m map[category.Category]int) []category.Category {
	var out []category.Category
	for k := range m {
		out = append(out, k)
	}
	return out
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// timed is a driver that adds up the time spent in model calls.
type timed struct {
	driver.Driver
	in atomic.Int64
}

func (t *timed) Complete(ctx context.Context, req driver.Request) (driver.Response, error) {
	start := time.Now()
	r, err := t.Driver.Complete(ctx, req)
	t.in.Add(int64(time.Since(start)))
	return r, err
}

// pass runs every entry through the inference loop with inflight entries
// at a time, longest expected first, storing each record, and returns the
// model calls made and the most calls of one entry.
func pass(b *testing.B, d driver.Driver, exec func(*dataset.Entry) (infer.Executor, error), order []*dataset.Entry, inflight int, dir string) (calls, longest int) {
	gate := sched.NewGate(runtime.GOMAXPROCS(0))
	work := make(chan *dataset.Entry)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var firstErr error
	for w := 0; w < inflight; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for e := range work {
				rec, st, err := infer.Run(context.Background(), d, e, infer.Options{Mode: "fc", Temperature: 0.001, MaxTokens: 4096, NewExecutor: exec, Gate: gate})
				if err == nil {
					_, err = results.AppendFile(results.Path(dir, "bench", category.Category(e.Category)), rec)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				calls += st.Calls
				longest = max(longest, st.Calls)
				mu.Unlock()
			}
		}()
	}
	for _, e := range order {
		work <- e
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		b.Fatal(firstErr)
	}
	return calls, longest
}

// BenchmarkThroughput drives the real inference loop (openai driver,
// simulated backends, result writing) against an in-process
// OpenAI-compatible server that answers after a fixed 40 ms, and reports
// wall/bound, where bound = max(calls x 40 ms / in-flight, the longest
// entry's calls x 40 ms), and the process's CPU time per model call
// (harness and the fake server's HTTP handling; the server computes each
// answer once, in an untimed warm-up pass). The entries run longest
// expected first, under a priority gate of one slot per core
// (internal/sched). Run with
//
//	BFCL_DATA_DIR=/work/shared/bfcl go test ./internal/infer -run '^$' -bench Throughput -benchtime 1x
func BenchmarkThroughput(b *testing.B) {
	dir := os.Getenv(dataset.EnvDataDir)
	if dir == "" {
		b.Skip("BFCL_DATA_DIR is not set: the throughput benchmark needs the data set (export BFCL_DATA_DIR=/work/shared/bfcl)")
	}
	src, err := dataset.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	// As cmd/bfcl's main sets it for every verb.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	for _, m := range mixes {
		entries := m.entries(b, src)
		items := make([]shard.Item, len(entries))
		byItem := map[shard.Item]*dataset.Entry{}
		for i, e := range entries {
			items[i] = shard.Item{Category: e.Category, ID: e.ID}
			byItem[items[i]] = e
		}
		sorted, err := shard.LongestFirst(items, shard.NewCosts(src).Weigh)
		if err != nil {
			b.Fatal(err)
		}
		order := make([]*dataset.Entry, len(sorted))
		for i, it := range sorted {
			order[i] = byItem[it]
		}
		srv, err := goldserver.Start(entries, benchLatency)
		if err != nil {
			b.Fatal(err)
		}
		for _, inflight := range []int{8, 32, 128} {
			b.Run(fmt.Sprintf("%s/inflight=%d", m.name, inflight), func(b *testing.B) {
				od, err := driver.New(driver.Config{Provider: driver.ProviderOpenAI, Model: "gold", BaseURL: srv.URL, MaxInFlight: inflight})
				if err != nil {
					b.Fatal(err)
				}
				d := &timed{Driver: od}
				res := b.TempDir()
				exec := harness.DefaultExecutor(harness.Config{Source: src, ResultDir: res, Model: models.Model{Name: "bench", Model: "gold"}})
				pass(b, d, exec, order, inflight, filepath.Join(res, "warm")) // fills the server's answers
				misses := srv.Misses()
				d.in.Store(0)
				b.ResetTimer()
				var wall, cpu time.Duration
				var calls, longest int
				for i := 0; i < b.N; i++ {
					c0, t0 := cpuTime(), time.Now()
					n, l := pass(b, d, exec, order, inflight, filepath.Join(res, fmt.Sprint(i)))
					wall += time.Since(t0)
					cpu += cpuTime() - c0
					calls += n
					longest = max(longest, l)
				}
				perPass := float64(calls) / float64(b.N)
				bound := max(perPass*float64(benchLatency)/float64(inflight), float64(longest)*float64(benchLatency))
				b.ReportMetric(float64(wall)/float64(b.N)/bound, "wall/bound")
				b.ReportMetric(float64(cpu)/float64(calls)/float64(time.Millisecond), "cpu-ms/call")
				b.ReportMetric(perPass, "calls")
				// Time a model call took beyond the server's latency (client
				// and server HTTP, queueing for a CPU).
				b.ReportMetric((float64(d.in.Load())/float64(calls)-float64(benchLatency))/float64(time.Millisecond), "extra-ms/call")
				b.ReportMetric(float64(len(order)), "entries")
				if m := srv.Misses() - misses; m > 0 {
					b.Logf("%d requests were not answered from memory (the runs were not identical)", m)
				}
			})
		}
		srv.Close()
	}
}
