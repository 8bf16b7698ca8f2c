// Package report turns verdicts into BFCL scores exactly as upstream's
// bfcl_eval/eval_checker/eval_runner.py and eval_runner_helper.py do: the
// per-category accuracy and score files, the group and overall scores of the
// leaderboard CSVs (data_overall.csv, data_live.csv, data_non_live.csv,
// data_multi_turn.csv, data_agentic.csv, data_format_sensitivity.csv), plus a
// JSON summary and a terminal table of our own.
package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/store/atomicfile"
)

// CategoryScore is the header of one score file: upstream's
// save_eval_results computes accuracy = correct_count / total_count.
type CategoryScore struct {
	Category category.Category
	Correct  int
	Total    int
	Accuracy float64
	// FormatSensitivity holds the extra header fields of the
	// format_sensitivity score file (nil for every other category).
	FormatSensitivity *FormatSensitivityStats
}

// FormatSensitivityStats are the extra header fields upstream's
// format_sensitivity_runner writes: spread of the per-configuration
// accuracies, in percentage points, rounded to 2 decimals, and the
// per-configuration scores in the order the configurations first appear.
type FormatSensitivityStats struct {
	MaxDelta float64 // round((max - min) * 100, 2)
	Variance float64 // round(statistics.variance * 100**2, 2)
	Std      float64 // round(statistics.stdev * 100, 2)
	Configs  []ConfigScore
}

// ConfigScore is one format-sensitivity configuration's score.
type ConfigScore struct {
	Config   string
	Correct  int
	Total    int
	Accuracy float64
}

// Config returns the score of one configuration.
func (s *FormatSensitivityStats) Config(cfg string) (ConfigScore, bool) {
	if s == nil {
		return ConfigScore{}, false
	}
	for _, c := range s.Configs {
		if c.Config == cfg {
			return c, true
		}
	}
	return ConfigScore{}, false
}

// sortedVerdicts validates the verdicts of one category and returns them in
// upstream's entry order (utils.sort_key; result files are loaded sorted).
func sortedVerdicts(cat category.Category, verdicts []verdict.Verdict) ([]verdict.Verdict, error) {
	if !cat.Valid() {
		return nil, fmt.Errorf("report: unknown test category %q", cat)
	}
	if len(verdicts) == 0 {
		return nil, fmt.Errorf("report: category %s: no verdicts (upstream divides by the entry count and fails on an empty result file)", cat)
	}
	seen := make(map[string]bool, len(verdicts))
	// FromEntryID depends only on the id's category part (RawFromEntryID),
	// which the entries of a file share: it is looked up once per part.
	byRaw := map[string]category.Category{}
	for _, v := range verdicts {
		if seen[v.ID] {
			return nil, fmt.Errorf("report: category %s: duplicate verdict for entry %q", cat, v.ID)
		}
		seen[v.ID] = true
		if v.Category != "" && v.Category != cat {
			return nil, fmt.Errorf("report: entry %q: verdict category %q, expected %q", v.ID, v.Category, cat)
		}
		raw := category.RawFromEntryID(v.ID)
		got, known := byRaw[raw]
		if !known || raw == v.ID {
			var err error
			if got, err = category.FromEntryID(v.ID); err != nil {
				return nil, fmt.Errorf("report: category %s: %w", cat, err)
			}
			byRaw[raw] = got
		}
		if got != cat {
			return nil, fmt.Errorf("report: entry %q belongs to category %s, not %s", v.ID, got, cat)
		}
	}
	// category.CompareIDs with each id's sort key computed once
	type keyed struct {
		v   verdict.Verdict
		key category.SortKey
		ok  bool
	}
	ks := make([]keyed, len(verdicts))
	for i, v := range verdicts {
		k, err := category.SortKeyOf(v.ID)
		ks[i] = keyed{v, k, err == nil}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		a, b := &ks[i], &ks[j]
		switch {
		case a.ok && b.ok:
			return a.key.Compare(b.key) < 0
		case a.ok != b.ok:
			return a.ok
		}
		return a.v.ID < b.v.ID
	})
	out := make([]verdict.Verdict, len(ks))
	for i := range ks {
		out[i] = ks[i].v
	}
	return out, nil
}

// Score computes a category's score from its verdicts (one per entry of the
// result file). Verdicts must belong to cat (by id and, when set, by their
// Category field) and have distinct ids.
func Score(cat category.Category, verdicts []verdict.Verdict) (CategoryScore, error) {
	vs, err := sortedVerdicts(cat, verdicts)
	if err != nil {
		return CategoryScore{}, err
	}
	return scoreSorted(cat, vs)
}

func scoreSorted(cat category.Category, vs []verdict.Verdict) (CategoryScore, error) {
	s := CategoryScore{Category: cat, Total: len(vs)}
	for _, v := range vs {
		if v.Valid {
			s.Correct++
		}
	}
	s.Accuracy = float64(s.Correct) / float64(s.Total)
	if cat.IsFormatSensitivity() {
		fs, err := formatSensitivityStats(vs)
		if err != nil {
			return CategoryScore{}, err
		}
		s.FormatSensitivity = fs
	}
	return s, nil
}

// formatSensitivityStats follows eval_runner.format_sensitivity_runner.
func formatSensitivityStats(vs []verdict.Verdict) (*FormatSensitivityStats, error) {
	st := &FormatSensitivityStats{}
	index := map[string]int{}
	for _, v := range vs {
		parts := strings.Split(v.ID, ":")
		if len(parts) != 3 {
			return nil, fmt.Errorf("report: format sensitivity entry %q: the id must have exactly two ':'", v.ID)
		}
		i, ok := index[parts[1]]
		if !ok {
			i = len(st.Configs)
			index[parts[1]] = i
			st.Configs = append(st.Configs, ConfigScore{Config: parts[1]})
		}
		st.Configs[i].Total++
		if v.Valid {
			st.Configs[i].Correct++
		}
	}
	accs := make([]float64, len(st.Configs))
	for i := range st.Configs {
		c := &st.Configs[i]
		c.Accuracy = float64(c.Correct) / float64(c.Total)
		accs[i] = c.Accuracy
	}
	if len(accs) > 1 {
		variance, err := pyVariance(accs)
		if err != nil {
			return nil, err
		}
		std, err := pyStdev(accs)
		if err != nil {
			return nil, err
		}
		lo, hi := accs[0], accs[0]
		for _, a := range accs {
			lo, hi = min(lo, a), max(hi, a)
		}
		st.Variance = pyRound(float64(variance*10000), 2)
		st.Std = pyRound(float64(std*100), 2)
		st.MaxDelta = pyRound(float64(float64(hi-lo)*100), 2)
	}
	return st, nil
}

// headerFields is the first line of a score file, in upstream's key order.
func (s CategoryScore) headerFields() verdict.Fields {
	fs := verdict.Fields{
		{Key: "accuracy", Value: s.Accuracy},
		{Key: "correct_count", Value: s.Correct},
		{Key: "total_count", Value: s.Total},
	}
	if st := s.FormatSensitivity; st != nil {
		fs = append(fs,
			verdict.Field{Key: "accuracy_max_delta", Value: st.MaxDelta},
			verdict.Field{Key: "accuracy_variance", Value: st.Variance},
			verdict.Field{Key: "accuracy_std", Value: st.Std})
		for _, c := range st.Configs {
			fs = append(fs, verdict.Field{Key: c.Config, Value: verdict.Fields{
				{Key: "accuracy", Value: c.Accuracy},
				{Key: "correct_count", Value: c.Correct},
				{Key: "total_count", Value: c.Total},
			}})
		}
	}
	return fs
}

// listMessageTypes are the multi-turn/agentic error types whose
// error_message upstream writes as a list (eval_runner's inference-phase
// errors); every other nested error_message is a string.
func listMessageType(errorType string) bool {
	switch errorType {
	case "multi_turn:inference_error", "multi_turn:force_terminated",
		"agentic:inference_error", "agentic:no_last_message":
		return true
	}
	return false
}

// failedEntryFields builds one failed-entry line of a score file in
// upstream's key order:
//
//   - AST categories (and format sensitivity): id, model_name,
//     test_category, valid, error (list), error_type, then Detail;
//   - relevance categories (eval_runner._evaluate_single_relevance_entry):
//     id, model_name, test_category, valid, Detail (prompt, model_result,
//     decoded_result), then error, error_type;
//   - multi-turn and agentic: id, model_name, test_category, valid, error
//     (an object: error_message, error_type, then the Detail field "details"
//     if any), then the other Detail fields (prompt, model_result_raw, ...,
//     inference_log). A Detail field keyed "error" replaces the constructed
//     object verbatim.
func failedEntryFields(model string, cat category.Category, v verdict.Verdict) (verdict.Fields, error) {
	fs := verdict.Fields{
		{Key: "id", Value: v.ID},
		{Key: "model_name", Value: model},
		{Key: "test_category", Value: string(cat)},
		{Key: "valid", Value: false},
	}
	errs := v.Errors
	if errs == nil {
		errs = []string{}
	}
	nested := cat.IsMultiTurn() || cat.IsAgentic()
	var detail verdict.Fields
	var override, details *verdict.Field
	for i := range v.Detail {
		f := v.Detail[i]
		switch f.Key {
		case "id", "model_name", "test_category", "valid", "error_type":
			return nil, fmt.Errorf("report: entry %q: Detail field %q collides with a fixed score-file key", v.ID, f.Key)
		case "error":
			if !nested {
				return nil, fmt.Errorf("report: entry %q: Detail field \"error\" is only allowed for multi-turn/agentic categories", v.ID)
			}
			override = &v.Detail[i]
		case "details":
			if nested {
				details = &v.Detail[i]
				continue
			}
			detail = append(detail, f)
		default:
			detail = append(detail, f)
		}
	}
	switch {
	case nested:
		var errVal any
		if override != nil {
			errVal = override.Value
		} else {
			var msg any = errs
			if !listMessageType(v.ErrorType) && len(errs) == 1 {
				msg = errs[0]
			}
			obj := verdict.Fields{{Key: "error_message", Value: msg}, {Key: "error_type", Value: v.ErrorType}}
			if details != nil {
				obj = append(obj, *details)
			}
			errVal = obj
		}
		fs = append(fs, verdict.Field{Key: "error", Value: errVal})
		fs = append(fs, detail...)
	case cat.IsRelevanceOrIrrelevance():
		fs = append(fs, detail...)
		fs = append(fs, verdict.Field{Key: "error", Value: errs}, verdict.Field{Key: "error_type", Value: v.ErrorType})
	default:
		fs = append(fs, verdict.Field{Key: "error", Value: errs}, verdict.Field{Key: "error_type", Value: v.ErrorType})
		fs = append(fs, detail...)
	}
	return fs, nil
}

// WriteScoreFile writes one category's score file to w, as upstream's
// save_eval_results + write_list_of_dicts_to_file do: the header line
// ({"accuracy": ..., "correct_count": ..., "total_count": ...}, plus the
// format-sensitivity statistics), then one line per failed entry in entry
// order, each line json.dumps(..., ensure_ascii=False) + "\n". model is the
// model's directory name (e.g. "openai_gpt-oss-120b"). It returns the score.
func WriteScoreFile(w io.Writer, model string, cat category.Category, verdicts []verdict.Verdict) (CategoryScore, error) {
	b, s, err := appendScoreFile(nil, model, cat, verdicts)
	if err != nil {
		return CategoryScore{}, err
	}
	if _, err := w.Write(b); err != nil {
		return CategoryScore{}, fmt.Errorf("report: writing score file of %s: %w", cat, err)
	}
	return s, nil
}

// appendScoreFile appends the content WriteScoreFile writes to buf.
func appendScoreFile(buf []byte, model string, cat category.Category, verdicts []verdict.Verdict) ([]byte, CategoryScore, error) {
	vs, err := sortedVerdicts(cat, verdicts)
	if err != nil {
		return nil, CategoryScore{}, err
	}
	s, err := scoreSorted(cat, vs)
	if err != nil {
		return nil, CategoryScore{}, err
	}
	if buf, err = appendFields(buf, s.headerFields()); err != nil {
		return nil, CategoryScore{}, err
	}
	buf = append(buf, '\n')
	var failed []verdict.Verdict
	for _, v := range vs {
		if !v.Valid {
			failed = append(failed, v)
		}
	}
	// The failed entries' lines are independent: large files (multi-turn
	// lines carry whole inference logs) are written in one chunk per CPU,
	// joined in order; the first error in entry order is reported.
	chunks := 1
	if len(failed) >= 64 {
		chunks = runtime.GOMAXPROCS(0)
	}
	parts := make([][]byte, chunks)
	errs := make([]error, chunks)
	var wg sync.WaitGroup
	for k := range chunks {
		lo, hi := k*len(failed)/chunks, (k+1)*len(failed)/chunks
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b []byte
			if k == 0 {
				// the first chunk's buffer has room for the others too:
				// they are appended to it in place
				b = slices.Grow(buf, linesSizeHint(failed))
			} else {
				b = make([]byte, 0, linesSizeHint(failed[lo:hi]))
			}
			for _, v := range failed[lo:hi] {
				fs, err := failedEntryFields(model, cat, v)
				if err == nil {
					b, err = appendFields(b, fs)
					if err != nil {
						err = fmt.Errorf("report: entry %q: %w", v.ID, err)
					}
				}
				if err != nil {
					errs[k] = err
					return
				}
				b = append(b, '\n')
			}
			parts[k] = b
		}()
	}
	wg.Wait()
	for k := range chunks {
		if errs[k] != nil {
			return nil, CategoryScore{}, errs[k]
		}
	}
	buf = parts[0]
	for _, p := range parts[1:] {
		buf = append(buf, p...)
	}
	return buf, s, nil
}

// linesSizeHint estimates the length of the score-file lines of vs from
// their raw JSON and string details (a multi-turn line is mostly its
// inference log and raw result), so that a chunk's buffer is rarely grown;
// a line with large structured details grows it.
func linesSizeHint(vs []verdict.Verdict) int {
	n := 0
	for _, v := range vs {
		n += 512
		for _, f := range v.Detail {
			switch x := f.Value.(type) {
			case json.RawMessage:
				n += len(x)
			case string:
				n += len(x)
			default:
				n += 256
			}
		}
	}
	return n + n/8
}

// ScoreFilePath is where upstream puts a category's score file:
// <scoreRoot>/<model>/<category folder>/BFCL_v4_<category>_score.json.
func ScoreFilePath(scoreRoot, model string, cat category.Category) string {
	return filepath.Join(scoreRoot, model, filepath.FromSlash(cat.ScorePath()))
}

// WriteScoreDirFile writes a category's score file at ScoreFilePath
// (creating folders; the file is replaced atomically) and returns the score.
func WriteScoreDirFile(scoreRoot, model string, cat category.Category, verdicts []verdict.Verdict) (CategoryScore, error) {
	s, err := WriteScored(scoreRoot, model, cat, verdicts)
	return s.Score, err
}

// WriteFileAtomic writes data to path atomically (internal/store/atomicfile).
func WriteFileAtomic(path string, data []byte) error {
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// ReadScoreDir reads the header line of every score file under
// <scoreRoot>/<model>/ (any depth, BFCL_v4_*_score.json), as upstream's
// update_leaderboard_table_with_local_score_file does before writing the
// CSVs. Files of names that are not test categories are ignored, like
// upstream's CSV generation ignores them. The result maps model directory
// names to scores in canonical category order.
func ReadScoreDir(scoreRoot string) (map[string][]CategoryScore, error) {
	ents, err := os.ReadDir(scoreRoot)
	if err != nil {
		return nil, fmt.Errorf("report: reading score folder: %w", err)
	}
	out := map[string][]CategoryScore{}
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		model := e.Name()
		files, err := modelScoreFiles(filepath.Join(scoreRoot, model))
		if err != nil {
			return nil, fmt.Errorf("report: reading scores of %s: %w", model, err)
		}
		var list []CategoryScore
		for _, c := range category.All() {
			p, ok := files[c]
			if !ok {
				continue
			}
			s, err := readScoreHeader(p, c)
			if err != nil {
				return nil, fmt.Errorf("report: reading scores of %s: %w", model, err)
			}
			list = append(list, s)
		}
		out[model] = list
	}
	return out, nil
}

// modelScoreFiles finds the score files of one model folder (any depth),
// by category; names that are not test categories are ignored.
func modelScoreFiles(dir string) (map[category.Category]string, error) {
	files := map[category.Category]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() || !strings.HasPrefix(name, category.VersionPrefix+"_") || !strings.HasSuffix(name, "_score.json") {
			return nil
		}
		cat := category.Category(strings.TrimSuffix(strings.TrimPrefix(name, category.VersionPrefix+"_"), "_score.json"))
		if cat.Valid() {
			files[cat] = p
		}
		return nil
	})
	return files, err
}

// Outcome is what a score file says about its entries: the header, and the
// ids of the failed entries (one line each after the header); every other
// scored entry passed.
type Outcome struct {
	Score  CategoryScore
	Failed []string // in file order
}

// ReadModelOutcomes reads every score file of <scoreRoot>/<model>/: the
// header and the failed ids of each category. A failed line without an id,
// an id of another category, a repeated id, or a count of failed lines that
// disagrees with the header is an error naming the file.
func ReadModelOutcomes(scoreRoot, model string) (map[category.Category]Outcome, error) {
	dir := filepath.Join(scoreRoot, model)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("report: no score folder %s", dir)
	}
	files, err := modelScoreFiles(dir)
	if err != nil {
		return nil, fmt.Errorf("report: reading scores of %s: %w", model, err)
	}
	out := map[category.Category]Outcome{}
	for c, p := range files {
		o, err := readOutcome(p, c)
		if err != nil {
			return nil, err
		}
		out[c] = o
	}
	return out, nil
}

func readOutcome(path string, cat category.Category) (Outcome, error) {
	var o Outcome
	s, err := VisitScoreFile(path, cat, func(id string, _ []byte) error {
		o.Failed = append(o.Failed, id)
		return nil
	})
	o.Score = s
	return o, err
}

// VisitScoreFile reads a score file of category cat: it returns the header
// and calls fn with the id and the whole line of every failed entry, in
// file order. A failed line without an id, an id of another category, a
// repeated id, or a count of failed lines that disagrees with the header is
// an error naming the file and line; so is an error from fn.
func VisitScoreFile(path string, cat category.Category, fn func(id string, line []byte) error) (CategoryScore, error) {
	f, err := os.Open(path)
	if err != nil {
		return CategoryScore{}, fmt.Errorf("report: %w", err)
	}
	defer f.Close()
	return visitScore(bufio.NewReaderSize(f, 1<<20), path, cat, fn)
}

// OutcomesOf are the per-category outcomes of one model's score files as
// this process wrote them (ReadModelOutcomes without reading them back).
func OutcomesOf(scored []Scored, model string) (map[category.Category]Outcome, error) {
	out := map[category.Category]Outcome{}
	for _, sc := range scored {
		if sc.Model != model {
			continue
		}
		var o Outcome
		s, err := visitScore(bufio.NewReader(bytes.NewReader(sc.File)), ScoreFilePath("", model, sc.Category), sc.Category, func(id string, _ []byte) error {
			o.Failed = append(o.Failed, id)
			return nil
		})
		if err != nil {
			return nil, err
		}
		o.Score = s
		out[sc.Category] = o
	}
	return out, nil
}

// visitScore is VisitScoreFile of the score file read by br (path names it
// in errors).
func visitScore(br *bufio.Reader, path string, cat category.Category, fn func(id string, line []byte) error) (CategoryScore, error) {
	var s CategoryScore
	seen := map[string]bool{}
	failed := 0
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return CategoryScore{}, fmt.Errorf("report: %s: %w", path, err)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if n == 1 {
				if s, err = ParseScoreHeader(cat, line); err != nil {
					return CategoryScore{}, fmt.Errorf("report: %s: %w", path, err)
				}
			} else {
				var l struct {
					ID *string `json:"id"`
				}
				if jerr := json.Unmarshal(line, &l); jerr != nil || l.ID == nil {
					return CategoryScore{}, fmt.Errorf("report: %s:%d: a failed-entry line must be a JSON object with an id", path, n)
				}
				id := *l.ID
				got, cerr := category.FromEntryID(id)
				if cerr != nil || got != cat {
					return CategoryScore{}, fmt.Errorf("report: %s:%d: entry %q is not an entry of %s", path, n, id, cat)
				}
				if seen[id] {
					return CategoryScore{}, fmt.Errorf("report: %s:%d: entry %q listed twice", path, n, id)
				}
				seen[id] = true
				failed++
				if ferr := fn(id, line); ferr != nil {
					return CategoryScore{}, fmt.Errorf("report: %s:%d: %w", path, n, ferr)
				}
			}
		} else if n == 1 && err == io.EOF {
			return CategoryScore{}, fmt.Errorf("report: %s: empty score file", path)
		}
		if err == io.EOF {
			break
		}
	}
	if s.Total-s.Correct != failed {
		return CategoryScore{}, fmt.Errorf("report: %s: the header counts %d failed entries but %d are listed", path, s.Total-s.Correct, failed)
	}
	return s, nil
}

func readScoreHeader(path string, cat category.Category) (CategoryScore, error) {
	f, err := os.Open(path)
	if err != nil {
		return CategoryScore{}, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil && err != io.EOF {
		return CategoryScore{}, fmt.Errorf("%s: %w", path, err)
	}
	return ParseScoreHeader(cat, line)
}

// ParseScoreHeader parses the first line of a score file.
func ParseScoreHeader(cat category.Category, line []byte) (CategoryScore, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	bad := func(why string) (CategoryScore, error) {
		return CategoryScore{}, fmt.Errorf("score header of %s: %s", cat, why)
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return bad("not a JSON object")
	}
	s := CategoryScore{Category: cat}
	var have int
	var fs FormatSensitivityStats
	fsSeen := false
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return bad(err.Error())
		}
		key, _ := kt.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return bad(err.Error())
		}
		switch key {
		case "accuracy":
			err = json.Unmarshal(raw, &s.Accuracy)
			have |= 1
		case "correct_count":
			err = json.Unmarshal(raw, &s.Correct)
			have |= 2
		case "total_count":
			err = json.Unmarshal(raw, &s.Total)
			have |= 4
		case "accuracy_max_delta":
			err, fsSeen = json.Unmarshal(raw, &fs.MaxDelta), true
		case "accuracy_variance":
			err, fsSeen = json.Unmarshal(raw, &fs.Variance), true
		case "accuracy_std":
			err, fsSeen = json.Unmarshal(raw, &fs.Std), true
		default:
			var c struct {
				Accuracy float64 `json:"accuracy"`
				Correct  int     `json:"correct_count"`
				Total    int     `json:"total_count"`
			}
			if json.Unmarshal(raw, &c) == nil && len(raw) > 0 && raw[0] == '{' {
				fs.Configs = append(fs.Configs, ConfigScore{Config: key, Correct: c.Correct, Total: c.Total, Accuracy: c.Accuracy})
				fsSeen = true
			}
		}
		if err != nil {
			return bad(fmt.Sprintf("field %q: %v", key, err))
		}
	}
	if have != 7 {
		return bad("accuracy, correct_count or total_count missing")
	}
	if fsSeen {
		s.FormatSensitivity = &fs
	}
	return s, nil
}

// FailedEntryLine is the score-file line WriteScoreFile writes for one
// failed verdict (without the trailing newline), for readers that want the
// line before the file exists (e.g. a failing spec's diagnostic).
func FailedEntryLine(model string, cat category.Category, v verdict.Verdict) ([]byte, error) {
	if v.Valid {
		return nil, fmt.Errorf("report: entry %q passed: score files hold only failed entries", v.ID)
	}
	fs, err := failedEntryFields(model, cat, v)
	if err != nil {
		return nil, err
	}
	line, err := appendFields(nil, fs)
	if err != nil {
		return nil, fmt.Errorf("report: entry %q: %w", v.ID, err)
	}
	return line, nil
}
