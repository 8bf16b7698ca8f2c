package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// memory_vector.py (classes MemoryAPI_vector and VectorStore). Result and
// error strings and the size limits are protocol constants reproduced from
// that file.
//
// Upstream embeds with sentence-transformers' all-MiniLM-L6-v2 and searches
// a FAISS IndexFlatIP (inner product of L2-normalised float32 vectors).
// Here the embedder is pluggable (internal/services/embed): set it with SetEmbedder.
// Texts are embedded when added if an embedder is set, else at the first
// search; the similarity is the float32 inner product. The top-k selection
// and order follow FAISS' flat-index heap (see VectorStore.Retrieve),
// including its tie-breaking by position in the index. Scores equal
// upstream's only as far as the embedder's vectors equal
// sentence-transformers' (see internal/services/embed).

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/services/embed"
)

// Limits of memory_vector.py.
const (
	vecMaxCoreMemorySize            = 7
	vecMaxCoreMemoryEntryLength     = 300
	vecMaxArchivalMemorySize        = 50
	vecMaxArchivalMemoryEntryLength = 2000
)

// VectorStore is upstream's VectorStore: texts by integer id (insertion
// order kept), their vectors, and the next id (never reused until clear).
type VectorStore struct {
	maxSize, maxEntryLength int
	store                   *pyval.Dict // pyval.Int id -> pyval.Str text
	vectors                 map[int64][]float32
	// index is the ids in the order of the FAISS index (add_with_ids
	// appends; remove_ids keeps the others' order; update = remove + add,
	// so it moves the id to the end; load_from_snapshot adds by sorted id).
	index  []int64
	nextID int64
	owner  *MemoryAPI_vector
}

func newVectorStore(owner *MemoryAPI_vector, maxSize, maxLen int) *VectorStore {
	return &VectorStore{maxSize: maxSize, maxEntryLength: maxLen, store: pyval.NewDict(), vectors: map[int64][]float32{}, owner: owner}
}

// Len is the number of stored texts.
func (s *VectorStore) Len() int { return s.store.Len() }

func (s *VectorStore) embedNow(ids []int64, texts []string) error {
	e := s.owner.embedder
	if e == nil {
		return nil // embedded at the first search
	}
	vecs, err := e.Embed(context.Background(), texts)
	if err != nil {
		return err
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("embedder %s returned %d vectors for %d texts", e.Name(), len(vecs), len(texts))
	}
	for i, id := range ids {
		s.vectors[id] = vecs[i]
	}
	return nil
}

// embedPending embeds every stored text that has no vector yet.
func (s *VectorStore) embedPending() error {
	if s.owner.embedder == nil {
		return fmt.Errorf("MemoryAPI_vector: no embedder configured (SetEmbedder)")
	}
	var ids []int64
	var texts []string
	for _, kv := range s.store.Items() {
		id := int64(kv.Key.(pyval.Int))
		if _, ok := s.vectors[id]; !ok {
			ids = append(ids, id)
			texts = append(texts, string(kv.Value.(pyval.Str)))
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return s.embedNow(ids, texts)
}

func vecTextArg(text pyval.Value) (string, error) {
	if _, err := pyval.Len(text); err != nil {
		return "", err
	}
	s, ok := text.(pyval.Str)
	if !ok {
		return "", pyval.NewTypeError("TextEncodeInput must be Union[TextInputSequence, Tuple[InputSequence, InputSequence]]")
	}
	return string(s), nil
}

func (s *VectorStore) tooLong() *pyval.Dict {
	return errorDict("Entry length exceeds maximum length of " + strconv.Itoa(s.maxEntryLength) + " characters.")
}

// Add is VectorStore.add.
func (s *VectorStore) Add(text pyval.Value) (pyval.Value, error) {
	n, err := pyval.Len(text)
	if err != nil {
		return nil, err
	}
	if n > s.maxEntryLength {
		return s.tooLong(), nil
	}
	if s.store.Len() >= s.maxSize {
		return errorDict("Memory size exceeds maximum size of " + strconv.Itoa(s.maxSize) + " entries."), nil
	}
	id := s.nextID
	s.nextID++
	t, err := vecTextArg(text)
	if err != nil {
		return nil, err
	}
	if err := s.embedNow([]int64{id}, []string{t}); err != nil {
		return nil, err
	}
	s.index = append(s.index, id)
	s.store.Set(pyval.Int(id), pyval.Str(t))
	d := pyval.NewDict()
	d.SetStr("id", pyval.Int(id))
	return d, nil
}

// storedID returns the stored key equal to vecID (Python's `in` on the
// dict: 1.0 and True find id 1), or ok=false.
func (s *VectorStore) storedID(vecID pyval.Value) (int64, bool, error) {
	in, err := pyval.Contains(s.store, vecID)
	if err != nil || !in {
		return 0, false, err
	}
	for _, k := range s.store.Keys() {
		if pyval.Equal(k, vecID) {
			return int64(k.(pyval.Int)), true, nil
		}
	}
	return 0, false, nil
}

func notPresent(vecID pyval.Value) *pyval.Dict {
	return errorDict("ID " + pyval.StrOf(vecID) + " not present in store.")
}

// Remove is VectorStore.remove.
func (s *VectorStore) Remove(vecID pyval.Value) (pyval.Value, error) {
	id, ok, err := s.storedID(vecID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return notPresent(vecID), nil
	}
	delete(s.vectors, id)
	s.unindex(id)
	s.store.Delete(pyval.Int(id))
	return memStatus("status", "ID "+pyval.StrOf(vecID)+" removed from store."), nil
}

// Update is VectorStore.update.
func (s *VectorStore) Update(vecID, newText pyval.Value) (pyval.Value, error) {
	id, ok, err := s.storedID(vecID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return notPresent(vecID), nil
	}
	n, err := pyval.Len(newText)
	if err != nil {
		return nil, err
	}
	if n > s.maxEntryLength {
		return s.tooLong(), nil
	}
	t, err := vecTextArg(newText)
	if err != nil {
		return nil, err
	}
	delete(s.vectors, id)
	s.unindex(id)
	if err := s.embedNow([]int64{id}, []string{t}); err != nil {
		return nil, err
	}
	s.index = append(s.index, id)
	s.store.Set(pyval.Int(id), pyval.Str(t))
	return memStatus("status", "ID "+pyval.StrOf(vecID)+" updated."), nil
}

// Clear is VectorStore.clear (ids restart at 0).
func (s *VectorStore) Clear() (pyval.Value, error) {
	s.store = pyval.NewDict()
	s.vectors = map[int64][]float32{}
	s.index = nil
	s.nextID = 0
	return memStatus("status", "Memory cleared."), nil
}

// Retrieve is VectorStore.retrieve(query, top_k): the min(top_k, size)
// most similar texts as {"id", "similarity_score", "text"} dicts, most
// similar first; [] when the store is empty.
func (s *VectorStore) Retrieve(query, topK pyval.Value) (pyval.Value, error) {
	if s.store.Len() == 0 {
		return pyval.NewList(), nil
	}
	q, err := vecTextArg(query)
	if err != nil {
		return nil, err
	}
	if err := s.embedPending(); err != nil {
		return nil, err
	}
	qv, err := s.owner.embedder.Embed(context.Background(), []string{q})
	if err != nil {
		return nil, err
	}
	if len(qv) != 1 {
		return nil, fmt.Errorf("embedder %s returned %d vectors for 1 text", s.owner.embedder.Name(), len(qv))
	}
	if topK == nil {
		topK = pyval.Int(5)
	}
	// min(top_k, len(store)): the size wins only when it is smaller.
	size := pyval.Int(s.store.Len())
	smaller, err := pyval.Less(size, topK)
	if err != nil {
		return nil, err
	}
	kv := topK
	if smaller {
		kv = size
	}
	// faiss' Python search wrapper: `assert k > 0`, then
	// np.empty((n, k)) rejects a non-integral k.
	positive, err := pyval.Greater(kv, pyval.Int(0))
	if err != nil {
		return nil, err
	}
	if !positive {
		return nil, pyval.NewException("AssertionError", "")
	}
	var k int
	switch x := kv.(type) {
	case pyval.Int:
		k = int(x)
	case pyval.Bool:
		k = 1
	default:
		return nil, pyval.NewTypeError("'%s' object cannot be interpreted as an integer", kv.TypeName())
	}
	hits := faissTopK(qv[0], s.index, s.vectors, k)
	out := pyval.NewList()
	for _, h := range hits {
		text, _ := s.store.Get(pyval.Int(h.id))
		d := pyval.NewDict()
		d.SetStr("id", pyval.Int(h.id))
		d.SetStr("similarity_score", pyval.Float(float64(h.score)))
		d.SetStr("text", text)
		out.Items = append(out.Items, d)
	}
	return out, nil
}

// RetrieveAll is VectorStore.retrieve_all: {"id", "text"} per entry in
// insertion order.
func (s *VectorStore) RetrieveAll() *pyval.List {
	out := pyval.NewList()
	for _, kv := range s.store.Items() {
		d := pyval.NewDict()
		d.SetStr("id", kv.Key)
		d.SetStr("text", kv.Value)
		out.Items = append(out.Items, d)
	}
	return out
}

// Export is VectorStore.export: {"next_id": n, "store": {id: text}}.
func (s *VectorStore) Export() *pyval.Dict {
	d := pyval.NewDict()
	d.SetStr("next_id", pyval.Int(s.nextID))
	d.SetStr("store", s.store.Copy())
	return d
}

// LoadSnapshot is VectorStore.load_from_snapshot: ids become ints
// (int(k) of the JSON keys), texts are re-embedded.
func (s *VectorStore) LoadSnapshot(snap *pyval.Dict) error {
	nv, ok := snap.GetStr("next_id")
	if !ok {
		return pyval.NewKeyError(pyval.Str("next_id"))
	}
	next, ok := nv.(pyval.Int)
	if !ok {
		return pyval.NewTypeError("memory snapshot: next_id must be an int, got %s", nv.TypeName())
	}
	sv, ok := snap.GetStr("store")
	if !ok {
		return pyval.NewKeyError(pyval.Str("store"))
	}
	sd, ok := sv.(*pyval.Dict)
	if !ok {
		return pyval.NoAttribute(sv, "items")
	}
	store := pyval.NewDict()
	for _, kv := range sd.Items() {
		var id int64
		switch k := kv.Key.(type) {
		case pyval.Int:
			id = int64(k)
		case pyval.Str:
			n, err := pyval.ToInt(k)
			if err != nil {
				return err
			}
			iv, ok := n.(pyval.Int)
			if !ok {
				return pyval.NewValueError("memory snapshot: id %s out of range", string(k))
			}
			id = int64(iv)
		default:
			return pyval.NewTypeError("memory snapshot: bad id %s", pyval.Repr(kv.Key))
		}
		text, ok := kv.Value.(pyval.Str)
		if !ok {
			return pyval.NewTypeError("memory snapshot: text of id %d must be a str, got %s", id, kv.Value.TypeName())
		}
		store.Set(pyval.Int(id), text)
	}
	s.nextID, s.store, s.vectors = int64(next), store, map[int64][]float32{}
	s.index = s.index[:0]
	for _, k := range store.Keys() {
		s.index = append(s.index, int64(k.(pyval.Int)))
	}
	sort.Slice(s.index, func(i, j int) bool { return s.index[i] < s.index[j] })
	if store.Len() == 0 || s.owner.embedder == nil {
		return nil
	}
	return s.embedPending()
}

// MemoryAPI_vector is upstream's vector memory: a core store (7 entries of
// 300 characters, shown in the system prompt) and an archival store (50
// entries of 2000 characters), searched by embedding similarity.
//
//nolint:revive // the Go type name is the upstream class name (generated stubs dispatch on it)
type MemoryAPI_vector struct {
	coreMemory     *VectorStore
	archivalMemory *VectorStore
	embedder       embed.Embedder
	files          memoryFiles
}

// NewMemoryAPIVector returns an instance as upstream's constructor leaves
// it, without an embedder (see SetEmbedder).
func NewMemoryAPIVector(*Env) *MemoryAPI_vector {
	m := &MemoryAPI_vector{}
	m.coreMemory = newVectorStore(m, vecMaxCoreMemorySize, vecMaxCoreMemoryEntryLength)
	m.archivalMemory = newVectorStore(m, vecMaxArchivalMemorySize, vecMaxArchivalMemoryEntryLength)
	return m
}

// SetEmbedder sets the text embedder; texts stored before are embedded at
// the next search.
func (m *MemoryAPI_vector) SetEmbedder(e embed.Embedder) { m.embedder = e }

// Embedder returns the configured embedder (nil when none).
func (m *MemoryAPI_vector) Embedder() embed.Embedder { return m.embedder }

// ClassName implements Instance.
func (*MemoryAPI_vector) ClassName() string { return "MemoryAPI_vector" }

// LoadScenario is _load_scenario (see MemoryAPI_kv.LoadScenario).
func (m *MemoryAPI_vector) LoadScenario(config *pyval.Dict, _ bool) error {
	return m.files.loadScenario(config, m.Restore)
}

// State implements Instance: the exported stores.
func (m *MemoryAPI_vector) State() *pyval.Dict { return m.Snapshot() }

// Snapshot implements MemoryBackend: {"core_memory": export(),
// "archival_memory": export()}.
func (m *MemoryAPI_vector) Snapshot() *pyval.Dict {
	d := pyval.NewDict()
	d.SetStr("core_memory", m.coreMemory.Export())
	d.SetStr("archival_memory", m.archivalMemory.Export())
	return d
}

// Restore implements MemoryBackend.
func (m *MemoryAPI_vector) Restore(snap *pyval.Dict) error {
	for _, part := range []struct {
		key   string
		store *VectorStore
	}{{"core_memory", m.coreMemory}, {"archival_memory", m.archivalMemory}} {
		v, ok := snap.GetStr(part.key)
		if !ok {
			return pyval.NewKeyError(pyval.Str(part.key))
		}
		d, ok := v.(*pyval.Dict)
		if !ok {
			return pyval.NewTypeError("memory snapshot: %s must be an object, got %s", part.key, v.TypeName())
		}
		if err := part.store.LoadSnapshot(d); err != nil {
			return err
		}
	}
	return nil
}

// Flush implements MemoryBackend.
func (m *MemoryAPI_vector) Flush() error { return m.files.flush(m.Snapshot()) }

// SnapshotWarning implements MemoryBackend.
func (m *MemoryAPI_vector) SnapshotWarning() string { return m.files.warning }

// CoreMemoryContext implements MemoryBackend: json.dumps(core store,
// indent=4). A VectorStore is always truthy upstream, so an empty core
// memory gives "{}", never the "no content" sentence.
func (m *MemoryAPI_vector) CoreMemoryContext() (string, error) {
	return MemoryJSONIndent(m.coreMemory.store, 4)
}

// CoreMemoryAdd is core_memory_add(text).
func (m *MemoryAPI_vector) CoreMemoryAdd(args stubs.MemoryAPI_vectorCoreMemoryAddArgs) (pyval.Value, error) {
	text := args.Text.V
	return m.coreMemory.Add(text)
}

// CoreMemoryRemove is core_memory_remove(vec_id).
func (m *MemoryAPI_vector) CoreMemoryRemove(args stubs.MemoryAPI_vectorCoreMemoryRemoveArgs) (pyval.Value, error) {
	vecID := args.VecID.V
	return m.coreMemory.Remove(vecID)
}

// CoreMemoryUpdate is core_memory_update(vec_id, new_text).
func (m *MemoryAPI_vector) CoreMemoryUpdate(args stubs.MemoryAPI_vectorCoreMemoryUpdateArgs) (pyval.Value, error) {
	vecID, newText := args.VecID.V, args.NewText.V
	return m.coreMemory.Update(vecID, newText)
}

// CoreMemoryClear is core_memory_clear().
func (m *MemoryAPI_vector) CoreMemoryClear() (pyval.Value, error) { return m.coreMemory.Clear() }

// CoreMemoryRetrieve is core_memory_retrieve(query, top_k=5).
func (m *MemoryAPI_vector) CoreMemoryRetrieve(args stubs.MemoryAPI_vectorCoreMemoryRetrieveArgs) (pyval.Value, error) {
	query, topK := args.Query.V, args.TopK.V
	return vecResult(m.coreMemory.Retrieve(query, topK))
}

// CoreMemoryRetrieveAll is core_memory_retrieve_all().
func (m *MemoryAPI_vector) CoreMemoryRetrieveAll() (pyval.Value, error) {
	return vecResult(m.coreMemory.RetrieveAll(), nil)
}

// ArchivalMemoryAdd is archival_memory_add(text).
func (m *MemoryAPI_vector) ArchivalMemoryAdd(args stubs.MemoryAPI_vectorArchivalMemoryAddArgs) (pyval.Value, error) {
	text := args.Text.V
	return m.archivalMemory.Add(text)
}

// ArchivalMemoryRemove is archival_memory_remove(vec_id).
func (m *MemoryAPI_vector) ArchivalMemoryRemove(args stubs.MemoryAPI_vectorArchivalMemoryRemoveArgs) (pyval.Value, error) {
	vecID := args.VecID.V
	return m.archivalMemory.Remove(vecID)
}

// ArchivalMemoryUpdate is archival_memory_update(vec_id, new_text).
func (m *MemoryAPI_vector) ArchivalMemoryUpdate(args stubs.MemoryAPI_vectorArchivalMemoryUpdateArgs) (pyval.Value, error) {
	vecID, newText := args.VecID.V, args.NewText.V
	return m.archivalMemory.Update(vecID, newText)
}

// ArchivalMemoryClear is archival_memory_clear().
func (m *MemoryAPI_vector) ArchivalMemoryClear() (pyval.Value, error) {
	return m.archivalMemory.Clear()
}

// ArchivalMemoryRetrieve is archival_memory_retrieve(query, top_k=5).
func (m *MemoryAPI_vector) ArchivalMemoryRetrieve(args stubs.MemoryAPI_vectorArchivalMemoryRetrieveArgs) (pyval.Value, error) {
	query, topK := args.Query.V, args.TopK.V
	return vecResult(m.archivalMemory.Retrieve(query, topK))
}

// ArchivalMemoryRetrieveAll is archival_memory_retrieve_all().
func (m *MemoryAPI_vector) ArchivalMemoryRetrieveAll() (pyval.Value, error) {
	return vecResult(m.archivalMemory.RetrieveAll(), nil)
}

// vecResult wraps a result as {"result": ...}.
func vecResult(v pyval.Value, err error) (pyval.Value, error) {
	if err != nil {
		return nil, err
	}
	d := pyval.NewDict()
	d.SetStr("result", v)
	return d, nil
}

// classMemoryAPIVector describes MemoryAPI_vector for the registry.
func classMemoryAPIVector() Class {
	return Class{
		Name:    "MemoryAPI_vector",
		Module:  "memory_vector",
		New:     func(env *Env) Instance { return NewMemoryAPIVector(env) },
		Methods: stubs.MemoryAPI_vectorMethods,
	}
}

func (s *VectorStore) unindex(id int64) {
	for i, x := range s.index {
		if x == id {
			s.index = append(s.index[:i], s.index[i+1:]...)
			return
		}
	}
}

// vecHit is one search result: the external id and its similarity.
type vecHit struct {
	id    int64
	score float32
}

// faissTopK is IndexIDMap(IndexFlatIP).search for one query and k results
// (1 <= k <= len(index)): candidates are scanned in index order; a
// candidate enters the k-slot min-heap only when its score is strictly
// greater than the heap's minimum, the minimum being the smallest (score,
// position) pair (FAISS' CMin::cmp2 tie-break); the result is sorted by
// descending (score, position). So among equal scores the earlier entries
// are kept, and listed later-position first.
func faissTopK(q []float32, index []int64, vectors map[int64][]float32, k int) []vecHit {
	type slot struct {
		score float32
		pos   int // -1: FAISS' initial filler
	}
	less := func(a, b slot) bool { return a.score < b.score || (a.score == b.score && a.pos < b.pos) }
	heap := make([]slot, k)
	for i := range heap {
		heap[i] = slot{score: -math.MaxFloat32, pos: -1} // numeric_limits<float>::lowest()
	}
	minAt := func() int {
		m := 0
		for i := 1; i < len(heap); i++ {
			if less(heap[i], heap[m]) {
				m = i
			}
		}
		return m
	}
	for pos, id := range index {
		sc := embed.Dot(q, vectors[id])
		m := minAt()
		if heap[m].score < sc {
			heap[m] = slot{sc, pos}
		}
	}
	sort.Slice(heap, func(i, j int) bool { return less(heap[j], heap[i]) })
	out := make([]vecHit, 0, k)
	for _, h := range heap {
		if h.pos >= 0 {
			out = append(out, vecHit{index[h.pos], h.score})
		}
	}
	return out
}
