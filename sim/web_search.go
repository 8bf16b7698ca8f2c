package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// web_search.py (class WebSearchAPI). Result and error strings are protocol
// constants reproduced from that file. The search engine and the page
// fetcher are pluggable (internal/services/websearch): set them with SetProvider.
// Upstream retries rate-limited searches forever; here the retries are
// bounded (SetRetry). The "markdown" mode approximates html2text (see
// websearch.MarkdownText); "raw" and "truncate" follow upstream.

import (
	"context"
	"fmt"
	"strings"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/services/websearch"
)

// WebSearchAPI is upstream's web-search backend: search_engine_query and
// fetch_url_content. show_snippet (from the scenario) decides whether
// search results carry their "body".
type WebSearchAPI struct {
	showSnippet pyval.Value
	provider    websearch.Provider
	retry       websearch.Retry
}

// NewWebSearchAPI returns an instance as upstream's constructor leaves it
// (show_snippet True), without a provider (see SetProvider).
func NewWebSearchAPI(*Env) *WebSearchAPI { return &WebSearchAPI{showSnippet: pyval.Bool(true)} }

// SetProvider sets the search engine and page fetcher.
func (w *WebSearchAPI) SetProvider(p websearch.Provider) { w.provider = p }

// SetRetry sets the back-off policy for rate-limited searches.
func (w *WebSearchAPI) SetRetry(r websearch.Retry) { w.retry = r }

// ClassName implements Instance.
func (*WebSearchAPI) ClassName() string { return "WebSearchAPI" }

// LoadScenario is _load_scenario: show_snippet comes from the config
// (KeyError when absent, as upstream).
func (w *WebSearchAPI) LoadScenario(config *pyval.Dict, _ bool) error {
	v, ok := config.GetStr("show_snippet")
	if !ok {
		return pyval.NewKeyError(pyval.Str("show_snippet"))
	}
	w.showSnippet = v
	return nil
}

// ShowSnippet reports the show_snippet setting (Python truthiness).
func (w *WebSearchAPI) ShowSnippet() bool { return pyval.Truthy(w.showSnippet) }

// State implements Instance.
func (w *WebSearchAPI) State() *pyval.Dict {
	d := pyval.NewDict()
	d.SetStr("show_snippet", w.showSnippet)
	return d
}

func (w *WebSearchAPI) needProvider() error {
	if w.provider == nil {
		return fmt.Errorf("WebSearchAPI: no search provider configured (SetProvider)")
	}
	return nil
}

// SearchEngineQuery is search_engine_query(keywords, max_results=10,
// region="wt-wt"): the first max_results organic results as
// {"title", "href", "body"} dicts ("body" only with show_snippet), a list.
func (w *WebSearchAPI) SearchEngineQuery(args stubs.WebSearchAPISearchEngineQueryArgs) (pyval.Value, error) {
	keywords, maxResults, region := args.Keywords.V, args.MaxResults.V, args.Region.V
	if err := w.needProvider(); err != nil {
		return nil, err
	}
	res, err := websearch.Search(context.Background(), w.provider,
		websearch.Query{Keywords: pyval.StrOf(keywords), Region: pyval.StrOf(region)}, w.retry)
	if err != nil {
		return errorDict(err.Error()), nil
	}
	organic, ok := res.GetStr("organic_results")
	if !ok {
		return errorDict("Failed to retrieve the search results from server. Please try again later."), nil
	}
	top, err := pyval.GetItem(organic, &pyval.SliceValue{Start: pyval.None, Stop: maxResults, Step: pyval.None})
	if err != nil {
		return nil, err
	}
	items, err := pyval.Iterate(top)
	if err != nil {
		return nil, err
	}
	out := pyval.NewList()
	keys := []string{"title", "link", "snippet"}
	names := []string{"title", "href", "body"}
	if !w.ShowSnippet() {
		keys, names = keys[:2], names[:2]
	}
	for _, r := range items {
		d := pyval.NewDict()
		for i, k := range keys {
			v, err := pyval.GetItem(r, pyval.Str(k))
			if err != nil {
				return nil, err
			}
			d.SetStr(names[i], v)
		}
		out.Items = append(out.Items, d)
	}
	return out, nil
}

// FetchURLContent is fetch_url_content(url, mode="raw"): {"content": ...}
// with the raw page, its markdown or its text ("truncate"); failures are
// {"error": "An error occurred while fetching <url>: <reason>"}. A url not
// starting with http:// or https:// raises ValueError.
func (w *WebSearchAPI) FetchURLContent(args stubs.WebSearchAPIFetchURLContentArgs) (pyval.Value, error) {
	mode := args.Mode.V
	u, err := args.URL.Method("startswith")
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return nil, pyval.NewValueError("Invalid URL: %s", u)
	}
	if err := w.needProvider(); err != nil {
		return nil, err
	}
	fail := func(reason string) (pyval.Value, error) {
		return errorDict("An error occurred while fetching " + u + ": " + reason), nil
	}
	page, err := w.provider.Fetch(context.Background(), u)
	if err != nil {
		return fail(err.Error())
	}
	if e := websearch.HTTPError(page); e != "" {
		return fail(e)
	}
	var content string
	switch {
	case pyval.Equal(mode, pyval.Str("raw")):
		content = page.Text
	case pyval.Equal(mode, pyval.Str("markdown")):
		content = websearch.MarkdownText(page.Text)
	case pyval.Equal(mode, pyval.Str("truncate")):
		content = websearch.TruncateText(page.Text)
	default:
		return fail("Unsupported mode: " + pyval.StrOf(mode))
	}
	return memStatus("content", content), nil
}

// classWebSearchAPI describes WebSearchAPI for the registry.
func classWebSearchAPI() Class {
	return Class{
		Name:    "WebSearchAPI",
		Module:  "web_search",
		New:     func(env *Env) Instance { return NewWebSearchAPI(env) },
		Methods: stubs.WebSearchAPIMethods,
	}
}
