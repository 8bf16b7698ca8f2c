package websearch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Offline serves recorded searches and pages from a directory:
//
//	searches.jsonl  {"keywords": "...", "region": "wt-wt", "response": {SerpAPI-shaped object}}
//	                or {"keywords": ..., "region": ..., "error": "failure text"}
//	pages.jsonl     {"url": "...", "final_url": "...", "status": 200, "reason": "OK", "text": "..."}
//	                or {"url": ..., "error": "failure text"}
//
// A later line for the same key wins. A search or page that was not
// recorded is an error naming the directory. Recorder writes this format.
type Offline struct {
	Dir string
	// IgnoreRegion looks searches up by keywords only.
	IgnoreRegion bool

	searches map[string]searchRecord
	pages    map[string]pageRecord
}

type searchRecord struct {
	Keywords string          `json:"keywords"`
	Region   string          `json:"region"`
	Response json.RawMessage `json:"response,omitempty"`
	Error    string          `json:"error,omitempty"`
}

type pageRecord struct {
	URL      string `json:"url"`
	FinalURL string `json:"final_url,omitempty"`
	Status   int    `json:"status,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Text     string `json:"text"`
	Error    string `json:"error,omitempty"`
}

// Files of an Offline directory.
const (
	SearchesFile = "searches.jsonl"
	PagesFile    = "pages.jsonl"
)

// NewOffline loads the recordings in dir (missing files mean no
// recordings of that kind; a missing directory is an error).
func NewOffline(dir string) (*Offline, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("websearch: offline recordings: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("websearch: offline recordings: %s is not a directory", dir)
	}
	return NewOfflineFS(os.DirFS(dir), dir)
}

// NewOfflineFS loads the recordings of a file system (e.g. ones built into
// the binary); name says where they are for messages.
func NewOfflineFS(fsys fs.FS, name string) (*Offline, error) {
	dir := name
	o := &Offline{Dir: dir, searches: map[string]searchRecord{}, pages: map[string]pageRecord{}}
	if err := readJSONL(fsys, dir, SearchesFile, func(line int, b []byte) error {
		var r searchRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		if len(r.Response) == 0 && r.Error == "" {
			return fmt.Errorf("record has neither response nor error")
		}
		o.searches[searchKey(r.Keywords, r.Region)] = r
		o.searches[searchKey(r.Keywords, "\x00any")] = r
		return nil
	}); err != nil {
		return nil, err
	}
	if err := readJSONL(fsys, dir, PagesFile, func(line int, b []byte) error {
		var r pageRecord
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		if r.URL == "" {
			return fmt.Errorf("record without url")
		}
		o.pages[r.URL] = r
		return nil
	}); err != nil {
		return nil, err
	}
	return o, nil
}

func searchKey(k, region string) string { return region + "\x00" + k }

func readJSONL(fsys fs.FS, dir, file string, fn func(line int, b []byte) error) error {
	path := filepath.Join(dir, file)
	f, err := fsys.Open(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("websearch: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 256<<20)
	for n := 1; sc.Scan(); n++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := fn(n, b); err != nil {
			return fmt.Errorf("websearch: %s:%d: %v", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("websearch: %s: %w", path, err)
	}
	return nil
}

// Search implements Searcher.
func (o *Offline) Search(_ context.Context, q Query) (*pyval.Dict, error) {
	region := q.Region
	if o.IgnoreRegion {
		region = "\x00any"
	}
	r, ok := o.searches[searchKey(q.Keywords, region)]
	if !ok {
		return nil, fmt.Errorf("offline: no recorded search for %q (region %q) in %s", q.Keywords, q.Region, o.Dir)
	}
	if r.Error != "" {
		return nil, errors.New(r.Error)
	}
	v, err := pyval.FromJSON(r.Response)
	if err != nil {
		return nil, fmt.Errorf("offline: recorded search for %q: %w", q.Keywords, err)
	}
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("offline: recorded search for %q is not an object", q.Keywords)
	}
	return d, nil
}

// Fetch implements Fetcher.
func (o *Offline) Fetch(_ context.Context, url string) (Page, error) {
	r, ok := o.pages[url]
	if !ok {
		return Page{}, fmt.Errorf("offline: no recorded page for %s in %s", url, o.Dir)
	}
	if r.Error != "" {
		return Page{}, errors.New(r.Error)
	}
	p := Page{URL: r.FinalURL, StatusCode: r.Status, Reason: r.Reason, Text: r.Text}
	if p.URL == "" {
		p.URL = url
	}
	if p.StatusCode == 0 {
		p.StatusCode, p.Reason = 200, "OK"
	}
	return p, nil
}

// Recorder passes calls to a live Provider and appends what it got to an
// Offline directory (created if needed), so that a run can be replayed.
// Safe for concurrent use.
type Recorder struct {
	Live Provider
	Dir  string

	mu sync.Mutex
}

// Search implements Searcher.
func (r *Recorder) Search(ctx context.Context, q Query) (*pyval.Dict, error) {
	res, err := r.Live.Search(ctx, q)
	rec := searchRecord{Keywords: q.Keywords, Region: q.Region}
	if err != nil {
		rec.Error = err.Error()
	} else {
		js, jerr := pyval.JSONDumps(res)
		if jerr != nil {
			return nil, fmt.Errorf("websearch: recording search %q: %w", q.Keywords, jerr)
		}
		rec.Response = json.RawMessage(js)
	}
	if werr := r.append(SearchesFile, rec); werr != nil {
		return nil, werr
	}
	return res, err
}

// Fetch implements Fetcher.
func (r *Recorder) Fetch(ctx context.Context, url string) (Page, error) {
	p, err := r.Live.Fetch(ctx, url)
	rec := pageRecord{URL: url, FinalURL: p.URL, Status: p.StatusCode, Reason: p.Reason, Text: p.Text}
	if err != nil {
		rec = pageRecord{URL: url, Error: err.Error()}
	}
	if werr := r.append(PagesFile, rec); werr != nil {
		return Page{}, werr
	}
	return p, err
}

func (r *Recorder) append(file string, rec any) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := os.MkdirAll(r.Dir, 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(r.Dir, file), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
