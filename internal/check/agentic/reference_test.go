package agentic_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/agentic"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// refVerdict is one line of ../shared/reference/agentic/verdicts.
type refVerdict struct {
	ID           string  `json:"id"`
	Valid        bool    `json:"valid"`
	ErrorType    *string `json:"error_type"`
	ErrorMessage *string `json:"error_message"`
	CheckedStep  *int    `json:"checked_step"`
}

func readVerdicts(path string) ([]refVerdict, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []refVerdict
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var v refVerdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

// relDir is where a category's files live below results/<model>/agentic and
// below verdicts/.
func relDir(cat string) string {
	if strings.HasPrefix(cat, "memory_") {
		return filepath.Join("memory", strings.TrimPrefix(cat, "memory_"))
	}
	return ""
}

func compare(r agentic.Result, want refVerdict, steps int) []string {
	var d []string
	v := r.Verdict
	if v.Valid != want.Valid {
		d = append(d, fmt.Sprintf("valid %v, upstream %v", v.Valid, want.Valid))
	}
	wantType, wantMsg := "", ""
	if want.ErrorType != nil {
		wantType = *want.ErrorType
	}
	if want.ErrorMessage != nil {
		wantMsg = *want.ErrorMessage
	}
	if v.ErrorType != wantType {
		d = append(d, fmt.Sprintf("error_type %q, upstream %q", v.ErrorType, wantType))
	}
	if got := strings.Join(v.Errors, " "); got != wantMsg {
		d = append(d, fmt.Sprintf("error_message %q, upstream %q", got, wantMsg))
	}
	// checked_step: index of the step taken as the final answer among the
	// steps of the single turn.
	if want.CheckedStep != nil && (r.LastStep != *want.CheckedStep || r.LastStep >= steps) {
		d = append(d, fmt.Sprintf("checked step %d of %d, upstream %d", r.LastStep, steps, *want.CheckedStep))
	}
	return d
}

const refModel = "glyphh-ada-1.1"

var _ = Describe("verdicts on real model outputs", Label("reference"), func() {
	for _, cat := range []string{"web_search_base", "web_search_no_snippet", "memory_kv", "memory_vector", "memory_rec_sum"} {
		cat := cat
		It("reproduces upstream's verdict on every "+cat+" entry of "+refModel, func() {
			ref, ok := testenv.ReferenceDir()
			if !ok {
				Skip(testenv.MissingMessage("reference verdicts", ref, "BFCL_REFERENCE_DIR"))
			}
			dataDir, ok := testenv.DataDir()
			if !ok {
				Skip(testenv.MissingMessage("BFCL data set", dataDir, dataset.EnvDataDir))
			}
			base := filepath.Join(ref, "agentic")
			src, err := dataset.Open(dataDir)
			Expect(err).NotTo(HaveOccurred())
			entries, err := src.Load(category.Category(cat))
			Expect(err).NotTo(HaveOccurred())
			recs, err := results.Read(filepath.Join(base, "results", refModel, "agentic", relDir(cat), "BFCL_v4_"+cat+"_result.json"))
			Expect(err).NotTo(HaveOccurred())
			want, err := readVerdicts(filepath.Join(base, "verdicts", relDir(cat), "BFCL_v4_"+cat+"_verdicts.jsonl"))
			Expect(err).NotTo(HaveOccurred())
			Expect(want).To(HaveLen(len(entries)), "one verdict per dataset entry")
			Expect(recs).To(HaveLen(len(want)))
			byID := map[string]results.Record{}
			for _, r := range recs {
				byID[r.ID] = r
			}
			entryByID := map[string]*dataset.Entry{}
			for _, e := range entries {
				entryByID[e.ID] = e
			}
			agree, valid := 0, 0
			var problems []string
			for _, w := range want {
				e, ok := entryByID[w.ID]
				Expect(ok).To(BeTrue(), "verdict %s has no dataset entry", w.ID)
				rec, ok := byID[w.ID]
				Expect(ok).To(BeTrue(), "verdict %s has no result record", w.ID)
				r, err := agentic.Check(e, rec, agentic.Options{Spec: decode.Spec{Mode: "fc"}})
				Expect(err).NotTo(HaveOccurred(), w.ID)
				var turns [][]json.RawMessage
				Expect(json.Unmarshal(rec.Result, &turns)).To(Succeed(), w.ID)
				if r.Verdict.Valid {
					valid++
				}
				if d := compare(r, w, len(turns[0])); len(d) == 0 {
					agree++
				} else {
					problems = append(problems, w.ID+": "+strings.Join(d, "; "))
				}
			}
			line := fmt.Sprintf("%s: %d/%d verdicts agree; accuracy %d/%d = %.4f", cat, agree, len(want), valid, len(want), float64(valid)/float64(len(want)))
			fmt.Fprintln(GinkgoWriter, line)
			AddReportEntry(cat+" agreement", line)
			Expect(problems).To(BeEmpty(), line)
		})
	}
})
