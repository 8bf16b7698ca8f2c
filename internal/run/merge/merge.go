// Package merge combines the result folders of the shards of one run
// (each a result root in upstream's layout, <root>/<model>/<group>/
// BFCL_v4_<category>_result.json, with the memory prerequisite results
// and memory snapshots below <model>/agentic/memory/<backend>/) into one
// result root that `bfcl evaluate` scores as usual.
//
// Result files are merged record by record: one entry with the same model
// output (the "result" field, compared as JSON) in several folders is
// kept once (the first folder's line, the output folder's own line first),
// so merging again is a no-op; two different outputs for one entry are a
// conflict, and nothing is written. Every other file (memory snapshots)
// must be byte-identical wherever it appears. Entries of the data set
// that no folder has are reported.
package merge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/store/atomicfile"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Options say what to merge.
type Options struct {
	Out  string   // result root to write (may already hold an earlier merge, or be one of Dirs)
	Dirs []string // shard result roots
	// Source, when set, is the data set the entries are checked against.
	Source *dataset.Source
	// Categories are the categories the run selected; default: those with
	// a result file in any folder.
	Categories []category.Category
	// IDs, when set, are the entries the run selected (--ids, --run-ids):
	// only those, and the memory prerequisites of their scenarios, are
	// expected; nil expects every entry of Categories.
	IDs map[string]bool
}

// Missing is what one model lacks in one category.
type Missing struct {
	Model    string // model folder
	Category string // e.g. "simple_python" or "memory_kv_prereq"
	Have     int
	Want     int
	IDs      []string // missing ids, data-set order
}

// Report is what a merge did.
type Report struct {
	Files   int // files written or already identical in Out
	Records int // records in the merged result files
	Missing []Missing
	Unknown []string // "model/category/id" of records the data set does not have
}

// MissingCount is the number of missing entries over all models.
func (r Report) MissingCount() int {
	n := 0
	for _, m := range r.Missing {
		n += len(m.IDs)
	}
	return n
}

// Conflict is two different outputs for one entry, or two different
// versions of one other file.
type Conflict struct {
	Path   string // relative to the result roots
	ID     string // entry id; "" for a non-result file
	A, B   string // the folders holding the two versions
	Detail string
}

func (c *Conflict) Error() string {
	if c.ID == "" {
		return fmt.Sprintf("merge: %s differs between %s and %s", c.Path, c.A, c.B)
	}
	return fmt.Sprintf("merge: %s: entry %s has two different results, in %s and in %s (%s); rerun one of the shards or remove one folder", c.Path, c.ID, c.A, c.B, c.Detail)
}

type recordFrom struct {
	rec    results.Record
	dir    string
	result []byte // compact "result"
}

type resultSet struct {
	order []string
	recs  map[string]recordFrom
}

type fileFrom struct {
	data []byte
	dir  string
}

// Run merges opts.Dirs into opts.Out. On a conflict nothing is written
// and the error is a *Conflict (the first found, in path order).
func Run(opts Options) (Report, error) {
	if opts.Out == "" {
		return Report{}, errors.New("merge: no output folder")
	}
	if len(opts.Dirs) == 0 {
		return Report{}, errors.New("merge: no shard folders to merge")
	}
	resultsByPath := map[string]*resultSet{}
	others := map[string]fileFrom{}
	// The output's own content first: merging again keeps it, and an
	// earlier merge that disagrees with a shard is a conflict too.
	sources := []string{}
	if st, err := os.Stat(opts.Out); err == nil && st.IsDir() {
		sources = append(sources, opts.Out)
	}
	for _, d := range opts.Dirs {
		st, err := os.Stat(d)
		if err != nil {
			return Report{}, fmt.Errorf("merge: shard folder: %w", err)
		}
		if !st.IsDir() {
			return Report{}, fmt.Errorf("merge: shard folder %s is not a folder", d)
		}
		if same(d, opts.Out) {
			continue
		}
		sources = append(sources, d)
	}
	for _, dir := range sources {
		err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if de.IsDir() || !de.Type().IsRegular() {
				return nil
			}
			name := de.Name()
			if strings.HasSuffix(name, ".lock") || strings.HasSuffix(name, ".tmp") || strings.HasPrefix(name, ".") {
				return nil // lock files, and temporary files of a writer killed mid-write
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			if _, ok := results.FileCategory(name); ok {
				return addResults(resultsByPath, dir, rel, p)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if prev, ok := others[rel]; ok {
				if !bytes.Equal(prev.data, data) {
					return &Conflict{Path: rel, A: prev.dir, B: dir}
				}
				return nil
			}
			others[rel] = fileFrom{data: data, dir: dir}
			return nil
		})
		if err != nil {
			return Report{}, err
		}
	}

	var rep Report
	for _, rel := range slices.Sorted(maps.Keys(resultsByPath)) {
		set := resultsByPath[rel]
		recs := make([]results.Record, 0, len(set.order))
		for _, id := range set.order {
			recs = append(recs, set.recs[id].rec)
		}
		if err := results.WriteFile(filepath.Join(opts.Out, rel), recs); err != nil {
			return rep, err
		}
		rep.Files++
		rep.Records += len(recs)
	}
	for _, rel := range slices.Sorted(maps.Keys(others)) {
		f := others[rel]
		if f.dir != opts.Out {
			if err := atomicfile.Write(filepath.Join(opts.Out, rel), f.data); err != nil {
				return rep, err
			}
		}
		rep.Files++
	}
	if opts.Source != nil {
		if err := check(&rep, opts, resultsByPath); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func same(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && filepath.Clean(x) == filepath.Clean(y)
}

func addResults(all map[string]*resultSet, dir, rel, path string) error {
	if len(strings.Split(filepath.ToSlash(rel), "/")) < 3 {
		return fmt.Errorf("merge: %s is not below <model>/<group>/ in %s: pass result roots (the folders holding the model folders), not model folders", rel, dir)
	}
	recs, err := results.Read(path)
	if err != nil {
		return err
	}
	set := all[rel]
	if set == nil {
		set = &resultSet{recs: map[string]recordFrom{}}
		all[rel] = set
	}
	for _, r := range recs {
		var buf bytes.Buffer
		if err := json.Compact(&buf, r.Result); err != nil {
			return fmt.Errorf("merge: %s:%d (%s): result is not JSON: %v", path, r.Line, r.ID, err)
		}
		prev, ok := set.recs[r.ID]
		if !ok {
			set.order = append(set.order, r.ID)
			set.recs[r.ID] = recordFrom{rec: r, dir: dir, result: buf.Bytes()}
			continue
		}
		if !bytes.Equal(prev.result, buf.Bytes()) {
			return &Conflict{Path: rel, ID: r.ID, A: prev.dir, B: dir, Detail: excerpt(prev.result) + " vs " + excerpt(buf.Bytes())}
		}
		// The same output again: another shard, or an earlier merge. Keep the first.
	}
	return nil
}

func excerpt(b []byte) string {
	const n = 80
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

// check compares the merged records with the data set: for every model
// folder and every selected category, the ids it lacks (for a memory
// category also the prerequisite conversations of every scenario) and
// the ids the data set does not have.
func check(rep *Report, opts Options, byPath map[string]*resultSet) error {
	have := map[string]map[string]map[string]bool{} // model -> category -> ids
	cats := map[category.Category]bool{}
	for rel, set := range byPath {
		parts := strings.Split(filepath.ToSlash(rel), "/")
		catName, _ := results.FileCategory(parts[len(parts)-1])
		model := parts[0]
		if have[model] == nil {
			have[model] = map[string]map[string]bool{}
		}
		ids := map[string]bool{}
		for id := range set.recs {
			ids[id] = true
		}
		have[model][catName] = ids
		c := category.Category(strings.TrimSuffix(catName, "_prereq"))
		if c.Valid() {
			cats[c] = true
		}
	}
	selected := opts.Categories
	if len(selected) == 0 {
		for c := range cats {
			selected = append(selected, c)
		}
		selected = category.SortCanonical(selected)
	}
	models := make([]string, 0, len(have))
	for m := range have {
		models = append(models, m)
	}
	sort.Strings(models)
	for _, c := range selected {
		want, err := prompt.LoadCategory(opts.Source, c)
		if err != nil {
			return err
		}
		scenarios := map[string]bool{}
		if opts.IDs != nil {
			var sel []*dataset.Entry
			for _, e := range want {
				if opts.IDs[e.ID] {
					sel = append(sel, e)
					scenarios[e.Scenario] = true
				}
			}
			want = sel
		}
		groups := []struct {
			name string
			ids  []string
		}{{string(c), ids(want)}}
		if c.IsMemory() {
			var pre []string
			for _, sc := range dataset.MemoryScenarios() {
				if opts.IDs != nil && !scenarios[sc] {
					continue
				}
				p, err := opts.Source.MemoryPrereqs(c, sc)
				if err != nil {
					return err
				}
				pre = append(pre, ids(p)...)
			}
			groups = append(groups, struct {
				name string
				ids  []string
			}{string(c) + "_prereq", pre})
		}
		for _, model := range models {
			for _, g := range groups {
				got := have[model][g.name]
				known := make(map[string]bool, len(g.ids))
				var miss []string
				for _, id := range g.ids {
					known[id] = true
					if !got[id] {
						miss = append(miss, id)
					}
				}
				if len(miss) > 0 {
					rep.Missing = append(rep.Missing, Missing{Model: model, Category: g.name, Have: len(g.ids) - len(miss), Want: len(g.ids), IDs: miss})
				}
				var unknown []string
				for id := range got {
					if !known[id] {
						unknown = append(unknown, model+"/"+g.name+"/"+id)
					}
				}
				sort.Strings(unknown)
				rep.Unknown = append(rep.Unknown, unknown...)
			}
		}
	}
	return nil
}

func ids(es []*dataset.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}
