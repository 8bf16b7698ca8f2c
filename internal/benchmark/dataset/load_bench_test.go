package dataset_test

import (
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
)

func BenchmarkLoadSingleTurn(b *testing.B) {
	src, err := dataset.Open("/work/shared/bfcl")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, c := range category.SingleTurn() {
			if _, err := src.Load(c); err != nil {
				b.Fatal(err)
			}
		}
	}
}
