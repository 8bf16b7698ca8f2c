package websearch_test

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
	"github.com/bfcl-go/bfcl/internal/services/websearch"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func fixtureDir() string {
	return filepath.Join(testenv.ModuleRoot(), "fixtures", "agentic", "websearch")
}

func dumps(v pyval.Value) string {
	s, err := pyval.JSONDumps(v)
	Expect(err).NotTo(HaveOccurred())
	return s
}

var _ = Describe("Offline", func() {
	It("serves recorded searches and pages, and names what is missing", func() {
		o, err := websearch.NewOffline(fixtureDir())
		Expect(err).NotTo(HaveOccurred())
		res, err := o.Search(context.Background(), websearch.Query{Keywords: "tallest building in Bangkok", Region: "wt-wt"})
		Expect(err).NotTo(HaveOccurred())
		org, ok := res.GetStr("organic_results")
		Expect(ok).To(BeTrue())
		Expect(org.(*pyval.List).Items).To(HaveLen(3))
		_, err = o.Search(context.Background(), websearch.Query{Keywords: "tallest building in Bangkok", Region: "us-en"})
		Expect(err).To(MatchError(ContainSubstring(`no recorded search for "tallest building in Bangkok" (region "us-en")`)))
		o.IgnoreRegion = true
		_, err = o.Search(context.Background(), websearch.Query{Keywords: "tallest building in Bangkok", Region: "us-en"})
		Expect(err).NotTo(HaveOccurred())
		_, err = o.Search(context.Background(), websearch.Query{Keywords: "provider failure", Region: "wt-wt"})
		Expect(err).To(MatchError(ContainSubstring("Read timed out")))
		p, err := o.Fetch(context.Background(), "https://example.org/old")
		Expect(err).NotTo(HaveOccurred())
		Expect(websearch.HTTPError(p)).To(Equal("503 Server Error: Service Unavailable for url: https://example.org/new"))
		_, err = o.Fetch(context.Background(), "https://example.org/unrecorded")
		Expect(err).To(MatchError(ContainSubstring("no recorded page for https://example.org/unrecorded")))
	})

	It("refuses a missing directory", func() {
		_, err := websearch.NewOffline(filepath.Join(GinkgoT().TempDir(), "nope"))
		Expect(err).To(HaveOccurred())
	})

	It("replays what the Recorder captured", func() {
		live, err := websearch.NewOffline(fixtureDir())
		Expect(err).NotTo(HaveOccurred())
		dir := GinkgoT().TempDir()
		rec := &websearch.Recorder{Live: live, Dir: dir}
		q := websearch.Query{Keywords: "Zhang Yiming net worth", Region: "cn-zh"}
		want, err := rec.Search(context.Background(), q)
		Expect(err).NotTo(HaveOccurred())
		_, err = rec.Fetch(context.Background(), "https://example.org/wiki/magnolias")
		Expect(err).NotTo(HaveOccurred())
		_, err = rec.Fetch(context.Background(), "https://example.org/timeout")
		Expect(err).To(HaveOccurred())
		replay, err := websearch.NewOffline(dir)
		Expect(err).NotTo(HaveOccurred())
		got, err := replay.Search(context.Background(), q)
		Expect(err).NotTo(HaveOccurred())
		Expect(dumps(got)).To(Equal(dumps(want)))
		p, err := replay.Fetch(context.Background(), "https://example.org/wiki/magnolias")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Text).To(ContainSubstring("Magnolias"))
		_, err = replay.Fetch(context.Background(), "https://example.org/timeout")
		Expect(err).To(MatchError(ContainSubstring("Read timed out")))
	})
})

// scripted is a Searcher returning queued outcomes.
type scripted struct {
	mu    sync.Mutex
	steps []func() (*pyval.Dict, error)
	calls int
}

func (s *scripted) Search(context.Context, websearch.Query) (*pyval.Dict, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.calls
	s.calls++
	if i >= len(s.steps) {
		i = len(s.steps) - 1
	}
	return s.steps[i]()
}

func payload(k, v string) func() (*pyval.Dict, error) {
	return func() (*pyval.Dict, error) {
		d := pyval.NewDict()
		d.SetStr(k, pyval.Str(v))
		return d, nil
	}
}

var _ = Describe("Search retry policy", func() {
	var waits []time.Duration
	var r websearch.Retry
	BeforeEach(func() {
		waits = nil
		r = websearch.Retry{
			Max:    4,
			Sleep:  func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
			Jitter: func() float64 { return 0.5 },
		}
	})

	It("retries raised and in-payload 429s with doubling back-off, then returns the result", func() {
		s := &scripted{steps: []func() (*pyval.Dict, error){
			func() (*pyval.Dict, error) { return nil, errors.New("429 Client Error: Too Many Requests") },
			payload("error", "Your account has run out of searches (429)."),
			payload("organic_results", "ok"),
		}}
		res, err := websearch.Search(context.Background(), s, websearch.Query{Keywords: "x"}, r)
		Expect(err).NotTo(HaveOccurred())
		Expect(dumps(res)).To(Equal(`{"organic_results": "ok"}`))
		Expect(waits).To(Equal([]time.Duration{3 * time.Second, 6 * time.Second}))
	})

	It("gives up after Max attempts and returns other failures at once", func() {
		s := &scripted{steps: []func() (*pyval.Dict, error){func() (*pyval.Dict, error) { return nil, errors.New("HTTP 429") }}}
		_, err := websearch.Search(context.Background(), s, websearch.Query{Keywords: "x"}, r)
		Expect(errors.Is(err, websearch.ErrRateLimited)).To(BeTrue())
		Expect(s.calls).To(Equal(4))
		s = &scripted{steps: []func() (*pyval.Dict, error){func() (*pyval.Dict, error) { return nil, errors.New("boom") }}}
		_, err = websearch.Search(context.Background(), s, websearch.Query{Keywords: "x"}, r)
		Expect(err).To(MatchError("boom"))
		Expect(s.calls).To(Equal(1))
		// a payload error without 429 is the search's answer
		s = &scripted{steps: []func() (*pyval.Dict, error){payload("error", "Invalid API key.")}}
		res, err := websearch.Search(context.Background(), s, websearch.Query{Keywords: "x"}, r)
		Expect(err).NotTo(HaveOccurred())
		Expect(dumps(res)).To(Equal(`{"error": "Invalid API key."}`))
	})
})

var _ = Describe("SerpAPI", func() {
	It("sends upstream's parameters and reads the JSON answer", func() {
		var got string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			got = r.URL.RawQuery
			if r.URL.Query().Get("q") == "limit" {
				w.WriteHeader(http.StatusTooManyRequests)
				fmt.Fprint(w, `{"error": "too many"}`)
				return
			}
			fmt.Fprint(w, `{"organic_results": [{"title": "T", "link": "https://t", "snippet": "S"}]}`)
		}))
		defer srv.Close()
		s := websearch.SerpAPI{Key: "k3y", Endpoint: srv.URL}
		res, err := s.Search(context.Background(), websearch.Query{Keywords: "a b", Region: "wt-wt"})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal("api_key=k3y&engine=duckduckgo&kl=wt-wt&q=a+b"))
		Expect(dumps(res)).To(Equal(`{"organic_results": [{"title": "T", "link": "https://t", "snippet": "S"}]}`))
		_, err = s.Search(context.Background(), websearch.Query{Keywords: "limit"})
		Expect(err).To(MatchError(ContainSubstring("429")))
	})

	It("needs a key", func() {
		GinkgoT().Setenv(websearch.SerpAPIKeyEnv, "")
		_, err := websearch.SerpAPI{}.Search(context.Background(), websearch.Query{Keywords: "x"})
		Expect(err).To(MatchError(ContainSubstring("SERPAPI_API_KEY")))
	})
})

var _ = Describe("DuckDuckGo HTML", func() {
	It("parses results into SerpAPI's shape, skipping ads, decoding redirect links", func() {
		b, err := os.ReadFile(filepath.Join(fixtureDir(), "ddg_result.html"))
		Expect(err).NotTo(HaveOccurred())
		res := websearch.ParseDuckDuckGoHTML(string(b))
		Expect(dumps(res)).To(Equal(`{"organic_results": [{"position": 1, "title": "Magnolias Ratchadamri Boulevard", "link": "https://example.org/wiki/magnolias", "snippet": "The tallest building in Bangkok & more."}, {"position": 2, "title": "Direct link", "link": "https://example.org/direct"}]}`))
	})

	It("queries the endpoint with q and kl", func() {
		b, err := os.ReadFile(filepath.Join(fixtureDir(), "ddg_result.html"))
		Expect(err).NotTo(HaveOccurred())
		var form string
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			Expect(r.ParseForm()).To(Succeed())
			form = r.PostForm.Encode()
			w.Write(b)
		}))
		defer srv.Close()
		res, err := websearch.DuckDuckGo{Endpoint: srv.URL}.Search(context.Background(), websearch.Query{Keywords: "tallest", Region: "th-th"})
		Expect(err).NotTo(HaveOccurred())
		Expect(form).To(Equal("kl=th-th&q=tallest"))
		org, _ := res.GetStr("organic_results")
		Expect(org.(*pyval.List).Items).To(HaveLen(2))
	})
})

var _ = Describe("HTTPFetcher", func() {
	It("sends browser headers, follows redirects, inflates gzip and reports the final URL and status", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/old":
				http.Redirect(w, r, "/page", http.StatusFound)
			case "/page":
				Expect(r.Header.Get("User-Agent")).To(ContainSubstring("Chrome/112.0.0.0"))
				Expect(r.Header.Get("Referer")).To(Equal("https://www.google.com/"))
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Content-Encoding", "gzip")
				zw := gzip.NewWriter(w)
				zw.Write([]byte("<p>héllo</p>"))
				zw.Close()
			default:
				http.NotFound(w, r)
			}
		}))
		defer srv.Close()
		f := websearch.HTTPFetcher{Policy: &netguard.Policy{Public: []netip.AddrPort{addrPortOf(srv)}}}
		p, err := f.Fetch(context.Background(), srv.URL+"/old")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.URL).To(Equal(srv.URL + "/page"))
		Expect(p.Text).To(Equal("<p>héllo</p>"))
		Expect(websearch.HTTPError(p)).To(BeEmpty())
		p, err = f.Fetch(context.Background(), srv.URL+"/gone")
		Expect(err).NotTo(HaveOccurred())
		Expect(websearch.HTTPError(p)).To(Equal("404 Client Error: Not Found for url: " + srv.URL + "/gone"))
	})
})

var _ = Describe("page text", func() {
	var page string
	BeforeEach(func() {
		o, err := websearch.NewOffline(fixtureDir())
		Expect(err).NotTo(HaveOccurred())
		p, err := o.Fetch(context.Background(), "https://example.org/wiki/magnolias")
		Expect(err).NotTo(HaveOccurred())
		page = p.Text
	})

	It("truncate: BeautifulSoup's get_text(separator=\"\\n\", strip=True) without script, style, comments and doctype", func() {
		Expect(websearch.TruncateText(page)).To(Equal(strings.Join([]string{
			"Magnolias Ratchadamri Boulevard",
			"Magnolias  Ratchadamri Boulevard",
			"The tower is",
			"314\u00a0m",
			"tall & has",
			"92 floors",
			".",
			"Opened 2016",
			"Mixed use",
			"Café on the top floor.",
			"Open daily.",
		}, "\n")))
	})

	It("truncate keeps CDATA text and drops processing instructions", func() {
		Expect(websearch.TruncateText("<?xml version='1.0'?><p>a<![CDATA[ b<c ]]></p>")).To(Equal("a\nb<c"))
	})

	It("markdown: headings, emphasis, links and lists", func() {
		md := websearch.MarkdownText(page)
		Expect(md).To(ContainSubstring("# Magnolias Ratchadamri Boulevard\n\n"))
		Expect(md).To(ContainSubstring("The tower is **314 m** tall & has [92 floors](https://example.org/floors)."))
		Expect(md).To(ContainSubstring("  * Opened 2016\n  * Mixed use"))
		Expect(md).NotTo(ContainSubstring("not text"))
		Expect(md).NotTo(ContainSubstring("color"))
	})
})
