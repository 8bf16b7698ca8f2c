package report

import (
	"bytes"
	"encoding/json"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var respaceCases = []string{
	`{}`, `[]`, `""`, `0`, `-0.0`, `1e5`, `1E-7`, `2.50`, `123456789012345678901234567890`, `true`, `false`, `null`,
	`{"a":1,"b":[1,2.0,{"c":null}],"d":"x"}`,
	" { \"a\" : [ 1 , 2 ] ,\n\t\"b\" : { } }\r\n",
	`["\u00e9\n\"q\"\\ \/ \u2028 \ud83d\ude00", "é", "tab\there", "\u0001\u001f\u007f"]`,
	`{"k\"ey": "v:a,l]ue}", "n": [-1.5e-3, 3.0, 10, 1.0e+2]}`,
	`[[[[]]],{"":{"":""}}]`,
	"\"\xff\xfe invalid utf-8\"",
	`{"dup": 1, "dup": 2}`,
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
		if !json.Valid(b) {
			return
		}
		want, err := appendRespacedDecoder(nil, b)
		if err != nil {
			return
		}
		if got := respaceValid(nil, b); !bytes.Equal(got, want) {
			t.Fatalf("respace(%q) = %q, decoder writes %q", b, got, want)
		}
	})
}
