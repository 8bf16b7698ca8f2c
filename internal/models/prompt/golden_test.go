package prompt_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// The fixtures under fixtures/prompt were produced by running upstream's
// own Python functions (formulate_system_prompt, format_function_doc,
// system_prompt_pre_processing_chat_model, format_execution_results_prompting,
// default_decode_ast_prompting) on the pinned data set; see README.md there.

func fixture(name string) string {
	return filepath.Join(testenv.ModuleRoot(), "fixtures", "prompt", name)
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:16]
}

// readTSV returns the non-comment lines of a fixture, split on tabs.
func readTSV(name string) [][]string {
	f, err := os.Open(fixture(name))
	Expect(err).NotTo(HaveOccurred(), "fixture %s", name)
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			rows = append(rows, strings.Split(line, "\t"))
		}
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	Expect(rows).NotTo(BeEmpty(), "fixture %s has no rows", name)
	return rows
}

func openData() *dataset.Source {
	dir, ok := testenv.DataDir()
	if !ok {
		Skip(testenv.MissingMessage("BFCL data set", dir, dataset.EnvDataDir))
	}
	src, err := dataset.Open(dir)
	Expect(err).NotTo(HaveOccurred())
	return src
}

var _ = Describe("system prompts against upstream's output", func() {
	It("reproduces the system prompt of all 5,200 format-sensitivity entries (ids, order, double hint, all 26 configurations)", func() {
		src := openData()
		entries, err := prompt.FormatSensitivityEntries(src)
		Expect(err).NotTo(HaveOccurred())
		Expect(entries).To(HaveLen(category.FormatSensitivity.EntryCount()))
		rows := readTSV("format_sensitivity_system_prompts.tsv")
		Expect(rows).To(HaveLen(200))
		configs := prompt.AllConfigs()
		mismatches := 0
		for r, row := range rows {
			Expect(row).To(HaveLen(1 + len(configs)))
			for c := range configs {
				e := entries[r*len(configs)+c]
				idx, want, _ := strings.Cut(row[1+c], ":")
				Expect(e.ID).To(Equal(prompt.FormatSensitivityID(atoi(idx), configs[c], row[0])))
				Expect(e.Category).To(Equal(category.FormatSensitivity))
				view, err := dataset.InferenceView(e)
				Expect(err).NotTo(HaveOccurred())
				cfg, err := prompt.ConfigOfEntry(e.ID)
				Expect(err).NotTo(HaveOccurred())
				got, err := prompt.SystemPrompt(cfg, view.Functions)
				Expect(err).NotTo(HaveOccurred(), e.ID)
				if digest(got) != want {
					mismatches++
					if mismatches <= 5 {
						AddReportEntry("mismatch", e.ID)
					}
				}
			}
		}
		Expect(mismatches).To(BeZero(), "system prompts differing from upstream")
	})

	It("reproduces the three function-doc formats for every entry of every other category", func() {
		src := openData()
		rows := readTSV("function_doc_digests.tsv")
		byCat := map[string][]*dataset.Entry{}
		checked, mismatches := 0, 0
		var bad []string
		for _, row := range rows {
			Expect(row).To(HaveLen(4))
			cat, err := category.FromEntryID(row[0])
			Expect(err).NotTo(HaveOccurred())
			entries, ok := byCat[string(cat)]
			if !ok {
				entries, err = src.Load(cat)
				Expect(err).NotTo(HaveOccurred())
				byCat[string(cat)] = entries
			}
			var e *dataset.Entry
			for _, x := range entries {
				if x.ID == row[0] {
					e = x
					break
				}
			}
			Expect(e).NotTo(BeNil(), "entry %s not in the data set", row[0])
			view, err := dataset.InferenceView(e)
			Expect(err).NotTo(HaveOccurred())
			for i, f := range []string{prompt.DocPython, prompt.DocXML, prompt.DocJSON} {
				got, err := prompt.FormatFunctionDoc(view.Functions, f)
				Expect(err).NotTo(HaveOccurred(), "%s %s", row[0], f)
				checked++
				if digest(got) != row[1+i] {
					mismatches++
					if len(bad) < 10 {
						bad = append(bad, row[0]+" "+f)
					}
				}
			}
		}
		Expect(checked).To(Equal(3 * 5106))
		Expect(bad).To(BeEmpty())
		Expect(mismatches).To(BeZero())
	})

	It("matches the full texts of the samples byte for byte", func() {
		src := openData()
		entries, err := prompt.FormatSensitivityEntries(src)
		Expect(err).NotTo(HaveOccurred())
		readme, err := os.ReadFile(fixture("system/README.md"))
		Expect(err).NotTo(HaveOccurred())
		configs := prompt.AllConfigs()
		n := 0
		for _, e := range entries {
			_, cfg, srcID, err := prompt.SplitFormatSensitivityID(e.ID)
			Expect(err).NotTo(HaveOccurred())
			if !strings.Contains(string(readme), "source entry "+srcID+":") {
				continue
			}
			want, err := os.ReadFile(fixture("system/" + twoDigits(n) + ".txt"))
			Expect(err).NotTo(HaveOccurred())
			Expect(cfg).To(Equal(configs[n]))
			view, err := dataset.InferenceView(e)
			Expect(err).NotTo(HaveOccurred())
			got, err := prompt.SystemPrompt(cfg, view.Functions)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(string(want)), "configuration %d (%s)", n, cfg)
			n++
		}
		Expect(n).To(Equal(26))

		mt, err := src.Load("multi_turn_base")
		Expect(err).NotTo(HaveOccurred())
		view, err := dataset.InferenceView(mt[0])
		Expect(err).NotTo(HaveOccurred())
		for _, f := range []string{"python", "xml", "json"} {
			want, err := os.ReadFile(fixture("system/multi_turn_base_0." + f + ".txt"))
			Expect(err).NotTo(HaveOccurred())
			got, err := prompt.FormatFunctionDoc(view.Functions, f)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(string(want)), f)
		}
	})
})

func atoi(s string) int {
	n := 0
	for _, c := range s {
		Expect(c >= '0' && c <= '9').To(BeTrue(), "bad number %q", s)
		n = n*10 + int(c-'0')
	}
	return n
}

func twoDigits(n int) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }
