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
	"sort"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/scores/explain"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/sim"
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
	Name   string              `json:"name"`
	Scores map[string]catScore `json:"scores"` // score-file headers
	Rows   []row               `json:"rows"`   // entries, canonical order
	Notes  map[string]string   `json:"notes,omitempty"`
	Missed map[string]int      `json:"missed,omitempty"` // categories whose passed entries are unknown: count
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
	Cat       string           `json:"c"`
	File      string           `json:"file"`
	Line      int              `json:"line"`
	Question  any              `json:"q"`
	Funcs     []int            `json:"f"`            // indexes into strs
	Answer    json.RawMessage  `json:"gt,omitempty"` // ground truth as the data set states it
	Classes   []string         `json:"cls,omitempty"`
	Missed    map[int][]string `json:"miss,omitempty"`
	GTResults [][]string       `json:"gtr,omitempty"` // multi-turn: the ground truth's execution results per turn
	GTError   string           `json:"gterr,omitempty"`
	Initial   json.RawMessage  `json:"init,omitempty"`
}

type failure struct {
	Line    json.RawMessage  `json:"s"` // the score line (prompt dropped when the data set has the entry)
	File    string           `json:"file"`
	LineNo  int              `json:"n"`
	Explain *explain.Failure `json:"x"`
	hasLog  bool             // the score line has a non-empty inference_log
}

func build(o Options) (*payload, error) {
	p := &payload{Version: 1, Title: o.Title, ScoreDir: o.ScoreDir, ResultDir: o.ResultDir, HasData: o.Source != nil,
		Entries: map[string]*ent{}}
	if p.Title == "" {
		p.Title = "BFCL report — " + filepath.Base(filepath.Clean(o.ScoreDir))
	}
	sum, err := os.ReadFile(filepath.Join(o.ScoreDir, report.FileSummaryJSON))
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
	catIdx := map[string]int{}
	for _, c := range category.All() {
		g, _ := c.ScoringGroup()
		catIdx[string(c)] = len(p.Cats)
		p.Cats = append(p.Cats, catInfo{Name: string(c), Group: string(g), Label: string(c.SpecLabel()), Size: c.EntryCount()})
	}
	scores, err := report.ReadScoreDir(o.ScoreDir)
	if err != nil {
		return nil, err // names the score folder ("report: reading score folder: ...")
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
	// The data set's entries of every category some model was scored on.
	entries := map[string]*dataset.Entry{}
	byCat := map[category.Category][]string{}
	if o.Source != nil {
		need := map[category.Category]bool{}
		for _, m := range names {
			for _, s := range scores[m] {
				need[s.Category] = true
			}
		}
		var lc *longcontext.Data
		for _, c := range category.All() {
			if !need[c] {
				continue
			}
			es, err := prompt.LoadCategory(o.Source, string(c))
			if err != nil {
				return nil, fmt.Errorf("htmlreport: data set: %w", err)
			}
			if c.IsMultiTurn() && lc == nil {
				if lc, err = score.LongContextOf(o.Source); err != nil {
					return nil, fmt.Errorf("htmlreport: data set: %w", err)
				}
			}
			for _, e := range es {
				entries[e.ID] = e
				byCat[c] = append(byCat[c], e.ID)
				pe := &ent{Cat: e.Category, File: e.File, Line: e.Line, Question: e.Question, Answer: e.Answer,
					Classes: e.InvolvedClasses, Missed: e.MissedFunction, Initial: e.InitialConfig}
				if pe.Question == nil {
					pe.Question = [][]dataset.Message{}
				}
				for _, f := range e.Functions {
					pe.Funcs = append(pe.Funcs, intern(string(f)))
				}
				if c.IsMultiTurn() {
					pe.GTResults, err = groundTruthResults(e, lc)
					if err != nil {
						pe.GTError = err.Error()
					}
				}
				p.Entries[e.ID] = pe
			}
		}
	}

	for _, m := range names {
		md := modelData{Name: m, Scores: map[string]catScore{}}
		for _, s := range scores[m] {
			md.Scores[string(s.Category)] = catScore{Correct: s.Correct, Total: s.Total, Accuracy: s.Accuracy,
				File: filepath.ToSlash(filepath.Join(m, s.Category.ScorePath()))}
		}
		for _, s := range scores[m] {
			c := s.Category
			failed, err := p.readFailures(o.ScoreDir, m, c, entries)
			if err != nil {
				return nil, err
			}
			ids, recs, err := p.entryIDs(o, m, c, byCat[c], s)
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
				md.Rows = append(md.Rows, row{id, catIdx[string(c)], ok, et, fi, ri})
			}
		}
		p.Models = append(p.Models, md)
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
	if p.Compare, err = comparisons(o.ScoreDir, names); err != nil {
		return nil, fmt.Errorf("htmlreport: %w", err)
	}
	return p, nil
}

type failedRef struct {
	id    string
	index int
}

// readFailures reads the failed-entry lines of one score file.
func (p *payload) readFailures(scoreDir, model string, c category.Category, entries map[string]*dataset.Entry) ([]failedRef, error) {
	path := report.ScoreFilePath(scoreDir, model, c)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("htmlreport: %w", err)
	}
	defer f.Close()
	rel := filepath.ToSlash(filepath.Join(model, c.ScorePath()))
	br := bufio.NewReaderSize(f, 1<<20)
	var out []failedRef
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		line = bytes.TrimSpace(line)
		if n > 1 && len(line) > 0 {
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
			out = append(out, failedRef{id: x.ID, index: len(p.Fails)})
			p.Fails = append(p.Fails, failure{Line: s, File: rel, LineNo: n, Explain: x, hasLog: hasInferenceLog(s)})
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
// the result lines (id dropped) when a result folder is given.
func (p *payload) entryIDs(o Options, model string, c category.Category, dataIDs []string, s report.CategoryScore) ([]string, map[string]json.RawMessage, error) {
	if o.ResultDir != "" {
		path := filepath.Join(o.ResultDir, model, filepath.FromSlash(c.ResultPath()))
		recs, err := results.Read(path)
		if err == nil {
			ids := make([]string, 0, len(recs))
			m := make(map[string]json.RawMessage, len(recs))
			for _, r := range recs {
				if _, dup := m[r.ID]; dup {
					continue
				}
				ids = append(ids, r.ID)
				m[r.ID] = dropKeys(r.Raw, "id")
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

// groundTruthResults executes a multi-turn entry's ground truth turn by
// turn on fresh backends, as the checker's ground-truth side does.
func groundTruthResults(e *dataset.Entry, lc *longcontext.Data) ([][]string, error) {
	var gt [][]string
	if err := json.Unmarshal(e.Answer, &gt); err != nil {
		return nil, fmt.Errorf("ground truth of %s is not a list of call lists: %w", e.ID, err)
	}
	cfg, err := e.InitialConfigDict()
	if err != nil {
		return nil, err
	}
	s := engine.New(sim.NewEnv(lc), engine.Config{ModelName: "report_ground_truth", EntryID: e.ID,
		Involved: e.InvolvedClasses, InitialConfig: cfg, LongContext: e.LongContext()})
	out := make([][]string, len(gt))
	for t, calls := range gt {
		out[t] = s.Execute(calls)
		if out[t] == nil {
			out[t] = []string{}
		}
	}
	return out, nil
}

// hasInferenceLog reports whether a score line carries a non-empty
// inference_log list.
func hasInferenceLog(line []byte) bool {
	var m struct {
		Log json.RawMessage `json:"inference_log"`
	}
	if json.Unmarshal(line, &m) != nil {
		return false
	}
	b := bytes.TrimSpace(m.Log)
	return len(b) > 2 && b[0] == '['
}

// dropKeys removes top-level keys of a JSON object line, keeping the rest
// byte for byte.
func dropKeys(line []byte, keys ...string) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return line
	}
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return line
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return line
		}
		k, _ := kt.(string)
		drop := false
		for _, d := range keys {
			drop = drop || k == d
		}
		if drop {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}
