package htmlreport_test

import (
	"encoding/json"
	"testing"

	"github.com/bfcl-go/bfcl/internal/scores/compare"
	"github.com/bfcl-go/bfcl/internal/scores/htmlreport"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
)

// Issue 26, item 3: the page's compare view carries what `bfcl compare A
// B` prints: the same rows, p-values, intervals and verdicts.
func TestBuildCompare(t *testing.T) {
	fx := buildFixture(t)
	page, err := htmlreport.Build(htmlreport.Options{ScoreDir: fx.scoreDir, ResultDir: fx.resultDir, Source: fx.src})
	if err != nil {
		t.Fatal(err)
	}
	p := embedded(t, page)
	pairs, ok := p["compare"].([]any)
	if !ok || len(pairs) != 1 {
		t.Fatalf("compare: %v, want one pair for the fixture's two models", p["compare"])
	}
	pair := pairs[0].(map[string]any)
	a, b := pair["a"].(string), pair["b"].(string)
	ra, err := compare.Load(a, fx.scoreDir, a)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := compare.Load(b, fx.scoreDir, b)
	if err != nil {
		t.Fatal(err)
	}
	res, err := compare.Two(ra, rb, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(res.Rows)
	got, _ := json.Marshal(pair["rows"])
	var w, g any
	_ = json.Unmarshal(want, &w)
	_ = json.Unmarshal(got, &g)
	wj, _ := json.Marshal(w)
	gj, _ := json.Marshal(g)
	if string(wj) != string(gj) {
		t.Errorf("page's compare rows differ from bfcl compare's:\n page %s\n cli  %s", gj, wj)
	}
	if len(res.Rows) == 0 {
		t.Fatal("no rows compared")
	}
	pv := 0
	for _, r := range res.Rows {
		if r.PValue != nil {
			pv++
		}
	}
	if pv == 0 {
		t.Error("no McNemar p-value in the compared rows")
	}
}
