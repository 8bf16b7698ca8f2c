// Package websearch provides the search engine and page fetcher behind the
// web-search backend (sim.WebSearchAPI).
//
// Upstream (bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// web_search.py) queries SerpAPI's "duckduckgo" engine with the key in
// SERPAPI_API_KEY, retrying rate-limit (429) failures forever with
// exponential back-off (2 s doubling, capped at 120 s, plus jitter), and
// fetches pages with requests.get (browser-like headers, 20 s timeout,
// redirects followed). Here:
//
//   - SerpAPI: the same SerpAPI query (engine=duckduckgo, q, kl, api_key);
//   - DuckDuckGo: DuckDuckGo's HTML endpoint parsed into the same
//     organic_results shape (no key needed; not upstream's source, results
//     differ from SerpAPI's);
//   - Offline: recorded search responses and pages read from a directory
//     (see Offline), for tests and reproducible runs; Recorder writes them;
//   - HTTPFetcher: the page fetcher with upstream's headers, restricted to
//     public addresses (internal/services/netguard; AllowPrivateEnv opts out);
//   - Search: upstream's retry policy, bounded (Retry.Max attempts).
//
// Search responses are SerpAPI-shaped JSON objects ({"organic_results":
// [{"title", "link", "snippet", ...}], ...}) held as Python values so that
// the backend reproduces upstream's key lookups (a result without
// "snippet" raises KeyError upstream too).
package websearch

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Query is one search request.
type Query struct {
	Keywords string // SerpAPI "q"
	Region   string // SerpAPI "kl", e.g. "wt-wt"
}

// Searcher runs a search and returns the engine's JSON response (SerpAPI
// shape). An error is a failed request; an error reported inside the
// payload is returned as the payload's "error" key, as SerpAPI does.
type Searcher interface {
	Search(ctx context.Context, q Query) (*pyval.Dict, error)
}

// Page is a fetched page.
type Page struct {
	URL        string // final URL after redirects (requests' response.url)
	StatusCode int
	Reason     string // HTTP reason phrase, e.g. "Not Found"
	Text       string // body decoded to text (requests' response.text)
}

// Fetcher retrieves pages.
type Fetcher interface {
	Fetch(ctx context.Context, url string) (Page, error)
}

// Provider is a searcher plus a fetcher.
type Provider interface {
	Searcher
	Fetcher
}

// Combine makes a Provider of a Searcher and a Fetcher.
func Combine(s Searcher, f Fetcher) Provider { return combined{s, f} }

type combined struct {
	Searcher
	Fetcher
}

// Retry is the back-off policy for rate-limited searches: upstream retries
// any failure whose text contains "429" (raised or in the payload's
// "error"), waiting backoff + uniform(0, backoff) seconds, doubling backoff
// up to MaxBackoff. Upstream never gives up; Max bounds the attempts here.
type Retry struct {
	Max        int           // attempts in total; 0 means 8
	Backoff    time.Duration // first back-off; 0 means 2 s (upstream)
	MaxBackoff time.Duration // cap; 0 means 120 s (upstream)
	// Sleep waits d (nil: a context-aware sleep). Tests replace it.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0, 1) (nil: math/rand/v2).
	Jitter func() float64
	// Log receives upstream's console notices (nil: discarded).
	Log func(msg string)
}

func (r Retry) max() int {
	if r.Max <= 0 {
		return 8
	}
	return r.Max
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// ErrRateLimited is returned (wrapped) when every attempt was rate-limited.
var ErrRateLimited = errors.New("rate-limited (429) on every attempt")

// Search runs q on s with upstream's 429 handling, bounded by r.Max. A
// non-rate-limit failure is returned at once (upstream turns it into
// {"error": str(e)}); a payload without a 429 error is returned as is.
func Search(ctx context.Context, s Searcher, q Query, r Retry) (*pyval.Dict, error) {
	backoff := r.Backoff
	if backoff <= 0 {
		backoff = 2 * time.Second
	}
	maxBackoff := r.MaxBackoff
	if maxBackoff <= 0 {
		maxBackoff = 120 * time.Second
	}
	sleep := r.Sleep
	if sleep == nil {
		sleep = sleepCtx
	}
	jitter := r.Jitter
	if jitter == nil {
		jitter = rand.Float64
	}
	var last error
	for attempt := 0; attempt < r.max(); attempt++ {
		res, err := s.Search(ctx, q)
		rateLimited := false
		switch {
		case err != nil && strings.Contains(err.Error(), "429"):
			rateLimited, last = true, err
		case err != nil:
			return nil, err
		default:
			if e, ok := res.GetStr("error"); ok && strings.Contains(pyval.StrOf(e), "429") {
				rateLimited, last = true, fmt.Errorf("%s", pyval.StrOf(e))
			} else {
				return res, nil
			}
		}
		if !rateLimited || attempt == r.max()-1 {
			break
		}
		wait := backoff + time.Duration(jitter()*float64(backoff))
		if r.Log != nil {
			r.Log(fmt.Sprintf("[WebSearchAPI] Received 429 from the search provider. Retrying in %.1f seconds…", wait.Seconds()))
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
		backoff = min(backoff*2, maxBackoff)
	}
	return nil, fmt.Errorf("%w: %v", ErrRateLimited, last)
}
