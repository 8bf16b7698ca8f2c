package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// encodingJSON is what `bfcl exec` wrote before it wrote its lines itself.
func encodingJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	Expect(enc.Encode(v)).To(Succeed())
	return buf.Bytes()
}

var execStrings = []string{"", "plain", `quo"te \ back`, "tab\tnl\ncr\r\b\f\x01\x1f\x7f", "<html>&", "é ü 日本 😀",
	"\u2028\u2029", "bad \xff\xfe utf-8", "{\"a\": [1, 2.5]}"}

var _ = Describe("exec's output lines", func() {
	It("are the bytes encoding/json writes", func() {
		outs := []execOutput{
			{ID: "", Error: "line 3: malformed request: x", Turns: []execTurn{}},
			{ID: "multi_turn_base_0", Category: "multi_turn_base", InvolvedClasses: []string{"GorillaFileSystem", "TwitterAPI"},
				InitialState: map[string]json.RawMessage{"TwitterAPI": json.RawMessage(`{"a":1}`), "GorillaFileSystem": json.RawMessage(`{"$tuple":[1,"x"]}`)},
				Turns: []execTurn{
					{Turn: 0, Calls: []string{"cd(folder='a')"}, Results: []string{`{"current_working_directory": "a"}`, "None"},
						State: map[string]json.RawMessage{"B": json.RawMessage(`[]`), "A": json.RawMessage(`{"s":"\u00e9"}`)}},
					{Turn: 1, Calls: []string{}, Results: nil, State: map[string]json.RawMessage{}},
					{Turn: 2, Calls: nil, Results: []string{}, State: nil},
				}},
			{ID: "multi_turn_long_context_1", LongContext: true, Turns: []execTurn{}, Error: "no entry"},
		}
		for _, s := range execStrings {
			outs = append(outs, execOutput{ID: s, Category: category.Category(s), InvolvedClasses: []string{s}, Error: s,
				Turns: []execTurn{{Calls: []string{s}, Results: []string{s}, State: map[string]json.RawMessage{s: json.RawMessage(`0`)}}}})
		}
		for _, o := range outs {
			Expect(string(o.appendJSON(nil))).To(Equal(string(encodingJSON(o))))
		}
	})
})

func FuzzExecJSONString(f *testing.F) {
	for _, s := range execStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Skip()
		}
		want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		if got := appendGoJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendGoJSONString(%q) = %s, encoding/json writes %s", s, got, want)
		}
	})
}
