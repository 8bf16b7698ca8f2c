package harness

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/bfcl-go/bfcl/internal/gold"
	"github.com/bfcl-go/bfcl/internal/score"
	"github.com/bfcl-go/bfcl/internal/verdict"
)

// ReportEntryName names the report entry every spec attaches; the suite's
// ReportAfterSuite collects them (across parallel processes) for scoring.
const ReportEntryName = "bfcl-outcome"

// SpecOutcome is what a spec records for the reporter.
type SpecOutcome struct {
	Category     string          `json:"category"`
	ID           string          `json:"id"`
	Valid        bool            `json:"valid"`
	ErrorType    string          `json:"error_type,omitempty"`
	Errors       []string        `json:"error,omitempty"`
	Detail       json.RawMessage `json:"detail,omitempty"` // ordered [[key, value], ...]
	Resumed      bool            `json:"resumed,omitempty"`
	Calls        int             `json:"calls,omitempty"`
	InputTokens  int             `json:"input_tokens,omitempty"`
	OutputTokens int             `json:"output_tokens,omitempty"`
	LatencySec   float64         `json:"latency_sec,omitempty"`
}

// Verdict rebuilds the checker's verdict.
func (o SpecOutcome) Verdict() verdict.Verdict {
	v := verdict.Verdict{ID: o.ID, Category: o.Category, Valid: o.Valid, ErrorType: o.ErrorType, Errors: o.Errors}
	var pairs [][2]json.RawMessage
	if len(o.Detail) > 0 && json.Unmarshal(o.Detail, &pairs) == nil {
		for _, p := range pairs {
			var k string
			_ = json.Unmarshal(p[0], &k)
			v.Detail = append(v.Detail, verdict.Field{Key: k, Value: p[1]})
		}
	}
	return v
}

// OutcomeOf is the reporter record of an outcome.
func OutcomeOf(o Outcome) SpecOutcome {
	v := o.Verdict
	so := SpecOutcome{
		Category: v.Category, ID: v.ID, Valid: v.Valid, ErrorType: v.ErrorType, Errors: v.Errors,
		Resumed: o.Resumed, Calls: o.Stats.Calls, InputTokens: o.Stats.InputTokens,
		OutputTokens: o.Stats.OutputTokens, LatencySec: o.Stats.Latency.Seconds(),
	}
	if len(v.Detail) > 0 {
		pairs := make([][2]any, 0, len(v.Detail))
		for _, f := range v.Detail {
			pairs = append(pairs, [2]any{f.Key, f.Value})
		}
		if b, err := json.Marshal(pairs); err == nil {
			so.Detail = b
		}
	}
	return so
}

// RunSpec is the body of every generated spec: run the entry, record the
// outcome, and fail with a diagnostic a person can act on when the model
// got it wrong. Categories without a checker skip with the reason.
func RunSpec(ctx ginkgo.SpecContext, category, id string) {
	h, err := Shared()
	if err != nil {
		ginkgo.Fail(err.Error())
	}
	out, err := h.Run(ctx, category, id)
	if errors.Is(err, score.ErrNoChecker) || errors.Is(err, score.ErrNotApplicable) {
		ginkgo.Skip(err.Error())
	}
	if err != nil {
		ginkgo.Fail(fmt.Sprintf("%s: could not run the entry: %v", id, err))
	}
	ginkgo.AddReportEntry(ReportEntryName, OutcomeOf(out), ginkgo.ReportEntryVisibilityNever)
	if h.cfg.Model.Provider == "gold" {
		if reason, known := gold.KnownFailure(id); known {
			if out.Verdict.Valid {
				ginkgo.Fail(fmt.Sprintf("%s: listed as a ground truth that upstream's checker rejects (%s), but it passed: update gold.KnownFailures", id, reason))
			}
			return
		}
	}
	if !out.Verdict.Valid {
		ginkgo.Fail(Diagnose(out.Verdict))
	}
}

// Diagnose renders a failed verdict for a person: what the checker
// expected, what came back, where.
func Diagnose(v verdict.Verdict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s failed: %s\n", v.ID, v.ErrorType)
	for _, e := range v.Errors {
		fmt.Fprintf(&b, "  - %s\n", e)
	}
	for _, f := range v.Detail {
		js, err := json.Marshal(f.Value)
		if err != nil {
			continue
		}
		s := string(js)
		if len(s) > 2000 {
			s = s[:2000] + "…"
		}
		fmt.Fprintf(&b, "  %s: %s\n", f.Key, s)
	}
	return b.String()
}
