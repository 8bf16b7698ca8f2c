package astcheck_test

import (
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/astcheck"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// BenchmarkScoreAllSingleTurn scores the 3,641 reference entries of the 13
// single-turn categories (decode + check, from raw JSON lines) per
// iteration.
func BenchmarkScoreAllSingleTurn(b *testing.B) {
	cats, err := loadReference()
	if err != nil {
		b.Skip("REFERENCE DATA ABSENT — benchmark did not run: " + err.Error())
	}
	opts := decode.Options{Spec: decode.Spec{Mode: decode.ModeFC, UnderscoreToDot: true}}
	n := 0
	for _, c := range cats {
		n += len(c.cases)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range cats {
			for _, tc := range c.cases {
				if _, err := astcheck.ScoreEntry(category.Category(tc.category), tc.entry, tc.answer, tc.result, opts); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(n), "entries/op")
}

// BenchmarkScoreValuesPreparsed is the same work on entries, answers and
// results already parsed into Python values (what a caller holding a
// loaded dataset pays): decoding plus checking only.
func BenchmarkScoreValuesPreparsed(b *testing.B) {
	cats, err := loadReference()
	if err != nil {
		b.Skip("REFERENCE DATA ABSENT — benchmark did not run: " + err.Error())
	}
	type prepared struct {
		cat, id           string
		funcs, gt, result pyval.Value
	}
	var all []prepared
	for _, c := range cats {
		for _, tc := range c.cases {
			p := prepared{cat: tc.category, id: tc.id}
			line, err := pyval.FromJSON(tc.result)
			if err != nil {
				b.Fatal(err)
			}
			p.result, _ = line.(*pyval.Dict).GetStr("result")
			if tc.answer != nil {
				e, _ := pyval.FromJSON(tc.entry)
				p.funcs, _ = e.(*pyval.Dict).GetStr("function")
				a, _ := pyval.FromJSON(tc.answer)
				p.gt, _ = a.(*pyval.Dict).GetStr("ground_truth")
			}
			all = append(all, p)
		}
	}
	opts := decode.Options{Spec: decode.Spec{Mode: decode.ModeFC, UnderscoreToDot: true}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range all {
			if _, err := astcheck.ScoreValues(category.Category(p.cat), p.id, nil, p.funcs, p.gt, p.result, opts); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(all)), "entries/op")
}
