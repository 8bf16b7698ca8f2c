package ast_test

import (
	"testing"

	"github.com/bfcl-go/bfcl/internal/check/ast"
	"github.com/bfcl-go/bfcl/internal/decode"
)

// BenchmarkScoreAllSingleTurn scores the 3,641 reference entries of the 13
// single-turn categories (decode + check, from raw JSON lines) per
// iteration.
func BenchmarkScoreAllSingleTurn(b *testing.B) {
	cats, err := loadReference()
	if err != nil {
		b.Skip("REFERENCE DATA ABSENT — benchmark did not run: " + err.Error())
	}
	opts := decode.Options{Mode: decode.ModeFC, UnderscoreToDot: true}
	n := 0
	for _, c := range cats {
		n += len(c.cases)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range cats {
			for _, tc := range c.cases {
				if _, err := ast.ScoreEntry(tc.category, tc.entry, tc.answer, tc.result, opts); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(n), "entries/op")
}
