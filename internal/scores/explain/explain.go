// Package explain reads one failed entry's score-file line the way a
// person debugs it: upstream's error type and message verbatim, for a
// multi-turn entry the turns with the model's calls beside the ground
// truth's and the first failing turn, the backend attributes that differ as
// a structural diff (for the file system: which file or directory), and for
// a single-turn entry the decoded calls, the possible answers and the
// parameters the error names. The HTML report embeds the same analysis; the
// terminal renderer (Render) prints it compactly.
package explain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/scores/report"
)

// Kinds of a Change.
const (
	KindChanged   = "changed"    // both sides have the path, with different values
	KindOnlyModel = "only_model" // the model's state has it, the ground truth's not
	KindOnlyGT    = "only_gt"    // the ground truth's state has it, the model's not
)

// Failure is one failed entry.
type Failure struct {
	ID        string            `json:"id"`
	Model     string            `json:"model"`
	Category  category.Category `json:"category"`
	ErrorType string            `json:"error_type"`
	Messages  []string          `json:"messages"` // upstream's error message(s), verbatim
	MultiTurn bool              `json:"multi_turn"`

	// Multi-turn. FailingTurn is the 0-based turn where the checker
	// stopped, -1 when the failure is not one turn's (force-terminated,
	// inference error).
	FailingTurn int         `json:"failing_turn"`
	Turns       []Turn      `json:"turns,omitempty"`
	StateDiff   []ClassDiff `json:"state_diff,omitempty"`
	Missing     []string    `json:"missing,omitempty"` // ground-truth results the model's did not contain

	// Single-turn.
	Decoded        json.RawMessage `json:"decoded,omitempty"`         // model_result_decoded / decoded_result
	Raw            json.RawMessage `json:"raw,omitempty"`             // model_result_raw / model_result
	PossibleAnswer json.RawMessage `json:"possible_answer,omitempty"` // the score line's possible_answer
	Params         []string        `json:"params,omitempty"`          // parameters the messages name
	Functions      []string        `json:"functions,omitempty"`       // functions the messages name
}

// Turn is one turn of a multi-turn entry as the checker saw it.
type Turn struct {
	ModelSteps []Step   `json:"model_steps"`           // decoded steps (empty or undecodable steps are not here)
	GTCalls    []string `json:"gt_calls"`              // the ground truth's calls
	GTResults  []string `json:"gt_results,omitempty"`  // their results (known up to the failing turn)
	HasResults bool     `json:"has_results,omitempty"` // the score line carried this turn's execution results
}

// Step is one model step: its decoded calls and, when known, their results.
type Step struct {
	Calls   []string `json:"calls"`
	Results []string `json:"results,omitempty"`
}

// ClassDiff is the state difference of one backend class.
type ClassDiff struct {
	Class string     `json:"class"`
	Attrs []AttrDiff `json:"attrs"`
}

// AttrDiff is one differing attribute and what in it differs.
type AttrDiff struct {
	Attr    string   `json:"attr"`
	Changes []Change `json:"changes"`
}

// Change is one difference at a path inside an attribute ("" is the
// attribute itself; ".key" and "[i]" descend; file-system paths are
// "/dir/file"). Values are compact JSON (strings quoted) or summaries.
type Change struct {
	Path        string `json:"path"`
	Kind        string `json:"kind"`
	Model       string `json:"model,omitempty"`
	GroundTruth string `json:"ground_truth,omitempty"`
}

// FromVerdict explains a failed verdict before (or without) its score file:
// the verdict is rendered as the score line report.WriteScoreFile would
// write, then parsed.
func FromVerdict(model string, v verdict.Verdict) (*Failure, error) {
	cat := v.Category
	if v.Category == "" {
		c, err := category.FromEntryID(v.ID)
		if err != nil {
			return nil, fmt.Errorf("explain: %w", err)
		}
		cat = c
	}
	line, err := report.FailedEntryLine(model, cat, v)
	if err != nil {
		return nil, fmt.Errorf("explain: %w", err)
	}
	f, err := Parse(line)
	if err == nil && f.MultiTurn && v.Turns != nil {
		f.setFailingTurn(*v.Turns) // the checker's own record
	}
	return f, err
}

// setFailingTurn sets FailingTurn from a multi-turn verdict's turns.
func (f *Failure) setFailingTurn(o verdict.TurnOutcome) {
	f.FailingTurn = -1
	if t, ok := o.FailingTurn(); ok {
		f.FailingTurn = t
	}
}

var (
	reClass    = regexp.MustCompile(`^Model instance for (\S+) does not match`)
	reParam    = regexp.MustCompile(`[Pp]arameter:? '([^']+)'`)
	reDictKey  = regexp.MustCompile(`dict key parameter: '([^']+)'`)
	reFunction = regexp.MustCompile(`Function name '([^']+)'`)
)

// Parse reads one failed-entry line of a score file (upstream's layout).
func Parse(line []byte) (*Failure, error) {
	var m map[string]json.RawMessage
	if err := unmarshal(line, &m); err != nil {
		return nil, fmt.Errorf("explain: score line is not a JSON object: %w", err)
	}
	f := &Failure{FailingTurn: -1}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(m[k], &s)
		return s
	}
	f.ID, f.Model, f.Category = str("id"), str("model_name"), category.Category(str("test_category"))
	if f.ID == "" {
		return nil, fmt.Errorf("explain: score line without id")
	}
	if f.Category == "" {
		if c, err := category.FromEntryID(f.ID); err == nil {
			f.Category = c
		}
	}
	var details map[string]json.RawMessage
	errRaw := bytes.TrimSpace(m["error"])
	if len(errRaw) > 0 && errRaw[0] == '{' { // multi-turn / agentic: {error_message, error_type, details}
		var e struct {
			Message json.RawMessage            `json:"error_message"`
			Type    string                     `json:"error_type"`
			Details map[string]json.RawMessage `json:"details"`
		}
		if err := unmarshal(errRaw, &e); err != nil {
			return nil, fmt.Errorf("explain: entry %s: error object: %w", f.ID, err)
		}
		f.ErrorType, f.Messages, details = e.Type, messages(e.Message), e.Details
	} else {
		f.ErrorType, f.Messages = str("error_type"), messages(errRaw)
	}
	f.MultiTurn = f.Category.IsMultiTurn()
	if f.MultiTurn {
		if err := f.multiTurn(m, details); err != nil {
			return nil, fmt.Errorf("explain: entry %s: %w", f.ID, err)
		}
		// The line's structured fields name the turn; a line they do not
		// (an unknown error type) is shown without one.
		if o, _, err := verdict.ScoreLineTurns(line); err == nil {
			f.setFailingTurn(o)
		}
		return f, nil
	}
	f.Decoded = first(m, "model_result_decoded", "decoded_result")
	f.Raw = first(m, "model_result_raw", "model_result")
	f.PossibleAnswer = m["possible_answer"]
	for _, msg := range f.Messages {
		for _, re := range []*regexp.Regexp{reParam, reDictKey} {
			for _, sm := range re.FindAllStringSubmatch(msg, -1) {
				f.Params = appendUnique(f.Params, sm[1])
			}
		}
		for _, sm := range reFunction.FindAllStringSubmatch(msg, -1) {
			f.Functions = appendUnique(f.Functions, sm[1])
		}
	}
	return f, nil
}

func (f *Failure) multiTurn(m, details map[string]json.RawMessage) error {
	var gt [][]string
	if len(m["possible_answer"]) > 0 {
		if err := unmarshal(m["possible_answer"], &gt); err != nil {
			return fmt.Errorf("possible_answer is not a list of call lists: %w", err)
		}
	}
	var decoded [][][]string
	if raw := m["model_result_decoded"]; len(raw) > 0 {
		if err := unmarshal(raw, &decoded); err != nil {
			return fmt.Errorf("model_result_decoded is not a list of turns of steps: %w", err)
		}
	}
	var execs []struct {
		Model       [][]string `json:"model"`
		GroundTruth []string   `json:"ground_truth"`
	}
	if raw := details["execution_result"]; len(raw) > 0 {
		if err := unmarshal(raw, &execs); err != nil {
			return fmt.Errorf("details.execution_result: %w", err)
		}
	}
	n := max(len(gt), len(decoded))
	f.Turns = make([]Turn, n)
	for t := range f.Turns {
		tu := &f.Turns[t]
		tu.GTCalls = []string{}
		if t < len(gt) {
			tu.GTCalls = gt[t]
		}
		tu.ModelSteps = []Step{}
		if t < len(decoded) {
			for _, calls := range decoded[t] {
				tu.ModelSteps = append(tu.ModelSteps, Step{Calls: calls})
			}
		}
		if t < len(execs) {
			tu.HasResults = true
			tu.GTResults = execs[t].GroundTruth
			for s := range tu.ModelSteps {
				if s < len(execs[t].Model) {
					tu.ModelSteps[s].Results = execs[t].Model[s]
				}
			}
		}
	}
	if raw := details["missing_items"]; len(raw) > 0 {
		_ = unmarshal(raw, &f.Missing)
	}
	if raw := details["differences"]; len(raw) > 0 {
		var diffs map[string]struct {
			Model       any `json:"model"`
			GroundTruth any `json:"ground_truth"`
		}
		if err := unmarshal(raw, &diffs); err != nil {
			return fmt.Errorf("details.differences: %w", err)
		}
		cd := ClassDiff{}
		for _, msg := range f.Messages {
			if sm := reClass.FindStringSubmatch(msg); sm != nil {
				cd.Class = sm[1]
			}
		}
		for _, a := range slices.Sorted(maps.Keys(diffs)) {
			d := diffs[a]
			cd.Attrs = append(cd.Attrs, AttrDiff{Attr: a, Changes: DiffValues(d.Model, d.GroundTruth)})
		}
		f.StateDiff = []ClassDiff{cd}
	}
	return nil
}

// DiffValues compares two JSON-decoded values (json.Number for numbers)
// structurally: objects key by key, lists by their longest common
// subsequence, file-system reprs file by file; each leaf that differs is one
// Change.
func DiffValues(model, gt any) []Change {
	return diffAt("", model, gt, nil)
}

func diffAt(path string, m, g any, out []Change) []Change {
	switch mv := m.(type) {
	case map[string]any:
		gv, ok := g.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(mv)+len(gv))
		for k := range mv {
			keys = append(keys, k)
		}
		for k := range gv {
			if _, dup := mv[k]; !dup {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			sub := path + "." + k
			a, inM := mv[k]
			b, inG := gv[k]
			switch {
			case !inG:
				out = append(out, Change{Path: sub, Kind: KindOnlyModel, Model: compact(a)})
			case !inM:
				out = append(out, Change{Path: sub, Kind: KindOnlyGT, GroundTruth: compact(b)})
			default:
				out = diffAt(sub, a, b, out)
			}
		}
		return out
	case []any:
		gv, ok := g.([]any)
		if !ok {
			break
		}
		return diffLists(path, mv, gv, out)
	case string:
		gv, ok := g.(string)
		if !ok {
			break
		}
		if mv == gv {
			return out
		}
		if looksLikeFS(mv) && looksLikeFS(gv) {
			mt, err1 := parseFS(mv)
			gt, err2 := parseFS(gv)
			if err1 == nil && err2 == nil {
				if d := diffFS(path, mt, gt, nil); len(d) > 0 {
					return append(out, d...)
				}
			}
		}
		return append(out, Change{Path: path, Kind: KindChanged, Model: quote(mv), GroundTruth: quote(gv)})
	}
	if compact(m) == compact(g) {
		return out
	}
	return append(out, Change{Path: path, Kind: KindChanged, Model: compact(m), GroundTruth: compact(g)})
}

// diffLists aligns two lists on their longest common subsequence of equal
// items; an unmatched pair at the same place is compared in depth, the rest
// is only on one side.
func diffLists(path string, m, g []any, out []Change) []Change {
	if len(m)*len(g) > 250000 { // too long to align: compare by index
		for i := 0; i < max(len(m), len(g)); i++ {
			sub := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(g):
				out = append(out, Change{Path: sub, Kind: KindOnlyModel, Model: compact(m[i])})
			case i >= len(m):
				out = append(out, Change{Path: sub, Kind: KindOnlyGT, GroundTruth: compact(g[i])})
			default:
				out = diffAt(sub, m[i], g[i], out)
			}
		}
		return out
	}
	ms, gs := make([]string, len(m)), make([]string, len(g))
	for i := range m {
		ms[i] = compact(m[i])
	}
	for i := range g {
		gs[i] = compact(g[i])
	}
	// lcs[i][j]: LCS length of ms[i:], gs[j:]
	lcs := make([][]int, len(ms)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(gs)+1)
	}
	for i := len(ms) - 1; i >= 0; i-- {
		for j := len(gs) - 1; j >= 0; j-- {
			if ms[i] == gs[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(ms) || j < len(gs) {
		switch {
		case i < len(ms) && j < len(gs) && ms[i] == gs[j]:
			i, j = i+1, j+1
		case i < len(ms) && j < len(gs) && lcs[i+1][j+1] == lcs[i][j]:
			// a replaced item: compare in depth
			out = diffAt(fmt.Sprintf("%s[%d]", path, i), m[i], g[j], out)
			i, j = i+1, j+1
		case j >= len(gs) || (i < len(ms) && lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, Change{Path: fmt.Sprintf("%s[%d]", path, i), Kind: KindOnlyModel, Model: ms[i]})
			i++
		default:
			out = append(out, Change{Path: fmt.Sprintf("%s[%d]", path, j), Kind: KindOnlyGT, GroundTruth: gs[j]})
			j++
		}
	}
	return out
}

func unmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

// messages reads an error message field: a string, or a list of them.
func messages(raw json.RawMessage) []string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var list []any
	if json.Unmarshal(raw, &list) == nil {
		out := make([]string, 0, len(list))
		for _, x := range list {
			if s, ok := x.(string); ok {
				out = append(out, s)
			} else {
				out = append(out, compact(x))
			}
		}
		return out
	}
	return []string{string(raw)}
}

func first(m map[string]json.RawMessage, keys ...string) json.RawMessage {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// compact is the one-line JSON of v (no HTML escaping).
func compact(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func quote(s string) string { return compact(s) }
