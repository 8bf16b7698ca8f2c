package infer_test

import (
	"context"
	"os"
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/models/gold"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/sim"
)

// BenchmarkMultiTurnLogSize runs the 800 multi-turn entries with the gold
// driver through the loop and writes their result files with the full
// inference log, without the state_info lists (ExcludeStateLog), and
// without any inference log, reporting the bytes of each set of files:
//
//	go test ./internal/run/infer -run '^$' -bench MultiTurnLogSize -benchtime 1x
func BenchmarkMultiTurnLogSize(b *testing.B) {
	dir, ok := testenv.DataDir()
	if !ok {
		b.Skip(testenv.MissingMessage("BFCL data set", dir, dataset.EnvDataDir))
	}
	src, err := dataset.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := src.ReadLongContext()
	if err != nil {
		b.Fatal(err)
	}
	lc, err := longcontext.Parse(raw)
	if err != nil {
		b.Fatal(err)
	}
	var entries []*dataset.Entry
	for _, c := range category.MultiTurn() {
		es, err := src.Load(c)
		if err != nil {
			b.Fatal(err)
		}
		entries = append(entries, es...)
	}
	newExec := func(e *dataset.Entry) (infer.Executor, error) {
		conf, err := e.InitialConfigDict()
		if err != nil {
			return nil, err
		}
		s := engine.New(sim.NewEnv(lc), engine.Config{ModelName: "gold", EntryID: e.ID, Involved: e.InvolvedClasses, InitialConfig: conf, LongContext: e.LongContext()})
		return s, s.Init()
	}
	variants := []struct {
		name  string
		opts  infer.Options
		noLog bool // the line without inference_log (what a result line held before it)
	}{
		{"bytes_full", infer.Options{}, false},
		{"bytes_no_state", infer.Options{ExcludeStateLog: true}, false},
		{"bytes_no_log", infer.Options{ExcludeStateLog: true}, true},
	}
	for i := 0; i < b.N; i++ {
		for _, v := range variants {
			root := b.TempDir()
			store := results.NewStore(root, "gold")
			for _, e := range entries {
				d, err := gold.New(e)
				if err != nil {
					b.Fatal(err)
				}
				opts := v.opts
				opts.Mode, opts.NewExecutor = "fc", newExec
				rec, _, err := infer.Run(context.Background(), d, e, opts)
				if err != nil {
					b.Fatal(err)
				}
				if v.noLog {
					rec.InferenceLog = nil
				}
				if err := store.Append(e.Category, rec); err != nil {
					b.Fatal(err)
				}
			}
			var total int64
			for _, c := range category.MultiTurn() {
				st, err := os.Stat(store.Path(c))
				if err != nil {
					b.Fatal(err)
				}
				total += st.Size()
				b.ReportMetric(float64(st.Size()), v.name+"_"+string(c))
			}
			b.ReportMetric(float64(total), v.name)
		}
	}
	b.ReportMetric(float64(len(entries)), "entries")
}
