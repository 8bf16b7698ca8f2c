// Package category names the BFCL v4 test categories and test groups exactly
// as upstream does (bfcl_eval/constants/category_mapping.py,
// bfcl_eval/utils.py, TEST_CATEGORIES.md) and answers the per-category
// questions the rest of the project asks: which dataset file, which
// result/score folder, which language, which leaderboard group.
//
// All tables are functions returning fresh slices; nothing here is mutable.
package category

import (
	"fmt"
	"sort"
	"strings"
)

// VersionPrefix is upstream's VERSION_PREFIX (constants/category_mapping.py);
// every dataset, result and score file name starts with it.
const VersionPrefix = "BFCL_v4"

// Category is one BFCL test category, e.g. "simple_python".
type Category string

// The test categories, spelled as upstream spells them
// (constants/category_mapping.py).
const (
	// Non-live (NON_LIVE_CATEGORY).
	SimplePython     Category = "simple_python"
	SimpleJava       Category = "simple_java"
	SimpleJavaScript Category = "simple_javascript"
	Multiple         Category = "multiple"
	Parallel         Category = "parallel"
	ParallelMultiple Category = "parallel_multiple"
	Irrelevance      Category = "irrelevance"

	// Live (LIVE_CATEGORY).
	LiveSimple           Category = "live_simple"
	LiveMultiple         Category = "live_multiple"
	LiveParallel         Category = "live_parallel"
	LiveParallelMultiple Category = "live_parallel_multiple"
	LiveIrrelevance      Category = "live_irrelevance"
	LiveRelevance        Category = "live_relevance"

	// Multi-turn (MULTI_TURN_CATEGORY).
	MultiTurnBase        Category = "multi_turn_base"
	MultiTurnMissFunc    Category = "multi_turn_miss_func"
	MultiTurnMissParam   Category = "multi_turn_miss_param"
	MultiTurnLongContext Category = "multi_turn_long_context"

	// Agentic: memory (MEMORY_CATEGORY, one per memory backend) and web
	// search (WEB_SEARCH_CATEGORY).
	MemoryKV           Category = "memory_kv"
	MemoryVector       Category = "memory_vector"
	MemoryRecSum       Category = "memory_rec_sum"
	WebSearchBase      Category = "web_search_base"
	WebSearchNoSnippet Category = "web_search_no_snippet"

	// FormatSensitivity is upstream's only NON_SCORING_CATEGORY.
	FormatSensitivity Category = "format_sensitivity"
)

// String returns the category name.
func (c Category) String() string { return string(c) }

// NonLive is upstream's NON_LIVE_CATEGORY, in upstream order.
func NonLive() []Category {
	return []Category{SimplePython, SimpleJava, SimpleJavaScript, Multiple, Parallel, ParallelMultiple, Irrelevance}
}

// Live is upstream's LIVE_CATEGORY, in upstream order.
func Live() []Category {
	return []Category{LiveSimple, LiveMultiple, LiveParallel, LiveParallelMultiple, LiveIrrelevance, LiveRelevance}
}

// MultiTurn is upstream's MULTI_TURN_CATEGORY, in upstream order.
func MultiTurn() []Category {
	return []Category{MultiTurnBase, MultiTurnMissFunc, MultiTurnMissParam, MultiTurnLongContext}
}

// WebSearch is upstream's WEB_SEARCH_CATEGORY.
func WebSearch() []Category { return []Category{WebSearchBase, WebSearchNoSnippet} }

// MemoryBackends is upstream's ALL_AVAILABLE_MEMORY_BACKENDS, in order.
func MemoryBackends() []string { return []string{"kv", "vector", "rec_sum"} }

// Memory is upstream's MEMORY_CATEGORY ("memory_" + backend, backend order).
func Memory() []Category { return []Category{MemoryKV, MemoryVector, MemoryRecSum} }

// MemoryScenarios is upstream's MEMORY_SCENARIO_NAME, in order.
func MemoryScenarios() []string {
	return []string{"student", "customer", "finance", "healthcare", "notetaker"}
}

// SingleTurn is upstream's SINGLE_TURN_CATEGORY (non-live then live).
func SingleTurn() []Category { return concat(NonLive(), Live()) }

// Agentic is upstream's AGENTIC_CATEGORY (memory then web search).
func Agentic() []Category { return concat(Memory(), WebSearch()) }

// NonScoring is upstream's NON_SCORING_CATEGORY.
func NonScoring() []Category { return []Category{FormatSensitivity} }

// Scoring is upstream's ALL_SCORING_CATEGORIES: single-turn, multi-turn,
// agentic, in that order.
func Scoring() []Category { return concat(SingleTurn(), MultiTurn(), Agentic()) }

// All is upstream's ALL_CATEGORIES: the scoring categories then the
// non-scoring ones. This is also the canonical display order of this project.
func All() []Category { return concat(Scoring(), NonScoring()) }

func concat(parts ...[]Category) []Category {
	var out []Category
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Collection is a named test group accepted by --test-category
// (upstream's TEST_COLLECTION_MAPPING keys).
type Collection string

// The test groups, spelled as upstream spells them.
const (
	CollAll        Collection = "all"
	CollAllScoring Collection = "all_scoring"
	CollMultiTurn  Collection = "multi_turn"
	CollSingleTurn Collection = "single_turn"
	CollLive       Collection = "live"
	CollNonLive    Collection = "non_live"
	CollNonPython  Collection = "non_python"
	CollPython     Collection = "python"
	CollMemory     Collection = "memory"
	CollWebSearch  Collection = "web_search"
	CollAgentic    Collection = "agentic"
)

// Collections lists the test groups in upstream's TEST_COLLECTION_MAPPING order.
func Collections() []Collection {
	return []Collection{CollAll, CollAllScoring, CollMultiTurn, CollSingleTurn, CollLive, CollNonLive,
		CollNonPython, CollPython, CollMemory, CollWebSearch, CollAgentic}
}

// Members returns the categories of a test group, in upstream's order, and
// whether the group exists.
func Members(g Collection) ([]Category, bool) {
	switch g {
	case CollAll:
		return All(), true
	case CollAllScoring:
		return Scoring(), true
	case CollMultiTurn:
		return MultiTurn(), true
	case CollSingleTurn:
		return SingleTurn(), true
	case CollLive:
		return Live(), true
	case CollNonLive:
		return NonLive(), true
	case CollNonPython:
		return []Category{SimpleJava, SimpleJavaScript}, true
	case CollPython:
		// Upstream's explicit list (note: its own order, not NON_LIVE order).
		return []Category{SimplePython, Irrelevance, Parallel, Multiple, ParallelMultiple,
			LiveSimple, LiveMultiple, LiveParallel, LiveParallelMultiple, LiveIrrelevance, LiveRelevance}, true
	case CollMemory:
		return Memory(), true
	case CollWebSearch:
		return WebSearch(), true
	case CollAgentic:
		return Agentic(), true
	}
	return nil, false
}

// Valid reports whether c is one of upstream's ALL_CATEGORIES.
func (c Category) Valid() bool {
	for _, k := range All() {
		if k == c {
			return true
		}
	}
	return false
}

// Parse returns the category called name, or an error listing the valid
// names.
func Parse(name string) (Category, error) {
	c := Category(name)
	if c.Valid() {
		return c, nil
	}
	return "", fmt.Errorf("unknown test category %q; %s", name, validNames())
}

func validNames() string {
	cats := make([]string, 0, len(All()))
	for _, c := range All() {
		cats = append(cats, string(c))
	}
	groups := make([]string, 0, len(Collections()))
	for _, g := range Collections() {
		groups = append(groups, string(g))
	}
	return "valid categories: " + strings.Join(cats, ", ") + "; valid groups: " + strings.Join(groups, ", ")
}

// Expand parses a --test-category value the way upstream's CLI does
// (__main__.handle_multiple_input, then utils.parse_test_category_argument):
// comma-separated names, each trimmed, empty items dropped; every name is a
// group (expanded to its members) or a category; duplicates collapse. The
// result is sorted by name, exactly as upstream returns it (sorted(set)),
// which is also the order upstream runs the categories in. Use
// SortCanonical for display order. An unknown name is an error naming it and
// listing every valid name. An empty spec yields an empty list (upstream
// evaluates nothing then; the CLI's default is "all").
func Expand(spec string) ([]Category, error) {
	return ExpandList([]string{spec})
}

// ExpandList is Expand for a repeated flag: the items are joined with commas
// first, as upstream's handle_multiple_input does.
func ExpandList(items []string) ([]Category, error) {
	seen := map[Category]bool{}
	for _, raw := range strings.Split(strings.Join(items, ","), ",") {
		name := strings.TrimSpace(raw)
		if name == "" {
			continue
		}
		if members, ok := Members(Collection(name)); ok {
			for _, m := range members {
				seen[m] = true
			}
			continue
		}
		c, err := Parse(name)
		if err != nil {
			return nil, err
		}
		seen[c] = true
	}
	out := make([]Category, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

// SortCanonical returns cats ordered as in All() (unknown names last, by name).
func SortCanonical(cats []Category) []Category {
	rank := map[Category]int{}
	for i, c := range All() {
		rank[c] = i
	}
	out := append([]Category(nil), cats...)
	sort.SliceStable(out, func(i, j int) bool {
		ri, iok := rank[out[i]]
		rj, jok := rank[out[j]]
		switch {
		case iok && jok:
			return ri < rj
		case iok != jok:
			return iok
		default:
			return out[i] < out[j]
		}
	})
	return out
}

// Names converts categories to their plain names.
func Names(cs []Category) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}
