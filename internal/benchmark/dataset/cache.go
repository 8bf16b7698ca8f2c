package dataset

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
)

// cache is what a Source has read and parsed (see Source).
type cache struct {
	mu    sync.Mutex
	files map[string]*onceBytes
	cats  map[string]*onceEntries
	docs  map[string]*onceDocs
	pre   map[string]*onceEntries
	index map[category.Category]*onceIndex

	lcOnce sync.Once
	lc     *longcontext.Data
	lcErr  error
}

type onceBytes struct {
	once sync.Once
	b    []byte
	err  error
}

type onceEntries struct {
	once sync.Once
	es   []*Entry
	err  error
}

type onceIndex struct {
	once sync.Once
	byID map[string]*Entry
	err  error
}

type onceDocs struct {
	once sync.Once
	cd   classDocs
	err  error
}

// opened are the Sources of this process by folder (see Open).
var opened = struct {
	sync.Mutex
	m map[[2]string]*Source
}{m: map[[2]string]*Source{}}

// shared returns the one Source of a data folder and long_context.py.
func shared(dataDir, lcFile string) *Source {
	key := [2]string{absPath(dataDir), absPath(lcFile)}
	opened.Lock()
	defer opened.Unlock()
	if s, ok := opened.m[key]; ok {
		return s
	}
	s := &Source{DataDir: dataDir, LongContextFile: lcFile}
	opened.m[key] = s
	return s
}

func absPath(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// readFile returns the bytes of a data-set file, read once.
func (s *Source) readFile(p string) ([]byte, error) {
	s.c.mu.Lock()
	if s.c.files == nil {
		s.c.files = map[string]*onceBytes{}
	}
	f, ok := s.c.files[p]
	if !ok {
		f = &onceBytes{}
		s.c.files[p] = f
	}
	s.c.mu.Unlock()
	f.once.Do(func() {
		f.b, f.err = os.ReadFile(p)
		if f.err != nil {
			f.err = fmt.Errorf("dataset: %w", f.err)
		}
	})
	return f.b, f.err
}

// entriesOnce runs load once per key of m and returns a copy of its slice.
func (s *Source) entriesOnce(m *map[string]*onceEntries, key string, load func() ([]*Entry, error)) ([]*Entry, error) {
	s.c.mu.Lock()
	if *m == nil {
		*m = map[string]*onceEntries{}
	}
	o, ok := (*m)[key]
	if !ok {
		o = &onceEntries{}
		(*m)[key] = o
	}
	s.c.mu.Unlock()
	o.once.Do(func() { o.es, o.err = load() })
	if o.err != nil {
		return nil, o.err
	}
	return append([]*Entry(nil), o.es...), nil
}

// LoadCategory is the entries of any scoring category, in the order
// upstream loads them: Load for the data set's own categories, the
// expansion of FormatSensitivityEntries for format_sensitivity. Each
// category is loaded once per Source.
func (s *Source) LoadCategory(c category.Category) ([]*Entry, error) {
	if c == FormatSensitivityCategory {
		return s.entriesOnce(&s.c.cats, string(c), s.formatSensitivityEntries)
	}
	return s.Load(c)
}

// Index is the entries of a category (LoadCategory) by id, built once per
// Source; the map is shared and must not be changed.
func (s *Source) Index(c category.Category) (map[string]*Entry, error) {
	s.c.mu.Lock()
	if s.c.index == nil {
		s.c.index = map[category.Category]*onceIndex{}
	}
	o, ok := s.c.index[c]
	if !ok {
		o = &onceIndex{}
		s.c.index[c] = o
	}
	s.c.mu.Unlock()
	o.once.Do(func() {
		es, err := s.LoadCategory(c)
		if err != nil {
			o.err = err
			return
		}
		o.byID = make(map[string]*Entry, len(es))
		for _, e := range es {
			o.byID[e.ID] = e
		}
	})
	return o.byID, o.err
}

// Entry is entry id of category c.
func (s *Source) Entry(c category.Category, id string) (*Entry, error) {
	byID, err := s.Index(c)
	if err != nil {
		return nil, err
	}
	e, ok := byID[id]
	if !ok {
		return nil, fmt.Errorf("dataset: no entry %s in category %s", id, c)
	}
	return e, nil
}

// LongContext is the parsed long_context.py, parsed once per Source.
func (s *Source) LongContext() (*longcontext.Data, error) {
	s.c.lcOnce.Do(func() {
		b, err := s.ReadLongContext()
		if err != nil {
			s.c.lcErr = err
			return
		}
		s.c.lc, s.c.lcErr = longcontext.Parse(b)
	})
	return s.c.lc, s.c.lcErr
}

// FormatSensitivityCategory is the category name of the expanded entries.
const FormatSensitivityCategory = "format_sensitivity"

// FormatSensitivityID is the id upstream gives entry number index (counted
// over all expanded entries, source entry by source entry, configuration
// by configuration) of the format-sensitivity category:
// "format_sensitivity_<index>:<config>:<source id>".
func FormatSensitivityID(index int, config, sourceID string) string {
	return FormatSensitivityCategory + "_" + strconv.Itoa(index) + ":" + config + ":" + sourceID
}

// formatSensitivityEntries is upstream's
// load_dataset_entry("format_sensitivity", include_language_specific_hint=False)
// (load_format_sensitivity_test_cases): for each category of
// BFCL_v4_format_sensitivity.json in file order, the listed entries in
// data-set order, each repeated for the 26 configurations of
// category.FormatSensitivityConfigs, with ids FormatSensitivityID(i, config,
// source id) numbered from 0.
//
// The source entries carry their own language hint already in the
// function descriptions (InferenceView), exactly what the checker sees at
// evaluation time. InferenceView of an expanded entry appends the hint a
// second time, which is what upstream sends the model (load_dataset_entry
// hints the source entries, then hints the expanded ones again under the
// format_sensitivity category). Question, Answer and the other fields are
// the source entry's; Category is "format_sensitivity".
func (s *Source) formatSensitivityEntries() ([]*Entry, error) {
	ids, order, err := s.FormatSensitivityIDs()
	if err != nil {
		return nil, err
	}
	configs := category.FormatSensitivityConfigs()
	var out []*Entry
	index := 0
	for _, cat := range order {
		want := map[string]bool{}
		for _, id := range ids[cat] {
			want[id] = true
		}
		if len(want) == 0 {
			continue
		}
		entries, err := s.Load(cat)
		if err != nil {
			return nil, fmt.Errorf("dataset: format sensitivity: %w", err)
		}
		found := 0
		for _, e := range entries {
			if !want[e.ID] {
				continue
			}
			found++
			hinted, err := InferenceView(e)
			if err != nil {
				return nil, fmt.Errorf("dataset: format sensitivity: %w", err)
			}
			for _, cfg := range configs {
				x := *hinted
				x.ID = FormatSensitivityID(index, cfg, e.ID)
				x.Category = FormatSensitivityCategory
				x.Question = make([][]Message, len(hinted.Question))
				for i, t := range hinted.Question {
					x.Question[i] = append([]Message(nil), t...)
				}
				out = append(out, &x)
				index++
			}
		}
		if found != len(want) {
			return nil, fmt.Errorf("dataset: format sensitivity: BFCL_v4_format_sensitivity.json lists %d %s ids, the data set has %d of them", len(want), cat, found)
		}
	}
	return out, nil
}
