package htmlreport

import (
	"encoding/json"
	"strings"
	"testing"
)

// Issue 26, item 10: a result line of megabytes is embedded cut, with a
// note, as valid JSON; short lines are embedded as they are, uncopied.
func TestShrinkStrings(t *testing.T) {
	short := []byte(`{"id": "simple_python_0", "result": "short"}`)
	if got := shrinkStrings(short, "f.json"); &got[0] != &short[0] {
		t.Fatalf("a short line was copied or changed: %s", got)
	}
	for _, tc := range []struct {
		name, unit string
	}{
		{"ASCII", "x"},
		{"two-byte characters", "é"},
		{"escapes", `\"`},
		{"unicode escapes", `\u00e9`},
		{"four-byte characters", "😀"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			long := strings.Repeat(tc.unit, 3*maxShownString/len(tc.unit)+1)
			line := []byte(`{"id": "simple_python_3", "result": "` + long + `", "n": 1, "tail": "ok"}`)
			got := shrinkStrings(line, `result\m\BFCL_v4_simple_python_result.json`)
			var v struct {
				ID, Result, Tail string
				N                int
			}
			if err := json.Unmarshal(got, &v); err != nil {
				t.Fatalf("cut line is not JSON: %v\n%.300s", err, got)
			}
			if v.ID != "simple_python_3" || v.N != 1 || v.Tail != "ok" {
				t.Fatalf("other members changed: %+v", v)
			}
			if len(got) > maxShownString+200 {
				t.Fatalf("cut line has %d bytes, want about %d", len(got), maxShownString)
			}
			note := ` … [`
			i := strings.Index(v.Result, note)
			if i < 0 || !strings.HasSuffix(v.Result, ` more bytes: see result/m/BFCL_v4_simple_python_result.json]`) {
				t.Fatalf("no note at the end of the cut string: %q", v.Result[max(0, len(v.Result)-120):])
			}
			var whole string
			if err := json.Unmarshal([]byte(`"`+long+`"`), &whole); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(whole, v.Result[:i]) {
				t.Fatalf("the kept part is not the string's beginning")
			}
		})
	}
}
