package results_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/category"
	"github.com/bfcl-go/bfcl/internal/results"
)

func rec(id string) results.Record {
	return results.Record{ID: id, Result: json.RawMessage(`[{"f": "{\"a\": 1}"}]`), Latency: json.RawMessage(`0.5`)}
}

var _ = Describe("the result store", func() {
	It("lays files out as upstream and resumes from them", func() {
		root := GinkgoT().TempDir()
		s := results.NewStore(root, "org/model")
		Expect(s.Path(category.MemoryKV)).To(Equal(filepath.Join(root, "org_model", "agentic", "memory", "kv", "BFCL_v4_memory_kv_result.json")))
		Expect(s.Append(category.SimplePython, rec("simple_python_1"))).To(Succeed())
		again := results.NewStore(root, "org/model")
		r, ok, err := again.Lookup(category.SimplePython, "simple_python_1")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(string(r.Result)).To(MatchJSON(`[{"f": "{\"a\": 1}"}]`))
		_, ok, err = again.Lookup(category.SimplePython, "simple_python_2")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeFalse())
	})

	It("loses and duplicates nothing when many writers append at once, and compacts in upstream's id order", func() {
		root := GinkgoT().TempDir()
		var wg sync.WaitGroup
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				defer GinkgoRecover()
				s := results.NewStore(root, "m") // one store per writer, as separate processes have
				for i := w; i < 400; i += 8 {
					Expect(s.Append(category.SimplePython, rec(fmt.Sprintf("simple_python_%d", i)))).To(Succeed())
				}
			}(w)
		}
		wg.Wait()
		p := results.Path(root, "m", category.SimplePython)
		recs, err := results.Read(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveLen(400))
		Expect(results.Compact(p)).To(Succeed())
		recs, err = results.Read(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveLen(400))
		for i, r := range recs {
			Expect(r.ID).To(Equal(fmt.Sprintf("simple_python_%d", i)))
		}
	})

	It("names file and line of a malformed line", func() {
		p := filepath.Join(GinkgoT().TempDir(), "BFCL_v4_simple_python_result.json")
		Expect(os.WriteFile(p, []byte(`{"id": "simple_python_0", "result": []}`+"\n"+`{"id": "simple_python_1", "result": [}`+"\n"), 0o644)).To(Succeed())
		_, err := results.Read(p)
		Expect(err).To(MatchError(ContainSubstring("BFCL_v4_simple_python_result.json:2: malformed result line")))
	})
})

var _ = Describe("an interrupted write", func() {
	It("leaves the entry not done instead of failing the file", func() {
		p := filepath.Join(GinkgoT().TempDir(), "BFCL_v4_simple_python_result.json")
		Expect(os.WriteFile(p, []byte(`{"id": "simple_python_0", "result": []}`+"\n"+`{"id": "simple_python_1", "resu`), 0o644)).To(Succeed())
		recs, err := results.Read(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveLen(1))
		Expect(recs[0].ID).To(Equal("simple_python_0"))
	})
})

var _ = Describe("appending after an interrupted write", func() {
	It("drops the cut line and keeps every complete record", func() {
		p := filepath.Join(GinkgoT().TempDir(), "BFCL_v4_simple_python_result.json")
		Expect(os.WriteFile(p, []byte(`{"id": "simple_python_0", "result": []}`+"\n"+`{"id": "simple_python_1", "resu`), 0o644)).To(Succeed())
		_, err := results.AppendFile(p, rec("simple_python_2"))
		Expect(err).NotTo(HaveOccurred())
		recs, err := results.Read(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveLen(2))
		Expect(recs[1].ID).To(Equal("simple_python_2"))
	})
})

var _ = Describe("RepeatRoot", func() {
	It("keeps repeat 1 in the ordinary root and puts the others in sibling roots", func() {
		for k, want := range map[int]string{1: "out/result/", 2: "out/result_repeat_2", 10: "out/result_repeat_10"} {
			got, err := results.RepeatRoot("out/result/", k)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(want))
		}
		_, err := results.RepeatRoot("result", 0)
		Expect(err).To(HaveOccurred())
		r, s, err := results.RepeatRoots("result", "score", 3)
		Expect(err).NotTo(HaveOccurred())
		Expect([]string{r, s}).To(Equal([]string{"result_repeat_3", "score_repeat_3"}))
	})
})
