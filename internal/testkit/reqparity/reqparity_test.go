package reqparity

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func mustDecode(t *testing.T, s string) any {
	v, err := decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEqual: values are compared key order aside and numbers as written,
// so an echoed 20000.0 is not 20000.
func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		equal bool
	}{
		{`{"a":1,"b":[1,{"c":null}]}`, `{"b":[1,{"c":null}],"a":1}`, true},
		{`{"x":20000.0}`, `{"x":20000}`, false},
		{`{"x":[]}`, `{}`, false},
		{`{"x":{}}`, `{"x":null}`, false},
		{`[1,2]`, `[2,1]`, false},
	} {
		if got := Equal(mustDecode(t, c.a), mustDecode(t, c.b)); got != c.equal {
			t.Errorf("Equal(%s, %s) = %v", c.a, c.b, got)
		}
	}
	if d := Diff(mustDecode(t, `{"m":[{"k":1}]}`), mustDecode(t, `{"m":[{"k":2}]}`)); !strings.Contains(d, "$.m[0].k") {
		t.Errorf("Diff names %q, want the path $.m[0].k", d)
	}
}

// TestServerCompare: a request equal to a row counts, a different one does
// not, and the reply to a request whose conversation leads into a longer
// row is that row's next assistant turn.
func TestServerCompare(t *testing.T) {
	rows := []Row{
		{HandlerKey: "k", EntryID: "e", Call: 0, API: APIChat, Body: json.RawMessage(`{"model":"m","messages":[{"role":"user","content":"q"}]}`),
			Answer: json.RawMessage(`{"role":"assistant","content":"x"}`)},
		{HandlerKey: "k", EntryID: "e", Call: 1, API: APIChat, Body: json.RawMessage(`{"model":"m","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"x"},{"role":"user","content":"r"}]}`),
			Answer: json.RawMessage(`{"role":"assistant","content":"` + DefaultText + `"}`)},
	}
	s, err := NewServer(rows, "m")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	post := func(body string) map[string]any {
		resp, err := http.Post(s.URL+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return out
	}
	r := post(`{"messages":[{"role":"user","content":"q"}],"model":"m"}`)
	msg := r["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
	if msg["content"] != "x" {
		t.Errorf("reply %v, want the row's answer x", msg)
	}
	post(`{"model":"m","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"x"},{"role":"user","content":"R"}]}`)
	res := s.Compare()
	if res.Equal != 1 || res.Total != 2 || len(res.Failures) != 1 || !strings.Contains(res.Failures[0], `"R"`) {
		t.Errorf("Compare = %+v, want 1/2 with the content difference named", res)
	}
}
