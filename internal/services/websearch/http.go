package websearch

import (
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/services/netguard"
)

// fetchHeaders are the request headers upstream's fetch_url_content sends
// (web_search.py), except Accept-Encoding: upstream advertises
// "gzip, deflate, br"; Go's standard library cannot decode brotli, so "br"
// is not offered.
var fetchHeaders = [][2]string{
	{"User-Agent", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.0.0 Safari/537.36"},
	{"Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"},
	{"Accept-Language", "en-US,en;q=0.9"},
	{"Accept-Encoding", "gzip, deflate"},
	{"Connection", "keep-alive"},
	{"Upgrade-Insecure-Requests", "1"},
	{"Referer", "https://www.google.com/"},
	{"Sec-Fetch-Site", "same-origin"},
	{"Sec-Fetch-Mode", "navigate"},
	{"Sec-Fetch-User", "?1"},
	{"Sec-Fetch-Dest", "document"},
}

// FetchPolicy is the destination policy of an HTTPFetcher without one:
// public addresses only. The opt-in for search corpora served from an
// internal mirror (config's websearch-allow-private setting,
// BFCL_WEBSEARCH_ALLOW_PRIVATE=1) gives the fetcher a Policy of its own. It
// is off by default: the URL comes from the model under test, and on a
// laptop or a cluster the private network holds the user's services and the
// cloud metadata endpoint.
func FetchPolicy() netguard.Policy { return netguard.Policy{} }

// DefaultFetchTimeout bounds one page fetch, redirects and body included
// (upstream's requests.get timeout=20).
const DefaultFetchTimeout = 20 * time.Second

// DefaultMaxPage bounds a fetched page (after decompression).
const DefaultMaxPage int64 = 32 << 20

// HTTPFetcher fetches the pages the model asks for over HTTP(S) as
// upstream's requests.get does (browser-like headers, redirects followed,
// 20 s timeout), but only from public addresses: the model under test is
// untrusted input, so a loopback, private, link-local (cloud metadata) or
// otherwise non-public destination is refused, on the address actually
// connected to, also after a redirect or a DNS answer pointing there. A
// refused or failed fetch is an error, which the web-search backend turns
// into upstream's {"error": "An error occurred while fetching ..."} result.
type HTTPFetcher struct {
	// Policy decides the reachable destinations; nil means FetchPolicy().
	Policy *netguard.Policy
	// Client, when set, is used as is (its own destination policy and
	// redirect rules apply; Policy and Timeout are ignored).
	Client  *http.Client
	Timeout time.Duration // 0 means DefaultFetchTimeout
	MaxBody int64         // bytes of page read at most; 0 means DefaultMaxPage
}

// defaultClients are the clients of fetchers without Client, by policy
// (built once, so connections are reused).
var defaultClients sync.Map // clientKey -> *http.Client

type clientKey struct {
	allowPrivate bool
	timeout      time.Duration
}

// client is the client of a fetch and what to do after it.
func (f HTTPFetcher) client() (*http.Client, func()) {
	if f.Client != nil {
		return f.Client, func() {}
	}
	t := f.Timeout
	if t <= 0 {
		t = DefaultFetchTimeout
	}
	opts := netguard.ClientOptions{Timeout: t}
	if f.Policy != nil {
		c := f.Policy.NewClient(opts)
		return c, c.CloseIdleConnections
	}
	p := FetchPolicy()
	k := clientKey{p.AllowPrivate, t}
	if c, ok := defaultClients.Load(k); ok {
		return c.(*http.Client), func() {}
	}
	c, _ := defaultClients.LoadOrStore(k, p.NewClient(opts))
	return c.(*http.Client), func() {}
}

// Fetch implements Fetcher. Non-2xx statuses are returned in Page (the
// backend formats them as requests' raise_for_status does), not as errors.
// A refused destination is an error wrapping netguard.ErrRefused; a page
// larger than MaxBody is one wrapping netguard.ErrTooLarge.
func (f HTTPFetcher) Fetch(ctx context.Context, url string) (Page, error) {
	client, done := f.client()
	defer done()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return Page{}, err
	}
	for _, h := range fetchHeaders {
		req.Header.Set(h[0], h[1])
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, netguard.ErrRefused) {
			return Page{}, fmt.Errorf("%w; web fetches may reach public addresses only", err)
		}
		return Page{}, err
	}
	defer resp.Body.Close()
	var body io.Reader = resp.Body
	switch strings.ToLower(resp.Header.Get("Content-Encoding")) {
	case "gzip":
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			return Page{}, err
		}
		defer zr.Close()
		body = zr
	case "deflate":
		fr := flate.NewReader(resp.Body)
		defer fr.Close()
		body = fr
	}
	limit := f.MaxBody
	if limit <= 0 {
		limit = DefaultMaxPage
	}
	b, err := netguard.ReadAll(body, limit)
	if err != nil {
		return Page{}, err
	}
	return Page{
		URL:        resp.Request.URL.String(),
		StatusCode: resp.StatusCode,
		Reason:     reasonOf(resp),
		Text:       decodeText(b, resp.Header.Get("Content-Type")),
	}, nil
}

func reasonOf(resp *http.Response) string {
	s := resp.Status
	code := fmt.Sprintf("%d ", resp.StatusCode)
	if strings.HasPrefix(s, code) {
		return s[len(code):]
	}
	return http.StatusText(resp.StatusCode)
}

// decodeText turns a body into text: UTF-8 as is; latin-1 (requests' default
// for text/* without a charset, and for declared ISO-8859-1) byte by byte;
// invalid UTF-8 with U+FFFD replacements otherwise.
func decodeText(b []byte, contentType string) string {
	ct := strings.ToLower(contentType)
	latin1 := strings.Contains(ct, "charset=iso-8859-1") || strings.Contains(ct, "charset=latin-1") ||
		(strings.HasPrefix(ct, "text/") && !strings.Contains(ct, "charset=") && !utf8.Valid(b))
	if latin1 {
		rs := make([]rune, len(b))
		for i, c := range b {
			rs[i] = rune(c)
		}
		return string(rs)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// HTTPError is requests' HTTPError text for a page with a 4xx/5xx status
// ("404 Client Error: Not Found for url: https://..."), or "" otherwise.
func HTTPError(p Page) string {
	switch {
	case p.StatusCode >= 400 && p.StatusCode < 500:
		return fmt.Sprintf("%d Client Error: %s for url: %s", p.StatusCode, p.Reason, p.URL)
	case p.StatusCode >= 500 && p.StatusCode < 600:
		return fmt.Sprintf("%d Server Error: %s for url: %s", p.StatusCode, p.Reason, p.URL)
	}
	return ""
}
