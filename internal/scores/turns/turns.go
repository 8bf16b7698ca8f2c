// Package turns computes turn-level diagnostics of multi-turn runs from
// their ordinary score files: how many turns a model got through before
// upstream's checker failed the entry, and at which turn entries first
// fail. Upstream scores a multi-turn entry as one binary verdict and stops
// at the first failing turn; these numbers give credit for the turns before
// it. They are diagnostics printed beside the official score, never part of
// it.
package turns

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/multiturn"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/run/turniso"
	"github.com/bfcl-go/bfcl/internal/scores/report"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Category is the turn-level picture of one multi-turn category.
type Category struct {
	Category category.Category `json:"category"`
	Entries  int               `json:"entries"`
	Passed   int               `json:"passed"` // the official correct count
	// Turns and TurnsPassed count over the entries whose turns were
	// checked (all but the Unchecked ones): every turn of a passed entry
	// passed; a failed entry passed the turns before its first failing one.
	// The turns after it were never checked and count as not passed.
	Turns        int     `json:"turns"`
	TurnsPassed  int     `json:"turns_passed"`
	TurnAccuracy float64 `json:"turn_accuracy"` // TurnsPassed / Turns
	// MeanProgress is the mean over checked entries of the fraction of
	// their turns passed before the first failure (1 for a passed entry).
	MeanProgress float64 `json:"mean_progress"`
	// FirstFailing[t] is the number of entries whose first failing turn is t.
	FirstFailing []int `json:"first_failing_turn"`
	// Unchecked entries failed before any turn was checked, by error type.
	Unchecked      int            `json:"unchecked"`
	UncheckedTypes map[string]int `json:"unchecked_types"`
}

// Diagnose computes the diagnostics of one multi-turn category from its
// score file (each failed line's turns as verdict.ScoreLineTurns derives
// them); turnsOf gives every entry's number of ground-truth turns (the
// data set's, keyed by id) and must cover exactly the scored entries.
func Diagnose(scoreFile string, cat category.Category, turnsOf map[string]int) (Category, error) {
	if !cat.IsMultiTurn() {
		return Category{}, fmt.Errorf("turns: %s is not a multi-turn category", cat)
	}
	out := Category{Category: cat, UncheckedTypes: map[string]int{}}
	failed := map[string]verdict.TurnOutcome{}
	s, err := report.VisitScoreFile(scoreFile, cat, func(id string, line []byte) error {
		o, typ, err := verdict.ScoreLineTurns(line)
		if err != nil {
			return err
		}
		n, ok := turnsOf[id]
		if !ok {
			return fmt.Errorf("entry %s is not in the data set", id)
		}
		if o.Turns != n {
			return fmt.Errorf("entry %s: the score line's possible answer has %d turns, the data set's %d", id, o.Turns, n)
		}
		if !o.Checked {
			out.UncheckedTypes[typ]++
		}
		failed[id] = o
		return nil
	})
	if err != nil {
		return Category{}, err
	}
	if s.Total != len(turnsOf) {
		return Category{}, fmt.Errorf("turns: %s: the score file counts %d entries, the data set has %d; diagnostics need a complete category",
			scoreFile, s.Total, len(turnsOf))
	}
	out.Entries, out.Passed = s.Total, s.Correct
	progress := 0.0
	checked := 0
	maxTurns := 0
	for _, n := range turnsOf {
		maxTurns = max(maxTurns, n)
	}
	out.FirstFailing = make([]int, maxTurns)
	ids := make([]string, 0, len(turnsOf))
	for id := range turnsOf {
		ids = append(ids, id)
	}
	sort.Strings(ids) // one order of the sum: the same MeanProgress every time
	for _, id := range ids {
		n := turnsOf[id]
		o, isFailed := failed[id]
		if !isFailed {
			o = verdict.TurnOutcome{Turns: n, Checked: true, Passed: n}
		}
		if !o.Checked {
			out.Unchecked++
			continue
		}
		out.Turns += n
		out.TurnsPassed += o.Passed
		progress += float64(o.Passed) / float64(n)
		if t, ok := o.FailingTurn(); ok {
			out.FirstFailing[t]++
		}
		checked++
	}
	if out.Turns > 0 {
		out.TurnAccuracy = float64(out.TurnsPassed) / float64(out.Turns)
	}
	if checked > 0 {
		out.MeanProgress = progress / float64(checked)
	}
	for len(out.FirstFailing) > 0 && out.FirstFailing[len(out.FirstFailing)-1] == 0 {
		out.FirstFailing = out.FirstFailing[:len(out.FirstFailing)-1]
	}
	return out, nil
}

// Note is the note every model's diagnostics carry.
const Note = "diagnostics: not part of the official score"

// Model is the diagnostics of one model's multi-turn score files.
type Model struct {
	Model      string     `json:"model"`
	Note       string     `json:"note"`
	Categories []Category `json:"categories"`
}

// Report diagnoses the multi-turn score files under scoreDir: of model
// (a model name or its folder), or of every model folder when model is "",
// each category that has a score file, in upstream's order. Models without
// one are left out; none at all is an error naming the folder.
func Report(src *dataset.Source, scoreDir, model string) ([]Model, error) {
	models, err := results.ModelDirs(scoreDir, model)
	if err != nil {
		return nil, err
	}
	turnsOf := map[category.Category]map[string]int{}
	return byModel(models, "multi-turn score file under "+scoreDir,
		func(m string) Model { return Model{Model: m, Note: Note} },
		func(mt *Model, m string, c category.Category) (bool, error) {
			path := report.ScoreFilePath(scoreDir, m, c)
			if _, err := os.Stat(path); err != nil {
				return false, nil
			}
			if turnsOf[c] == nil {
				n, err := TurnCounts(src, c)
				if err != nil {
					return false, err
				}
				turnsOf[c] = n
			}
			d, err := Diagnose(path, c, turnsOf[c])
			if err != nil {
				return false, err
			}
			mt.Categories = append(mt.Categories, d)
			return true, nil
		})
}

// TurnCounts is every entry's number of ground-truth turns of a
// multi-turn category, by id.
func TurnCounts(src *dataset.Source, c category.Category) (map[string]int, error) {
	entries, err := src.Load(c)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(entries))
	for _, e := range entries {
		var gt [][]string
		if err := json.Unmarshal(e.Answer, &gt); err != nil {
			return nil, fmt.Errorf("turns: %s: ground truth is not a list of call lists: %w", e.ID, err)
		}
		out[e.ID] = len(gt)
	}
	return out, nil
}

// IsolatedModel is the turn-isolated scores of one model.
type IsolatedModel struct {
	Model      string            `json:"model"`
	Categories []turniso.Summary `json:"categories"`
}

// Isolated scores the turn-isolated records under
// turniso.IsolatedRoot(resultDir) (of model, or of every model folder when
// model is "") with the given decoding, writes their score files under
// turniso.IsolatedRoot(scoreDir), and returns the per-turn accuracies.
// No turn-isolated result file at all is an error naming the folder.
func Isolated(src *dataset.Source, resultDir, scoreDir, model string, spec decode.Spec) ([]IsolatedModel, error) {
	resRoot, scoreRoot := turniso.IsolatedRoot(resultDir), turniso.IsolatedRoot(scoreDir)
	models, err := results.ModelDirs(resRoot, model)
	if err != nil {
		return nil, fmt.Errorf("turns: %w", err)
	}
	lc, err := src.LongContext()
	if err != nil {
		return nil, err
	}
	return byModel(models, "turn-isolated result file under "+resRoot,
		func(m string) IsolatedModel { return IsolatedModel{Model: m} },
		func(ms *IsolatedModel, m string, c category.Category) (bool, error) {
			recs, err := results.Read(results.Path(resRoot, m, c))
			if errors.Is(err, os.ErrNotExist) {
				return false, nil
			}
			if err != nil {
				return false, err
			}
			entries, err := src.Load(c)
			if err != nil {
				return false, err
			}
			s, vs, err := turniso.Evaluate(c, entries, recs, multiturn.Options{Spec: spec, ModelName: m, LongContext: lc})
			if err != nil {
				return false, err
			}
			if _, err := report.WriteScoreDirFile(scoreRoot, m, c, vs); err != nil {
				return false, err
			}
			ms.Categories = append(ms.Categories, s)
			return true, nil
		})
}

// byModel builds one T per model folder from its multi-turn categories,
// in upstream's order: add adds category c of model m to t and says
// whether m has it. Models with none are left out; none at all is an
// error naming what was looked for.
func byModel[T any](models []string, what string, newT func(m string) T, add func(t *T, m string, c category.Category) (bool, error)) ([]T, error) {
	var out []T
	for _, m := range models {
		t, found := newT(m), false
		for _, c := range category.MultiTurn() {
			ok, err := add(&t, m, c)
			if err != nil {
				return nil, err
			}
			found = found || ok
		}
		if found {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("turns: no " + what)
	}
	return out, nil
}
