package astcheck_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/astcheck"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// FuzzScoreFCArguments scores arbitrary FC argument text against the Java,
// JavaScript and Python fixture entries: the converters and checkers must
// return a verdict (or upstream's own exception), never panic.
func FuzzScoreFCArguments(f *testing.F) {
	dir := filepath.Join(testenv.ModuleRoot(), "fixtures", "ast", "data")
	type target struct {
		cat, fn       string
		entry, answer json.RawMessage
	}
	var targets []target
	for _, c := range []struct{ cat, id, fn string }{
		{"simple_java", "java_bool_true", "DataLoader_load"},
		{"simple_javascript", "js_dict", "submitForm"},
		{"simple_python", "dict_extra_key", "set_config"},
		{"simple_python", "list_of_dicts_in_order", "insert_rows"},
	} {
		entries, err := readLines(filepath.Join(dir, "BFCL_v4_"+c.cat+".json"))
		if err != nil {
			f.Skip("fixtures missing: " + err.Error())
		}
		answers, _ := readLines(filepath.Join(dir, "possible_answer", "BFCL_v4_"+c.cat+".json"))
		for i, e := range entries {
			if id, _ := idOf(e); id == c.id {
				targets = append(targets, target{c.cat, c.fn, e, answers[i]})
			}
		}
	}
	for _, s := range []string{
		`{"path": "data.csv", "names": "new String[]{a, b}", "props": "new HashMap<String, Object>() {{ put(\"k\", 1); }}"}`,
		`{"action": "x", "ids": "[[1, 2], [3]]", "opts": "{a: [1, 2], b: {c: 'd'}, e: 'f'}"}`,
		`{"config": {"mode": "fast", "level": 3}}`, `{"rows": [{"a": 1}, {"a": [2]}]}`,
		`{"ids": "new ArrayList<Long>(Arrays.asList(1L, 2L))", "size": "12L\n"}`,
	} {
		f.Add(s)
	}
	opts := decode.Options{Spec: decode.Spec{Mode: decode.ModeFC, UnderscoreToDot: true}}
	f.Fuzz(func(t *testing.T, args string) {
		for _, tg := range targets {
			result, _ := json.Marshal([]map[string]string{{tg.fn: args}})
			line, _ := json.Marshal(map[string]json.RawMessage{"id": json.RawMessage(`"fuzz"`), "result": result})
			_, err := astcheck.ScoreEntry(category.Category(tg.cat), tg.entry, tg.answer, line, opts)
			var ue *astcheck.UpstreamError
			if err != nil && !errors.As(err, &ue) {
				t.Fatalf("%s: %v", tg.cat, err)
			}
		}
	})
}
