package jsonscan_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/store/jsonscan"
)

func members(s string) (map[string]string, error) {
	out := map[string]string{}
	err := jsonscan.ObjectMembers([]byte(s), func(k, v []byte) { out[string(k)] = string(v) })
	return out, err
}

var _ = Describe("ObjectMembers and ArrayElements", func() {
	It("split members and elements exactly, strings with escaped quotes and brackets included", func() {
		m, err := members(`{"id": "a\"}]", "f": [{"x": [1, {"y": "]"}]}, 2], "n": -1.5e3, "t": true, "z": null}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(m).To(Equal(map[string]string{`"id"`: `"a\"}]"`, `"f"`: `[{"x": [1, {"y": "]"}]}, 2]`, `"n"`: `-1.5e3`, `"t"`: `true`, `"z"`: `null`}))
		els, err := jsonscan.ArrayElements([]byte(m[`"f"`]))
		Expect(err).NotTo(HaveOccurred())
		Expect(els).To(HaveLen(2))
		Expect(string(els[0])).To(Equal(`{"x": [1, {"y": "]"}]}`))
		empty, err := jsonscan.ArrayElements([]byte(` [ ] `))
		Expect(err).NotTo(HaveOccurred())
		Expect(empty).To(BeEmpty())
	})

	It("refuse data after an array", func() {
		for _, s := range []string{`[1] x`, `[] ]`, `[[1]],`} {
			_, err := jsonscan.ArrayElements([]byte(s))
			Expect(err).To(MatchError(jsonscan.ErrMalformed), s)
		}
		els, err := jsonscan.ArrayElements([]byte(" [1, [2]] \n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(els).To(HaveLen(2))
	})

	It("read plain strings and lists of string lists as encoding/json does, or refuse", func() {
		for _, s := range []string{
			`[["cd(folder='a')", "ls()"], [], ["x"]]`, `[]`, `[[]]`, ` [ [ "a" ] ] `,
			`[["q\"uote"]]`, `[["\u00e9"]]`, `[["é"]]`, "[[\"\xff\"]]", `[[1]]`, `[["a"], "b"]`, `[["a"]] x`, `null`, `[null]`, `"s"`,
		} {
			var want [][]string
			wantErr := json.Unmarshal([]byte(s), &want)
			got, ok := jsonscan.PlainStringLists([]byte(s))
			if ok {
				Expect(wantErr).NotTo(HaveOccurred(), s)
				Expect(got).To(Equal(want), s)
			}
		}
		for _, s := range []string{`[["cd(folder='a')", "ls()"], [], ["x"]]`, `[]`, `[[]]`, ` [ [ "a" ] ] `, `[["é"]]`} {
			_, ok := jsonscan.PlainStringLists([]byte(s))
			Expect(ok).To(BeTrue(), s)
		}
		for _, s := range []string{`[["q\"uote"]]`, `[["\u00e9"]]`, "[[\"\xff\"]]", `[[1]]`, `[["a"], "b"]`, `[["a"]] x`, `null`} {
			_, ok := jsonscan.PlainStringLists([]byte(s))
			Expect(ok).To(BeFalse(), s)
		}
	})

	It("ends strings at the first quote after an even run of backslashes", func() {
		m, err := members(`{"a": "\\", "b": "q\\\"x\\\\", "c": "\"", "d": 1}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(m).To(Equal(map[string]string{`"a"`: `"\\"`, `"b"`: `"q\\\"x\\\\"`, `"c"`: `"\""`, `"d"`: `1`}))
		_, err = members(`{"a": "\\\"}`)
		Expect(err).To(MatchError(jsonscan.ErrMalformed))
	})

	DescribeTable("reject broken structure",
		func(s string) {
			_, err := members(s)
			Expect(err).To(MatchError(jsonscan.ErrMalformed))
		},
		Entry("unterminated string", `{"id": "abc}`),
		Entry("unbalanced", `{"id": [1, 2}`),
		Entry("missing colon", `{"id" "x"}`),
		Entry("trailing data", `{"id": 1} x`),
		Entry("not an object", `[1]`),
		Entry("truncated", `{"id": 1,`),
	)
})

// FuzzObjectMembers: never panics, and agrees with encoding/json on the
// member count of valid objects.
func FuzzObjectMembers(f *testing.F) {
	for _, s := range []string{`{}`, `{"a": 1}`, `{"a": [1, {"b": "}"}], "c": "\\""}`, `{"a"`, `[`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		err := jsonscan.ObjectMembers([]byte(s), func(k, v []byte) { n++ })
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &m) == nil && err == nil && n < len(m) {
			t.Fatalf("%q: %d members, encoding/json %d", s, n, len(m))
		}
	})
}

// compactAsEncodingJSON is what Compact must say: valid, and unchanged by
// json.Compact.
func compactAsEncodingJSON(b []byte) bool {
	var out bytes.Buffer
	return json.Valid(b) && json.Compact(&out, b) == nil && bytes.Equal(out.Bytes(), b)
}

var compactCases = []string{
	`{}`, `[]`, `{"a":1,"b":[true,false,null,-0.5e+3,"x\"y\\"]}`, `"\u00e9\ud83d"`, "\"\xff\"", `0`, `-0`, `1E5`,
	`{"a": 1}`, `[1, 2]`, ` 1`, `1 `, "[1,\n2]", `{"a":1,}`, `[1,]`, `01`, `1.`, `.5`, `-`, `tru`, `truex`, `nul`,
	`"\x"`, `"\u12g4"`, "\"a\tb\"", `"abc`, `{"a"1}`, `{1:2}`, ``, `[[]]]`, `{"a":{"b":[{"c":"d"}]}}`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
}

var _ = Describe("Compact", func() {
	It("says what json.Valid and json.Compact say together", func() {
		for _, c := range compactCases {
			Expect(jsonscan.Compact([]byte(c))).To(Equal(compactAsEncodingJSON([]byte(c))), c)
		}
	})
})

// FuzzCompact: Compact agrees with json.Valid + json.Compact.
func FuzzCompact(f *testing.F) {
	for _, c := range compactCases[:len(compactCases)-2] {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := jsonscan.Compact(b), compactAsEncodingJSON(b); got != want {
			t.Fatalf("Compact(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}
