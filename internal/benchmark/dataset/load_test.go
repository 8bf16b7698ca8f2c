package dataset_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// The README table of the pinned data set.
var wantCounts = map[string]int{
	"simple_python": 400, "simple_java": 100, "simple_javascript": 50,
	"parallel": 200, "multiple": 200, "parallel_multiple": 200,
	"irrelevance": 240,
	"live_simple": 258, "live_multiple": 1053, "live_parallel": 16, "live_parallel_multiple": 24,
	"live_irrelevance": 884, "live_relevance": 16,
	"multi_turn_base": 200, "multi_turn_miss_func": 200, "multi_turn_miss_param": 200, "multi_turn_long_context": 200,
	"memory_kv": 155, "memory_vector": 155, "memory_rec_sum": 155,
	"web_search_base": 100, "web_search_no_snippet": 100,
}

var _ = Describe("the pinned data set", func() {
	var src *dataset.Source
	BeforeEach(func() {
		src = testenv.OpenDataSet(GinkgoT())
	})

	It("holds the 5,106 scored entries, per category as the README table says", func() {
		total := 0
		for cat, want := range wantCounts {
			entries, err := src.Load(category.Category(cat))
			Expect(err).NotTo(HaveOccurred(), cat)
			Expect(entries).To(HaveLen(want), cat)
			total += len(entries)
		}
		Expect(total).To(Equal(5106))
	})

	It("renames memory and web-search ids per backend and variant as upstream does", func() {
		kv, err := src.Load("memory_kv")
		Expect(err).NotTo(HaveOccurred())
		Expect(kv[0].ID).To(Equal("memory_kv_0-customer-0"))
		Expect(kv[0].InvolvedClasses).To(Equal([]string{"MemoryAPI_kv"}))
		Expect(kv[0].DependsOn).To(ContainElement("memory_kv_prereq_0-customer-0"))
		ws, err := src.Load("web_search_no_snippet")
		Expect(err).NotTo(HaveOccurred())
		Expect(ws[0].ID).To(Equal("web_search_no_snippet_0"))
		Expect(ws[0].Answer).NotTo(BeEmpty())
	})

	It("moves held-out functions of miss_func entries to their turn", func() {
		mf, err := src.Load("multi_turn_miss_func")
		Expect(err).NotTo(HaveOccurred())
		for _, e := range mf {
			Expect(e.MissedFuncDocs).NotTo(BeEmpty(), e.ID)
			for turn, names := range e.MissedFunction {
				Expect(e.MissedFuncDocs[turn]).To(HaveLen(len(names)), e.ID)
			}
		}
	})
})

var _ = Describe("malformed input", func() {
	var dir string
	BeforeEach(func() {
		dir = GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(dir, "data", "possible_answer"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "long_context.py"), []byte("X = 1\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "data", "BFCL_v4_simple_python.json"),
			[]byte(`{"id": "simple_python_0", "question": [[{"role": "user", "content": "hi"}]], "function": [{"name": "f"}]}`+"\n"+
				`{"id": "simple_python_1", "question": [[{"role": "user", "content": "x"}]], "function": [{"name": "f"}]`+"\n"), 0o644)).To(Succeed())
	})

	It("names file, line and id of a bad JSON line", func() {
		src, err := dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		_, err = src.Load("simple_python")
		Expect(err).To(MatchError(And(ContainSubstring("BFCL_v4_simple_python.json:2"), ContainSubstring("simple_python_1"))))
	})

	It("names the entry whose ground truth is missing", func() {
		Expect(os.WriteFile(filepath.Join(dir, "data", "BFCL_v4_simple_python.json"),
			[]byte(`{"id": "simple_python_0", "question": [[{"role": "user", "content": "hi"}]], "function": [{"name": "f"}]}`+"\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "data", "possible_answer", "BFCL_v4_simple_python.json"),
			[]byte(`{"id": "simple_python_9", "ground_truth": []}`+"\n"), 0o644)).To(Succeed())
		src, err := dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		_, err = src.Load("simple_python")
		Expect(err).To(MatchError(And(ContainSubstring("simple_python_0"), ContainSubstring("no ground truth"))))
	})

	It("reports a missing question file", func() {
		src, err := dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		_, err = src.Load("live_simple")
		Expect(err).To(MatchError(ContainSubstring("BFCL_v4_live_simple.json is missing")))
	})

	It("rejects a folder that is not a data set", func() {
		_, err := dataset.Open(GinkgoT().TempDir())
		Expect(err).To(MatchError(ContainSubstring("does not hold the BFCL v4 data set")))
	})
})

var _ = Describe("the line scanner", func() {
	It("keeps every function document intact and rejects broken lines", func() {
		src := testenv.OpenDataSet(GinkgoT())
		for _, c := range []string{"live_multiple", "simple_java", "multi_turn_miss_func"} {
			entries, err := src.Load(category.Category(c))
			Expect(err).NotTo(HaveOccurred())
			for _, e := range entries {
				for _, f := range e.Functions {
					Expect(json.Valid(f)).To(BeTrue(), e.ID)
				}
				var whole struct {
					Function []json.RawMessage `json:"function"`
				}
				Expect(json.Unmarshal(e.Raw, &whole)).To(Succeed())
				if !strings.HasPrefix(c, "multi_turn") {
					Expect(e.Functions).To(HaveLen(len(whole.Function)), e.ID)
					for i := range whole.Function {
						Expect(string(e.Functions[i])).To(Equal(string(whole.Function[i])), e.ID)
					}
				}
			}
		}
	})
})
