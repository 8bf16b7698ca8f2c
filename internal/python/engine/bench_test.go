package engine_test

import (
	"strings"
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/sim"
)

// benchFixture is the 800 reference traces with their entries' parsed
// initial configurations, what `bfcl exec` of the ground truth replays.
type benchFixture struct {
	traces []trace
	cfgs   []*pyval.Dict
	env    *sim.Env
}

func loadBenchFixture(b *testing.B) benchFixture {
	b.Helper()
	ref := testenv.NeedReferenceDir(b, "reference traces")
	src := testenv.OpenDataSet(b)
	lc, err := src.LongContext()
	if err != nil {
		b.Fatalf("long context: %v", err)
	}
	traces, err := readTraces(ref)
	if err != nil {
		b.Fatalf("traces: %v", err)
	}
	entries := map[string]*dataset.Entry{}
	for _, f := range traceFiles {
		cat := strings.TrimSuffix(strings.TrimPrefix(f, "BFCL_v4_"), "_trace.jsonl")
		list, err := src.Load(category.Category(cat))
		if err != nil {
			b.Fatalf("%s: %v", cat, err)
		}
		for _, e := range list {
			entries[e.ID] = e
		}
	}
	fx := benchFixture{traces: traces, env: sim.NewEnv(lc)}
	for _, t := range traces {
		e, ok := entries[t.ID]
		if !ok {
			b.Fatalf("no entry %s", t.ID)
		}
		v, err := pyval.FromJSON(e.InitialConfig)
		if err != nil {
			b.Fatalf("%s: initial_config: %v", t.ID, err)
		}
		fx.cfgs = append(fx.cfgs, v.(*pyval.Dict))
	}
	return fx
}

func (fx benchFixture) session(i int) *engine.Session {
	t := fx.traces[i]
	return engine.New(fx.env, engine.Config{
		ModelName: oracleModel, EntryID: t.ID, Involved: t.InvolvedClasses,
		InitialConfig: fx.cfgs[i], LongContext: t.LongContext,
	})
}

// BenchmarkExecuteTraces is the calls of the 800 traces alone: the
// sessions are created (Init) outside the timer.
func BenchmarkExecuteTraces(b *testing.B) {
	fx := loadBenchFixture(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		sessions := make([]*engine.Session, len(fx.traces))
		for i := range fx.traces {
			sessions[i] = fx.session(i)
			if err := sessions[i].Init(); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		for i, t := range fx.traces {
			for _, turn := range t.Turns {
				sessions[i].Execute(turn.Calls)
			}
		}
	}
}
