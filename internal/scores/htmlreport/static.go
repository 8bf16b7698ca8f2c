package htmlreport

import (
	"encoding/json"
	"strings"

	"github.com/bfcl-go/bfcl/internal/scores/report"
)

// staticSummary is the page's content before its script runs (and without
// JavaScript): the leaderboard of summary.json as a plain table, so a
// screenshot taken at the load event, or a reader with scripts off, sees
// the scores and not an empty page. The script replaces it.
func staticSummary(p *payload) string {
	var b strings.Builder
	b.WriteString(`<div id="static-summary"><h1>Leaderboard</h1>`)
	var sum report.JSONSummary
	if len(p.Summary) == 0 || string(p.Summary) == "null" || json.Unmarshal(p.Summary, &sum) != nil || len(sum.Models) == 0 {
		b.WriteString(`<p class="muted">No summary.json in ` + htmlEscape(p.ScoreDir) + `: the scores are in the interactive view.</p>`)
	} else {
		b.WriteString(`<table class="static"><thead><tr><th>Model</th><th class="num">Overall</th>`)
		for _, g := range sum.Models[0].Groups {
			b.WriteString(`<th class="num">` + htmlEscape(g.Column) + `</th>`)
		}
		b.WriteString(`</tr></thead><tbody>`)
		for _, m := range sum.Models {
			name := m.DisplayName
			if name == "" {
				name = m.Model
			}
			b.WriteString(`<tr><td>` + htmlEscape(name))
			if n := m.Notes[report.NotOfficialNote]; n != "" {
				b.WriteString(` <span class="badge bad" title="` + htmlEscape(n) + `">not official</span>`)
			}
			b.WriteString(`</td><td class="num">` + htmlEscape(m.Overall.Display) + `</td>`)
			for _, g := range m.Groups {
				b.WriteString(`<td class="num">` + htmlEscape(g.Display) + `</td>`)
			}
			b.WriteString(`</tr>`)
		}
		b.WriteString(`</tbody></table>`)
	}
	b.WriteString(`<p class="loading muted">Loading the interactive report (entries, failures, comparisons)… it needs JavaScript.</p></div>`)
	return b.String()
}
