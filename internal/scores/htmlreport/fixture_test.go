package htmlreport_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/sim"
)

// The fixture run: two models answer the first entries of multi_turn_base,
// multi_turn_miss_func and simple_python with the ground truth (prompt-mode
// output, as a model in prompt mode would write it), with upstream-shaped
// inference_log records for the multi-turn entries; a few answers are
// broken on purpose. The run is then scored by internal/scores/evaluate.
const (
	modelA = "fixture-a"
	modelB = "fixture-b"
)

// What the fixture breaks, per model: entry id -> how.
var broken = map[string]map[string]string{
	modelA: {
		"multi_turn_base_0": "drop-last-call-turn-0", // the move never happens: GorillaFileSystem state differs
		"multi_turn_base_1": "empty-turn-1",          // no call in turn 1
		"simple_python_0":   "wrong-value",
	},
	modelB: {
		"simple_python_1": "wrong-value",
	},
}

type fixture struct {
	src       *dataset.Source
	scoreDir  string
	resultDir string
	ev        *evaluate.Evaluation // what scoring produced
}

// groundTruthOf executes multi-turn ground truths for the report, as the
// CLI's report does for entries no scoring of the process recorded.
func groundTruthOf(src *dataset.Source) func(e *dataset.Entry) ([][]string, error) {
	return func(e *dataset.Entry) ([][]string, error) {
		lc, err := src.LongContext()
		if err != nil {
			return nil, err
		}
		return multiturn.GroundTruthResults(e, lc)
	}
}

func dataSource(t *testing.T) *dataset.Source {
	t.Helper()
	dir, ok := testenv.DataDir()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the BFCL data set is required in CI: %s", testenv.MissingMessage("BFCL data set", dir, "BFCL_DATA_DIR"))
		}
		t.Skip(testenv.MissingMessage("BFCL data set", dir, "BFCL_DATA_DIR"))
	}
	src, err := dataset.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func buildFixture(t *testing.T) fixture {
	t.Helper()
	src := dataSource(t)
	root := t.TempDir()
	fx := fixture{src: src, scoreDir: filepath.Join(root, "score"), resultDir: filepath.Join(root, "result")}
	lc, err := score.LongContextOf(src)
	if err != nil {
		t.Fatal(err)
	}
	pick := map[category.Category]int{category.MultiTurnBase: 4, category.MultiTurnMissFunc: 2, category.SimplePython: 6}
	for _, model := range []string{modelA, modelB} {
		for cat, n := range pick {
			es, err := src.Load(cat)
			if err != nil {
				t.Fatal(err)
			}
			var lines [][]byte
			for _, e := range es[:n] {
				var rec map[string]any
				if cat.IsMultiTurn() {
					rec = multiTurnRecord(t, e, lc, broken[model][e.ID])
				} else {
					rec = singleTurnRecord(t, e, broken[model][e.ID])
				}
				b, err := json.Marshal(rec)
				if err != nil {
					t.Fatal(err)
				}
				lines = append(lines, b)
			}
			path := filepath.Join(fx.resultDir, model, filepath.FromSlash(cat.ResultPath()))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var cats []category.Category
	for c := range pick {
		cats = append(cats, c)
	}
	fx.ev, err = evaluate.Evaluate(evaluate.Options{Source: src, ResultRoot: fx.resultDir, ScoreRoot: fx.scoreDir,
		Categories: category.SortCanonical(cats), Mode: "prompt", Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	return fx
}

// multiTurnRecord answers each turn with its ground-truth calls in one
// prompt-mode step, then a text step (which ends the turn), logging it as
// upstream's base_handler does.
func multiTurnRecord(t *testing.T, e *dataset.Entry, lc *longcontext.Data, how string) map[string]any {
	t.Helper()
	var gt [][]string
	if err := json.Unmarshal(e.Answer, &gt); err != nil {
		t.Fatal(err)
	}
	cfg, err := e.InitialConfigDict()
	if err != nil {
		t.Fatal(err)
	}
	s := engine.New(sim.NewEnv(lc), engine.Config{ModelName: "fixture", EntryID: e.ID, Involved: e.InvolvedClasses, InitialConfig: cfg, LongContext: e.LongContext()})
	var result [][]string
	var log []any
	for ti, calls := range gt {
		calls = append([]string(nil), calls...)
		switch {
		case how == "drop-last-call-turn-0" && ti == 0:
			calls = calls[:len(calls)-1]
		case how == "empty-turn-1" && ti == 1:
			calls = nil
		}
		query := []map[string]string{}
		for _, m := range e.Question[ti] {
			query = append(query, map[string]string{"role": m.Role, "content": m.Content})
		}
		if _, ok := e.MissedFunction[ti]; ok {
			// upstream's DEFAULT_USER_PROMPT_FOR_ADDITIONAL_FUNCTION_FC (constants/default_prompts.py): a held-out turn has no user message
			query = []map[string]string{{"role": "user", "content": "I have updated some more functions you can choose from. What about now?"}}
		}
		turn := map[string]any{"begin_of_turn_query": query}
		var steps []string
		step := 0
		if len(calls) > 0 {
			text := "[" + strings.Join(calls, ", ") + "]"
			steps = append(steps, text)
			msgs := []any{
				map[string]any{"role": "assistant", "content": text, "reasoning_content": "The user wants this; the calls are " + strings.Join(calls, "; ") + "."},
				map[string]any{"role": "handler_log", "content": "Successfully decoded model response.", "model_response_decoded": calls},
			}
			for _, r := range s.Execute(calls) {
				msgs = append(msgs, map[string]any{"role": "tool", "content": r})
			}
			turn[fmt.Sprintf("step_%d", step)] = msgs
			step++
		}
		done := "Done."
		steps = append(steps, done)
		turn[fmt.Sprintf("step_%d", step)] = []any{
			map[string]any{"role": "assistant", "content": done},
			map[string]any{"role": "handler_log", "content": "Error decoding the model response. Proceed to next turn.", "error": "Invalid syntax"},
		}
		result = append(result, steps)
		log = append(log, turn)
	}
	return map[string]any{"id": e.ID, "result": result, "inference_log": log,
		"latency": [][]float64{{1.5}}, "input_token_count": [][]int{{100}}, "output_token_count": [][]int{{20}}}
}

// singleTurnRecord answers with the first acceptable value of every
// parameter (prompt mode: a Python call list).
func singleTurnRecord(t *testing.T, e *dataset.Entry, how string) map[string]any {
	t.Helper()
	var answers []map[string]map[string][]any
	dec := json.NewDecoder(bytes.NewReader(e.Answer))
	dec.UseNumber()
	if err := dec.Decode(&answers); err != nil {
		t.Fatalf("%s: %v", e.ID, err)
	}
	var calls []string
	for _, a := range answers {
		for fn, params := range a {
			keys := make([]string, 0, len(params))
			for k := range params {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			var args []string
			for i, k := range keys {
				var v any
				found := false
				for _, x := range params[k] {
					if x != "" {
						v, found = x, true
						break
					}
				}
				if !found {
					continue
				}
				if how == "wrong-value" && i == 0 {
					v = "not the expected value"
				}
				args = append(args, k+"="+pyLit(v))
			}
			calls = append(calls, fn+"("+strings.Join(args, ", ")+")")
		}
	}
	return map[string]any{"id": e.ID, "result": "[" + strings.Join(calls, ", ") + "]", "latency": 0.5,
		"input_token_count": 50, "output_token_count": 10}
}

// pyLit writes a JSON value as a Python literal.
func pyLit(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case json.Number:
		return x.String()
	case string:
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(x) + "'"
	case []any:
		parts := make([]string, len(x))
		for i, y := range x {
			parts[i] = pyLit(y)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = pyLit(k) + ": " + pyLit(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// scoreReference scores upstream's result set as `bfcl evaluate
// --partial-eval --mode fc --underscore-to-dot true` does.
func scoreReference(t *testing.T, src *dataset.Source, resultDir, scoreDir string) {
	t.Helper()
	yes := true
	if _, err := evaluate.Run(evaluate.Options{Source: src, ResultRoot: resultDir, ScoreRoot: scoreDir,
		Categories: category.All(), Mode: "fc", UnderscoreToDot: &yes, Partial: true}); err != nil {
		t.Fatal(err)
	}
}
