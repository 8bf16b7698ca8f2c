package sim

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/services/embed"
)

// memResult renders a return value as upstream's execute_multi_turn_func_call
// records it (str as is, dict through json.dumps, anything else str()).
func memResult(v pyval.Value, err error) string {
	Expect(err).NotTo(HaveOccurred())
	switch x := v.(type) {
	case pyval.Str:
		return string(x)
	case *pyval.Dict:
		s, err := pyval.JSONDumps(x)
		Expect(err).NotTo(HaveOccurred())
		return s
	}
	return pyval.StrOf(v)
}

func memConfig(dir, id, scenario string) *pyval.Dict {
	d := pyval.NewDict()
	d.SetStr("model_result_dir", pyval.Str(dir))
	d.SetStr("scenario", pyval.Str(scenario))
	d.SetStr("test_id", pyval.Str(id))
	d.SetStr("test_category", pyval.Str("memory_kv"))
	return d
}

func memS(x string) pyval.Str { return pyval.Str(x) }

var _ = Describe("MemoryAPI_kv", func() {
	var m *MemoryAPI_kv
	BeforeEach(func() { m = NewMemoryAPIKV(&Env{}) })

	It("adds, retrieves, lists, replaces and removes with upstream's messages", func() {
		Expect(memResult(call(m, "core_memory_add", memS("user_name"), memS("Michael")))).To(Equal(`{"status": "Key-value pair added."}`))
		Expect(memResult(call(m, "core_memory_add", memS("user_name"), memS("Mike")))).To(Equal(`{"error": "Key name must be unique."}`))
		Expect(memResult(call(m, "core_memory_add", memS("User Name"), memS("x")))).To(Equal(`{"error": "Key must be in snake_case format and cannot contain spaces."}`))
		Expect(memResult(call(m, "core_memory_add", memS("a__b"), memS("x")))).To(Equal(`{"error": "Key must be in snake_case format and cannot contain spaces."}`))
		// Python's "$" accepts one trailing newline
		Expect(memResult(call(m, "core_memory_add", memS("trail\n"), memS("x")))).To(Equal(`{"status": "Key-value pair added."}`))
		// key and value go through str()
		Expect(memResult(call(m, "core_memory_add", memS("age"), pyval.Int(35)))).To(Equal(`{"status": "Key-value pair added."}`))
		Expect(memResult(call(m, "core_memory_retrieve", memS("age")))).To(Equal(`{"value": "35"}`))
		Expect(memResult(call(m, "core_memory_retrieve", memS("nope")))).To(Equal(`{"error": "Key not found."}`))
		Expect(memResult(m.CoreMemoryListKeys())).To(Equal(`{"keys": ["user_name", "trail\n", "age"]}`))
		Expect(memResult(call(m, "core_memory_replace", memS("age"), memS("36")))).To(Equal(`{"status": "Key replaced."}`))
		Expect(memResult(call(m, "core_memory_replace", memS("zzz"), memS("36")))).To(Equal(`{"error": "Key not found."}`))
		Expect(memResult(m.CoreMemoryRetrieveAll())).To(Equal(`{"user_name": "Michael", "trail\n": "x", "age": "36"}`))
		Expect(memResult(call(m, "core_memory_remove", memS("age")))).To(Equal(`{"status": "Key removed."}`))
		Expect(memResult(call(m, "core_memory_remove", memS("age")))).To(Equal(`{"error": "Key not found."}`))
		_, err := call(m, "core_memory_remove", pyval.NewList())
		Expect(err).To(MatchError("unhashable type: 'list'"))
		Expect(memResult(m.CoreMemoryClear())).To(Equal(`{"status": "Short term memory cleared."}`))
		Expect(memResult(m.CoreMemoryListKeys())).To(Equal(`{"keys": []}`))
	})

	It("enforces the size and length limits in upstream's order", func() {
		long := strings.Repeat("é", 301)
		Expect(memResult(call(m, "core_memory_add", memS("k"), memS(long)))).To(Equal(`{"error": "Entry is too long. Please shorten the entry to less than 300 characters."}`))
		Expect(memResult(call(m, "core_memory_add", memS("k"), memS(strings.Repeat("é", 300))))).To(Equal(`{"status": "Key-value pair added."}`))
		for _, k := range []string{"b", "c", "d", "e", "f", "g"} {
			Expect(memResult(call(m, "core_memory_add", memS(k), memS("v")))).To(ContainSubstring("added"))
		}
		// full is checked before the key format
		Expect(memResult(call(m, "core_memory_add", memS("Bad Key"), memS("v")))).To(Equal(`{"error": "Core memory is full. Please clear some entries."}`))
		Expect(memResult(call(m, "archival_memory_add", memS("k"), memS(strings.Repeat("x", 2001))))).To(Equal(`{"error": "Entry is too long. Please shorten the entry to less than 2000 characters."}`))
		for i := 0; i < 50; i++ {
			Expect(memResult(call(m, "archival_memory_add", memS("k_"+memItoa(i)), memS("v")))).To(Equal(`{"status": "Key added."}`))
		}
		Expect(memResult(call(m, "archival_memory_add", memS("more"), memS("v")))).To(Equal(`{"error": "Long term memory is full. Please clear some entries."}`))
		Expect(memResult(m.ArchivalMemoryClear())).To(Equal(`{"status": "Long term memory cleared."}`))
	})

	It("ranks keys with BM25+ exactly as rank_bm25 (scores, ties, k slicing)", func() {
		for _, k := range []string{"customer_name", "customer_age", "order_date", "preferred_latte_flavor"} {
			Expect(memResult(call(m, "archival_memory_add", memS(k), memS("v")))).To(Equal(`{"status": "Key added."}`))
		}
		// expected strings from CPython running upstream's _similarity_search arithmetic
		Expect(memResult(call(m, "archival_memory_key_search", memS("Customer_Name"), pyval.Int(2)))).To(Equal(`{"ranked_results": [[5.18439037515905, "customer_name"], [3.4902452041757868, "customer_age"]]}`))
		Expect(memResult(call(m, "archival_memory_key_search", memS("Customer_Name"), nil))).To(Equal(`{"ranked_results": [[5.18439037515905, "customer_name"], [3.4902452041757868, "customer_age"], [2.5257286443082556, "order_date"], [2.5257286443082556, "preferred_latte_flavor"]]}`))
		Expect(memResult(call(m, "archival_memory_key_search", memS("Customer_Name"), pyval.Int(-1)))).To(Equal(`{"ranked_results": [[5.18439037515905, "customer_name"], [3.4902452041757868, "customer_age"], [2.5257286443082556, "order_date"]]}`))
		_, err := call(m, "archival_memory_key_search", memS("x"), pyval.Float(2.5))
		Expect(err).To(MatchError("slice indices must be integers or None or have an __index__ method"))
		_, err = call(m, "archival_memory_key_search", pyval.Int(3), nil)
		Expect(err).To(MatchError("'int' object has no attribute 'replace'"))
	})

	It("raises ZeroDivisionError on a key search of an empty memory, as rank_bm25", func() {
		_, err := call(m, "core_memory_key_search", memS("anything"), nil)
		Expect(err).To(MatchError("division by zero"))
		Expect(pyval.IsException(err, "ZeroDivisionError")).To(BeTrue())
	})

	It("dumps the core memory for the system prompt as json.dumps(indent=4)", func() {
		Expect(m.CoreMemoryContext()).To(Equal("There is no content in the core memory at this point."))
		call(m, "core_memory_add", memS("user_name"), memS("Michael"))
		call(m, "core_memory_add", memS("favorite_drink"), memS("café latte ’x’"))
		Expect(m.CoreMemoryContext()).To(Equal("{\n    \"user_name\": \"Michael\",\n    \"favorite_drink\": \"caf\\u00e9 latte \\u2019x\\u2019\"\n}"))
	})

	It("chains memory through upstream's snapshot files", func() {
		dir := GinkgoT().TempDir()
		p0 := NewMemoryAPIKV(&Env{})
		Expect(p0.LoadScenario(memConfig(dir, "memory_kv_prereq_0-customer-0", "customer"), false)).To(Succeed())
		call(p0, "core_memory_add", memS("user_name"), memS("Michael"))
		call(p0, "core_memory_add", memS("favorite_drink"), memS("café latte ’x’"))
		Expect(p0.Flush()).To(Succeed())
		snapDir := filepath.Join(dir, "agentic", "memory", "kv", "memory_snapshot")
		want := "{\n    \"core_memory\": {\n        \"user_name\": \"Michael\",\n        \"favorite_drink\": \"caf\\u00e9 latte \\u2019x\\u2019\"\n    },\n    \"archival_memory\": {}\n}"
		for _, f := range []string{filepath.Join(snapDir, "customer_final.json"), filepath.Join(snapDir, "prereq_checkpoints", "memory_kv_prereq_0-customer-0.json")} {
			b, err := os.ReadFile(f)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(b)).To(Equal(want))
		}
		p1 := NewMemoryAPIKV(&Env{})
		Expect(p1.LoadScenario(memConfig(dir, "memory_kv_prereq_1-customer-1", "customer"), false)).To(Succeed())
		Expect(memResult(call(p1, "core_memory_retrieve", memS("user_name")))).To(Equal(`{"value": "Michael"}`))
		call(p1, "archival_memory_add", memS("order_id"), memS("A-17"))
		Expect(p1.Flush()).To(Succeed())
		q := NewMemoryAPIKV(&Env{})
		Expect(q.LoadScenario(memConfig(dir, "memory_kv_3-customer-3", "customer"), false)).To(Succeed())
		Expect(memResult(call(q, "archival_memory_retrieve", memS("order_id")))).To(Equal(`{"value": "A-17"}`))
		Expect(q.SnapshotWarning()).To(BeEmpty())
		// a fresh first prerequisite starts empty even when a snapshot exists
		again := NewMemoryAPIKV(&Env{})
		Expect(again.LoadScenario(memConfig(dir, "memory_kv_prereq_0-customer-0", "customer"), false)).To(Succeed())
		Expect(memResult(again.CoreMemoryListKeys())).To(Equal(`{"keys": []}`))
		// another scenario has no snapshot: warning, empty memory
		other := NewMemoryAPIKV(&Env{})
		Expect(other.LoadScenario(memConfig(dir, "memory_kv_0-student-0", "student"), false)).To(Succeed())
		Expect(other.SnapshotWarning()).To(ContainSubstring("no snapshot file found"))
		Expect(memResult(other.CoreMemoryListKeys())).To(Equal(`{"keys": []}`))
	})

	It("reports a missing initial_config key as Python's KeyError", func() {
		err := NewMemoryAPIKV(&Env{}).LoadScenario(pyval.NewDict(), false)
		Expect(err).To(MatchError("'model_result_dir'"))
	})
})

func memItoa(i int) string { return pyval.Repr(pyval.Int(i)) }

var _ = Describe("MemoryAPI_rec_sum", func() {
	It("appends, updates, replaces, clears and retrieves with upstream's messages", func() {
		m := NewMemoryAPIRecSum(&Env{})
		Expect(m.CoreMemoryContext()).To(Equal("There is no content in the memory at this point."))
		Expect(memResult(m.MemoryRetrieve())).To(Equal(`{"error": "Memory is empty."}`))
		Expect(memResult(call(m, "memory_append", memS("abc")))).To(Equal(`{"status": "Memory appended."}`))
		Expect(memResult(call(m, "memory_append", pyval.Int(1)))).To(Equal(`{"status": "Memory appended."}`))
		Expect(memResult(m.MemoryRetrieve())).To(Equal(`{"memory_content": "abc1"}`))
		Expect(memResult(call(m, "memory_replace", memS("zz"), memS("y")))).To(Equal(`{"error": "Text 'zz' not found in memory."}`))
		Expect(memResult(call(m, "memory_replace", memS(""), memS("-")))).To(Equal(`{"status": "Memory updated."}`))
		Expect(m.CoreMemoryContext()).To(Equal("-a-b-c-1-"))
		Expect(memResult(call(m, "memory_append", memS(strings.Repeat("x", 10000))))).To(Equal(`{"error": "Entry will be too long after appending. Please shorten the entry to less than 10000 characters."}`))
		Expect(memResult(call(m, "memory_update", memS(strings.Repeat("x", 10001))))).To(Equal(`{"error": "Entry will be too long after updating. Please shorten the entry to less than 10000 characters."}`))
		Expect(memResult(call(m, "memory_replace", memS("a"), memS(strings.Repeat("x", 10001))))).To(Equal(`{"error": "Entry will be too long after replacing. Please shorten the entry to less than 10000 characters."}`))
		Expect(memResult(call(m, "memory_update", memS("new")))).To(Equal(`{"status": "Memory updated."}`))
		Expect(memResult(m.MemoryClear())).To(Equal(`{"status": "Short term memory cleared."}`))
		Expect(m.Restore(pyval.DictFromItems([]pyval.KV{{Key: memS("memory"), Value: pyval.Int(3)}}))).To(MatchError("Memory data should be a string, but got <class 'int'> instead."))
	})
})

var _ = Describe("MemoryAPI_vector", func() {
	var m *MemoryAPI_vector
	BeforeEach(func() {
		m = NewMemoryAPIVector(&Env{})
		m.SetEmbedder(embed.Hashed{})
	})

	It("stores texts under sequential ids and finds the most similar first", func() {
		Expect(m.CoreMemoryContext()).To(Equal("{}"))
		Expect(memResult(call(m, "core_memory_add", memS("My name is Michael and I live in Seattle.")))).To(Equal(`{"id": 0}`))
		Expect(memResult(call(m, "core_memory_add", memS("I like strawberry matcha lattes.")))).To(Equal(`{"id": 1}`))
		Expect(memResult(call(m, "core_memory_add", memS("My kitchen counter is 38 square feet.")))).To(Equal(`{"id": 2}`))
		r, err := call(m, "core_memory_retrieve", memS("strawberry matcha latte"), pyval.Int(2))
		Expect(err).NotTo(HaveOccurred())
		list, _ := r.(*pyval.Dict).GetStr("result")
		Expect(list.(*pyval.List).Items).To(HaveLen(2))
		first := list.(*pyval.List).Items[0].(*pyval.Dict)
		id, _ := first.GetStr("id")
		Expect(id).To(Equal(pyval.Int(1)))
		keys := []string{}
		for _, k := range first.Keys() {
			keys = append(keys, string(k.(pyval.Str)))
		}
		Expect(keys).To(Equal([]string{"id", "similarity_score", "text"}))
		Expect(memResult(m.CoreMemoryRetrieveAll())).To(Equal(`{"result": [{"id": 0, "text": "My name is Michael and I live in Seattle."}, {"id": 1, "text": "I like strawberry matcha lattes."}, {"id": 2, "text": "My kitchen counter is 38 square feet."}]}`))
		Expect(m.CoreMemoryContext()).To(Equal("{\n    \"0\": \"My name is Michael and I live in Seattle.\",\n    \"1\": \"I like strawberry matcha lattes.\",\n    \"2\": \"My kitchen counter is 38 square feet.\"\n}"))
	})

	It("removes, updates and clears with upstream's messages", func() {
		call(m, "archival_memory_add", memS("a"))
		call(m, "archival_memory_add", memS("b"))
		Expect(memResult(call(m, "archival_memory_remove", pyval.Int(0)))).To(Equal(`{"status": "ID 0 removed from store."}`))
		Expect(memResult(call(m, "archival_memory_remove", pyval.Int(0)))).To(Equal(`{"error": "ID 0 not present in store."}`))
		Expect(memResult(call(m, "archival_memory_remove", memS("1")))).To(Equal(`{"error": "ID 1 not present in store."}`))
		Expect(memResult(call(m, "archival_memory_update", pyval.Float(1), memS("c")))).To(Equal(`{"status": "ID 1.0 updated."}`))
		Expect(memResult(call(m, "archival_memory_add", memS("d")))).To(Equal(`{"id": 2}`))
		Expect(memResult(m.ArchivalMemoryRetrieveAll())).To(Equal(`{"result": [{"id": 1, "text": "c"}, {"id": 2, "text": "d"}]}`))
		Expect(memResult(call(m, "archival_memory_update", pyval.Int(1), memS(strings.Repeat("x", 2001))))).To(Equal(`{"error": "Entry length exceeds maximum length of 2000 characters."}`))
		Expect(memResult(m.ArchivalMemoryClear())).To(Equal(`{"status": "Memory cleared."}`))
		Expect(memResult(call(m, "archival_memory_add", memS("e")))).To(Equal(`{"id": 0}`))
		Expect(memResult(call(m, "archival_memory_retrieve", memS("zzz"), pyval.Int(9)))).To(HavePrefix(`{"result": [{"id": 0, "similarity_score": `))
		for i := 0; i < 6; i++ {
			call(m, "core_memory_add", memS("t"))
		}
		Expect(memResult(call(m, "core_memory_add", memS("t")))).To(Equal(`{"id": 6}`))
		Expect(memResult(call(m, "core_memory_add", memS("t")))).To(Equal(`{"error": "Memory size exceeds maximum size of 7 entries."}`))
		Expect(memResult(call(m, "core_memory_add", memS(strings.Repeat("x", 301))))).To(Equal(`{"error": "Entry length exceeds maximum length of 300 characters."}`))
	})

	It("returns [] on an empty store and raises Python's TypeError for top_k=None", func() {
		Expect(memResult(call(m, "core_memory_retrieve", memS("q"), nil))).To(Equal(`{"result": []}`))
		call(m, "core_memory_add", memS("a"))
		_, err := call(m, "core_memory_retrieve", memS("q"), pyval.None)
		Expect(err).To(MatchError("'<' not supported between instances of 'int' and 'NoneType'"))
		// faiss' wrapper asserts k > 0, then numpy wants an integral k
		_, err = call(m, "core_memory_retrieve", memS("q"), pyval.Int(0))
		Expect(pyval.IsException(err, "AssertionError")).To(BeTrue())
		Expect(err.Error()).To(BeEmpty())
		// min(2.5, 1) is the size 1: no error
		Expect(memResult(call(m, "core_memory_retrieve", memS("q"), pyval.Float(2.5)))).To(HavePrefix(`{"result": [{"id": 0, `))
		call(m, "core_memory_add", memS("b"))
		call(m, "core_memory_add", memS("c"))
		_, err = call(m, "core_memory_retrieve", memS("q"), pyval.Float(2.5))
		Expect(err).To(MatchError("'float' object cannot be interpreted as an integer"))
		Expect(memResult(call(m, "core_memory_retrieve", memS("q"), pyval.Bool(true)))).To(HavePrefix(`{"result": [{"id": 0, `))
	})

	It("breaks score ties as FAISS' flat-index heap does (index position, update moves to the end)", func() {
		ids := func(r pyval.Value, err error) []int64 {
			Expect(err).NotTo(HaveOccurred())
			l, _ := r.(*pyval.Dict).GetStr("result")
			var out []int64
			for _, it := range l.(*pyval.List).Items {
				id, _ := it.(*pyval.Dict).GetStr("id")
				out = append(out, int64(id.(pyval.Int)))
			}
			return out
		}
		for _, t := range []string{"same text", "other words", "same text", "same text"} {
			call(m, "core_memory_add", memS(t))
		}
		Expect(ids(call(m, "core_memory_retrieve", memS("same text"), pyval.Int(1)))).To(Equal([]int64{0}))
		Expect(ids(call(m, "core_memory_retrieve", memS("same text"), pyval.Int(2)))).To(Equal([]int64{2, 0}))
		Expect(ids(call(m, "core_memory_retrieve", memS("same text"), pyval.Int(4)))).To(Equal([]int64{3, 2, 0, 1}))
		call(m, "core_memory_update", pyval.Int(0), memS("same text"))
		Expect(ids(call(m, "core_memory_retrieve", memS("same text"), pyval.Int(2)))).To(Equal([]int64{3, 2}))
		// a restored store is indexed by sorted id
		n := NewMemoryAPIVector(&Env{})
		n.SetEmbedder(embed.Hashed{})
		Expect(n.Restore(m.Snapshot())).To(Succeed())
		Expect(ids(call(n, "core_memory_retrieve", memS("same text"), pyval.Int(2)))).To(Equal([]int64{2, 0}))
	})

	It("round-trips its snapshot (int ids, next_id) and embeds restored texts lazily", func() {
		call(m, "core_memory_add", memS("alpha"))
		call(m, "core_memory_add", memS("beta"))
		call(m, "core_memory_remove", pyval.Int(0))
		snap := m.Snapshot()
		text, err := MemoryJSONIndent(snap, 4)
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal("{\n    \"core_memory\": {\n        \"next_id\": 2,\n        \"store\": {\n            \"1\": \"beta\"\n        }\n    },\n    \"archival_memory\": {\n        \"next_id\": 0,\n        \"store\": {}\n    }\n}"))
		back, err := pyval.FromJSONString(text)
		Expect(err).NotTo(HaveOccurred())
		n := NewMemoryAPIVector(&Env{})
		Expect(n.Restore(back.(*pyval.Dict))).To(Succeed())
		_, err = call(n, "core_memory_retrieve", memS("beta"), nil)
		Expect(err).To(MatchError(ContainSubstring("no embedder configured")))
		n.SetEmbedder(embed.Hashed{})
		Expect(memResult(call(n, "core_memory_add", memS("gamma")))).To(Equal(`{"id": 2}`))
		r := memResult(call(n, "core_memory_retrieve", memS("beta"), pyval.Int(1)))
		Expect(r).To(MatchRegexp(`^\{"result": \[\{"id": 1, "similarity_score": (1\.0|0\.99999\d+), "text": "beta"\}\]\}$`))
	})
})

// BenchmarkMemoryKVKeySearch: archival_memory_key_search over a full
// archival memory (50 keys).
func BenchmarkMemoryKVKeySearch(b *testing.B) {
	m := NewMemoryAPIKV(&Env{})
	words := []string{"customer", "name", "age", "city", "order", "espresso", "machine", "warranty", "discount", "shipping", "date", "preferred"}
	for i := 0; i < 50; i++ {
		call(m, "archival_memory_add", pyval.Str(words[i%12]+"_"+words[(i*7+3)%12]+"_"+memItoa(i)), pyval.Str("v"))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := call(m, "archival_memory_key_search", pyval.Str("customer shipping date"), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// fullVectorArchive is a vector memory (hashed embedder) whose archival
// store holds 50 texts.
func fullVectorArchive() *MemoryAPI_vector {
	m := NewMemoryAPIVector(&Env{})
	m.SetEmbedder(embed.Hashed{})
	for i := 0; i < 50; i++ {
		call(m, "archival_memory_add", pyval.Str("The customer asked about order "+memItoa(i)+" and the espresso machine warranty, shipping and discounts."))
	}
	return m
}

// BenchmarkMemoryVectorRetrieve: archival_memory_retrieve over a full
// archival memory (50 texts) with the local hashed embedder (the query
// embedding included; stored vectors are cached).
func BenchmarkMemoryVectorRetrieve(b *testing.B) {
	m := fullVectorArchive()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := call(m, "archival_memory_retrieve", pyval.Str("warranty of the espresso machine"), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMemoryVectorLoadSnapshot: restoring a full archival store (50
// texts re-embedded), what every memory_vector question does at start.
func BenchmarkMemoryVectorLoadSnapshot(b *testing.B) {
	m := fullVectorArchive()
	snap := m.Snapshot()
	b.ReportAllocs()
	for b.Loop() {
		n := NewMemoryAPIVector(&Env{})
		n.SetEmbedder(embed.Hashed{})
		if err := n.Restore(snap); err != nil {
			b.Fatal(err)
		}
	}
}
