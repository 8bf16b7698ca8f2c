package htmlreport_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/scores/htmlreport"
	"github.com/bfcl-go/bfcl/internal/scores/report"
)

var dataScript = regexp.MustCompile(`(?s)<script id="bfcl-data" type="application/octet-stream" data-encoding="gzip\+base64">(.*?)</script>`)

// embedded decodes the data a page carries.
func embedded(t *testing.T, page []byte) map[string]any {
	t.Helper()
	m := dataScript.FindSubmatch(page)
	if m == nil {
		t.Fatal("no embedded data script")
	}
	gz, err := base64.StdEncoding.DecodeString(string(m[1]))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBuildFixture(t *testing.T) {
	fx := buildFixture(t)
	page, err := htmlreport.Build(htmlreport.Options{ScoreDir: fx.scoreDir, ResultDir: fx.resultDir, Source: fx.src, GroundTruth: multiturn.GroundTruthOf(fx.src)})
	if err != nil {
		t.Fatal(err)
	}
	// Self-contained: nothing is loaded from anywhere.
	outside := dataScript.ReplaceAll(page, nil)
	for _, bad := range []string{"<link", " src=", "@import", "url(", "fetch(", "XMLHttpRequest", "https://"} {
		if bytes.Contains(outside, []byte(bad)) {
			t.Errorf("the page outside its data contains %q", bad)
		}
	}
	if n := bytes.Count(outside, []byte("http://")); n != 1 || !bytes.Contains(outside, []byte(`"http://www.w3.org/2000/svg"`)) {
		t.Errorf("the page names %d http:// addresses (only the SVG namespace is expected)", n)
	}
	p := embedded(t, page)
	fails := p["fails"].([]any)
	results := p["results"].([]any)
	models := p["models"].([]any)
	if len(models) != 2 {
		t.Fatalf("%d models, want 2", len(models))
	}
	nFailed := 0
	for _, m := range models {
		mm := m.(map[string]any)
		name := mm["name"].(string)
		rows := mm["rows"].([]any)
		wantFailed := len(failureOrder(t, fx.scoreDir, name))
		failed := 0
		for _, r := range rows {
			row := r.([]any)
			ok, fi, ri := row[2].(float64), int(row[4].(float64)), int(row[5].(float64))
			if ri < 0 || ri >= len(results) {
				t.Errorf("%s %s: no result line embedded", name, row[0])
			}
			if ok == 0 {
				failed++
				f := fails[fi].(map[string]any)
				x := f["x"].(map[string]any)
				if x["id"] != row[0] || x["error_type"] != row[3] {
					t.Errorf("%s %s: row points at failure %v", name, row[0], x["id"])
				}
			} else if fi != -1 {
				t.Errorf("%s %s passed but points at a failure", name, row[0])
			}
		}
		if failed != wantFailed {
			t.Errorf("%s: %d failed rows, the score files hold %d", name, failed, wantFailed)
		}
		if len(rows) != 12 {
			t.Errorf("%s: %d rows, the fixture has 12 entries", name, len(rows))
		}
		nFailed += failed
	}
	if len(fails) != nFailed {
		t.Errorf("%d failures embedded, %d referenced", len(fails), nFailed)
	}
	ents := p["entries"].(map[string]any)
	e := ents["multi_turn_base_0"].(map[string]any)
	if gtr, gt := e["gtr"].([]any), e["gt"].([]any); len(gtr) != len(gt) || len(gtr) == 0 {
		t.Errorf("multi_turn_base_0: %d turns of ground-truth results for %d turns", len(gtr), len(gt))
	}
	if e["file"] != "data/BFCL_v4_multi_turn_base.json" || e["line"].(float64) != 1 {
		t.Errorf("multi_turn_base_0 located at %v:%v", e["file"], e["line"])
	}
	// summary.json is embedded as written
	want, err := os.ReadFile(filepath.Join(fx.scoreDir, report.FileSummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	var a any
	_ = json.Unmarshal(want, &a)
	got, _ := json.Marshal(p["summary"])
	if ja, _ := json.Marshal(a); !bytes.Equal(ja, got) {
		t.Errorf("embedded summary differs from summary.json")
	}

	// Without the data set and the result folder: failures only, said so.
	page, err = htmlreport.Build(htmlreport.Options{ScoreDir: fx.scoreDir})
	if err != nil {
		t.Fatal(err)
	}
	p = embedded(t, page)
	for _, m := range p["models"].([]any) {
		mm := m.(map[string]any)
		if len(mm["missed"].(map[string]any)) != 3 {
			t.Errorf("%s: without results and data the passed entries of its 3 categories are unknown: %v", mm["name"], mm["missed"])
		}
		for _, r := range mm["rows"].([]any) {
			if r.([]any)[2].(float64) != 0 {
				t.Errorf("%s: a passed row listed without results or data", mm["name"])
			}
		}
	}
}

func TestBuildErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := htmlreport.Build(htmlreport.Options{ScoreDir: dir}); err == nil || !strings.Contains(err.Error(), "no score files") {
		t.Errorf("empty score folder: %v", err)
	}
	path := filepath.Join(dir, "m", "non_live", "BFCL_v4_simple_python_score.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	content := `{"accuracy": 0.5, "correct_count": 1, "total_count": 2}` + "\n" + `{"id": "simple_python_1", "valid": false, "error": [` + "\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := htmlreport.Build(htmlreport.Options{ScoreDir: dir})
	if err == nil || !strings.Contains(err.Error(), path+":2") {
		t.Errorf("malformed score line: %v (want the file and line named)", err)
	}
}

// The page built from what scoring produced in memory is the page built
// from the folders afterwards, and it reads neither the score files, the
// result files nor summary.json of what was scored.
func TestBuildFromMemory(t *testing.T) {
	fx := buildFixture(t)
	// From the folders, the report executes the ground truth of the
	// multi-turn entries it embeds (those some model has a row for).
	fromFilesGT := map[string]bool{}
	fromFiles, err := htmlreport.Build(htmlreport.Options{ScoreDir: fx.scoreDir, ResultDir: fx.resultDir, Source: fx.src,
		GroundTruth: func(e *dataset.Entry) ([][]string, error) {
			fromFilesGT[e.ID] = true
			return multiturn.GroundTruthOf(fx.src)(e)
		}})
	if err != nil {
		t.Fatal(err)
	}
	// The checker recorded the ground truth's results of every scored
	// multi-turn entry; the report executes only the others.
	recorded := map[string]bool{}
	for _, sc := range fx.ev.Scored {
		for id := range sc.GroundTruth {
			recorded[id] = true
		}
	}
	if !recorded["multi_turn_base_0"] || !recorded["multi_turn_base_1"] || !recorded["multi_turn_miss_func_0"] {
		t.Fatalf("scoring recorded the ground truth of %v", recorded)
	}
	for _, sc := range fx.ev.Scored {
		if err := os.Remove(filepath.Join(fx.resultDir, sc.Model, filepath.FromSlash(sc.Category.ResultPath()))); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(fx.scoreDir, sc.Model, filepath.FromSlash(sc.Category.ScorePath()))); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(fx.scoreDir, report.FileSummaryJSON)); err != nil {
		t.Fatal(err)
	}
	executed := 0
	inMemory, err := htmlreport.Build(htmlreport.Options{ScoreDir: fx.scoreDir, ResultDir: fx.resultDir, Source: fx.src,
		Scored: fx.ev.Scored, Summary: fx.ev.Summary,
		GroundTruth: func(e *dataset.Entry) ([][]string, error) {
			if recorded[e.ID] {
				t.Errorf("the report executed the ground truth of %s again", e.ID)
			}
			executed++
			return multiturn.GroundTruthOf(fx.src)(e)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if executed != 0 {
		t.Errorf("the report executed %d ground truths; every embedded entry was scored", executed)
	}
	if len(fromFilesGT) != len(recorded) {
		t.Errorf("from the folders, the report executed %d ground truths; scoring recorded %d", len(fromFilesGT), len(recorded))
	}
	a, b := embedded(t, fromFiles), embedded(t, inMemory)
	if !reflect.DeepEqual(a, b) {
		for k := range a {
			if !reflect.DeepEqual(a[k], b[k]) {
				t.Errorf("the page's %q differs between the folders and memory", k)
			}
		}
	}
}
