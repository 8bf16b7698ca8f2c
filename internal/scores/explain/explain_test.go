package explain_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/scores/explain"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// A file-system repr as sim.Directory.PyRepr prints it (upstream's __repr__).
const (
	fsModel = `<Directory: ws, Parent: None, Contents: {'doc': <Directory: doc, Parent: ws, Contents: {'a.txt': <<File: a.txt, Content: one >> two>>, 'old': <Directory: old, Parent: doc, Contents: {}>}>, 'x.pdf': <<File: x.pdf, Content: >>}>`
	fsTruth = `<Directory: ws, Parent: None, Contents: {'doc': <Directory: doc, Parent: ws, Contents: {'a.txt': <<File: a.txt, Content: one>>, 'new': <Directory: new, Parent: doc, Contents: {'x.pdf': <<File: x.pdf, Content: >>}>}>}>`
)

func TestDiffFileSystem(t *testing.T) {
	got := explain.DiffValues(fsModel, fsTruth)
	want := []explain.Change{
		{Path: "/doc/a.txt", Kind: explain.KindChanged, Model: `"one >> two"`, GroundTruth: `"one"`},
		{Path: "/doc/old", Kind: explain.KindOnlyModel, Model: "directory (0 entries)"},
		{Path: "/doc/new", Kind: explain.KindOnlyGT, GroundTruth: "directory (1 entries)"},
		{Path: "/x.pdf", Kind: explain.KindOnlyModel, Model: `file ""`},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("file-system diff:\n got %+v\nwant %+v", got, want)
	}
}

func TestDiffValues(t *testing.T) {
	var m, g any
	_ = json.Unmarshal([]byte(`{"tweets": {"1": {"content": "hi", "tags": ["#a", "#b"]}, "2": {"content": "x"}}, "n": 3, "list": ["alice", "bob"]}`), &m)
	_ = json.Unmarshal([]byte(`{"tweets": {"1": {"content": "hello", "tags": ["#a", "#b", "#c"]}}, "n": 3, "list": ["bob"]}`), &g)
	got := explain.DiffValues(m, g)
	want := []explain.Change{
		{Path: "[0]", Kind: explain.KindOnlyModel, Model: `"alice"`},
		{Path: ".1.content", Kind: explain.KindChanged, Model: `"hi"`, GroundTruth: `"hello"`},
		{Path: ".1.tags[2]", Kind: explain.KindOnlyGT, GroundTruth: `"#c"`},
		{Path: ".2", Kind: explain.KindOnlyModel, Model: `{"content":"x"}`},
	}
	// paths are relative to the attribute, in key order: list < tweets
	for i := range want {
		if strings.HasPrefix(want[i].Path, "[") {
			want[i].Path = ".list" + want[i].Path
		} else {
			want[i].Path = ".tweets" + want[i].Path
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diff:\n got %+v\nwant %+v", got, want)
	}
	if d := explain.DiffValues(m, m); len(d) != 0 {
		t.Errorf("a value differs from itself: %+v", d)
	}
}

// A state-mismatch verdict as the multi-turn checker builds it, explained
// before any score file exists (the spec-failure path).
func stateMismatch() verdict.Verdict {
	f := func(k string, v any) verdict.Field { return verdict.Field{Key: k, Value: v} }
	return verdict.Verdict{ID: "multi_turn_base_7", Category: "multi_turn_base", Valid: false,
		ErrorType: "multi_turn:instance_state_mismatch",
		Errors:    []string{"Model instance for GorillaFileSystem does not match the state with ground truth instance."},
		Detail: verdict.Fields{
			f("details", verdict.Fields{
				f("differences", verdict.Fields{f("root", verdict.Fields{f("model", fsModel), f("ground_truth", fsTruth)})}),
				f("model_instance_state", map[string]any{"root": fsModel}),
				f("ground_truth_instance_state", map[string]any{"root": fsTruth}),
				f("execution_result", []any{
					verdict.Fields{f("model", [][]string{{"None"}}), f("ground_truth", []string{"None", "None"})},
					verdict.Fields{f("model", [][]string{{"{\"x\": 1}"}, {}}), f("ground_truth", []string{"{\"x\": 1}"})},
				}),
			}),
			f("prompt", map[string]any{"id": "multi_turn_base_7"}),
			f("model_result_raw", json.RawMessage(`[[["mkdir"]],[["cat"],["ls"]]]`)),
			f("model_result_decoded", [][][]string{{{"mkdir(dir_name='old')"}}, {{"cat(file_name='a.txt')"}, {"ls()"}}}),
			f("possible_answer", [][]string{{"cd(folder='doc')", "mkdir(dir_name='new')"}, {"cat(file_name='a.txt')", "mv(source='x.pdf', destination='new')"}, {"ls()"}}),
			f("inference_log", ""),
		}}
}

func TestFromVerdictAndRender(t *testing.T) {
	x, err := explain.FromVerdict("fixture", stateMismatch())
	if err != nil {
		t.Fatal(err)
	}
	if x.ErrorType != "multi_turn:instance_state_mismatch" || x.FailingTurn != 1 || len(x.Turns) != 3 || !x.MultiTurn {
		t.Fatalf("explained: %+v", x)
	}
	if got := x.Turns[1].ModelSteps; len(got) != 2 || got[0].Calls[0] != "cat(file_name='a.txt')" || got[0].Results[0] != `{"x": 1}` {
		t.Errorf("turn 1 model steps: %+v", got)
	}
	if len(x.StateDiff) != 1 || x.StateDiff[0].Class != "GorillaFileSystem" || x.StateDiff[0].Attrs[0].Attr != "root" {
		t.Errorf("state diff: %+v", x.StateDiff)
	}
	var b strings.Builder
	if err := explain.Render(&b, x, explain.Where{Report: "score/report.html", ScoreFile: "score/fixture/multi_turn/BFCL_v4_multi_turn_base_score.json",
		DataFile: "data/BFCL_v4_multi_turn_base.json", DataLine: 8, Width: 100}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"multi_turn_base_7 failed: multi_turn:instance_state_mismatch",
		"Model instance for GorillaFileSystem does not match the state with ground truth instance.",
		"turn 1 (first failing turn of 3)",
		"0. cat(file_name='a.txt')",
		"  cat(file_name='a.txt')",                // made by the model: not marked
		"✗ mv(source='x.pdf', destination='new')", // not made: marked
		"state of GorillaFileSystem differs",
		"~ root/doc/a.txt",
		"+ root/doc/old  only in the model's",
		"- root/doc/new  only in the ground truth's",
		"entry:      data/BFCL_v4_multi_turn_base.json:8",
		"entry view: score/report.html#entry/fixture/multi_turn_base_7",
		`score line: score/fixture/multi_turn/BFCL_v4_multi_turn_base_score.json (the line with "id": "multi_turn_base_7")`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("rendering lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "<Directory:") {
		t.Errorf("rendering prints a full file-system repr:\n%s", out)
	}
	if len(out) > 2500 {
		t.Errorf("rendering is %d bytes; it should be compact:\n%s", len(out), out)
	}
}

func TestSingleTurn(t *testing.T) {
	line := []byte(`{"id": "simple_python_3", "model_name": "m", "test_category": "simple_python", "valid": false, "error": ["Invalid value for parameter 'base': 'x'. Expected one of [10]."], "error_type": "value_error:others", "prompt": {}, "model_result_raw": "[f(base='x')]", "model_result_decoded": [{"f": {"base": "x"}}], "possible_answer": [{"f": {"base": [10]}}]}`)
	x, err := explain.Parse(line)
	if err != nil {
		t.Fatal(err)
	}
	if x.MultiTurn || x.ErrorType != "value_error:others" || !reflect.DeepEqual(x.Params, []string{"base"}) {
		t.Errorf("explained: %+v", x)
	}
	s := x.String()
	for _, want := range []string{"simple_python_3 failed: value_error:others", `decoded:         [{"f":{"base":"x"}}]`, `possible answer: [{"f":{"base":[10]}}]`, "parameters:      base"} {
		if !strings.Contains(s, want) {
			t.Errorf("rendering lacks %q:\n%s", want, s)
		}
	}
	if _, err := explain.Parse([]byte(`{"valid": false}`)); err == nil {
		t.Errorf("a line without id parsed")
	}
	if _, err := explain.FromVerdict("m", verdict.Verdict{ID: "simple_python_3", Valid: true}); err == nil {
		t.Errorf("a passed verdict was explained")
	}
	// Message falls back to the essentials when the verdict cannot be a score line.
	bad := verdict.Verdict{ID: "simple_python_3", ErrorType: "value_error:others", Errors: []string{"boom"},
		Detail: verdict.Fields{{Key: "id", Value: "x"}}}
	if m := explain.Message("m", bad, explain.Where{}); !strings.Contains(m, "simple_python_3 failed: value_error:others\n  boom\n") || !strings.Contains(m, "no detailed explanation") {
		t.Errorf("fallback message: %q", m)
	}
	good := explain.Message("m", stateMismatch(), explain.Where{Report: "r.html"})
	if !strings.Contains(good, "entry view: r.html#entry/m/multi_turn_base_7") {
		t.Errorf("message: %s", good)
	}
}

// TestReference explains every failed multi-turn entry of upstream's real
// result set (scored by our evaluator) and checks it against upstream's own
// verdicts: error type and message, the differing attributes, the decoded
// steps; every differing attribute yields at least one change, and a file
// system is diffed file by file, never as a whole repr.
func TestReference(t *testing.T) {
	ref, ok := testenv.ReferenceDir()
	if !ok {
		t.Skip(testenv.MissingMessage("reference outputs", ref, "BFCL_REFERENCE_DIR"))
	}
	dataDir, ok := testenv.DataDir()
	if !ok {
		t.Skip(testenv.MissingMessage("BFCL data set", dataDir, "BFCL_DATA_DIR"))
	}
	src, err := dataset.Open(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	const run, model = "2025-11-12-harmony-fixes-2", "openai_gpt-oss-120b"
	scoreDir := t.TempDir()
	yes := true
	cats := []category.Category{category.MultiTurnBase, category.MultiTurnMissFunc, category.MultiTurnMissParam}
	if _, err := evaluate.Run(evaluate.Options{Source: src, ResultRoot: filepath.Join(ref, "results", "results", run, "result"),
		ScoreRoot: scoreDir, Models: []string{model}, Categories: cats, Mode: "fc", UnderscoreToDot: &yes}); err != nil {
		t.Fatal(err)
	}
	checked, turns := 0, 0
	for _, c := range cats {
		want := upstreamVerdicts(t, filepath.Join(ref, "multi_turn_verdicts", run, model, "BFCL_v4_"+string(c)+"_verdicts.jsonl"))
		execs := upstreamExecs(t, filepath.Join(ref, "multi_turn_verdicts", run, model, "BFCL_v4_"+string(c)+"_execlog.jsonl"))
		f, err := os.Open(report.ScoreFilePath(scoreDir, model, c))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<26)
		for n := 1; sc.Scan(); n++ {
			if n == 1 {
				continue
			}
			x, err := explain.Parse(sc.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			w, ok := want[x.ID]
			if !ok || w.Valid {
				t.Errorf("%s: failed here, upstream's verdict %+v", x.ID, w)
				continue
			}
			checked++
			if x.ErrorType != w.ErrorType || strings.Join(x.Messages, " ") != w.ErrorMessage {
				t.Errorf("%s: %s %q, upstream %s %q", x.ID, x.ErrorType, x.Messages, w.ErrorType, w.ErrorMessage)
			}
			if w.Decoded != nil {
				for ti, steps := range w.Decoded {
					var got [][]string
					for _, st := range x.Turns[ti].ModelSteps {
						got = append(got, st.Calls)
					}
					if len(got) != len(steps) || (len(steps) > 0 && !reflect.DeepEqual(got, steps)) {
						t.Errorf("%s turn %d: steps %v, upstream %v", x.ID, ti, got, steps)
					}
				}
			}
			if w.ErrorType == "multi_turn:instance_state_mismatch" {
				var attrs []string
				for _, a := range x.StateDiff[0].Attrs {
					attrs = append(attrs, a.Attr)
					if len(a.Changes) == 0 {
						t.Errorf("%s: attribute %s differs but the diff found nothing", x.ID, a.Attr)
					}
					for _, ch := range a.Changes {
						if strings.Contains(ch.Model+ch.GroundTruth, "<Directory:") {
							t.Errorf("%s: %s%s shows a whole directory repr", x.ID, a.Attr, ch.Path)
						}
					}
				}
				sort.Strings(attrs)
				if !reflect.DeepEqual(attrs, w.Detail.DifferingAttributes) {
					t.Errorf("%s: differing attributes %v, upstream %v", x.ID, attrs, w.Detail.DifferingAttributes)
				}
			}
			// what each side executed, turn by turn, as upstream's run logged it
			for ti, te := range execs[x.ID] {
				if ti >= len(x.Turns) || !x.Turns[ti].HasResults {
					continue
				}
				xt := x.Turns[ti]
				turns++
				if !reflect.DeepEqual(nonNil(xt.GTResults), nonNil(te.GTResults)) || !reflect.DeepEqual(xt.GTCalls, te.GTCalls) {
					t.Errorf("%s turn %d: ground truth %v -> %v, upstream %v -> %v", x.ID, ti, xt.GTCalls, xt.GTResults, te.GTCalls, te.GTResults)
				}
				for si, st := range te.ModelSteps {
					if si >= len(xt.ModelSteps) || !reflect.DeepEqual(nonNil(xt.ModelSteps[si].Results), nonNil(st.Results)) {
						t.Errorf("%s turn %d step %d: model results differ from upstream's %v", x.ID, ti, si, st.Results)
					}
				}
			}
			if x.FailingTurn >= 0 && x.ErrorType != "multi_turn:force_terminated" {
				if x.FailingTurn >= len(x.Turns) {
					t.Errorf("%s: failing turn %d of %d", x.ID, x.FailingTurn, len(x.Turns))
				}
			}
		}
		f.Close()
	}
	if checked < 100 {
		t.Errorf("only %d failed multi-turn entries checked", checked)
	}
	if turns < checked {
		t.Errorf("only %d turns compared with upstream's execution log", turns)
	}
	t.Logf("%d failed multi-turn entries explained and checked against upstream's verdicts, %d turns against its execution log", checked, turns)
}

type upstreamTurn struct {
	ModelSteps []struct {
		Calls   []string `json:"calls"`
		Results []string `json:"results"`
	} `json:"model_steps"`
	GTCalls   []string `json:"gt_calls"`
	GTResults []string `json:"gt_results"`
}

func upstreamExecs(t *testing.T, path string) map[string][]upstreamTurn {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]upstreamTurn{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var v struct {
			ID    string         `json:"id"`
			Turns []upstreamTurn `json:"turns"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		out[v.ID] = v.Turns
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type upstreamVerdict struct {
	ID           string `json:"id"`
	Valid        bool   `json:"valid"`
	ErrorType    string `json:"error_type"`
	ErrorMessage string `json:"error_message"`
	Detail       struct {
		DifferingAttributes []string `json:"differing_attributes"`
	} `json:"detail"`
	Decoded [][][]string `json:"decoded"`
}

func upstreamVerdicts(t *testing.T, path string) map[string]upstreamVerdict {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]upstreamVerdict{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var v upstreamVerdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		out[v.ID] = v
	}
	return out
}

// TestFromVerdictReal explains verdicts straight from the checkers (the
// failing-spec path, before any score file) and finds the same as from the
// score lines `bfcl evaluate` writes for them.
func TestFromVerdictReal(t *testing.T) {
	ref, ok := testenv.ReferenceDir()
	if !ok {
		t.Skip(testenv.MissingMessage("reference outputs", ref, "BFCL_REFERENCE_DIR"))
	}
	dataDir, ok := testenv.DataDir()
	if !ok {
		t.Skip(testenv.MissingMessage("BFCL data set", dataDir, "BFCL_DATA_DIR"))
	}
	src, err := dataset.Open(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	lc, err := score.LongContextOf(src)
	if err != nil {
		t.Fatal(err)
	}
	const model = "openai_gpt-oss-120b"
	resultRoot := filepath.Join(ref, "results", "results", "2025-11-12-harmony-fixes-2", "result")
	scoreDir := t.TempDir()
	yes := true
	cats := []category.Category{category.MultiTurnMissFunc, category.LiveSimple}
	if _, err := evaluate.Run(evaluate.Options{Source: src, ResultRoot: resultRoot, ScoreRoot: scoreDir, Models: []string{model},
		Categories: cats, Mode: "fc", UnderscoreToDot: &yes}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cats {
		es, err := src.Load(c)
		if err != nil {
			t.Fatal(err)
		}
		byID := map[string]*dataset.Entry{}
		for _, e := range es {
			byID[e.ID] = e
		}
		recs, err := results.Read(results.Path(resultRoot, model, c))
		if err != nil {
			t.Fatal(err)
		}
		fromFile := map[string]*explain.Failure{}
		f, err := os.Open(report.ScoreFilePath(scoreDir, model, c))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<26)
		for i := 1; sc.Scan(); i++ {
			if i > 1 {
				x, err := explain.Parse(sc.Bytes())
				if err != nil {
					t.Fatal(err)
				}
				fromFile[x.ID] = x
			}
		}
		f.Close()
		for _, r := range recs {
			v, err := score.Entry(byID[r.ID], r, score.Options{Spec: decode.Spec{Mode: "fc", UnderscoreToDot: true}, ModelName: model, LongContext: lc})
			if err != nil {
				t.Fatal(err)
			}
			want, failed := fromFile[r.ID]
			if v.Valid != !failed {
				t.Errorf("%s: checker says valid=%v, score file disagrees", r.ID, v.Valid)
				continue
			}
			if v.Valid {
				continue
			}
			got, err := explain.FromVerdict(model, v)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: explained from the verdict\n%+v\nfrom the score line\n%+v", r.ID, got, want)
			}
			n++
		}
	}
	if n < 50 {
		t.Errorf("only %d failures compared", n)
	}
	t.Logf("%d failed entries explained alike from the checker's verdict and from the score line", n)
}
