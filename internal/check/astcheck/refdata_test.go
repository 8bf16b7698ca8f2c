package astcheck_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/onsi/ginkgo/v2"

	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// This file is the test-only reader of the dataset, the reference result
// files and upstream's reference verdicts.

// singleTurnCategories are the 13 categories with their result group.
var singleTurnCategories = []struct{ name, group string }{
	{"simple_python", "non_live"}, {"simple_java", "non_live"}, {"simple_javascript", "non_live"},
	{"multiple", "non_live"}, {"parallel", "non_live"}, {"parallel_multiple", "non_live"},
	{"irrelevance", "non_live"},
	{"live_simple", "live"}, {"live_multiple", "live"}, {"live_parallel", "live"},
	{"live_parallel_multiple", "live"}, {"live_irrelevance", "live"}, {"live_relevance", "live"},
}

const (
	refRun   = "2025-11-12-harmony-fixes-2"
	refModel = "openai_gpt-oss-120b"
)

// readLines returns the non-empty lines of a JSON Lines file.
func readLines(path string) ([]json.RawMessage, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []json.RawMessage
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		out = append(out, append(json.RawMessage(nil), line...))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

func idOf(line json.RawMessage) (string, error) {
	var x struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(line, &x); err != nil {
		return "", err
	}
	return x.ID, nil
}

type refVerdict struct {
	ID        string  `json:"id"`
	Valid     bool    `json:"valid"`
	ErrorType *string `json:"error_type"`
	Error     *string `json:"error"`
}

type refCase struct {
	category string
	id       string
	entry    json.RawMessage
	answer   json.RawMessage // nil for relevance categories
	result   json.RawMessage // the whole result line
	want     refVerdict
}

type refCategory struct {
	name      string
	cases     []refCase
	official  officialScore
	hasScores bool
}

type officialScore struct {
	Accuracy     float64           `json:"accuracy"`
	CorrectCount int               `json:"correct_count"`
	TotalCount   int               `json:"total_count"`
	Failed       map[string]string `json:"failed"`
	ResultFile   string            `json:"result_file"`
}

// loadReference loads every single-turn category. It returns an error
// naming the missing directory when the reference or dataset is absent.
func loadReference() ([]refCategory, error) {
	data, _ := testenv.DataDir()
	ref, _ := testenv.ReferenceDir()
	if data == "" || ref == "" {
		return nil, fmt.Errorf("cannot locate the module root to find ../shared (set BFCL_DATA_DIR and BFCL_REFERENCE_DIR)")
	}
	for _, d := range []string{filepath.Join(data, "data"), filepath.Join(ref, "ast_verdicts"), filepath.Join(ref, "results")} {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("reference input %s is absent (BFCL_DATA_DIR=%q BFCL_REFERENCE_DIR=%q)", d, data, ref)
		}
	}
	official := map[string]officialScore{}
	offLines, err := readLines(filepath.Join(ref, "ast_verdicts", "official_scores.jsonl"))
	if err != nil {
		return nil, err
	}
	for _, l := range offLines {
		var o officialScore
		if err := json.Unmarshal(l, &o); err != nil {
			return nil, fmt.Errorf("official_scores.jsonl: %w", err)
		}
		base := filepath.Base(o.ResultFile)
		official[base] = o
	}

	var out []refCategory
	for _, c := range singleTurnCategories {
		file := "BFCL_v4_" + c.name + ".json"
		entries, err := readLines(filepath.Join(data, "data", file))
		if err != nil {
			return nil, err
		}
		byID := map[string]int{}
		for i, e := range entries {
			id, err := idOf(e)
			if err != nil {
				return nil, fmt.Errorf("%s line %d: %w", file, i+1, err)
			}
			byID[id] = i
		}
		var answers []json.RawMessage
		relevanceCat := c.name == "irrelevance" || c.name == "live_irrelevance" || c.name == "live_relevance"
		if !relevanceCat {
			answers, err = readLines(filepath.Join(data, "data", "possible_answer", file))
			if err != nil {
				return nil, err
			}
			if len(answers) != len(entries) {
				return nil, fmt.Errorf("%s: %d entries but %d possible answers", file, len(entries), len(answers))
			}
		}
		resultFile := "BFCL_v4_" + c.name + "_result.json"
		results, err := readLines(filepath.Join(ref, "results", "results", refRun, "result", refModel, c.group, resultFile))
		if err != nil {
			return nil, err
		}
		verdictLines, err := readLines(filepath.Join(ref, "ast_verdicts", "results", refRun, "result", refModel, c.group, "BFCL_v4_"+c.name+"_verdicts.jsonl"))
		if err != nil {
			return nil, err
		}
		wantByID := map[string]refVerdict{}
		for _, l := range verdictLines {
			var v refVerdict
			if err := json.Unmarshal(l, &v); err != nil {
				return nil, fmt.Errorf("verdicts of %s: %w", c.name, err)
			}
			wantByID[v.ID] = v
		}
		rc := refCategory{name: c.name}
		rc.official, rc.hasScores = official[resultFile]
		for _, r := range results {
			id, err := idOf(r)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", resultFile, err)
			}
			i, found := byID[id]
			if !found {
				return nil, fmt.Errorf("%s: result id %s is not in the dataset", resultFile, id)
			}
			want, found := wantByID[id]
			if !found {
				return nil, fmt.Errorf("%s: result id %s has no reference verdict", resultFile, id)
			}
			tc := refCase{category: c.name, id: id, entry: entries[i], result: r, want: want}
			if answers != nil {
				tc.answer = answers[i]
			}
			rc.cases = append(rc.cases, tc)
		}
		if len(rc.cases) != len(verdictLines) {
			return nil, fmt.Errorf("%s: %d results but %d reference verdicts", c.name, len(rc.cases), len(verdictLines))
		}
		out = append(out, rc)
	}
	return out, nil
}

// skipLoudly skips a spec whose reference input is missing, printing the
// reason to stderr so it shows without -v. With BFCL_REQUIRE_REFERENCE set
// (e.g. in CI) the spec fails instead.
func skipLoudly(msg string) {
	if os.Getenv("BFCL_REQUIRE_REFERENCE") != "" {
		ginkgo.Fail(msg + " (BFCL_REQUIRE_REFERENCE is set)")
	}
	fmt.Fprintln(os.Stderr, "SKIPPED: "+msg)
	ginkgo.Skip(msg)
}
