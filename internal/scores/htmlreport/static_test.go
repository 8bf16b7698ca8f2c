package htmlreport_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bfcl-go/bfcl/internal/scores/htmlreport"
	"github.com/bfcl-go/bfcl/internal/scores/report"
)

// Issue 26, item 11: before its script runs (a headless screenshot at the
// load event, scripts off) the page shows the leaderboard of summary.json,
// not only "Loading the report…".
func TestBuildStaticSummary(t *testing.T) {
	fx := buildFixture(t)
	page, err := htmlreport.Build(htmlreport.Options{ScoreDir: fx.scoreDir, ResultDir: fx.resultDir, Source: fx.src})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)<main id="main">(.*?)</main>`).FindSubmatch(page)
	if m == nil {
		t.Fatal("no main element")
	}
	static := string(m[1])
	b, err := os.ReadFile(filepath.Join(fx.scoreDir, report.FileSummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	var sum report.JSONSummary
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(static, `<table class="static">`) {
		t.Fatalf("no static leaderboard in the page's main element: %s", static)
	}
	for _, mod := range sum.Models {
		if !strings.Contains(static, ">"+mod.Overall.Display+"<") {
			t.Errorf("static leaderboard lacks %s's overall %s", mod.Model, mod.Overall.Display)
		}
		for _, g := range mod.Groups {
			if !strings.Contains(static, g.Column) {
				t.Errorf("static leaderboard lacks the column %s", g.Column)
			}
		}
	}
}
