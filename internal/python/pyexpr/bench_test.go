package pyexpr_test

import (
	"path/filepath"
	"testing"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// traceCalls is every call string of the reference's multi-turn traces
// (the ground truth that `bfcl exec` replays), skipping b loudly when the
// reference is absent.
func traceCalls(b *testing.B) []string {
	b.Helper()
	ref := testenv.NeedReferenceDir(b, "reference traces")
	type trace struct {
		Turns []struct {
			Calls []string `json:"calls"`
		} `json:"turns"`
	}
	var calls []string
	for _, f := range []string{"base", "miss_func", "miss_param", "long_context"} {
		ts, err := testenv.ReadJSONL[trace](filepath.Join(ref, "multi_turn_traces", "BFCL_v4_multi_turn_"+f+"_trace.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range ts {
			for _, turn := range t.Turns {
				calls = append(calls, turn.Calls...)
			}
		}
	}
	return calls
}

// BenchmarkParseTraceCalls parses every ground-truth call string once per
// iteration.
func BenchmarkParseTraceCalls(b *testing.B) {
	calls := traceCalls(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, c := range calls {
			if _, err := pyexpr.Parse(c); err != nil {
				b.Fatalf("%s: %v", c, err)
			}
		}
	}
	b.ReportMetric(float64(len(calls)), "calls/op")
}
