package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// memory_kv.py (class MemoryAPI_kv). Result and error strings and the size
// limits are protocol constants reproduced from that file. The key search
// is rank_bm25 0.2.2's BM25Plus (internal/services/bm25), scores bit-identical.

import (
	"regexp"
	"strconv"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/services/bm25"
)

// Limits of memory_kv.py.
const (
	kvMaxCoreMemorySize            = 7
	kvMaxCoreMemoryEntryLength     = 300
	kvMaxArchivalMemorySize        = 50
	kvMaxArchivalMemoryEntryLength = 2000
)

// kvKeyFormat is _is_valid_key_format's r"^[a-z]+(_[a-z0-9]+)*$" under
// re.match: Python's "$" also matches before one trailing newline.
var kvKeyFormat = regexp.MustCompile(`\A[a-z]+(?:_[a-z0-9]+)*\n?\z`)

// kvKeyFormatCorrected is the memory-kv-key-pattern correction's
// r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$" (gorilla PR #1327): digits are allowed
// in the first segment after its first letter ("q1_report").
var kvKeyFormatCorrected = regexp.MustCompile(`\A[a-z][a-z0-9]*(?:_[a-z0-9]+)*\n?\z`)

// MemoryAPI_kv is upstream's key-value memory: a core memory (at most 7
// entries of at most 300 characters, shown in the system prompt) and an
// archival memory (50 entries of 2000 characters), both str -> str dicts in
// insertion order.
//
//nolint:revive // the Go type name is the upstream class name (generated stubs dispatch on it)
type MemoryAPI_kv struct {
	coreMemory     *pyval.Dict
	archivalMemory *pyval.Dict
	files          memoryFiles
	// keyFormat is upstream's key pattern, or the corrected one
	// (Env.KVKeyPatternCorrected); emptySearchCorrected answers a search of
	// an empty memory with no results (Env.EmptyMemorySearchCorrected).
	keyFormat            *regexp.Regexp
	emptySearchCorrected bool
}

// NewMemoryAPIKV returns an instance as upstream's constructor leaves it,
// with env's opt-in corrections (none by default).
func NewMemoryAPIKV(env *Env) *MemoryAPI_kv {
	m := &MemoryAPI_kv{coreMemory: pyval.NewDict(), archivalMemory: pyval.NewDict(), keyFormat: kvKeyFormat}
	if env != nil {
		if env.KVKeyPatternCorrected {
			m.keyFormat = kvKeyFormatCorrected
		}
		m.emptySearchCorrected = env.EmptyMemorySearchCorrected
	}
	return m
}

// search is _similarity_search over the keys of mem. Pinned upstream
// raises ZeroDivisionError on an empty memory (rank_bm25 divides by the
// corpus size); the empty-memory-search correction (gorilla PR #1347)
// answers {"ranked_results": []} instead.
func (m *MemoryAPI_kv) search(mem *pyval.Dict, query, k pyval.Value) (pyval.Value, error) {
	if mem.Len() == 0 && m.emptySearchCorrected {
		d := pyval.NewDict()
		d.SetStr("ranked_results", pyval.NewList())
		return d, nil
	}
	return kvSimilaritySearch(query, mem.Keys(), k)
}

// ClassName implements Instance.
func (*MemoryAPI_kv) ClassName() string { return "MemoryAPI_kv" }

// LoadScenario is _load_scenario: config holds model_result_dir, test_id
// and scenario (and test_category, unused); the memory starts from the
// scenario's latest snapshot file.
func (m *MemoryAPI_kv) LoadScenario(config *pyval.Dict, _ bool) error {
	return m.files.loadScenario(config, m.Restore)
}

// State implements Instance: the public memory attributes.
func (m *MemoryAPI_kv) State() *pyval.Dict {
	d := pyval.NewDict()
	d.SetStr("core_memory", m.coreMemory)
	d.SetStr("archival_memory", m.archivalMemory)
	return d
}

// Snapshot implements MemoryBackend: {"core_memory": ..., "archival_memory": ...}.
func (m *MemoryAPI_kv) Snapshot() *pyval.Dict {
	d := pyval.NewDict()
	d.SetStr("core_memory", pyval.DeepCopy(m.coreMemory))
	d.SetStr("archival_memory", pyval.DeepCopy(m.archivalMemory))
	return d
}

// Restore implements MemoryBackend (memory_data["core_memory"] and
// ["archival_memory"], deep-copied; a missing key is Python's KeyError).
func (m *MemoryAPI_kv) Restore(snap *pyval.Dict) error {
	core, err := snapshotDict(snap, "core_memory")
	if err != nil {
		return err
	}
	arch, err := snapshotDict(snap, "archival_memory")
	if err != nil {
		return err
	}
	m.coreMemory, m.archivalMemory = core, arch
	return nil
}

func snapshotDict(snap *pyval.Dict, key string) (*pyval.Dict, error) {
	v, ok := snap.GetStr(key)
	if !ok {
		return nil, pyval.NewKeyError(pyval.Str(key))
	}
	d, ok := pyval.DeepCopy(v).(*pyval.Dict)
	if !ok {
		return nil, pyval.NewTypeError("memory snapshot: %s must be an object, got %s", key, v.TypeName())
	}
	return d, nil
}

// Flush implements MemoryBackend.
func (m *MemoryAPI_kv) Flush() error { return m.files.flush(m.Snapshot()) }

// SnapshotWarning implements MemoryBackend.
func (m *MemoryAPI_kv) SnapshotWarning() string { return m.files.warning }

// CoreMemoryContext implements MemoryBackend: json.dumps(core_memory,
// indent=4), or upstream's sentence when it is empty.
func (m *MemoryAPI_kv) CoreMemoryContext() (string, error) {
	if m.coreMemory.Len() == 0 {
		return "There is no content in the core memory at this point.", nil
	}
	return MemoryJSONIndent(m.coreMemory, 4)
}

// kvSimilaritySearch is _similarity_search: BM25+ over the keys, tokens
// from .replace("_", " ").lower().split(), the k best as (score, key).
func kvSimilaritySearch(query pyval.Value, corpus []pyval.Value, k pyval.Value) (pyval.Value, error) {
	tokenized := make([][]string, len(corpus))
	for i, c := range corpus {
		s, err := pyval.StrMethod(c, "replace")
		if err != nil {
			return nil, err
		}
		tokenized[i] = kvTokenize(s)
	}
	idx, err := bm25.NewPlus(tokenized)
	if err != nil {
		return nil, pyval.NewZeroDivisionError("%s", err.Error())
	}
	q, err := pyval.StrMethod(query, "replace")
	if err != nil {
		return nil, err
	}
	ranked := bm25.Rank(idx.Scores(kvTokenize(q)))
	list := pyval.NewList()
	for _, r := range ranked {
		list.Items = append(list.Items, pyval.Tuple{pyval.Float(r.Score), corpus[r.Index]})
	}
	if k == nil {
		k = pyval.Int(5)
	}
	top, err := pyval.GetItem(list, &pyval.SliceValue{Start: pyval.None, Stop: k, Step: pyval.None})
	if err != nil {
		return nil, err
	}
	d := pyval.NewDict()
	d.SetStr("ranked_results", top)
	return d, nil
}

func kvTokenize(s string) []string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			out = append(out, ' ')
		} else {
			out = append(out, s[i])
		}
	}
	return pyval.Split(pyval.Lower(string(out)))
}

// kvAdd is core/archival_memory_add.
func kvAdd(mem *pyval.Dict, key, value pyval.Value, maxSize, maxLen int, full, added string, keyFormat *regexp.Regexp) (pyval.Value, error) {
	k, v := pyval.StrOf(key), pyval.StrOf(value)
	if mem.Len() >= maxSize {
		return errorDict(full), nil
	}
	if pyval.StrLen(v) > maxLen {
		return errorDict(kvTooLong(maxLen)), nil
	}
	if !keyFormat.MatchString(k) {
		return errorDict("Key must be in snake_case format and cannot contain spaces."), nil
	}
	if mem.Has(pyval.Str(k)) {
		return errorDict("Key name must be unique."), nil
	}
	mem.Set(pyval.Str(k), pyval.Str(v))
	return memStatus("status", added), nil
}

func kvTooLong(maxLen int) string {
	return "Entry is too long. Please shorten the entry to less than " + strconv.Itoa(maxLen) + " characters."
}

// kvRemove is core/archival_memory_remove (the key is not converted).
func kvRemove(mem *pyval.Dict, key pyval.Value) (pyval.Value, error) {
	if notIn, err := errorUnlessIn(mem, key, "Key not found."); notIn != nil || err != nil {
		return notIn, err
	}
	mem.Delete(key)
	return memStatus("status", "Key removed."), nil
}

// kvReplace is core/archival_memory_replace.
func kvReplace(mem *pyval.Dict, key, value pyval.Value, maxLen int) (pyval.Value, error) {
	k, v := pyval.StrOf(key), pyval.StrOf(value)
	if !mem.Has(pyval.Str(k)) {
		return errorDict("Key not found."), nil
	}
	if pyval.StrLen(v) > maxLen {
		return errorDict(kvTooLong(maxLen)), nil
	}
	mem.Set(pyval.Str(k), pyval.Str(v))
	return memStatus("status", "Key replaced."), nil
}

// kvRetrieve is core/archival_memory_retrieve (the key is not converted).
func kvRetrieve(mem *pyval.Dict, key pyval.Value) (pyval.Value, error) {
	if notIn, err := errorUnlessIn(mem, key, "Key not found."); notIn != nil || err != nil {
		return notIn, err
	}
	v, _ := mem.Get(key)
	d := pyval.NewDict()
	d.SetStr("value", v)
	return d, nil
}

func kvListKeys(mem *pyval.Dict) (pyval.Value, error) {
	d := pyval.NewDict()
	d.SetStr("keys", pyval.NewList(mem.Keys()...))
	return d, nil
}

// CoreMemoryAdd is core_memory_add(key, value).
func (m *MemoryAPI_kv) CoreMemoryAdd(args stubs.MemoryAPI_kvCoreMemoryAddArgs) (pyval.Value, error) {
	key, value := args.Key.V, args.Value.V
	return kvAdd(m.coreMemory, key, value, kvMaxCoreMemorySize, kvMaxCoreMemoryEntryLength,
		"Core memory is full. Please clear some entries.", "Key-value pair added.", m.keyFormat)
}

// CoreMemoryRemove is core_memory_remove(key).
func (m *MemoryAPI_kv) CoreMemoryRemove(args stubs.MemoryAPI_kvCoreMemoryRemoveArgs) (pyval.Value, error) {
	key := args.Key.V
	return kvRemove(m.coreMemory, key)
}

// CoreMemoryReplace is core_memory_replace(key, value).
func (m *MemoryAPI_kv) CoreMemoryReplace(args stubs.MemoryAPI_kvCoreMemoryReplaceArgs) (pyval.Value, error) {
	key, value := args.Key.V, args.Value.V
	return kvReplace(m.coreMemory, key, value, kvMaxCoreMemoryEntryLength)
}

// CoreMemoryClear is core_memory_clear().
func (m *MemoryAPI_kv) CoreMemoryClear() (pyval.Value, error) {
	m.coreMemory = pyval.NewDict()
	return memStatus("status", "Short term memory cleared."), nil
}

// CoreMemoryRetrieve is core_memory_retrieve(key).
func (m *MemoryAPI_kv) CoreMemoryRetrieve(args stubs.MemoryAPI_kvCoreMemoryRetrieveArgs) (pyval.Value, error) {
	key := args.Key.V
	return kvRetrieve(m.coreMemory, key)
}

// CoreMemoryListKeys is core_memory_list_keys().
func (m *MemoryAPI_kv) CoreMemoryListKeys() (pyval.Value, error) { return kvListKeys(m.coreMemory) }

// CoreMemoryKeySearch is core_memory_key_search(query, k=5). An empty core
// memory raises ZeroDivisionError("division by zero") as rank_bm25 does.
func (m *MemoryAPI_kv) CoreMemoryKeySearch(args stubs.MemoryAPI_kvCoreMemoryKeySearchArgs) (pyval.Value, error) {
	query, k := args.Query.V, args.K.V
	return m.search(m.coreMemory, query, k)
}

// CoreMemoryRetrieveAll is core_memory_retrieve_all(): the core memory dict
// itself.
func (m *MemoryAPI_kv) CoreMemoryRetrieveAll() (pyval.Value, error) { return m.coreMemory, nil }

// ArchivalMemoryAdd is archival_memory_add(key, value).
func (m *MemoryAPI_kv) ArchivalMemoryAdd(args stubs.MemoryAPI_kvArchivalMemoryAddArgs) (pyval.Value, error) {
	key, value := args.Key.V, args.Value.V
	return kvAdd(m.archivalMemory, key, value, kvMaxArchivalMemorySize, kvMaxArchivalMemoryEntryLength,
		"Long term memory is full. Please clear some entries.", "Key added.", m.keyFormat)
}

// ArchivalMemoryRemove is archival_memory_remove(key).
func (m *MemoryAPI_kv) ArchivalMemoryRemove(args stubs.MemoryAPI_kvArchivalMemoryRemoveArgs) (pyval.Value, error) {
	key := args.Key.V
	return kvRemove(m.archivalMemory, key)
}

// ArchivalMemoryReplace is archival_memory_replace(key, value).
func (m *MemoryAPI_kv) ArchivalMemoryReplace(args stubs.MemoryAPI_kvArchivalMemoryReplaceArgs) (pyval.Value, error) {
	key, value := args.Key.V, args.Value.V
	return kvReplace(m.archivalMemory, key, value, kvMaxArchivalMemoryEntryLength)
}

// ArchivalMemoryClear is archival_memory_clear().
func (m *MemoryAPI_kv) ArchivalMemoryClear() (pyval.Value, error) {
	m.archivalMemory = pyval.NewDict()
	return memStatus("status", "Long term memory cleared."), nil
}

// ArchivalMemoryRetrieve is archival_memory_retrieve(key).
func (m *MemoryAPI_kv) ArchivalMemoryRetrieve(args stubs.MemoryAPI_kvArchivalMemoryRetrieveArgs) (pyval.Value, error) {
	key := args.Key.V
	return kvRetrieve(m.archivalMemory, key)
}

// ArchivalMemoryListKeys is archival_memory_list_keys().
func (m *MemoryAPI_kv) ArchivalMemoryListKeys() (pyval.Value, error) {
	return kvListKeys(m.archivalMemory)
}

// ArchivalMemoryKeySearch is archival_memory_key_search(query, k=5).
func (m *MemoryAPI_kv) ArchivalMemoryKeySearch(args stubs.MemoryAPI_kvArchivalMemoryKeySearchArgs) (pyval.Value, error) {
	query, k := args.Query.V, args.K.V
	return m.search(m.archivalMemory, query, k)
}

// classMemoryAPIKV describes MemoryAPI_kv for the registry (sim.Classes).
func classMemoryAPIKV() Class {
	return Class{
		Name:    "MemoryAPI_kv",
		Module:  "memory_kv",
		New:     func(env *Env) Instance { return NewMemoryAPIKV(env) },
		Methods: stubs.MemoryAPI_kvMethods,
	}
}
