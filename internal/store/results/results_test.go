package results_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/store/results"
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

var _ = Describe("a line with an inference log", func() {
	multi := results.Record{ID: "multi_turn_base_0", Result: json.RawMessage(`[[[]]]`), InputTokenCount: json.RawMessage(`[[1]]`),
		OutputTokenCount: json.RawMessage(`[[2]]`), Latency: json.RawMessage(`[[0.5]]`),
		InferenceLog:     json.RawMessage(`[[{"role":"state_info","class_name":"GorillaFileSystem","content":{"root":"<Directory: a, Parent: None, Contents: {}>"}}]]`),
		ReasoningContent: json.RawMessage(`[["why"]]`)}

	It("is one line in upstream's key order (multi-turn: the log after latency, reasoning last), with < and > unescaped", func() {
		p := filepath.Join(GinkgoT().TempDir(), "BFCL_v4_multi_turn_base_result.json")
		line, err := results.AppendFile(p, multi)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(line)).To(Equal(`{"id":"multi_turn_base_0","result":[[[]]],"input_token_count":[[1]],"output_token_count":[[2]],"latency":[[0.5]],` +
			`"inference_log":[[{"role":"state_info","class_name":"GorillaFileSystem","content":{"root":"<Directory: a, Parent: None, Contents: {}>"}}]],"reasoning_content":[["why"]]}`))
		b, err := os.ReadFile(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(string(line) + "\n"))
	})

	It("puts a single-turn input log right after result, and keeps that place when read back and compacted", func() {
		p := filepath.Join(GinkgoT().TempDir(), "BFCL_v4_simple_python_result.json")
		single := results.Record{ID: "simple_python_1", Result: json.RawMessage(`[]`), InputTokenCount: json.RawMessage(`3`), OutputTokenCount: json.RawMessage(`4`),
			Latency: json.RawMessage(`0.1`), InferenceLog: json.RawMessage(`[{"role":"inference_input","content":""}]`), LogFirst: true}
		line, err := results.AppendFile(p, single)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(line)).To(HavePrefix(`{"id":"simple_python_1","result":[],"inference_log":[{"role":"inference_input","content":""}],"input_token_count":3`))
		_, err = results.AppendFile(p, rec("simple_python_0"))
		Expect(err).NotTo(HaveOccurred())
		recs, err := results.Read(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs[0].LogFirst).To(BeTrue())
		again, err := recs[0].MarshalJSON()
		Expect(err).NotTo(HaveOccurred())
		Expect(string(again)).To(Equal(string(line)))
		Expect(results.Compact(p)).To(Succeed())
		recs, err = results.Read(p)
		Expect(err).NotTo(HaveOccurred())
		Expect(recs[1].ID).To(Equal("simple_python_1"))
		Expect(string(recs[1].Raw)).To(Equal(string(line)))
	})

	It("resumes: a store finds the multi-turn record with its log", func() {
		root := GinkgoT().TempDir()
		Expect(results.NewStore(root, "m").Append(category.MultiTurnBase, multi)).To(Succeed())
		r, ok, err := results.NewStore(root, "m").Lookup(category.MultiTurnBase, "multi_turn_base_0")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(r.LogFirst).To(BeFalse())
		Expect(string(r.InferenceLog)).To(Equal(string(multi.InferenceLog)))
		Expect(string(r.ReasoningContent)).To(Equal(`[["why"]]`))
	})
})

var _ = Describe("AppendFile's line", func() {
	It("is what encoding/json's Encoder writes, compact records or not", func() {
		dir := GinkgoT().TempDir()
		tr := true
		for i, r := range []results.Record{
			{ID: "simple_python_1", Result: json.RawMessage(`[{"f":{"a":1}}]`), Latency: json.RawMessage(`1.5`),
				InputTokenCount: json.RawMessage(`10`), OutputTokenCount: json.RawMessage(`3`)},
			{ID: "multi_turn_base_2", Result: json.RawMessage(`[[["cd(folder='a')"]]]`), InferenceLog: json.RawMessage(`[{"role":"user","content":"<Directory: x> & é"}]`), ForceTerminated: &tr},
			{ID: "live_simple_3", Result: json.RawMessage("[ {\"f\" :\n {\"a\": [1, 2]}} ]"), ReasoningContent: json.RawMessage(`"think \u2028"`)},
			{ID: "live_simple_4", Result: json.RawMessage(`"a string result"`), LogFirst: true, InferenceLog: json.RawMessage(`{"k": "v"}`)},
		} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			Expect(enc.Encode(r)).To(Succeed())
			p := filepath.Join(dir, fmt.Sprintf("f%d.json", i))
			line, err := results.AppendFile(p, r)
			Expect(err).NotTo(HaveOccurred())
			got, err := os.ReadFile(p)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(got)).To(Equal(want.String()))
			Expect(string(line) + "\n").To(Equal(want.String()))
		}
		_, err := results.AppendFile(filepath.Join(dir, "bad.json"), results.Record{ID: "x_1", Result: json.RawMessage(`[1,]`)})
		Expect(err).To(MatchError(ContainSubstring("results: encode x_1")))
	})
})

var _ = Describe("ModelDirs", func() {
	It("is the named model's folder, or every folder below the root by name", func() {
		root := GinkgoT().TempDir()
		for _, d := range []string{"b-model", "a_model", "c"} {
			Expect(os.MkdirAll(filepath.Join(root, d), 0o755)).To(Succeed())
		}
		Expect(os.WriteFile(filepath.Join(root, "summary.json"), []byte("{}"), 0o644)).To(Succeed())
		Expect(results.ModelDirs(root, "")).To(Equal([]string{"a_model", "b-model", "c"}))
		Expect(results.ModelDirs(root, "org/name")).To(Equal([]string{"org_name"}))
		_, err := results.ModelDirs(filepath.Join(root, "missing"), "")
		Expect(err).To(MatchError(os.ErrNotExist))
	})
})

var _ = Describe("FileCategory", func() {
	It("reads the category name of a result file's name, prerequisites included", func() {
		for name, want := range map[string]string{
			"BFCL_v4_simple_python_result.json":    "simple_python",
			"BFCL_v4_memory_kv_prereq_result.json": "memory_kv_prereq",
			"BFCL_v4_multi_turn_base_result.json":  "multi_turn_base",
		} {
			got, ok := results.FileCategory(name)
			Expect(ok).To(BeTrue(), name)
			Expect(got).To(Equal(want), name)
		}
		for _, name := range []string{"BFCL_v4_simple_python_score.json", "BFCL_v3_simple_python_result.json", "simple_python_result.json", "BFCL_v4_simple_python_result.json.tmp"} {
			_, ok := results.FileCategory(name)
			Expect(ok).To(BeFalse(), name)
		}
	})
})
