package harness_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/selection"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/run/harness"
	"github.com/bfcl-go/bfcl/internal/run/shard"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/htmlreport"
	"github.com/bfcl-go/bfcl/internal/testkit/goldserver"
)

// benchLatency is the fixed latency of the fake server, as in the
// measurement of issue 12.
const benchLatency = 40 * time.Millisecond

// envBenchServe makes the test binary the fake server of a benchmark mix
// (the "process" placement); see TestMain.
const envBenchServe = "BFCL_BENCH_SERVE"

// TestMain runs the test binary as the benchmark's fake server when asked
// (the "process" placement of BenchmarkThroughput), else the tests.
func TestMain(m *testing.M) {
	if mix := os.Getenv(envBenchServe); mix != "" {
		if err := serveMix(mix, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// mix is a selection of entries: n of each of some categories, of the
// size of the measurement in issue 12 (930 entries, 3,109 calls).
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

func mixNamed(name string) (mix, bool) {
	for _, m := range mixes {
		if m.name == name {
			return m, true
		}
	}
	return mix{}, false
}

func (m mix) entries(src *dataset.Source) ([]*dataset.Entry, error) {
	var cats []category.Category
	for c := range m.take {
		cats = append(cats, c)
	}
	var out []*dataset.Entry
	for _, c := range category.SortCanonical(cats) {
		list, err := prompt.LoadCategory(src, c)
		if err != nil {
			return nil, err
		}
		out = append(out, list[:min(m.take[c], len(list))]...)
	}
	return out, nil
}

func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// serverStats is what the fake server reports: its CPU time (only
// measurable apart from the harness in its own process), the summed
// latency it gave, and its counters.
type serverStats struct {
	cpu, busy           time.Duration
	calls, misses, peak int64
}

func (a serverStats) sub(b serverStats) serverStats {
	return serverStats{cpu: a.cpu - b.cpu, busy: a.busy - b.busy, calls: a.calls - b.calls, misses: a.misses - b.misses, peak: a.peak}
}

func statsOf(s *goldserver.Server, cpu time.Duration) serverStats {
	return serverStats{cpu: cpu, busy: s.Busy(), calls: s.Calls(), misses: s.Misses(), peak: s.Peak()}
}

// serveMix is the fake server's process: it prints its URL, then answers
// each line on in with its statistics, until in ends.
func serveMix(name string, in io.Reader, out io.Writer) error {
	m, ok := mixNamed(name)
	if !ok {
		return fmt.Errorf("no benchmark mix %q", name)
	}
	src, err := dataset.Open(os.Getenv(dataset.EnvDataDir))
	if err != nil {
		return err
	}
	entries, err := m.entries(src)
	if err != nil {
		return err
	}
	srv, err := goldserver.Start(entries, benchLatency)
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintln(out, srv.URL)
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		s := statsOf(srv, cpuTime(syscall.RUSAGE_SELF))
		fmt.Fprintln(out, int64(s.cpu), int64(s.busy), s.calls, s.misses, s.peak)
	}
	return sc.Err()
}

// server is the fake server of a benchmark, in this process or another.
type server struct {
	URL   string
	stats func() (serverStats, error)
	close func()
}

func startServer(placement string, m mix, entries []*dataset.Entry) (*server, error) {
	if placement == "in-process" {
		s, err := goldserver.Start(entries, benchLatency)
		if err != nil {
			return nil, err
		}
		// Its CPU is this process's: not counted apart.
		return &server{URL: s.URL, stats: func() (serverStats, error) { return statsOf(s, 0), nil }, close: s.Close}, nil
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envBenchServe+"="+m.name)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	rd := bufio.NewReader(stdout)
	url, err := rd.ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		return nil, fmt.Errorf("fake server process: %w", err)
	}
	var mu sync.Mutex
	return &server{
		URL: strings.TrimSpace(url),
		stats: func() (serverStats, error) {
			mu.Lock()
			defer mu.Unlock()
			if _, err := io.WriteString(stdin, "stats\n"); err != nil {
				return serverStats{}, err
			}
			line, err := rd.ReadString('\n')
			if err != nil {
				return serverStats{}, err
			}
			var s serverStats
			var cpu, busy int64
			if _, err := fmt.Sscan(line, &cpu, &busy, &s.calls, &s.misses, &s.peak); err != nil {
				return serverStats{}, fmt.Errorf("fake server stats %q: %w", line, err)
			}
			s.cpu, s.busy = time.Duration(cpu), time.Duration(busy)
			return s, nil
		},
		close: func() { stdin.Close(); cmd.Wait() },
	}, nil
}

// perEntry counts each entry's model calls (the bound needs the longest).
type perEntry struct {
	mu    sync.Mutex
	calls map[string]int
}

type countingDriver struct {
	driver.Driver
	id string
	n  *perEntry
}

func (c countingDriver) Complete(ctx context.Context, r driver.Request) (driver.Response, error) {
	c.n.mu.Lock()
	c.n.calls[c.id]++
	c.n.mu.Unlock()
	return c.Driver.Complete(ctx, r)
}

// BenchmarkThroughput runs a selection the way `bfcl generate` does
// (harness.RunAll: probe, longest expected first, the limiter, the CPU
// gate, inference loop, simulated backends, result writing, scoring)
// against an OpenAI-compatible server that answers after a fixed 40 ms,
// and reports
//
//   - wall/bound, bound = max(calls x 40 ms / in-flight, the longest
//     entry's calls x 40 ms);
//   - cpu-ms/call: this process's CPU time per model call (with the server
//     in-process, the server's HTTP handling is in it; with the server in
//     its own process, it is the harness's alone);
//   - server-cpu-ms/call (server in its own process) and server-ms/call,
//     the latency the server actually gave (its timer overshoots 40 ms);
//   - startup-ms and startup-cpu-ms (server in its own process): what the
//     first pass of a harness cost beyond a later one.
//
// The passes are of one harness, as the slices of one long run would be:
// the untimed warm-up pass loads the data, opens the connections and fills
// the server's answers (a run's start-up, measured apart by the CLI's own
// figures); the timed passes ask every entry again. Run with
//
//	BFCL_DATA_DIR=/work/shared/bfcl go test ./internal/run/harness -run '^$' -bench Throughput -benchtime 2x
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
	for _, placement := range []string{"in-process", "process"} {
		for _, m := range mixes {
			entries, err := m.entries(src)
			if err != nil {
				b.Fatal(err)
			}
			items := make([]shard.Item, len(entries))
			for i, e := range entries {
				items[i] = shard.Item{Category: e.Category, ID: e.ID}
			}
			plan, err := shard.Plan(items, shard.Spec{}, shard.NewCosts(src).Weigh)
			if err != nil {
				b.Fatal(err)
			}
			order := make([]selection.Item, len(plan))
			for i, it := range plan {
				order[i] = selection.Item{Category: it.Category, ID: it.ID}
			}
			srv, err := startServer(placement, m, entries)
			if err != nil {
				b.Fatal(err)
			}
			for _, inflight := range []int{8, 32, 128} {
				b.Run(fmt.Sprintf("server=%s/%s/inflight=%d", placement, m.name, inflight), func(b *testing.B) {
					model := registry.Model{Name: "bench", Provider: "openai", Model: "gold", Mode: "fc", BaseURL: srv.URL,
						Temperature: 0.001, MaxTokens: 4096, Concurrency: inflight}
					counts := &perEntry{calls: map[string]int{}}
					// One harness for all the passes, as one long run: the
					// warm-up pass loads the categories, dials the
					// connections and fills the server's answers; each timed
					// pass asks every entry again (Rerun).
					newDriver := harness.DriverFor(model, "")
					root := b.TempDir()
					h, err := harness.New(harness.Config{Model: model, Source: src,
						Storage: config.Storage{Rerun: true, ResultDir: filepath.Join(root, "result"), ScoreDir: filepath.Join(root, "score")},
						NewDriver: func(e *dataset.Entry) (driver.Driver, error) {
							d, err := newDriver(e)
							if err != nil || e == nil { // nil: the probe
								return d, err
							}
							return countingDriver{Driver: d, id: e.ID, n: counts}, nil
						}})
					if err != nil {
						b.Fatal(err)
					}
					kept := &score.Kept{}
					h.KeepVerdicts(kept) // as `bfcl generate` does
					pass := func() harness.Summary {
						sum := h.RunAll(context.Background(), order, nil)
						if sum.Errors > 0 || sum.Aborted {
							b.Fatalf("%d entries failed: %v", sum.Errors, sum.FirstError)
						}
						return sum
					}
					w0, wc0 := time.Now(), cpuTime(syscall.RUSAGE_SELF)
					pass()
					warmWall, warmCPU := time.Since(w0), cpuTime(syscall.RUSAGE_SELF)-wc0
					s0, err := srv.stats()
					if err != nil {
						b.Fatal(err)
					}
					b.ResetTimer()
					var wall, cpu time.Duration
					var calls int64
					for i := 0; i < b.N; i++ {
						counts.calls = map[string]int{}
						c0, t0 := cpuTime(syscall.RUSAGE_SELF), time.Now()
						sum := pass()
						wall += time.Since(t0)
						cpu += cpuTime(syscall.RUSAGE_SELF) - c0
						calls += sum.Calls
					}
					b.StopTimer()
					// What `bfcl generate` does after the last answer: the
					// score files from the kept verdicts, the CSVs and the
					// report (cmd/bfcl's scoreRun and writeReport).
					tail := runTail(b, h, src, order, kept, root)
					s1, err := srv.stats()
					if err != nil {
						b.Fatal(err)
					}
					st := s1.sub(s0)
					longest := 0
					for _, n := range counts.calls {
						longest = max(longest, n)
					}
					perPass := float64(calls) / float64(b.N)
					bound := max(perPass*float64(benchLatency)/float64(inflight), float64(longest)*float64(benchLatency))
					ms := float64(time.Millisecond)
					b.ReportMetric(float64(wall)/float64(b.N)/bound, "wall/bound")
					b.ReportMetric(float64(tail)/ms, "tail-ms")
					whole := float64(wall)/float64(b.N) + float64(tail)
					if placement == "process" {
						whole += float64(warmWall) - float64(wall)/float64(b.N) // start-up
					}
					b.ReportMetric(whole/bound, "whole/bound")
					b.ReportMetric(float64(cpu)/float64(calls)/ms, "cpu-ms/call")
					if placement == "process" {
						b.ReportMetric(float64(st.cpu)/float64(st.calls)/ms, "server-cpu-ms/call")
						// What the first pass cost beyond a timed one: the run's
						// start-up (loading the categories, the probe, dialing).
						b.ReportMetric((float64(warmWall)-float64(wall)/float64(b.N))/ms, "startup-ms")
						b.ReportMetric((float64(warmCPU)-float64(cpu)/float64(b.N))/ms, "startup-cpu-ms")
					}
					b.ReportMetric(float64(st.busy)/float64(st.calls)/ms, "server-ms/call")
					b.ReportMetric(perPass, "calls")
					b.ReportMetric(float64(len(order)), "entries")
					if st.peak > int64(inflight) {
						b.Errorf("the server saw %d requests at once; the concurrency is %d", st.peak, inflight)
					}
					if st.misses > 0 {
						b.Logf("%d requests were not answered from memory (the runs were not identical)", st.misses)
					}
				})
			}
			srv.close()
		}
	}
}

// runTail scores what the harness ran and writes the report, as the CLI
// does after a run, and returns how long that took.
func runTail(b *testing.B, h *harness.Harness, src *dataset.Source, order []selection.Item, kept *score.Kept, root string) time.Duration {
	b.Helper()
	t0 := time.Now()
	seen := map[category.Category]bool{}
	var cats []category.Category
	for _, it := range order {
		if !seen[it.Category] {
			seen[it.Category] = true
			cats = append(cats, it.Category)
		}
	}
	cats = category.SortCanonical(cats)
	if err := h.Compact(cats); err != nil {
		b.Fatal(err)
	}
	cfg := h.Config()
	o := evaluate.RunOptions(src, cfg.ResultDir, cfg.ScoreDir, nil,
		[]evaluate.RunModel{{Model: cfg.Model, Categories: cats, Notes: h.RunNotes(cats)}})
	o.Kept = kept
	ev, err := evaluate.Evaluate(o)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := htmlreport.Write(htmlreport.Options{ScoreDir: cfg.ScoreDir, ResultDir: cfg.ResultDir, Source: src,
		Scored: ev.Scored, Summary: ev.Summary,
		GroundTruth: func(e *dataset.Entry) ([][]string, error) {
			lc, err := src.LongContext()
			if err != nil {
				return nil, err
			}
			return multiturn.GroundTruthResults(e, lc)
		}}); err != nil {
		b.Fatal(err)
	}
	d := time.Since(t0)
	b.Logf("tail: %d verdicts, %d kept, %v", ev.Entries, ev.Reused, d)
	return d
}
