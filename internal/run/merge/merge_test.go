package merge_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/testkit/testenv"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/run/merge"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

const model = "org/m"

func put(root string, c category.Category, id, result string, latency float64) {
	r := results.Record{ID: id, Result: json.RawMessage(result), Latency: json.RawMessage(fmt.Sprint(latency))}
	_, err := results.AppendFile(results.Path(root, model, c), r)
	Expect(err).NotTo(HaveOccurred())
}

func putFile(root, rel, text string) {
	p := filepath.Join(root, results.ModelDir(model), filepath.FromSlash(rel))
	Expect(os.MkdirAll(filepath.Dir(p), 0o755)).To(Succeed())
	Expect(os.WriteFile(p, []byte(text), 0o644)).To(Succeed())
}

func ids(root string, c category.Category) []string {
	recs, err := results.Read(results.Path(root, model, c))
	Expect(err).NotTo(HaveOccurred())
	var out []string
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

// tinyData writes a three-entry simple_python data set of our own.
func tinyData() *dataset.Source {
	dir := GinkgoT().TempDir()
	Expect(testenv.WriteTinyDataSet(dir)).To(Succeed())
	src, err := dataset.Open(dir)
	Expect(err).NotTo(HaveOccurred())
	return src
}

var _ = Describe("merge.Run", func() {
	var a, b, out string
	BeforeEach(func() {
		a, b, out = GinkgoT().TempDir(), GinkgoT().TempDir(), filepath.Join(GinkgoT().TempDir(), "merged")
	})

	It("combines shards in upstream's layout and order, with prerequisite results and memory snapshots", func() {
		put(a, category.SimplePython, "simple_python_10", `[{"f": "{}"}]`, 1)
		put(a, category.SimplePython, "simple_python_2", `[{"f": "{}"}]`, 1)
		put(b, category.SimplePython, "simple_python_1", `"text"`, 2)
		put(b, category.MultiTurnBase, "multi_turn_base_0", `[[["f()"]]]`, 3)
		putFile(a, "agentic/memory/kv/BFCL_v4_memory_kv_prereq_result.json", `{"id": "memory_kv_prereq_0-student-0", "result": [["ok"]]}`+"\n")
		putFile(b, "agentic/memory/kv/BFCL_v4_memory_kv_prereq_result.json", `{"id": "memory_kv_prereq_0-finance-0", "result": [["ok"]]}`+"\n")
		putFile(a, "agentic/memory/kv/memory_snapshot/student_final.json", `{"k": "v"}`)
		putFile(b, "agentic/memory/kv/memory_snapshot/prereq_checkpoints/memory_kv_prereq_0-finance-0.json", `{"x": 1}`)
		putFile(a, "agentic/memory/kv/BFCL_v4_memory_kv_prereq_result.json.lock", ``)

		rep, err := merge.Run(merge.Options{Out: out, Dirs: []string{a, b}})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Records).To(Equal(6))
		Expect(ids(out, category.SimplePython)).To(Equal([]string{"simple_python_1", "simple_python_2", "simple_python_10"}))
		Expect(ids(out, category.MultiTurnBase)).To(Equal([]string{"multi_turn_base_0"}))
		pre, err := results.Read(filepath.Join(out, "org_m", "agentic", "memory", "kv", "BFCL_v4_memory_kv_prereq_result.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(pre).To(HaveLen(2))
		snap, err := os.ReadFile(filepath.Join(out, "org_m", "agentic", "memory", "kv", "memory_snapshot", "student_final.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(snap)).To(Equal(`{"k": "v"}`))
		Expect(filepath.Join(out, "org_m", "agentic", "memory", "kv", "memory_snapshot", "prereq_checkpoints", "memory_kv_prereq_0-finance-0.json")).To(BeARegularFile())
		Expect(filepath.Join(out, "org_m", "agentic", "memory", "kv", "BFCL_v4_memory_kv_prereq_result.json.lock")).NotTo(BeAnExistingFile())
	})

	It("is idempotent: merging again, or with the output among the inputs, changes nothing", func() {
		put(a, category.SimplePython, "simple_python_0", `[{"f": "{}"}]`, 1)
		put(b, category.SimplePython, "simple_python_1", `"text"`, 2)
		_, err := merge.Run(merge.Options{Out: out, Dirs: []string{a, b}})
		Expect(err).NotTo(HaveOccurred())
		first, err := os.ReadFile(results.Path(out, model, category.SimplePython))
		Expect(err).NotTo(HaveOccurred())
		for _, dirs := range [][]string{{a, b}, {b, a}, {out, a, b}} {
			_, err = merge.Run(merge.Options{Out: out, Dirs: dirs})
			Expect(err).NotTo(HaveOccurred())
			again, err := os.ReadFile(results.Path(out, model, category.SimplePython))
			Expect(err).NotTo(HaveOccurred())
			Expect(string(again)).To(Equal(string(first)))
		}
	})

	It("keeps one copy of an entry run twice with the same result (other latency)", func() {
		put(a, category.SimplePython, "simple_python_0", `[{"f": "{}"}]`, 1)
		put(b, category.SimplePython, "simple_python_0", `[ {"f":"{}"} ]`, 9)
		rep, err := merge.Run(merge.Options{Out: out, Dirs: []string{a, b}})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Records).To(Equal(1))
		recs, _ := results.Read(results.Path(out, model, category.SimplePython))
		Expect(string(recs[0].Latency)).To(Equal("1"))
	})

	It("refuses two different results for one entry and writes nothing", func() {
		put(a, category.SimplePython, "simple_python_0", `[{"f": "{}"}]`, 1)
		put(a, category.SimplePython, "simple_python_1", `"x"`, 1)
		put(b, category.SimplePython, "simple_python_0", `[{"g": "{}"}]`, 1)
		_, err := merge.Run(merge.Options{Out: out, Dirs: []string{a, b}})
		var c *merge.Conflict
		Expect(err).To(BeAssignableToTypeOf(c))
		Expect(err.Error()).To(And(ContainSubstring("simple_python_0 has two different results"), ContainSubstring(a), ContainSubstring(b)))
		Expect(out).NotTo(BeAnExistingFile())
	})

	It("refuses an earlier merge that disagrees with a shard", func() {
		put(a, category.SimplePython, "simple_python_0", `"x"`, 1)
		put(out, category.SimplePython, "simple_python_0", `"y"`, 1)
		_, err := merge.Run(merge.Options{Out: out, Dirs: []string{a}})
		Expect(err).To(MatchError(ContainSubstring("simple_python_0 has two different results")))
	})

	It("refuses two different versions of a memory snapshot", func() {
		putFile(a, "agentic/memory/kv/memory_snapshot/student_final.json", `{"k": 1}`)
		putFile(b, "agentic/memory/kv/memory_snapshot/student_final.json", `{"k": 2}`)
		_, err := merge.Run(merge.Options{Out: out, Dirs: []string{a, b}})
		Expect(err).To(MatchError(ContainSubstring("student_final.json differs between")))
	})

	It("reports entries no shard has and ids the data set lacks", func() {
		src := tinyData()
		put(a, category.SimplePython, "simple_python_0", `"x"`, 1)
		put(b, category.SimplePython, "simple_python_7", `"x"`, 1)
		rep, err := merge.Run(merge.Options{Out: out, Dirs: []string{a, b}, Source: src})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Missing).To(Equal([]merge.Missing{{Model: "org_m", Category: "simple_python", Have: 1, Want: 3, IDs: []string{"simple_python_1", "simple_python_2"}}}))
		Expect(rep.MissingCount()).To(Equal(2))
		Expect(rep.Unknown).To(Equal([]string{"org_m/simple_python/simple_python_7"}))
		put(b, category.SimplePython, "simple_python_1", `"x"`, 1)
		put(b, category.SimplePython, "simple_python_2", `"x"`, 1)
		rep, err = merge.Run(merge.Options{Out: out, Dirs: []string{a, b}, Source: src})
		Expect(err).NotTo(HaveOccurred())
		Expect(rep.Missing).To(BeEmpty())
	})

	It("names the mistake when given a model folder or no folder", func() {
		put(a, category.SimplePython, "simple_python_0", `"x"`, 1)
		_, err := merge.Run(merge.Options{Out: out, Dirs: []string{filepath.Join(a, "org_m")}})
		Expect(err).To(MatchError(ContainSubstring("pass result roots")))
		_, err = merge.Run(merge.Options{Out: out, Dirs: []string{filepath.Join(a, "nope")}})
		Expect(err).To(MatchError(ContainSubstring("shard folder")))
		_, err = merge.Run(merge.Options{Out: out})
		Expect(err).To(MatchError(ContainSubstring("no shard folders")))
	})
})
