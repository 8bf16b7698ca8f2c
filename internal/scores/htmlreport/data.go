package htmlreport

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/scores/explain"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/jsonscan"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"golang.org/x/sync/errgroup"
)

// payload is what the page embeds (short keys: it is repeated per entry).
type payload struct {
	Version   int               `json:"v"`
	Title     string            `json:"title"`
	ScoreDir  string            `json:"score_dir"`
	ResultDir string            `json:"result_dir,omitempty"`
	HasData   bool              `json:"has_data"`
	Summary   json.RawMessage   `json:"summary"` // summary.json as written (intervals included when present)
	Cats      []catInfo         `json:"cats"`
	Models    []modelData       `json:"models"`
	Strs      []string          `json:"strs"` // interned function documents
	Entries   map[string]*ent   `json:"entries"`
	Fails     []failure         `json:"fails"`
	Results   []json.RawMessage `json:"results"`
	Compare   []pairData        `json:"compare,omitempty"` // bfcl compare of model pairs (compare.go)
}

type catInfo struct {
	Name  string `json:"name"`
	Group string `json:"group"` // scoring group ("" for live_relevance, format_sensitivity)
	Label string `json:"label"` // spec label (non_live, live, irrelevance, multi_turn, agentic, format_sensitivity)
	Size  int    `json:"size"`  // entries in the data set
}

type modelData struct {
	Name   string                         `json:"name"`
	Scores map[category.Category]catScore `json:"scores"` // score-file headers
	Rows   []row                          `json:"rows"`   // entries, canonical order
	Notes  map[string]string              `json:"notes,omitempty"`
	Missed map[string]int                 `json:"missed,omitempty"` // categories whose passed entries are unknown: count
}

type catScore struct {
	Correct  int     `json:"c"`
	Total    int     `json:"t"`
	Accuracy float64 `json:"a"`
	File     string  `json:"file"` // score file, relative to the score folder
}

// row is one entry of one model: [id, category index, 1 passed / 0 failed,
// error type, failure index or -1, result index or -1].
type row [6]any

// ent is one data-set entry.
type ent struct {
	Cat       category.Category `json:"c"`
	File      string            `json:"file"`
	Line      int               `json:"line"`
	Question  any               `json:"q"`
	Funcs     []int             `json:"f"`            // indexes into strs
	Answer    json.RawMessage   `json:"gt,omitempty"` // ground truth as the data set states it
	Classes   []string          `json:"cls,omitempty"`
	Missed    map[int][]string  `json:"miss,omitempty"`
	GTResults [][]string        `json:"gtr,omitempty"` // multi-turn: the ground truth's execution results per turn
	GTError   string            `json:"gterr,omitempty"`
	Initial   json.RawMessage   `json:"init,omitempty"`
}

type failure struct {
	Line    json.RawMessage  `json:"s"` // the score line (prompt dropped when the data set has the entry)
	File    string           `json:"file"`
	LineNo  int              `json:"n"`
	Explain *explain.Failure `json:"x"`
	hasLog  bool             // the score line has a non-empty inference_log
}

// modelCategory names one score file: a model's category.
type modelCategory struct {
	model string
	c     category.Category
}

func build(o Options) (*payload, error) {
	p := &payload{Version: 1, Title: o.Title, ScoreDir: o.ScoreDir, ResultDir: o.ResultDir, HasData: o.Source != nil,
		Entries: map[string]*ent{}}
	if p.Title == "" {
		p.Title = "BFCL report — " + filepath.Base(filepath.Clean(o.ScoreDir))
	}
	sum, err := o.Summary, error(nil)
	if sum == nil {
		sum, err = os.ReadFile(filepath.Join(o.ScoreDir, report.FileSummaryJSON))
	}
	switch {
	case err == nil:
		var probe report.JSONSummary
		if err := json.Unmarshal(sum, &probe); err != nil {
			return nil, fmt.Errorf("htmlreport: %s: %w", filepath.Join(o.ScoreDir, report.FileSummaryJSON), err)
		}
		p.Summary = bytes.TrimSpace(sum)
	case errors.Is(err, fs.ErrNotExist):
		p.Summary = json.RawMessage("null")
	default:
		return nil, fmt.Errorf("htmlreport: %w", err)
	}
	catIdx := map[category.Category]int{}
	for _, c := range category.All() {
		g, _ := c.ScoringGroup()
		catIdx[c] = len(p.Cats)
		p.Cats = append(p.Cats, catInfo{Name: string(c), Group: string(g), Label: string(c.SpecLabel()), Size: c.EntryCount()})
	}
	scores, err := report.ReadScoreDir(o.ScoreDir)
	if err != nil {
		return nil, err // names the score folder ("report: reading score folder: ...")
	}
	// What this process scored replaces the files it wrote.
	mem := map[modelCategory]*report.Scored{}
	gtRecorded := map[string][][]string{}
	for i := range o.Scored {
		sc := &o.Scored[i]
		mem[modelCategory{sc.Model, sc.Category}] = sc
		for id, r := range sc.GroundTruth {
			gtRecorded[id] = r
		}
		found := false
		for k, s := range scores[sc.Model] {
			if s.Category == sc.Category {
				scores[sc.Model][k], found = sc.Score, true
			}
		}
		if !found {
			scores[sc.Model] = append(scores[sc.Model], sc.Score)
		}
	}
	names := make([]string, 0, len(scores))
	for m := range scores {
		if len(scores[m]) > 0 {
			names = append(names, m)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("htmlreport: no score files under %s (expected <model>/<group>/%s_<category>_score.json)", o.ScoreDir, category.VersionPrefix)
	}

	strIdx := map[string]int{}
	intern := func(s string) int {
		if i, ok := strIdx[s]; ok {
			return i
		}
		strIdx[s] = len(p.Strs)
		p.Strs = append(p.Strs, s)
		return len(p.Strs) - 1
	}
	// The data set's entries of every category some model was scored on;
	// the page embeds those of them some model has a row for.
	entries := map[string]*dataset.Entry{}
	byCat := map[category.Category][]string{}
	if o.Source != nil {
		need := map[category.Category]bool{}
		for _, m := range names {
			for _, s := range scores[m] {
				need[s.Category] = true
			}
		}
		for _, c := range category.All() {
			if !need[c] {
				continue
			}
			es, err := o.Source.LoadCategory(c)
			if err != nil {
				return nil, fmt.Errorf("htmlreport: data set: %w", err)
			}
			for _, e := range es {
				entries[e.ID] = e
				byCat[c] = append(byCat[c], e.ID)
			}
		}
	}

	// Every score file's failed lines are parsed concurrently (one worker
	// per CPU), then taken in model and category order.
	var files []modelCategory
	for _, m := range names {
		for _, s := range scores[m] {
			files = append(files, modelCategory{m, s.Category})
		}
	}
	parsed := make([][]failure, len(files))
	parseErr := make([]error, len(files)) // reported in file order
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, f := range files {
		g.Go(func() error {
			parsed[i], parseErr[i] = readFailures(o.ScoreDir, f.model, f.c, entries, mem[f])
			return nil
		})
	}
	_ = g.Wait()
	next := 0
	for _, m := range names {
		md := modelData{Name: m, Scores: map[category.Category]catScore{}}
		for _, s := range scores[m] {
			md.Scores[s.Category] = catScore{Correct: s.Correct, Total: s.Total, Accuracy: s.Accuracy,
				File: filepath.ToSlash(filepath.Join(m, s.Category.ScorePath()))}
		}
		for _, s := range scores[m] {
			c := s.Category
			sc := mem[modelCategory{m, c}]
			if parseErr[next] != nil {
				return nil, parseErr[next]
			}
			var failed []failedRef
			for _, f := range parsed[next] {
				failed = append(failed, failedRef{id: f.Explain.ID, index: len(p.Fails)})
				p.Fails = append(p.Fails, f)
			}
			next++
			ids, recs, err := p.entryIDs(o, m, c, byCat[c], s, sc)
			if err != nil {
				return nil, err
			}
			if ids == nil { // passed entries unknown: list the failures only
				if md.Missed == nil {
					md.Missed = map[string]int{}
				}
				md.Missed[string(c)] = s.Correct
				for _, f := range failed {
					ids = append(ids, f.id)
				}
			}
			fidx := map[string]int{}
			for _, f := range failed {
				fidx[f.id] = f.index
			}
			for _, id := range ids {
				fi, bad := fidx[id]
				ok, et := 1, ""
				if bad {
					ok, et = 0, p.Fails[fi].Explain.ErrorType
				} else {
					fi = -1
				}
				ri := -1
				if r, have := recs[id]; have {
					if bad && p.Fails[fi].hasLog {
						r = dropKeys(r, "inference_log") // the score line carries it
					}
					ri = len(p.Results)
					p.Results = append(p.Results, r)
				}
				md.Rows = append(md.Rows, row{id, catIdx[c], ok, et, fi, ri})
			}
		}
		p.Models = append(p.Models, md)
	}
	shown := map[string]bool{}
	for _, md := range p.Models {
		for _, r := range md.Rows {
			shown[r[0].(string)] = true
		}
	}
	for _, c := range category.All() {
		for _, id := range byCat[c] {
			if !shown[id] {
				continue
			}
			e := entries[id]
			pe := &ent{Cat: e.Category, File: e.File, Line: e.Line, Question: e.Question, Answer: e.Answer,
				Classes: e.InvolvedClasses, Missed: e.MissedFunction, Initial: e.InitialConfig}
			if pe.Question == nil {
				pe.Question = [][]dataset.Message{}
			}
			for _, f := range e.Functions {
				pe.Funcs = append(pe.Funcs, intern(string(f)))
			}
			if c.IsMultiTurn() {
				if r, ok := gtRecorded[e.ID]; ok {
					pe.GTResults = r
				} else if o.GroundTruth != nil {
					var err error
					if pe.GTResults, err = o.GroundTruth(e); err != nil {
						pe.GTError = err.Error()
					}
				}
			}
			p.Entries[e.ID] = pe
		}
	}
	if p.Strs == nil {
		p.Strs = []string{}
	}
	if p.Results == nil {
		p.Results = []json.RawMessage{}
	}
	if p.Fails == nil {
		p.Fails = []failure{}
	}
	if p.Compare, err = comparisons(o.ScoreDir, names, o.Scored); err != nil {
		return nil, fmt.Errorf("htmlreport: %w", err)
	}
	return p, nil
}

type failedRef struct {
	id    string
	index int
}

// readFailures reads the failed-entry lines of one score file: sc's bytes
// when this process wrote it, else the file.
func readFailures(scoreDir, model string, c category.Category, entries map[string]*dataset.Entry, sc *report.Scored) ([]failure, error) {
	path := report.ScoreFilePath(scoreDir, model, c)
	var br *bufio.Reader
	if sc != nil {
		br = bufio.NewReader(bytes.NewReader(sc.File))
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("htmlreport: %w", err)
		}
		defer f.Close()
		br = bufio.NewReaderSize(f, 1<<20)
	}
	rel := filepath.ToSlash(filepath.Join(model, c.ScorePath()))
	var out []failure
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		line = bytes.TrimSpace(line)
		if n > 1 && len(line) > 0 {
			line = shrinkStrings(line, rel)
			x, perr := explain.Parse(line)
			if perr != nil {
				return nil, fmt.Errorf("htmlreport: %s:%d: %w", path, n, perr)
			}
			if x.Model == "" {
				x.Model = model
			}
			s := json.RawMessage(append([]byte(nil), line...))
			if _, ok := entries[x.ID]; ok {
				s = dropKeys(s, "prompt")
			}
			out = append(out, failure{Line: s, File: rel, LineNo: n, Explain: x, hasLog: hasInferenceLog(s)})
		}
		if err != nil {
			break
		}
	}
	return out, nil
}

// entryIDs lists a category's entries for one model in entry order: the
// result file's when there is one, else the data set's when the score
// covers all of it; nil when the passed entries cannot be known. recs holds
// the result lines (id dropped) when a result folder is given; sc's records
// when this process scored them.
func (p *payload) entryIDs(o Options, model string, c category.Category, dataIDs []string, s report.CategoryScore, sc *report.Scored) ([]string, map[string]json.RawMessage, error) {
	if o.ResultDir != "" {
		path := filepath.Join(o.ResultDir, model, filepath.FromSlash(c.ResultPath()))
		var recs []results.Record
		var err error
		if sc != nil && sc.Records != nil {
			recs = sc.Records
		} else {
			recs, err = results.Read(path)
		}
		if err == nil {
			ids := make([]string, 0, len(recs))
			m := make(map[string]json.RawMessage, len(recs))
			for _, r := range recs {
				if _, dup := m[r.ID]; dup {
					continue
				}
				ids = append(ids, r.ID)
				m[r.ID] = dropKeys(shrinkStrings(r.Raw, path), "id")
			}
			sort.SliceStable(ids, func(i, j int) bool { return category.CompareIDs(ids[i], ids[j]) < 0 })
			return ids, m, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("htmlreport: %w", err)
		}
	}
	if len(dataIDs) > 0 && len(dataIDs) == s.Total {
		ids := append([]string(nil), dataIDs...)
		sort.SliceStable(ids, func(i, j int) bool { return category.CompareIDs(ids[i], ids[j]) < 0 })
		return ids, nil, nil
	}
	return nil, nil, nil
}

// hasInferenceLog reports whether a score line carries a non-empty
// inference_log list.
func hasInferenceLog(line []byte) bool {
	has := false
	_ = jsonscan.ObjectMembers(line, func(key, val []byte) {
		if string(key) == `"inference_log"` {
			has = len(val) > 2 && val[0] == '['
		}
	})
	return has
}

// dropKeys removes top-level keys of a JSON object line, keeping the rest
// byte for byte (the line unchanged when it is not an object).
func dropKeys(line []byte, keys ...string) json.RawMessage {
	b := make([]byte, 0, len(line))
	b = append(b, '{')
	first := true
	err := jsonscan.ObjectMembers(line, func(key, val []byte) {
		var k string
		if bytes.IndexByte(key, '\\') < 0 {
			k = string(key[1 : len(key)-1])
		} else if json.Unmarshal(key, &k) != nil {
			k = ""
		}
		for _, d := range keys {
			if k == d {
				return
			}
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		kb, _ := json.Marshal(k)
		b = append(b, kb...)
		b = append(b, ':')
		b = append(b, val...)
	})
	if err != nil {
		return line
	}
	return append(b, '}')
}
