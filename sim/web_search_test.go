package sim

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/services/websearch"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

type rateLimited struct{ calls int }

func (r *rateLimited) Search(context.Context, websearch.Query) (*pyval.Dict, error) {
	r.calls++
	return nil, errors.New("429 Client Error: Too Many Requests")
}

func (r *rateLimited) Fetch(context.Context, string) (websearch.Page, error) {
	return websearch.Page{}, errors.New("unused")
}

var _ = Describe("WebSearchAPI", func() {
	var w *WebSearchAPI
	BeforeEach(func() {
		o, err := websearch.NewOffline(filepath.Join(testenv.ModuleRoot(), "fixtures", "agentic", "websearch"))
		Expect(err).NotTo(HaveOccurred())
		w = NewWebSearchAPI(&Env{})
		w.SetProvider(o)
	})

	snippet := func(on bool) *pyval.Dict {
		d := pyval.NewDict()
		d.SetStr("show_snippet", pyval.Bool(on))
		return d
	}

	It("lists results as upstream (a list, recorded through str())", func() {
		Expect(w.LoadScenario(snippet(true), false)).To(Succeed())
		Expect(memResult(call(w, "search_engine_query", memS("tallest building in Bangkok"), pyval.Int(2), nil))).To(Equal(
			`[{'title': 'Magnolias Ratchadamri Boulevard - Example Encyclopedia', 'href': 'https://example.org/wiki/magnolias', 'body': 'The tallest building in Bangkok is … at 314 m.'}, {'title': 'Bangkok skyline', 'href': 'https://example.org/skyline', 'body': 'A list of skyscrapers in Bangkok, Thailand.'}]`))
		// a result without "snippet" raises KeyError upstream
		_, err := call(w, "search_engine_query", memS("tallest building in Bangkok"), nil, nil)
		Expect(err).To(MatchError("'snippet'"))
		Expect(memResult(call(w, "search_engine_query", memS("Zhang Yiming net worth"), nil, memS("cn-zh")))).To(Equal(
			`[{'title': 'Zhang Yiming profile', 'href': 'https://example.org/zhang', 'body': 'Zhang Yiming is the founder of ByteDance.'}]`))
	})

	It("drops the body without snippets (web_search_no_snippet)", func() {
		Expect(w.LoadScenario(snippet(false), false)).To(Succeed())
		Expect(memResult(call(w, "search_engine_query", memS("tallest building in Bangkok"), nil, nil))).To(Equal(
			`[{'title': 'Magnolias Ratchadamri Boulevard - Example Encyclopedia', 'href': 'https://example.org/wiki/magnolias'}, {'title': 'Bangkok skyline', 'href': 'https://example.org/skyline'}, {'title': 'Untitled result without snippet', 'href': 'https://example.org/nosnippet'}]`))
	})

	It("reports failures as upstream's error dicts", func() {
		Expect(w.LoadScenario(snippet(true), false)).To(Succeed())
		Expect(memResult(call(w, "search_engine_query", memS("no results query"), nil, nil))).To(Equal(`{"error": "Failed to retrieve the search results from server. Please try again later."}`))
		Expect(memResult(call(w, "search_engine_query", memS("provider failure"), nil, nil))).To(Equal(`{"error": "HTTPSConnectionPool(host='serpapi.com', port=443): Read timed out. (read timeout=60)"}`))
		rl := &rateLimited{}
		w.SetProvider(rl)
		w.SetRetry(websearch.Retry{Max: 3, Sleep: func(context.Context, time.Duration) error { return nil }})
		Expect(memResult(call(w, "search_engine_query", memS("x"), nil, nil))).To(Equal(`{"error": "rate-limited (429) on every attempt: 429 Client Error: Too Many Requests"}`))
		Expect(rl.calls).To(Equal(3))
	})

	It("needs show_snippet in its scenario", func() {
		Expect(w.LoadScenario(pyval.NewDict(), false)).To(MatchError("'show_snippet'"))
	})

	It("fetches pages in the three modes with upstream's errors", func() {
		Expect(memResult(call(w, "fetch_url_content", memS("https://example.org/wiki/magnolias"), memS("truncate")))).To(HavePrefix(`{"content": "Magnolias Ratchadamri Boulevard\nMagnolias  Ratchadamri Boulevard\nThe tower is\n`))
		Expect(memResult(call(w, "fetch_url_content", memS("https://example.org/wiki/magnolias"), nil))).To(HavePrefix(`{"content": "<!DOCTYPE html>`))
		Expect(memResult(call(w, "fetch_url_content", memS("https://example.org/wiki/magnolias"), memS("markdown")))).To(ContainSubstring(`# Magnolias Ratchadamri Boulevard`))
		Expect(memResult(call(w, "fetch_url_content", memS("https://example.org/wiki/magnolias"), memS("pdf")))).To(Equal(`{"error": "An error occurred while fetching https://example.org/wiki/magnolias: Unsupported mode: pdf"}`))
		Expect(memResult(call(w, "fetch_url_content", memS("https://example.org/missing"), nil))).To(Equal(`{"error": "An error occurred while fetching https://example.org/missing: 404 Client Error: Not Found for url: https://example.org/missing"}`))
		Expect(memResult(call(w, "fetch_url_content", memS("https://example.org/timeout"), nil))).To(Equal(`{"error": "An error occurred while fetching https://example.org/timeout: HTTPSConnectionPool(host='example.org', port=443): Read timed out. (read timeout=20)"}`))
		_, err := call(w, "fetch_url_content", memS("example.org"), nil)
		Expect(err).To(MatchError("Invalid URL: example.org"))
		Expect(pyval.IsException(err, "ValueError")).To(BeTrue())
		_, err = call(w, "fetch_url_content", pyval.Int(1), nil)
		Expect(err).To(MatchError("'int' object has no attribute 'startswith'"))
	})
})
