package multiturn_test

import (
	"path/filepath"
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// BenchmarkScoreMultiTurn re-scores 800 multi-turn entries per iteration:
// the 600 real gpt-oss-120b records of base, miss_func and miss_param, and
// the 200 long_context entries answered with their own ground truth (the
// reference run lacks that file).
func BenchmarkScoreMultiTurn(b *testing.B) {
	ref, ok := testenv.ReferenceDir()
	dataDir, ok2 := testenv.DataDir()
	if !ok || !ok2 {
		b.Skip("reference results or data set missing")
	}
	src, err := dataset.Open(dataDir)
	if err != nil {
		b.Fatal(err)
	}
	lcb, _ := src.ReadLongContext()
	lc, err := longcontext.Parse(lcb)
	if err != nil {
		b.Fatal(err)
	}
	type job struct {
		e    *dataset.Entry
		rec  results.Record
		mode string
	}
	var jobs []job
	for _, cat := range []string{"multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param"} {
		entries, err := src.Load(category.Category(cat))
		if err != nil {
			b.Fatal(err)
		}
		recs, err := results.Read(filepath.Join(ref, "results", "results", refRun, "result", refModel, "multi_turn", "BFCL_v4_"+cat+"_result.json"))
		if err != nil {
			b.Fatal(err)
		}
		byID := map[string]results.Record{}
		for _, r := range recs {
			byID[r.ID] = r
		}
		for _, e := range entries {
			jobs = append(jobs, job{e, byID[e.ID], "fc"})
		}
	}
	lcEntries, err := src.Load("multi_turn_long_context")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range lcEntries {
		var rec results.Record
		func() {
			defer func() {
				if r := recover(); r != nil {
					b.Fatal(r)
				}
			}()
			rec = promptRecordPlain(e)
		}()
		jobs = append(jobs, job{e, rec, "prompt"})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, j := range jobs {
			if _, err := multiturn.Check(j.e, j.rec, multiturn.Options{Spec: decode.Spec{Mode: j.mode}, ModelName: refModel, LongContext: lc}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(jobs))/b.Elapsed().Seconds(), "entries/s")
}
