package websearch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
)

// SerpAPIKeyEnv is the environment variable upstream reads the key from.
const SerpAPIKeyEnv = "SERPAPI_API_KEY"

// SerpAPI searches through SerpAPI's DuckDuckGo engine, as upstream.
type SerpAPI struct {
	Key      string       // "" means os.Getenv(SERPAPI_API_KEY) at each search
	Endpoint string       // "" means https://serpapi.com/search.json
	Client   *http.Client // nil: 60 s timeout
}

// Search implements Searcher: GET endpoint?engine=duckduckgo&q=..&kl=..&api_key=..
// A 429 status is an error whose text contains "429" (retried by Search).
func (s SerpAPI) Search(ctx context.Context, q Query) (*pyval.Dict, error) {
	key := s.Key
	if key == "" {
		key = os.Getenv(SerpAPIKeyEnv)
	}
	if key == "" {
		return nil, fmt.Errorf("websearch: SerpAPI needs a key in %s", SerpAPIKeyEnv)
	}
	ep := s.Endpoint
	if ep == "" {
		ep = "https://serpapi.com/search.json"
	}
	v := url.Values{}
	v.Set("engine", "duckduckgo")
	v.Set("q", q.Keywords)
	v.Set("kl", q.Region)
	v.Set("api_key", key)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ep+"?"+v.Encode(), nil)
	if err != nil {
		return nil, err
	}
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, redactKey(err, key)
	}
	defer resp.Body.Close()
	b, err := netguard.ReadAll(resp.Body, netguard.DefaultMaxBody)
	if err != nil {
		return nil, redactKey(fmt.Errorf("websearch: SerpAPI: %w", err), key)
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		return nil, fmt.Errorf("429 Client Error: Too Many Requests (SerpAPI): %s", strings.TrimSpace(string(b)))
	}
	val, err := pyval.FromJSON(b)
	if err != nil {
		return nil, fmt.Errorf("websearch: SerpAPI returned HTTP %d with a non-JSON body: %v", resp.StatusCode, err)
	}
	d, ok := val.(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("websearch: SerpAPI returned HTTP %d with a JSON %s, not an object", resp.StatusCode, val.TypeName())
	}
	return d, nil
}

func redactKey(err error, key string) error {
	return fmt.Errorf("%s", strings.ReplaceAll(err.Error(), key, "REDACTED"))
}
