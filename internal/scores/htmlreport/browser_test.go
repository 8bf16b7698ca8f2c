package htmlreport_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/compare"
	"github.com/bfcl-go/bfcl/internal/scores/explain"
	"github.com/bfcl-go/bfcl/internal/scores/htmlreport"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/scores/stats"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// chromium finds Debian's chromium (or $BFCL_CHROMIUM). In CI a missing
// browser fails the test; elsewhere it skips, loudly.
func chromium(t *testing.T) string {
	t.Helper()
	cands := []string{os.Getenv("BFCL_CHROMIUM"), "/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"}
	for _, c := range cands {
		if c == "" {
			continue
		}
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	msg := "no chromium found (apt-get install -y chromium, or set BFCL_CHROMIUM): the HTML report's browser tests did not run"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip("SKIPPED LOUDLY: " + msg)
	return ""
}

// page is one headless browser tab that records console errors, uncaught
// exceptions and every network request.
type page struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
	requests []string
}

func openBrowser(t *testing.T) *page {
	t.Helper()
	bin := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1440, 900),
	}
	p := &page{}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	// The listener is installed before the first command, so it sees every
	// event of the tab (network is enabled by chromedp at attach).
	ctx, cancelC := chromedp.NewContext(actx, chromedp.WithListener(func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			desc := ""
			if d.Exception != nil {
				desc = d.Exception.Description
			}
			p.problems = append(p.problems, fmt.Sprintf("exception: %s %s (line %d)", d.Text, desc, d.LineNumber))
		case *runtime.EventConsoleAPICalled:
			switch e.Type {
			case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeWarning, runtime.ConsoleAPICalledTypeAssert:
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				p.problems = append(p.problems, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
			}
		case *network.EventRequestWillBeSent:
			p.requests = append(p.requests, e.Request.URL)
		}
	}))
	t.Cleanup(func() { cancelC(); cancelA() })
	// The first command starts the browser and lives as long as ctx: no
	// timeout on it (a timeout would stop the browser).
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	p.ctx = ctx
	p.mu.Lock()
	p.requests = nil
	p.mu.Unlock()
	return p
}

// check fails the test on console errors, exceptions and any request other
// than the report document itself.
func (p *page) check(t *testing.T, doc string) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pr := range p.problems {
		t.Errorf("browser: %s", pr)
	}
	for _, r := range p.requests {
		if u := strings.SplitN(r, "#", 2)[0]; u != doc && u != "about:blank" {
			t.Errorf("browser: network request %s (the report must not load anything)", r)
		}
	}
	p.problems, p.requests = nil, nil
}

func (p *page) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

func get[T any](t *testing.T, p *page, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func (p *page) text(t *testing.T, sel string) string {
	t.Helper()
	return get(t, p, chromedp.Text(chromedp.CSS(sel)))
}

func eval[T any](t *testing.T, p *page, js string) T {
	t.Helper()
	return get(t, p, chromedp.Evaluate[T](js))
}

// goTo loads doc+frag and waits until the page has rendered ready.
func (p *page) goTo(t *testing.T, doc, frag, ready string) {
	t.Helper()
	// about:blank first: a fragment-only change would not reload the file
	p.do(t, chromedp.Navigate("about:blank"), chromedp.Navigate(doc+frag), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="1"]`)),
		chromedp.WaitVisible(chromedp.CSS(ready)))
}

func (p *page) screenshot(t *testing.T, name string) {
	t.Helper()
	p.do(t, chromedp.Sleep(150*time.Millisecond))
	buf := get(t, p, chromedp.CaptureScreenshot())
	dir := filepath.Join(testenv.ModuleRoot(), ".cache", "report-screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", path)
}

func fileURL(path string) string {
	abs, _ := filepath.Abs(path)
	return (&url.URL{Scheme: "file", Path: abs}).String()
}

func readSummary(t *testing.T, scoreDir string) report.JSONSummary {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(scoreDir, report.FileSummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	var s report.JSONSummary
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// scoreLines returns the failed-entry lines of a score file by id.
func scoreLines(t *testing.T, path string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for n := 1; sc.Scan(); n++ {
		if n == 1 {
			continue
		}
		var id struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &id); err != nil {
			t.Fatal(err)
		}
		out[id.ID] = append([]byte(nil), sc.Bytes()...)
	}
	return out
}

// failureOrder lists a model's failed entries in the report's order:
// categories in canonical order, entries in upstream's id order (the order
// of the score files).
func failureOrder(t *testing.T, scoreDir, model string) []string {
	t.Helper()
	var out []string
	for _, c := range category.All() {
		path := report.ScoreFilePath(scoreDir, model, c)
		if _, err := os.Stat(path); err != nil {
			continue
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<26)
		for n := 1; sc.Scan(); n++ {
			var id struct {
				ID string `json:"id"`
			}
			if n > 1 && json.Unmarshal(sc.Bytes(), &id) == nil {
				out = append(out, id.ID)
			}
		}
		f.Close()
	}
	return out
}

func neighbours(order []string, id string) (next, prev string) {
	for i, x := range order {
		if x == id {
			if i+1 < len(order) {
				next = order[i+1]
			}
			if i > 0 {
				prev = order[i-1]
			}
		}
	}
	return next, prev
}

// checkLeaderboard compares every model's overall and group cells with
// summary.json's display strings.
func checkLeaderboard(t *testing.T, p *page, sum report.JSONSummary) {
	t.Helper()
	for _, m := range sum.Models {
		overall := p.text(t, fmt.Sprintf(`#leaderboard tr[data-model=%q] td.overall .v`, m.Model))
		if overall != m.Overall.Display {
			t.Errorf("leaderboard: %s overall shows %q, summary.json says %q", m.Model, overall, m.Overall.Display)
		}
		for _, g := range m.Groups {
			switch g.Name {
			case "non_live", "live", "irrelevance", "multi_turn", "agentic", "web_search", "memory", "relevance":
			default:
				continue
			}
			got := p.text(t, fmt.Sprintf(`#leaderboard tr[data-model=%q] td.g-%s`, m.Model, g.Name))
			if !strings.HasPrefix(strings.TrimSpace(got), g.Display) {
				t.Errorf("leaderboard: %s %s shows %q, summary.json says %q", m.Model, g.Name, got, g.Display)
			}
		}
	}
}

// checkMultiTurnEntry opens a failed multi-turn entry by its fragment and
// checks error, failing turn, calls on both sides and the state diff
// against the score line.
func checkMultiTurnEntry(t *testing.T, p *page, doc, model string, line []byte) *explain.Failure {
	t.Helper()
	x, err := explain.Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	p.goTo(t, doc, explain.EntryFragment(model, x.ID), "#error")
	etype, msg := p.text(t, "#error .type"), p.text(t, "#error .message")
	if etype != x.ErrorType || msg != x.Messages[0] {
		t.Errorf("%s: error shows %q / %q, score line says %q / %q", x.ID, etype, msg, x.ErrorType, x.Messages[0])
	}
	if x.FailingTurn < 0 {
		return x
	}
	failing := eval[string](t, p, `document.querySelector(".turn.failing").dataset.turn`)
	if failing != fmt.Sprint(x.FailingTurn) {
		t.Errorf("%s: marked failing turn %q, want %d", x.ID, failing, x.FailingTurn)
	}
	modelSide, gtSide := p.text(t, ".turn.failing .side.model"), p.text(t, ".turn.failing .side.gt")
	tu := x.Turns[x.FailingTurn]
	for _, st := range tu.ModelSteps {
		for i, c := range st.Calls {
			if !strings.Contains(modelSide, c) {
				t.Errorf("%s turn %d: model call %q not shown; model side: %q", x.ID, x.FailingTurn, c, modelSide)
			}
			if i < len(st.Results) && !strings.Contains(modelSide, st.Results[i]) {
				t.Errorf("%s turn %d: result %q of %q not shown", x.ID, x.FailingTurn, st.Results[i], c)
			}
		}
	}
	for i, c := range tu.GTCalls {
		if !strings.Contains(gtSide, c) {
			t.Errorf("%s turn %d: ground-truth call %q not shown; ground-truth side: %q", x.ID, x.FailingTurn, c, gtSide)
		}
		if i < len(tu.GTResults) && !strings.Contains(gtSide, tu.GTResults[i]) {
			t.Errorf("%s turn %d: ground-truth result %q not shown", x.ID, x.FailingTurn, tu.GTResults[i])
		}
	}
	if len(x.StateDiff) > 0 {
		diff := p.text(t, "#state-diff table")
		for _, cd := range x.StateDiff {
			for _, a := range cd.Attrs {
				for _, c := range a.Changes {
					if !strings.Contains(diff, a.Attr+c.Path) {
						t.Errorf("%s: state diff lacks %s%s; shows %q", x.ID, a.Attr, c.Path, diff)
					}
				}
			}
		}
	}
	return x
}

func TestBrowserFixture(t *testing.T) {
	fx := buildFixture(t)
	if d := os.Getenv("BFCL_REPORT_KEEP"); d != "" { // keep the fixture run for a look
		_ = os.CopyFS(d, os.DirFS(filepath.Dir(fx.scoreDir)))
	}
	p := openBrowser(t)
	out := filepath.Join(t.TempDir(), "report.html")
	if _, err := htmlreport.Write(htmlreport.Options{ScoreDir: fx.scoreDir, ResultDir: fx.resultDir, Source: fx.src, Out: out}); err != nil {
		t.Fatal(err)
	}
	doc := fileURL(out)
	sum := readSummary(t, fx.scoreDir)

	p.goTo(t, doc, "#leaderboard", "#leaderboard")
	checkLeaderboard(t, p, sum)
	// evaluate writes 95 % intervals into summary.json: they are drawn.
	if n := eval[int](t, p, `document.querySelectorAll("#leaderboard .bar b").length`); n == 0 {
		t.Errorf("no error bars drawn from the intervals evaluate wrote into summary.json")
	}
	p.screenshot(t, "fixture-leaderboard")
	p.check(t, doc)

	// The state-mismatch entry: GorillaFileSystem differs at the moved file.
	lines := scoreLines(t, filepath.Join(fx.scoreDir, modelA, "multi_turn", "BFCL_v4_multi_turn_base_score.json"))
	line, ok := lines["multi_turn_base_0"]
	if !ok {
		t.Fatalf("fixture: multi_turn_base_0 did not fail (score lines: %d)", len(lines))
	}
	x := checkMultiTurnEntry(t, p, doc, modelA, line)
	if x.ErrorType != "multi_turn:instance_state_mismatch" || len(x.StateDiff) == 0 || x.StateDiff[0].Class != "GorillaFileSystem" {
		t.Fatalf("fixture: multi_turn_base_0 should fail on the GorillaFileSystem state, got %s %v", x.ErrorType, x.StateDiff)
	}
	diff := p.text(t, "#state-diff")
	if !strings.Contains(diff, "root/document/final_report.pdf") || !strings.Contains(diff, "root/document/temp/final_report.pdf") {
		t.Errorf("state diff should name the file left behind and where the ground truth moved it; shows %q", diff)
	}
	if eval[bool](t, p, `!!document.querySelector(".turn.failing details.reasoning[open]") || !document.querySelector(".turn.failing details.reasoning")`) {
		t.Errorf("the failing turn's reasoning should be there, folded away")
	}
	p.screenshot(t, "fixture-entry-multi-turn")
	p.check(t, doc)

	// Empty turn, then j/k between failures.
	x = checkMultiTurnEntry(t, p, doc, modelA, lines["multi_turn_base_1"])
	if x.ErrorType != "multi_turn:empty_turn_model_response" || x.FailingTurn != 1 {
		t.Errorf("fixture: multi_turn_base_1: %s at turn %d", x.ErrorType, x.FailingTurn)
	}
	order := failureOrder(t, fx.scoreDir, modelA)
	next, prev := neighbours(order, "multi_turn_base_1")
	p.do(t, chromedp.KeyEvent("j"), chromedp.Sleep(300*time.Millisecond))
	if id := p.text(t, "#entry-id"); id != next {
		t.Errorf("j from multi_turn_base_1 went to %q, want the next failure %q (failures in order: %v)", id, next, order)
	}
	p.do(t, chromedp.KeyEvent("k"), chromedp.KeyEvent("k"), chromedp.Sleep(300*time.Millisecond))
	if id := p.text(t, "#entry-id"); id != prev {
		t.Errorf("k k from %s went to %q, want the failure before multi_turn_base_1, %q", next, id, prev)
	}
	p.check(t, doc)

	// A single-turn failure: the parameter the checker names is highlighted.
	p.goTo(t, doc, explain.EntryFragment(modelA, "simple_python_0"), "#error")
	hl := p.text(t, ".json .hl")
	if hl == "" {
		t.Errorf("simple_python_0: no highlighted parameter")
	}
	p.screenshot(t, "fixture-entry-single-turn")
	p.check(t, doc)

	// Model view: error types with counts linking to their lists.
	p.goTo(t, doc, "#model/"+modelA, "#errtypes")
	n := eval[int](t, p, `document.querySelectorAll('#errtypes a[data-et="multi_turn:instance_state_mismatch"]').length`)
	if n != 1 {
		t.Errorf("model view: %d links for multi_turn:instance_state_mismatch, want 1", n)
	}
	p.screenshot(t, "fixture-model")
	p.do(t, chromedp.Click(chromedp.CSS(`#errtypes a[data-et="multi_turn:instance_state_mismatch"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.vlist .row`)))
	rows := eval[[]string](t, p, `Array.from(document.querySelectorAll('.vlist .row .id')).map(e => e.textContent)`)
	if len(rows) != 1 || rows[0] != "multi_turn_base_0" {
		t.Errorf("list of instance_state_mismatch entries: %v", rows)
	}
	// Search and filters by fragment.
	p.goTo(t, doc, "#list/"+modelA+"?cls=GorillaFileSystem", ".vlist")
	p.do(t, chromedp.Sleep(100*time.Millisecond))
	rows = eval[[]string](t, p, `Array.from(document.querySelectorAll('.vlist .row .id')).map(e => e.textContent)`)
	for _, r := range rows {
		if !strings.HasPrefix(r, "multi_turn") {
			t.Errorf("backend-class filter lists %s", r)
		}
	}
	if len(rows) == 0 {
		t.Errorf("backend-class filter GorillaFileSystem lists nothing")
	}
	p.screenshot(t, "fixture-list")
	p.goTo(t, doc, "#compare/"+modelA+"/"+modelB, "#compare")
	failedBy := func(m string) map[string]bool {
		out := map[string]bool{}
		for _, id := range failureOrder(t, fx.scoreDir, m) {
			out[id] = true
		}
		return out
	}
	fa, fb := failedBy(modelA), failedBy(modelB)
	differ := 0
	for id := range fa {
		if !fb[id] {
			differ++
		}
	}
	for id := range fb {
		if !fa[id] {
			differ++
		}
	}
	if got := eval[string](t, p, `document.getElementById("compare-diff").dataset.count`); got != fmt.Sprint(differ) {
		t.Errorf("compare: %s entries listed as passed by one and failed by the other, the score files say %d", got, differ)
	}
	// the paired statistics of bfcl compare (issue 26): one row per row of
	// compare.Two, each with its verdict
	ca, err := compare.Load(modelA, fx.scoreDir, modelA)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := compare.Load(modelB, fx.scoreDir, modelB)
	if err != nil {
		t.Fatal(err)
	}
	res, err := compare.Two(ca, cb, stats.Options{})
	if err != nil {
		t.Fatal(err)
	}
	verdicts := eval[[]string](t, p, `Array.from(document.querySelectorAll('#compare-stats tbody tr')).map(e => e.dataset.verdict)`)
	if len(verdicts) != len(res.Rows) {
		t.Errorf("compare view: %d rows of paired statistics, bfcl compare prints %d", len(verdicts), len(res.Rows))
	}
	for i, r := range res.Rows {
		if i < len(verdicts) && verdicts[i] != r.Verdict {
			t.Errorf("compare view: %s verdict %q, bfcl compare says %q", r.Category, verdicts[i], r.Verdict)
		}
	}
	p.screenshot(t, "fixture-compare")

	// issue 26: partial runs are marked and not ranked; an unknown entry
	// page has a way back
	p.goTo(t, doc, "#leaderboard", "#leaderboard")
	if n := eval[int](t, p, `document.querySelectorAll('#leaderboard tr[data-partial="1"] .badge.partial').length`); n != 2 {
		t.Errorf("leaderboard: %d models marked partial, want the fixture's 2 (12 entries each)", n)
	}
	if r := eval[string](t, p, `document.querySelector('#leaderboard tbody tr td').textContent`); r != "–" {
		t.Errorf("a partial run is ranked %q", r)
	}
	p.goTo(t, doc, "#entry/"+modelA+"/no_such_entry_1", "#way-back")
	if href := eval[string](t, p, `document.querySelector('#way-back a').getAttribute('href')`); href != "#leaderboard" {
		t.Errorf("unknown entry page: way back %q", href)
	}
	p.check(t, doc)

	// Other intervals in summary.json are what the page prints.
	addIntervals(t, fx.scoreDir)
	if _, err := htmlreport.Write(htmlreport.Options{ScoreDir: fx.scoreDir, ResultDir: fx.resultDir, Source: fx.src, Out: out}); err != nil {
		t.Fatal(err)
	}
	p.goTo(t, doc, "#leaderboard", "#leaderboard")
	ci := p.text(t, fmt.Sprintf(`#leaderboard tr[data-model=%q] td.overall .ci`, modelA))
	lo, hi := intervalOf(readSummary(t, fx.scoreDir), modelA)
	if want := fmt.Sprintf("95%% CI %.2f%% – %.2f%%", lo*100, hi*100); ci != want {
		t.Errorf("overall interval shows %q, want %q", ci, want)
	}
	if n := eval[int](t, p, `document.querySelectorAll("#leaderboard .bar b").length`); n == 0 {
		t.Errorf("no error bars drawn from summary.json's ci95")
	}
	p.screenshot(t, "fixture-leaderboard-intervals")
	p.check(t, doc)
}

// addIntervals gives every accuracy of summary.json a ci95 interval of
// ±5 points (clipped to [0, 1]), as the statistics issue will write them.
func addIntervals(t *testing.T, scoreDir string) {
	t.Helper()
	path := filepath.Join(scoreDir, report.FileSummaryJSON)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	withCI := func(a any) {
		m, ok := a.(map[string]any)
		if !ok || m["evaluated"] != true {
			return
		}
		acc := m["accuracy"].(float64)
		m["ci95"] = []float64{max(0, acc-0.05), min(1, acc+0.05)}
	}
	for _, m := range s["models"].([]any) {
		mm := m.(map[string]any)
		withCI(mm["overall"])
		for _, g := range mm["groups"].([]any) {
			withCI(g)
		}
		for _, c := range mm["categories"].([]any) {
			withCI(c)
		}
	}
	b, _ = json.MarshalIndent(s, "", "  ")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func intervalOf(s report.JSONSummary, model string) (lo, hi float64) {
	for _, m := range s.Models {
		if m.Model == model {
			acc := m.Overall.Accuracy
			return max(0, acc-0.05), min(1, acc+0.05)
		}
	}
	return 0, 0
}

// TestBrowserReference renders upstream's real result set (scored by our
// evaluator) and opens its failed multi-turn entries.
func TestBrowserReference(t *testing.T) {
	ref := testenv.NeedReferenceDir(t, "reference outputs")
	src := dataSource(t)
	run := filepath.Join(ref, "results", "results", "2025-11-12-harmony-fixes-2", "result")
	if _, err := os.Stat(run); err != nil {
		t.Skip(testenv.MissingMessage("reference result set", run, "BFCL_REFERENCE_DIR"))
	}
	scoreDir := filepath.Join(t.TempDir(), "score")
	scoreReference(t, src, run, scoreDir)
	out := filepath.Join(t.TempDir(), "report.html")
	if _, err := htmlreport.Write(htmlreport.Options{ScoreDir: scoreDir, ResultDir: run, Source: src, Out: out}); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(out)
	t.Logf("reference report: %.1f MB", float64(st.Size())/1e6)
	p := openBrowser(t)
	doc := fileURL(out)
	p.goTo(t, doc, "#leaderboard", "#leaderboard")
	checkLeaderboard(t, p, readSummary(t, scoreDir))
	p.screenshot(t, "reference-leaderboard")
	// issue 26: at 1400 px the leaderboard fits (no sideways scroll)
	p.do(t, chromedp.EmulateViewport(1400, 900))
	p.goTo(t, doc, "#leaderboard", "#leaderboard")
	if over := eval[int](t, p, `(() => { const c = document.querySelector('#leaderboard').parentElement; return c.scrollWidth - c.clientWidth; })()`); over > 0 {
		t.Errorf("at 1400 px the leaderboard is %d px wider than the page", over)
	}
	p.screenshot(t, "reference-leaderboard-1400")
	p.do(t, chromedp.EmulateViewport(1440, 900))
	p.check(t, doc)
	model := "openai_gpt-oss-120b"
	lines := scoreLines(t, filepath.Join(scoreDir, model, "multi_turn", "BFCL_v4_multi_turn_base_score.json"))
	seen := map[string]bool{}
	for _, id := range []string{"multi_turn_base_2", "multi_turn_base_6", "multi_turn_base_8", "multi_turn_base_0"} {
		line, ok := lines[id]
		if !ok {
			t.Errorf("reference: %s did not fail", id)
			continue
		}
		x := checkMultiTurnEntry(t, p, doc, model, line)
		if !seen[x.ErrorType] {
			seen[x.ErrorType] = true
			p.screenshot(t, "reference-"+id)
		}
		// issue 26: every turn after the first failing one says it was not checked
		if n := eval[int](t, p, `(() => { const f = document.querySelector('.turn.failing'); if (!f) return 0; const k = +f.dataset.turn; return [...document.querySelectorAll('.turn')].filter(e => +e.dataset.turn > k && !e.querySelector('.not-checked')).length; })()`); n != 0 {
			t.Errorf("%s: %d turns after the first failing one without the not-checked mark", id, n)
		}
		// the transcript comes from upstream's inference_log
		steps := eval[int](t, p, `document.querySelectorAll(".turn .step").length`)
		if steps == 0 {
			t.Errorf("%s: no model step rendered from the inference_log", id)
		}
	}
	p.goTo(t, doc, "#model/"+model, "#errtypes")
	p.screenshot(t, "reference-model")

	// Thousands of entries: the list is virtualised (only visible rows exist).
	p.goTo(t, doc, "#list/"+model, ".vlist .row")
	total := eval[int](t, p, `+document.getElementById("count").textContent.split(" ")[0]`)
	rows := eval[int](t, p, `document.querySelectorAll(".vlist .row").length`)
	if total < 4000 || rows > 200 || rows == 0 {
		t.Errorf("entry list: %d entries, %d rows in the DOM (want thousands listed, at most a screenful drawn)", total, rows)
	}
	last := eval[string](t, p, `(() => { const b = document.querySelector(".vlist"); b.scrollTop = b.scrollHeight; b.dispatchEvent(new Event("scroll")); const r = [...document.querySelectorAll(".vlist .row .id")]; return r[r.length-1].textContent; })()`)
	if last == "" || strings.HasPrefix(last, "simple_python") {
		t.Errorf("scrolled to the end of the list, last row drawn is %q", last)
	}
	p.goTo(t, doc, "#list/"+model+"?q=budget+analysis", ".vlist .row")
	if got := eval[int](t, p, `+document.getElementById("count").textContent.split(" ")[0]`); got == 0 || got >= total {
		t.Errorf("text search 'budget analysis' lists %d of %d entries", got, total)
	}
	p.check(t, doc)
}
