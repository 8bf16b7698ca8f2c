package dataset

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The direct decoders must agree with encoding/json wherever they accept
// a value, and refuse (leaving it to encoding/json) everything else.
var _ = ginkgo.Describe("direct decoding of question and answer lines", func() {
	questions := []string{
		`[[{"role": "user", "content": "hi"}]]`,
		`[]`, `[[]]`, `[[], [{"role": "system", "content": ""}]]`,
		` [ [ { "role" : "user" , "content" : "a\"b\\c\n\u00e9\ud83d\ude00" } ] ] `,
		`[[{"role": "user", "content": "x", "role": "assistant"}]]`,
		`[[{"content": "é ü 字"}]]`, `[[{}]]`,
		// refused: other keys, types, case, escapes in keys, bad JSON
		`[[{"Role": "user"}]]`, `[[{"role": null}]]`, `[[{"role": 1}]]`, `[[{"ro\u006ce": "x"}]]`,
		`[[{"role": "user", "extra": "x"}]]`, `[null]`, `null`, `[[{"role": "a"}],]`, `[[{"role": "a"}]`,
		`[[{"role": "a\x"}]]`, "[[{\"role\": \"a\tb\"}]]", "[[{\"role\": \"\xff\"}]]", `[[{"role": "a"}]] x`,
	}
	ginkgo.It("reads questions exactly as encoding/json does, or refuses", func() {
		for _, q := range questions {
			got, ok := decodeQuestion([]byte(q))
			var want [][]Message
			err := json.Unmarshal([]byte(q), &want)
			if ok {
				Expect(err).NotTo(HaveOccurred(), q)
				Expect(got).To(Equal(want), q)
			}
		}
		_, ok := decodeQuestion([]byte(`[[{"Role": "user"}]]`))
		Expect(ok).To(BeFalse())
		_, ok = decodeQuestion([]byte("[[{\"role\": \"a\tb\"}]]"))
		Expect(ok).To(BeFalse())
	})

	answers := []string{
		`{"id": "simple_python_0", "ground_truth": [{"f": {"a": [1, 2.5]}}]}`,
		`{"ground_truth": [], "id": "x_1", "other": {"y": null}}`,
		`{"id": "x_1", "id": "x_2", "ground_truth": 1}`,
		// refused
		`{"ID": "x_1", "ground_truth": 1}`, `{"id": "x_1", "ground_truth": null}`, `{"id": 3, "ground_truth": 1}`,
		`{"id": "x_1", "ground_truth": [1,]}`, `{"i\u0064": "x_1", "ground_truth": 1}`, `{"id": "", "ground_truth": 1}`,
		`{"id": "x_1"}`, `[1]`,
	}
	ginkgo.It("reads answer lines exactly as encoding/json does, or refuses", func() {
		for _, a := range answers {
			got, ok := decodeAnswer([]byte(a))
			var want rawAnswer
			err := json.Unmarshal([]byte(a), &want)
			if ok {
				Expect(err).NotTo(HaveOccurred(), a)
				Expect(got.ID).To(Equal(want.ID), a)
				Expect(string(got.GroundTruth)).To(Equal(string(want.GroundTruth)), a)
			}
		}
		_, ok := decodeAnswer([]byte(`{"ID": "x_1", "ground_truth": 1}`))
		Expect(ok).To(BeFalse())
	})

	ginkgo.It("decodes every line of the data set as encoding/json does", func() {
		dir := os.Getenv(EnvDataDir)
		if dir == "" {
			ginkgo.Skip("BFCL data set not found (BFCL_DATA_DIR)")
		}
		src, err := Open(dir)
		Expect(err).NotTo(HaveOccurred())
		files, err := filepath.Glob(filepath.Join(src.DataDir, "BFCL_v4_*.json"))
		Expect(err).NotTo(HaveOccurred())
		answerFiles, err := filepath.Glob(filepath.Join(src.DataDir, "possible_answer", "*.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(files).NotTo(BeEmpty())
		lines := 0
		for _, f := range append(files, answerFiles...) {
			if filepath.Base(f) == "BFCL_v4_format_sensitivity.json" {
				continue
			}
			Expect(src.jsonLines(f, f, func(_ int, b []byte) error {
				lines++
				if filepath.Base(filepath.Dir(f)) == "possible_answer" {
					got, ok := decodeAnswer(b)
					var want rawAnswer
					Expect(json.Unmarshal(b, &want)).To(Succeed())
					Expect(ok).To(BeTrue(), "%s: %.80s", f, b)
					Expect(got.ID).To(Equal(want.ID))
					Expect(string(got.GroundTruth)).To(Equal(string(want.GroundTruth)))
					return nil
				}
				got, err := decodeEntry(b)
				Expect(err).NotTo(HaveOccurred())
				var want rawEntry
				Expect(json.Unmarshal(b, &want)).To(Succeed())
				Expect(got.ID).To(Equal(want.ID), f)
				Expect(got.Question).To(Equal(want.Question), "%s %s", f, got.ID)
				return nil
			})).To(Succeed())
		}
		Expect(lines).To(BeNumerically(">", 5000))
	})
})
