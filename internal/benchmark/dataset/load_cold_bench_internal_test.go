package dataset

import (
	"os"
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
)

// coldLoad loads categories from a Source of its own (nothing cached), as
// a process's first load does.
func coldLoad(b *testing.B, cats []category.Category) {
	dir := os.Getenv(EnvDataDir)
	if dir == "" {
		b.Skip("BFCL data set not found (BFCL_DATA_DIR)")
	}
	src, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := &Source{DataDir: src.DataDir, LongContextFile: src.LongContextFile}
		for _, c := range cats {
			if _, err := s.Load(c); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkColdLoadSingleTurn: every single-turn category, files read and
// parsed (go test ./internal/benchmark/dataset -run '^$' -bench ColdLoad).
func BenchmarkColdLoadSingleTurn(b *testing.B) { coldLoad(b, category.SingleTurn()) }

// BenchmarkColdLoadMultiTurn: the four multi-turn categories.
func BenchmarkColdLoadMultiTurn(b *testing.B) { coldLoad(b, category.MultiTurn()) }
