package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var respaceCases = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `-0.0`, `1e5`, `1E-7`, `2.50`, `123456789012345678901234567890`, `true`, `false`, `null`,
	`{"a":1,"b":[1,2.0,{"c":null}],"d":"x"}`,
	" { \"a\" : [ 1 , 2 ] ,\n\t\"b\" : { } }\r\n",
	`["\u00e9\n\"q\"\\ \/ \u2028 \ud83d\ude00", "é", "tab\there", "\u0001\u001f\u007f"]`,
	`{"k\"ey": "v:a,l]ue}", "n": [-1.5e-3, 3.0, 10, 1.0e+2]}`,
	`[[[[]]],{"":{"":""}}]`,
	"\"\xff\xfe invalid utf-8\"",
	`{"dup": 1, "dup": 2}`,
	`["a\nb\t\"c\"\\d\b\f\r é", "\/x", "\u000a\u001F\u0041", "é\n\u00e9"]`,
}

var _ = Describe("re-spacing JSON as json.dumps", func() {
	It("writes what the decoder-based writer writes, byte for byte", func() {
		for _, c := range respaceCases {
			want, err := appendRespacedDecoder(nil, []byte(c))
			Expect(err).NotTo(HaveOccurred(), c)
			got, err := appendRespaced(nil, []byte(c))
			Expect(err).NotTo(HaveOccurred(), c)
			Expect(string(got)).To(Equal(string(want)), c)
		}
	})
	It("writes numbers as Python re-dumps json.loads' values", func() {
		got, err := appendRespaced(nil, []byte(`[-0, -0.0, 0, -7, 1e2, 1.50]`))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(`[0, -0.0, 0, -7, 100.0, 1.5]`))
	})
	It("validates as json.Valid does", func() {
		deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
		for _, c := range append([]string{`{`, `[1,]`, `{"a" 1}`, `tru`, `truex`, `01`, `1.`, `-`, `.5`, `1e`, `"\x"`, `"\u12g4"`,
			"\"a\tb\"", `"\u00e9`, `{"a":1}x`, `[1 2]`, `{,}`, `{"a":1,}`, ` `, ``, `nul`, `[-0.0e+00]`, deep(10000), deep(10001)},
			respaceCases...) {
			r := respacer{b: []byte(c)}
			Expect(r.text()).To(Equal(json.Valid([]byte(c))), c)
		}
	})
	It("reports invalid JSON as the decoder does", func() {
		for _, c := range []string{`{`, `[1,]`, `{"a" 1}`, `tru`} {
			_, err := appendRespaced(nil, []byte(c))
			Expect(err).To(HaveOccurred(), c)
		}
	})
})

func FuzzRespace(f *testing.F) {
	for _, c := range respaceCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r := respacer{b: b}
		if ok := r.text(); ok != json.Valid(b) {
			t.Fatalf("respacer on %q: valid %v, json.Valid %v", b, ok, !ok)
		}
		if !json.Valid(b) {
			return
		}
		want, err := appendRespacedDecoder(nil, b)
		if err != nil {
			return
		}
		if got := (respacer{b: b}); !got.text() || !bytes.Equal(got.buf, want) {
			t.Fatalf("respace(%q) = %q, decoder writes %q", b, got.buf, want)
		}
	})
}

// BenchmarkRespace: an inference-log-like text of long strings.
func BenchmarkRespace(b *testing.B) {
	var parts []string
	for i := 0; i < 200; i++ {
		parts = append(parts, `{"role": "assistant", "content": "`+strings.Repeat("some words of a model's answer, ", 20)+`é", "n": 1.5, "calls": ["cd(folder='x')", 3]}`)
	}
	text := []byte("[" + strings.Join(parts, ", ") + "]")
	b.SetBytes(int64(len(text)))
	var buf []byte
	for b.Loop() {
		var err error
		if buf, err = appendRespaced(buf[:0], text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRespaceInferenceLogs: the inference logs of the reference run's
// multi-turn results (skipped without the reference folder).
func BenchmarkRespaceInferenceLogs(b *testing.B) {
	ref := os.Getenv("BFCL_REFERENCE_DIR")
	p := filepath.Join(ref, "results", "results", "2025-11-12-harmony-fixes-2", "result", "openai_gpt-oss-120b", "multi_turn", "BFCL_v4_multi_turn_base_result.json")
	data, err := os.ReadFile(p)
	if ref == "" || err != nil {
		b.Skip("no reference result file (BFCL_REFERENCE_DIR)")
	}
	var logs [][]byte
	for _, line := range bytes.Split(data, []byte("\n")) {
		var rec struct {
			Log json.RawMessage `json:"inference_log"`
		}
		if json.Unmarshal(line, &rec) == nil && len(rec.Log) > 0 {
			logs = append(logs, rec.Log)
		}
	}
	n := 0
	for _, l := range logs {
		n += len(l)
	}
	b.SetBytes(int64(n))
	var buf []byte
	for b.Loop() {
		for _, l := range logs {
			var err error
			if buf, err = appendRespaced(buf[:0], l); err != nil {
				b.Fatal(err)
			}
		}
	}
}
