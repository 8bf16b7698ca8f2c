package category

import (
	"fmt"
	"path"
	"strconv"
	"strings"
)

// Predicates. They use upstream's substring tests (bfcl_eval/utils.py
// is_multi_turn, is_agentic, ...), so they also answer correctly for the
// prerequisite pseudo-categories such as "memory_kv_prereq".

// IsMultiTurn: multi_turn_* (utils.is_multi_turn).
func (c Category) IsMultiTurn() bool { return strings.Contains(string(c), "multi_turn") }

// IsMemory: memory_* (utils.is_memory).
func (c Category) IsMemory() bool { return strings.Contains(string(c), "memory") }

// IsWebSearch: web_search_* (utils.is_web_search).
func (c Category) IsWebSearch() bool { return strings.Contains(string(c), "web_search") }

// IsAgentic: memory or web search (utils.is_agentic).
func (c Category) IsAgentic() bool { return c.IsMemory() || c.IsWebSearch() }

// IsFormatSensitivity (utils.is_format_sensitivity).
func (c Category) IsFormatSensitivity() bool {
	return strings.Contains(string(c), "format_sensitivity")
}

// IsLive: the name contains "live" (utils.is_live). Note: this is true for
// live_* only; "non_live" is not a category name.
func (c Category) IsLive() bool { return strings.Contains(string(c), "live") }

// IsNonLive (utils.is_non_live): not format sensitivity, live, multi-turn
// or agentic.
func (c Category) IsNonLive() bool {
	return !c.IsFormatSensitivity() && !c.IsLive() && !c.IsMultiTurn() && !c.IsAgentic()
}

// IsRelevanceOrIrrelevance: irrelevance, live_irrelevance, live_relevance;
// these are scored by upstream's relevance runner, without ground truth
// (utils.is_relevance_or_irrelevance).
func (c Category) IsRelevanceOrIrrelevance() bool {
	return strings.Contains(string(c), "relevance")
}

// IsIrrelevance: the entry passes iff the model makes no call (irrelevance,
// live_irrelevance; eval_runner's `"irrelevance" in test_category`).
func (c Category) IsIrrelevance() bool { return strings.Contains(string(c), "irrelevance") }

// IsParallel: parallel, parallel_multiple, live_parallel,
// live_parallel_multiple (ast_checker's `"parallel" in test_category`:
// calls matched in any order).
func (c Category) IsParallel() bool { return strings.Contains(string(c), "parallel") }

// IsMultiple: multiple, live_multiple and the parallel_multiple ones
// (ast_checker's `"multiple" in test_category`: several documents offered).
func (c Category) IsMultiple() bool { return strings.Contains(string(c), "multiple") }

// IsLongContext: the backends run in long-context mode (the multi-turn
// runner's `"long_context" in test_category or "composite" in
// test_category`).
func (c Category) IsLongContext() bool {
	return strings.Contains(string(c), "long_context") || strings.Contains(string(c), "composite")
}

// IsJava (utils.is_java).
func (c Category) IsJava() bool { return strings.Contains(string(c), "java") && !c.IsJS() }

// IsJS (utils.is_js).
func (c Category) IsJS() bool { return strings.Contains(string(c), "javascript") }

// ContainsMultiTurnIrrelevance: miss_func / miss_param
// (utils.contain_multi_turn_irrelevance).
func (c Category) ContainsMultiTurnIrrelevance() bool {
	return strings.Contains(string(c), "miss_func") || strings.Contains(string(c), "miss_param")
}

// IsMemoryPrereq: a memory prerequisite pseudo-category such as
// "memory_kv_prereq" (utils.is_memory_prereq).
func (c Category) IsMemoryPrereq() bool { return strings.Contains(string(c), "prereq") }

// Language is the programming language of a category's function docs and
// expected calls.
type Language string

// The languages (upstream's constants/enums.py Language values).
const (
	Python     Language = "python"
	Java       Language = "java"
	JavaScript Language = "javascript"
)

// Language returns the checker language (eval_runner.ast_file_runner):
// Java for simple_java, JavaScript for simple_javascript, else Python
// (format sensitivity is always Python).
func (c Category) Language() Language {
	switch {
	case c.IsJava():
		return Java
	case c.IsJS():
		return JavaScript
	}
	return Python
}

// Group is one of the leaderboard's high-level groups.
type Group string

// The groups. NonLive/Live/MultiTurn/Agentic/FormatSensitivity are also
// upstream's result/score folder names (utils.get_general_grouping);
// Irrelevance is the overall score's third component.
const (
	GroupNonLive           Group = "non_live"
	GroupLive              Group = "live"
	GroupIrrelevance       Group = "irrelevance"
	GroupMultiTurn         Group = "multi_turn"
	GroupAgentic           Group = "agentic"
	GroupFormatSensitivity Group = "format_sensitivity"
)

// GeneralGroup is upstream's utils.get_general_grouping: the top result and
// score folder (non_live, live, multi_turn, agentic, format_sensitivity).
// irrelevance is non_live; live_irrelevance and live_relevance are live.
func (c Category) GeneralGroup() Group {
	switch {
	case c.IsFormatSensitivity():
		return GroupFormatSensitivity
	case c.IsNonLive():
		return GroupNonLive
	case c.IsLive():
		return GroupLive
	case c.IsMultiTurn():
		return GroupMultiTurn
	}
	return GroupAgentic
}

// Dir is upstream's utils.get_directory_structure_by_category, slash
// separated: the folder under result/<model>/ and score/<model>/ that holds
// the category's files. Memory categories get "agentic/memory/<backend>",
// every other category its GeneralGroup.
func (c Category) Dir() string {
	if b, ok := c.MemoryBackend(); ok {
		return path.Join(string(c.GeneralGroup()), "memory", b)
	}
	return string(c.GeneralGroup())
}

// MemoryBackend returns the memory backend ("kv", "vector", "rec_sum") of a
// memory category (utils.extract_memory_backend_type, with the prereq suffix
// removed).
func (c Category) MemoryBackend() (string, bool) {
	if !c.IsMemory() {
		return "", false
	}
	return strings.TrimSuffix(strings.TrimPrefix(string(c), "memory_"), "_prereq"), true
}

// ScoringGroup is the component of upstream's overall score the category
// feeds (eval_runner_helper.generate_leaderboard_csv):
//
//   - non_live: simple_python/java/javascript, multiple, parallel,
//     parallel_multiple (the non-live AST summary);
//   - live: live_simple, live_multiple, live_parallel,
//     live_parallel_multiple (the live AST summary);
//   - irrelevance: irrelevance and live_irrelevance (their unweighted mean);
//   - multi_turn: the four multi_turn_* categories;
//   - agentic: memory_* and web_search_*.
//
// live_relevance (displayed as "Relevance Detection") and format_sensitivity
// feed no component: ok is false.
func (c Category) ScoringGroup() (g Group, ok bool) {
	switch {
	case c == LiveRelevance || c.IsFormatSensitivity() || !c.Valid():
		return "", false
	case c.IsIrrelevance():
		return GroupIrrelevance, true
	case c.IsNonLive():
		return GroupNonLive, true
	case c.IsLive():
		return GroupLive, true
	case c.IsMultiTurn():
		return GroupMultiTurn, true
	}
	return GroupAgentic, true
}

// SpecLabel is the group a category's specs are labelled with (one of
// non_live, live, irrelevance, multi_turn, agentic, or format_sensitivity for
// the non-scoring category). It equals ScoringGroup except for
// live_relevance, which feeds no overall component upstream; it is labelled
// irrelevance because it is the other half of relevance detection (same
// runner, same "Hallucination" column pair on the leaderboard:
// "Relevance Detection" next to "Irrelevance Detection"), not an AST
// category.
func (c Category) SpecLabel() Group {
	if g, ok := c.ScoringGroup(); ok {
		return g
	}
	if c == LiveRelevance {
		return GroupIrrelevance
	}
	return GroupFormatSensitivity
}

// DatasetFile is the question file of the category under the data folder
// (utils.load_dataset_entry): BFCL_v4_memory.json for every memory
// category, BFCL_v4_web_search.json for both web-search categories, and
// BFCL_v4_format_sensitivity.json (an id list per source category, not a
// JSON-lines file) for format sensitivity.
func (c Category) DatasetFile() string {
	switch {
	case c.IsWebSearch():
		return VersionPrefix + "_web_search.json"
	case c.IsMemory():
		return VersionPrefix + "_memory.json"
	}
	return VersionPrefix + "_" + string(c) + ".json"
}

// PossibleAnswerFile is the ground-truth file under data/possible_answer/
// (utils.load_ground_truth_entry). ok is false for the relevance categories
// (they have none) and for format sensitivity (its ground truth comes from
// the source categories' files).
func (c Category) PossibleAnswerFile() (name string, ok bool) {
	if c.IsRelevanceOrIrrelevance() || c.IsFormatSensitivity() {
		return "", false
	}
	return c.DatasetFile(), true
}

// ResultFileName is utils.get_file_name_by_category(is_result_file=True):
// BFCL_v4_<category>_result.json.
func (c Category) ResultFileName() string {
	return VersionPrefix + "_" + string(c) + "_result.json"
}

// ScoreFileName is BFCL_v4_<category>_score.json.
func (c Category) ScoreFileName() string {
	return VersionPrefix + "_" + string(c) + "_score.json"
}

// PrereqResultFileName is the result file of a memory category's
// prerequisite conversations (BFCL_v4_memory_kv_prereq_result.json, in the
// same folder as the category's result file); ok is false for non-memory
// categories.
func (c Category) PrereqResultFileName() (string, bool) {
	if !c.IsMemory() || c.IsMemoryPrereq() {
		return "", false
	}
	return VersionPrefix + "_" + string(c) + prereqSuffix + "_result.json", true
}

// ResultPath is Dir()/ResultFileName(), slash separated, relative to
// result/<model>/.
func (c Category) ResultPath() string { return path.Join(c.Dir(), c.ResultFileName()) }

// ScorePath is Dir()/ScoreFileName(), slash separated, relative to
// score/<model>/.
func (c Category) ScorePath() string { return path.Join(c.Dir(), c.ScoreFileName()) }

const prereqSuffix = "_prereq"

// EntryCount is the number of entries of the category in the pinned dataset
// (prerequisite conversations excluded; format sensitivity: 200 ids x 26
// configurations). Upstream counts a category that was not evaluated with
// this many entries and accuracy 0 (eval_runner_helper.get_category_score),
// which matters for the entry-weighted live summary. 0 for unknown names.
func (c Category) EntryCount() int {
	switch c {
	case SimplePython:
		return 400
	case SimpleJava:
		return 100
	case SimpleJavaScript:
		return 50
	case Multiple, Parallel, ParallelMultiple:
		return 200
	case Irrelevance:
		return 240
	case LiveSimple:
		return 258
	case LiveMultiple:
		return 1053
	case LiveParallel:
		return 16
	case LiveParallelMultiple:
		return 24
	case LiveIrrelevance:
		return 884
	case LiveRelevance:
		return 16
	case MultiTurnBase, MultiTurnMissFunc, MultiTurnMissParam, MultiTurnLongContext:
		return 200
	case MemoryKV, MemoryVector, MemoryRecSum:
		return 155
	case WebSearchBase, WebSearchNoSnippet:
		return 100
	case FormatSensitivity:
		return 200 * len(FormatSensitivityConfigs())
	}
	return 0
}

// FormatSensitivityConfigs is upstream's
// utils.get_all_format_sensitivity_configs, in its order: 4 return formats
// x 2 tool-call-tag settings x 3 function-doc formats (plaintext, classic),
// then one markdown and one experimental-style configuration. The strings are
// protocol constants (they appear in entry ids and CSV headers).
func FormatSensitivityConfigs() []string {
	var out []string
	for _, ret := range []string{"python", "json", "verbose_xml", "concise_xml"} {
		for _, tag := range []string{"True", "False"} {
			for _, doc := range []string{"python", "xml", "json"} {
				out = append(out, "ret_fmt="+ret+"&tool_call_tag="+tag+"&func_doc_fmt="+doc+"&prompt_fmt=plaintext&style=classic")
			}
		}
	}
	return append(out,
		"ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=markdown&style=classic",
		"ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=experimental")
}

// RawFromEntryID is upstream's utils.extract_test_category_from_id
// (remove_prereq=False), unvalidated: for a format-sensitivity id
// ("format_sensitivity_3:<config>:<source id>") only the part before the
// first ':' is used, then everything before the last '_'. Memory
// prerequisite ids give "memory_kv_prereq".
func RawFromEntryID(id string) string {
	if i := strings.IndexByte(id, ':'); i >= 0 {
		id = id[:i]
	}
	if i := strings.LastIndexByte(id, '_'); i >= 0 {
		return id[:i]
	}
	return id
}

// FromEntryID returns the category of a run entry id, as upstream extracts
// it (RawFromEntryID) and validated: "live_multiple_329-132-19" ->
// live_multiple, "memory_kv_3-customer-3" -> memory_kv,
// "web_search_no_snippet_7" -> web_search_no_snippet,
// "format_sensitivity_12:<config>:simple_python_58" -> format_sensitivity.
// A memory prerequisite id ("memory_kv_prereq_0-customer-0") yields its
// memory category (memory_kv; upstream's remove_prereq=True); use
// IsMemoryPrereqID to tell them apart. Ids as they stand in the shared
// dataset files before upstream rewrites them ("web_search_3",
// "memory_0-customer-0", "memory_prereq_0-customer-0") are errors: they
// belong to more than one category.
func FromEntryID(id string) (Category, error) {
	raw := RawFromEntryID(id)
	if raw == id {
		return "", fmt.Errorf("entry id %q: no '_<index>' suffix, cannot extract the test category", id)
	}
	c := Category(strings.Replace(raw, prereqSuffix, "", 1))
	if !c.Valid() {
		return "", fmt.Errorf("entry id %q: %q is not a test category; %s", id, raw, validNames())
	}
	return c, nil
}

// IsMemoryPrereqID reports whether id is a memory prerequisite entry
// (utils.is_memory_prereq applied to the id).
func IsMemoryPrereqID(id string) bool { return strings.Contains(id, "prereq") }

// SortKey is upstream's utils.sort_key of an entry id: result and score files
// list entries by (Priority, Category, Index).
type SortKey struct {
	Priority int    // 0 memory prereq, 1 web search, 2 single-turn, 3 multi-turn, 4 memory
	Category string // the raw category part of the id
	Index    int    // the entry index (first number of "12-3-4")
}

// SortKeyOf computes upstream's sort key of an entry id.
func SortKeyOf(id string) (SortKey, error) {
	base := id
	if i := strings.IndexByte(base, ':'); i >= 0 {
		base = base[:i]
	}
	i := strings.LastIndexByte(base, '_')
	if i < 0 {
		return SortKey{}, fmt.Errorf("entry id %q: no '_<index>' suffix", id)
	}
	cat, idx := Category(base[:i]), base[i+1:]
	if strings.Contains(idx, "-") {
		if strings.Count(idx, "-") != 2 {
			return SortKey{}, fmt.Errorf("entry id %q: invalid index format %q", id, idx)
		}
		idx = idx[:strings.IndexByte(idx, '-')]
	}
	n, err := strconv.Atoi(idx)
	if err != nil {
		return SortKey{}, fmt.Errorf("entry id %q: index %q is not a number", id, idx)
	}
	k := SortKey{Category: string(cat), Index: n}
	switch {
	case cat.IsMemoryPrereq():
		k.Priority = 0
	case cat.IsWebSearch():
		k.Priority = 1
	case !cat.IsMultiTurn() && !cat.IsAgentic():
		k.Priority = 2
	case cat.IsMultiTurn():
		k.Priority = 3
	default: // memory
		k.Priority = 4
	}
	return k, nil
}

// Compare orders two keys as Python compares the tuples.
func (k SortKey) Compare(o SortKey) int {
	switch {
	case k.Priority != o.Priority:
		return cmpInt(k.Priority, o.Priority)
	case k.Category != o.Category:
		return strings.Compare(k.Category, o.Category)
	}
	return cmpInt(k.Index, o.Index)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CompareIDs orders entry ids by upstream's sort_key; ids without a valid
// key sort after valid ones, by plain string order.
func CompareIDs(a, b string) int {
	ka, ea := SortKeyOf(a)
	kb, eb := SortKeyOf(b)
	switch {
	case ea == nil && eb == nil:
		return ka.Compare(kb)
	case ea == nil:
		return -1
	case eb == nil:
		return 1
	}
	return strings.Compare(a, b)
}
