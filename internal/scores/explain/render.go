package explain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/check/verdict"
)

// Where points at the rest of the story.
type Where struct {
	// Report is the HTML report's path (or URL); the entry view is
	// Report + "#entry/<model>/<id>". Empty: no pointer printed.
	Report string
	// ScoreFile is the score file holding the entry's line; ScoreLine its
	// 1-based line (0: unknown, the id is named instead).
	ScoreFile string
	ScoreLine int
	// DataFile and DataLine locate the entry in the data set (optional).
	DataFile string
	DataLine int
	// Width is the terminal width (default 120).
	Width int
}

// EntryFragment is the URL fragment of an entry view in the HTML report.
func EntryFragment(model, id string) string {
	return "#entry/" + url.PathEscape(model) + "/" + url.PathEscape(id)
}

// Render writes f for a terminal: id, error type and message, then the
// first failing turn (model calls beside the ground truth's, with results),
// the state difference, or for single-turn entries the decoded calls and
// possible answers; then where to read more.
func Render(w io.Writer, f *Failure, at Where) error {
	width := at.Width
	if width <= 0 {
		width = 120
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s failed: %s\n", f.ID, f.ErrorType)
	for _, m := range f.Messages {
		fmt.Fprintf(&b, "  %s\n", clip(m, width*3))
	}
	if f.MultiTurn {
		renderTurns(&b, f, width)
	} else {
		renderSingle(&b, f, width)
	}
	if at.DataFile != "" {
		fmt.Fprintf(&b, "\n  entry:      %s:%d\n", at.DataFile, at.DataLine)
	}
	if at.Report != "" {
		fmt.Fprintf(&b, "  entry view: %s%s\n", at.Report, EntryFragment(f.Model, f.ID))
	}
	if at.ScoreFile != "" {
		if at.ScoreLine > 0 {
			fmt.Fprintf(&b, "  score line: %s:%d\n", at.ScoreFile, at.ScoreLine)
		} else {
			fmt.Fprintf(&b, "  score line: %s (the line with \"id\": %q)\n", at.ScoreFile, f.ID)
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// String renders f without pointers.
func (f *Failure) String() string {
	var b strings.Builder
	_ = Render(&b, f, Where{})
	return b.String()
}

func renderTurns(b *bytes.Buffer, f *Failure, width int) {
	t := f.FailingTurn
	if t < 0 || t >= len(f.Turns) {
		fmt.Fprintf(b, "  %d turns in the ground truth, %d in the model's result\n", countGT(f), len(f.Turns))
		return
	}
	tu := f.Turns[t]
	fmt.Fprintf(b, "\n  turn %d (first failing turn of %d)\n", t, len(f.Turns))
	col := (width - 6) / 2
	var left, right []string
	for s, st := range tu.ModelSteps {
		for i, c := range st.Calls {
			left = append(left, fmt.Sprintf("%d. %s", s, c))
			if i < len(st.Results) {
				left = append(left, "   → "+st.Results[i])
			}
		}
	}
	if len(left) == 0 {
		left = []string{"(no call)"}
	}
	made := map[string]bool{}
	for _, st := range tu.ModelSteps {
		for _, c := range st.Calls {
			made[strings.Join(strings.Fields(c), "")] = true
		}
	}
	for i, c := range tu.GTCalls {
		mark := "  "
		if !made[strings.Join(strings.Fields(c), "")] {
			mark = "✗ " // the model made no such call in this turn
		}
		right = append(right, mark+c)
		if i < len(tu.GTResults) {
			right = append(right, "   → "+tu.GTResults[i])
		}
	}
	if len(right) == 0 {
		right = []string{"(no call)"}
	}
	fmt.Fprintf(b, "    %-*s  %s\n", col, "model (step. call)", "ground truth (✗ not called by the model)")
	for i := 0; i < max(len(left), len(right)); i++ {
		var l, r string
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		fmt.Fprintf(b, "    %s  %s\n", pad(clip(l, col), col), clip(r, col))
	}
	if len(f.Missing) > 0 {
		b.WriteString("\n  ground-truth results missing from the model's:\n")
		for _, m := range f.Missing {
			fmt.Fprintf(b, "    %s\n", clip(m, width-4))
		}
	}
	for _, cd := range f.StateDiff {
		fmt.Fprintf(b, "\n  state of %s differs (model vs ground truth):\n", cd.Class)
		for _, a := range cd.Attrs {
			for _, c := range a.Changes {
				path := a.Attr + c.Path
				switch c.Kind {
				case KindOnlyModel:
					fmt.Fprintf(b, "    + %s  only in the model's: %s\n", path, clip(c.Model, width-len(path)-30))
				case KindOnlyGT:
					fmt.Fprintf(b, "    - %s  only in the ground truth's: %s\n", path, clip(c.GroundTruth, width-len(path)-34))
				default:
					fmt.Fprintf(b, "    ~ %s\n        model:        %s\n        ground truth: %s\n", path, clip(c.Model, width-22), clip(c.GroundTruth, width-22))
				}
			}
		}
	}
}

func countGT(f *Failure) int {
	n := 0
	for _, t := range f.Turns {
		if t.GTCalls != nil {
			n++
		}
	}
	return n
}

func renderSingle(b *bytes.Buffer, f *Failure, width int) {
	show := func(label string, raw json.RawMessage) {
		if len(raw) == 0 {
			return
		}
		var v any
		s := string(raw)
		if unmarshal(raw, &v) == nil {
			s = compact(v)
		}
		fmt.Fprintf(b, "  %-16s %s\n", label+":", clip(s, width*2))
	}
	b.WriteString("\n")
	show("decoded", f.Decoded)
	if len(f.Decoded) == 0 {
		show("model output", f.Raw)
	}
	show("possible answer", f.PossibleAnswer)
	if len(f.Params) > 0 {
		fmt.Fprintf(b, "  %-16s %s\n", "parameters:", strings.Join(f.Params, ", "))
	}
	if len(f.Functions) > 0 {
		fmt.Fprintf(b, "  %-16s %s\n", "functions:", strings.Join(f.Functions, ", "))
	}
}

// clip shortens s to n runes (newlines shown as ⏎).
func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if n < 8 {
		n = 8
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func pad(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// Message is the text of a failing spec: FromVerdict then Render. Should
// the verdict not render as a score line (a bug elsewhere), it says so and
// still names the entry, its error type and messages.
func Message(model string, v verdict.Verdict, at Where) string {
	f, err := FromVerdict(model, v)
	if err != nil {
		var b strings.Builder
		fmt.Fprintf(&b, "%s failed: %s\n", v.ID, v.ErrorType)
		for _, m := range v.Errors {
			fmt.Fprintf(&b, "  %s\n", m)
		}
		fmt.Fprintf(&b, "  (no detailed explanation: %v)\n", err)
		return b.String()
	}
	var b strings.Builder
	_ = Render(&b, f, at)
	return b.String()
}
