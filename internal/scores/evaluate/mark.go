package evaluate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/atomicfile"
)

// MarkFile, in a model's score folder, lists the categories whose score
// files were computed with a non-official option (--strict-irrelevance, a
// result folder's corrections or diagnostics), each with the reasons. It
// lives beside the score files so the mark stays when later evaluations
// refresh the CSVs and summary.json for other models or categories.
const MarkFile = "not_official.json"

// NotOfficialNote is the summary.json note (and table line) of a model
// with marked categories.
const NotOfficialNote = report.NotOfficialNote

// updateMarks records, for the categories just scored for model, the
// reasons their numbers are not the official ones ("" = official: the
// category's mark is removed).
func updateMarks(scoreRoot, model string, reasons map[category.Category]string) error {
	marks, err := readMarks(scoreRoot, model)
	if err != nil {
		return err
	}
	for c, why := range reasons {
		if why == "" {
			delete(marks, string(c))
		} else {
			marks[string(c)] = why
		}
	}
	p := filepath.Join(scoreRoot, model, MarkFile)
	if len(marks) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.MarshalIndent(marks, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(p, append(b, '\n'))
}

func readMarks(scoreRoot, model string) (map[string]string, error) {
	marks := map[string]string{}
	b, err := os.ReadFile(filepath.Join(scoreRoot, model, MarkFile))
	if errors.Is(err, fs.ErrNotExist) {
		return marks, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &marks); err != nil {
		return nil, fmt.Errorf("evaluate: %s: %w", filepath.Join(scoreRoot, model, MarkFile), err)
	}
	return marks, nil
}

// markNote is the one-line account of a model's marks ("" for none):
// the reasons, each with its categories.
func markNote(marks map[string]string) string {
	if len(marks) == 0 {
		return ""
	}
	byWhy := map[string][]string{}
	for c, why := range marks {
		byWhy[why] = append(byWhy[why], c)
	}
	whys := make([]string, 0, len(byWhy))
	for w := range byWhy {
		whys = append(whys, w)
	}
	sort.Strings(whys)
	parts := make([]string, 0, len(whys))
	for _, w := range whys {
		cs := byWhy[w]
		sort.Strings(cs)
		parts = append(parts, fmt.Sprintf("%s (%s)", w, strings.Join(cs, ", ")))
	}
	return "NOT the official score: " + strings.Join(parts, "; ")
}

// reasonsOf is why category c of a folder with configuration conf, scored
// with o, is not official ("" when it is).
func (o Options) reasonsOf(conf Configuration, c category.Category) string {
	var rs []string
	if o.StrictIrrelevance && c.IsMultiTurn() {
		rs = append(rs, "--strict-irrelevance")
	}
	rs = append(rs, conf.NonOfficial...)
	return strings.Join(rs, ", ")
}
