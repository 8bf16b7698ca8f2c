// Package specs turns the generated per-category tables (generated/specs)
// into Ginkgo specs: one It per data-set entry, the entry id as its text,
// labels for category, upstream test groups, language and backend classes,
// and a code location pointing at the entry's line in the data set, so a
// failure report leads to the data, not to generated Go.
package specs

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/selection"
)

// configFailure registers the one spec that reports a configuration error.
var configFailure sync.Once

// Entry is one generated row: an entry id, its line in the data-set file
// (0: no location), and its own labels: the backend classes it involves
// (multi-turn, agentic) or its prompt configuration (format sensitivity,
// e.g. "ret_fmt:json").
type Entry struct {
	ID     string
	Line   int
	Labels []string
}

// CategorySpec is one generated file: the specs of one category.
type CategorySpec struct {
	Category category.Category
	Labels   []string
	Source   string // data-set file name, e.g. BFCL_v4_simple_python.json
	Entries  []Entry
}

// Category registers the specs of one category with Ginkgo and returns true
// (for use as `var _ = specs.Category(...)`). Each spec runs its entry
// through the process's shared run (RunSpec). The container body runs when
// Ginkgo builds the tree, after flags are parsed, so a -bfcl.ids /
// -bfcl.test-category / -bfcl.run-ids selection leaves the other entries out
// of the tree (no skip markers).
func Category(c CategorySpec) bool {
	return ginkgo.Describe(c.Category.String(), ginkgo.Label(c.Labels...), func() {
		var sel *selection.Selection
		var inShard map[string]bool
		dataDir := ""
		run, err := Shared()
		if err != nil {
			// A configuration that does not resolve (an unknown id in
			// -bfcl.ids, a bad value) is one failing spec of the suite, in
			// its first category, not one per entry.
			configFailure.Do(func() {
				ginkgo.It("bfcl configuration", func() { ginkgo.Fail(err.Error()) })
			})
			return
		}
		sel = run.Selection
		dataDir = run.Harness.Config().Source.DataDir
		if run.Shard.Sharded() {
			ids := make([]string, 0, len(c.Entries))
			for _, e := range c.Entries {
				if sel.Contains(c.Category, e.ID) {
					ids = append(ids, e.ID)
				}
			}
			if inShard, err = run.InShard(c.Category, ids); err != nil {
				panic(fmt.Sprintf("bfcl: shard %s of %s: %v", run.Shard, c.Category, err))
			}
		}
		for _, e := range c.Entries {
			e := e
			if !sel.Contains(c.Category, e.ID) || (inShard != nil && !inShard[e.ID]) {
				continue
			}
			args := []any{}
			if len(e.Labels) > 0 {
				args = append(args, ginkgo.Label(e.Labels...))
			}
			if dataDir != "" && e.Line > 0 {
				args = append(args, types.CodeLocation{FileName: filepath.Join(dataDir, c.Source), LineNumber: e.Line})
			}
			args = append(args, func(ctx ginkgo.SpecContext) { RunSpec(ctx, c.Category, e.ID) })
			ginkgo.It(e.ID, args...)
		}
	})
}
