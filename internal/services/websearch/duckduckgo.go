package websearch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
)

// DuckDuckGo searches DuckDuckGo's HTML endpoint directly (no key) and
// returns the results in SerpAPI's shape: {"organic_results": [{"position",
// "title", "link", "snippet"}]}. Not upstream's source: SerpAPI's results
// for the same query may differ.
type DuckDuckGo struct {
	Endpoint string       // "" means https://html.duckduckgo.com/html/
	Client   *http.Client // nil: 30 s timeout
}

// Search implements Searcher.
func (d DuckDuckGo) Search(ctx context.Context, q Query) (*pyval.Dict, error) {
	ep := d.Endpoint
	if ep == "" {
		ep = "https://html.duckduckgo.com/html/"
	}
	form := url.Values{}
	form.Set("q", q.Keywords)
	if q.Region != "" {
		form.Set("kl", q.Region)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("User-Agent", fetchHeaders[0][1])
	client := d.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := netguard.ReadAll(resp.Body, 16<<20)
	if err != nil {
		return nil, fmt.Errorf("websearch: DuckDuckGo %s: %w", ep, err)
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusAccepted {
		// DuckDuckGo answers 202 with a challenge page when it throttles.
		return nil, fmt.Errorf("429 Client Error: Too Many Requests (DuckDuckGo HTTP %d)", resp.StatusCode)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("websearch: DuckDuckGo HTTP %d", resp.StatusCode)
	}
	return ParseDuckDuckGoHTML(string(b)), nil
}

// ParseDuckDuckGoHTML extracts the results of a DuckDuckGo HTML result page:
// each "result__a" link (title; its uddg redirect parameter decoded to the
// target URL) with the following "result__snippet" text. Ads
// (result--ad) are skipped. A result without a snippet has no "snippet"
// key, as in SerpAPI's data.
func ParseDuckDuckGoHTML(doc string) *pyval.Dict {
	results := pyval.NewList()
	toks := tokenize(doc)
	var cur *pyval.Dict
	inAd := 0
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == tokStart && !t.selfClosing && t.name == "div" {
			depth++
			if hasClass(t, "result--ad") && inAd == 0 {
				inAd = depth
			}
		}
		if t.kind == tokEnd && t.name == "div" {
			if inAd == depth {
				inAd = 0
			}
			depth--
		}
		if inAd != 0 || t.kind != tokStart || t.name != "a" {
			continue
		}
		switch {
		case hasClass(t, "result__a"):
			text, n := textUntil(toks[i+1:], "a")
			i += n
			cur = pyval.NewDict()
			cur.SetStr("position", pyval.Int(len(results.Items)+1))
			cur.SetStr("title", pyval.Str(text))
			cur.SetStr("link", pyval.Str(ddgTarget(t.attr("href"))))
			results.Items = append(results.Items, cur)
		case hasClass(t, "result__snippet") && cur != nil:
			text, n := textUntil(toks[i+1:], "a")
			i += n
			if !cur.Has(pyval.Str("snippet")) {
				cur.SetStr("snippet", pyval.Str(text))
			}
		}
	}
	out := pyval.NewDict()
	out.SetStr("organic_results", results)
	return out
}

func hasClass(t token, c string) bool {
	for _, f := range strings.Fields(t.attr("class")) {
		if f == c {
			return true
		}
	}
	return false
}

// textUntil joins the text up to the closing tag of name (whitespace
// collapsed) and returns how many tokens it consumed.
func textUntil(toks []token, name string) (string, int) {
	var b strings.Builder
	for i, t := range toks {
		if t.kind == tokEnd && t.name == name {
			return strings.Join(strings.Fields(b.String()), " "), i + 1
		}
		if t.kind == tokText {
			b.WriteString(t.text)
		}
	}
	return strings.Join(strings.Fields(b.String()), " "), len(toks)
}

// ddgTarget decodes DuckDuckGo's redirect link (//duckduckgo.com/l/?uddg=...).
func ddgTarget(href string) string {
	u, err := url.Parse(href)
	if err != nil {
		return href
	}
	if t := u.Query().Get("uddg"); t != "" {
		return t
	}
	if u.Scheme == "" && strings.HasPrefix(href, "//") {
		return "https:" + href
	}
	return href
}
