// Package selection is "which entries": the one answer to --test-category,
// --ids and --run-ids (upstream's test_case_ids_to_generate.json), used by
// `bfcl generate`, the Ginkgo suites and `bfcl evaluate --partial-eval`.
// A selection resolves against the data set to items in data-set order
// (categories in upstream's canonical order, entries as the files list
// them); unknown categories and ids are errors naming them.
package selection

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
)

// UpstreamIDFile is the file upstream's `--run-ids` reads from its project
// root (bfcl_eval/constants/eval_config.py, TEST_IDS_TO_GENERATE_PATH).
const UpstreamIDFile = "test_case_ids_to_generate.json"

// Spec is a user's selection before it meets the data set.
type Spec struct {
	// Categories are category or group names; empty means Default.
	Categories []string
	// IDs restricts the selection to these entry ids; their categories are
	// taken from the ids when Categories is empty.
	IDs []string
	// RunIDs, when set, is an id file {category: [ids]} that replaces
	// Categories and IDs, as upstream's --run-ids ignores --test-category.
	RunIDs string
	// Default is the category spec used when nothing is given ("all" for
	// generate and evaluate; "all_scoring" where format sensitivity should
	// not run by default).
	Default string
}

// Item is one selected entry.
type Item struct {
	Category category.Category
	ID       string
}

// Selection is a resolved spec.
type Selection struct {
	Categories []category.Category // canonical order
	Items      []Item              // data-set order
	// ByID is set when the user named ids (--ids or --run-ids): only those
	// entries are selected. Nil means every entry of Categories.
	ByID map[string]bool
}

// Contains reports whether entry id of category c is selected.
func (s *Selection) Contains(c category.Category, id string) bool {
	if s == nil {
		return true
	}
	if s.ByID != nil {
		return s.ByID[id]
	}
	for _, x := range s.Categories {
		if x == c {
			return true
		}
	}
	return false
}

// IDsOf returns the selected ids of category c, in data-set order.
func (s *Selection) IDsOf(c category.Category) []string {
	var out []string
	for _, it := range s.Items {
		if it.Category == c {
			out = append(out, it.ID)
		}
	}
	return out
}

// Categories resolves only the category part of a spec (no data set
// needed): the categories named, those of the ids, or those of the id file.
func (sp Spec) categories() ([]category.Category, map[string]bool, error) {
	var byID map[string]bool
	var names []string
	switch {
	case sp.RunIDs != "":
		m, err := ReadIDFile(sp.RunIDs)
		if err != nil {
			return nil, nil, err
		}
		byID = map[string]bool{}
		for c, ids := range m {
			if len(ids) == 0 {
				continue // upstream skips categories with an empty list
			}
			names = append(names, c)
			for _, id := range ids {
				byID[id] = true
			}
		}
		sort.Strings(names)
		if len(names) == 0 {
			return nil, nil, fmt.Errorf("--run-ids: %s lists no ids", sp.RunIDs)
		}
	case len(sp.IDs) > 0:
		byID = map[string]bool{}
		for _, id := range sp.IDs {
			byID[id] = true
		}
		names = sp.Categories
		if len(names) == 0 {
			seen := map[category.Category]bool{}
			var bad []string
			for _, id := range sp.IDs {
				c, err := category.FromEntryID(id)
				if err != nil {
					bad = append(bad, id)
					continue
				}
				if !seen[c] {
					seen[c] = true
					names = append(names, string(c))
				}
			}
			if len(bad) > 0 {
				return nil, nil, fmt.Errorf("--ids: not entry ids of any test category: %s", strings.Join(bad, ", "))
			}
		}
	default:
		names = sp.Categories
	}
	if len(names) == 0 {
		d := sp.Default
		if d == "" {
			d = "all"
		}
		names = []string{d}
	}
	cs, err := category.ExpandList(names)
	if err != nil {
		return nil, nil, err
	}
	return category.SortCanonical(cs), byID, nil
}

// Resolve meets the spec with the data set.
func (sp Spec) Resolve(src *dataset.Source) (*Selection, error) {
	cs, byID, err := sp.categories()
	if err != nil {
		return nil, err
	}
	sel := &Selection{Categories: cs, ByID: byID}
	found := map[string]bool{}
	for _, c := range cs {
		entries, err := prompt.LoadCategory(src, c)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if byID != nil && !byID[e.ID] {
				continue
			}
			found[e.ID] = true
			sel.Items = append(sel.Items, Item{Category: c, ID: e.ID})
		}
	}
	if byID != nil {
		var missing []string
		for id := range byID {
			if !found[id] {
				missing = append(missing, id)
			}
		}
		if len(missing) > 0 {
			sort.Slice(missing, func(i, j int) bool { return category.CompareIDs(missing[i], missing[j]) < 0 })
			where := "--ids"
			if sp.RunIDs != "" {
				where = sp.RunIDs
			}
			return nil, fmt.Errorf("%s: no such entries in %s: %s", where, strings.Join(category.Names(cs), ","), strings.Join(missing, ", "))
		}
	}
	return sel, nil
}

// ReadIDFile reads upstream's id file: {"<category>": ["<id>", ...], ...}.
// Unknown categories and ids that do not belong to their key are errors.
func ReadIDFile(path string) (map[string][]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--run-ids: %w", err)
	}
	var m map[string][]string
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("--run-ids: %s: %w (want {\"<category>\": [\"<id>\", ...]})", path, err)
	}
	for c, ids := range m {
		if _, err := category.Parse(c); err != nil {
			return nil, fmt.Errorf("--run-ids: %s: %w", path, err)
		}
		for _, id := range ids {
			if got, err := category.FromEntryID(id); err != nil || string(got) != c {
				return nil, fmt.Errorf("--run-ids: %s: id %q is not an entry of %s", path, id, c)
			}
		}
	}
	return m, nil
}
