// Package suites_test checks that the generated specs select exactly what
// their labels and ids say: one spec per data-set entry, label filters that
// mirror upstream's --test-category names, and focus by entry id. It runs the
// Ginkgo CLI in dry-run mode over the suites (nothing is executed).
package suites_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func TestSelection(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "spec selection")
}

var (
	suiteBinaries []string
	binDir        string
)

var _ = AfterSuite(func() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
})

// buildSuites compiles every suite's test binary once per test process.
func buildSuites() {
	if len(suiteBinaries) > 0 {
		return
	}
	root := testenv.ModuleRoot()
	var err error
	binDir, err = os.MkdirTemp("", "bfcl-suites-")
	Expect(err).NotTo(HaveOccurred())
	dir := binDir
	for _, g := range []string{"non_live", "live", "irrelevance", "multi_turn", "agentic", "format_sensitivity"} {
		bin := filepath.Join(dir, g+".test")
		cmd := exec.Command("go", "test", "-c", "-o", bin, "./suites/"+g)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		suiteBinaries = append(suiteBinaries, bin)
	}
}

// dryRun lists, per category, the specs the suites would run with the given
// Ginkgo flags (nothing is executed in a dry run).
func dryRun(args ...string) map[string]int {
	counts := map[string]int{}
	for _, bin := range suiteBinaries {
		report := filepath.Join(GinkgoT().TempDir(), "report.json")
		cmdArgs := append([]string{"-ginkgo.dry-run", "-ginkgo.json-report=" + report}, args...)
		cmd := exec.Command(bin, cmdArgs...)
		cmd.Env = append(os.Environ(), "BFCL_RESULT_DIR="+GinkgoT().TempDir(), "BFCL_SCORE_DIR="+GinkgoT().TempDir())
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		b, err := os.ReadFile(report)
		Expect(err).NotTo(HaveOccurred())
		var reports []types.Report
		Expect(json.Unmarshal(b, &reports)).To(Succeed())
		for _, r := range reports {
			for _, s := range r.SpecReports {
				if s.LeafNodeType != types.NodeTypeIt || s.State != types.SpecStatePassed {
					continue // dry-run marks every selected spec passed; filtered ones are skipped
				}
				counts[s.ContainerHierarchyTexts[0]]++
			}
		}
	}
	return counts
}

var _ = Describe("the generated specs", Ordered, func() {
	BeforeAll(func() {
		if dir, ok := testenv.DataDir(); !ok {
			Skip(testenv.MissingMessage("BFCL data set", dir, "BFCL_DATA_DIR"))
		}
		buildSuites()
	})

	It("hold one spec per data-set entry, per category", func() {
		counts := dryRun()
		total := 0
		for _, c := range category.Scoring() {
			Expect(counts[string(c)]).To(Equal(c.EntryCount()), string(c))
			total += counts[string(c)]
		}
		Expect(total).To(Equal(5106))
	})

	It("select upstream's groups with --label-filter", func() {
		counts := dryRun("-ginkgo.label-filter=multi_turn")
		Expect(counts).To(HaveLen(4))
		for _, c := range category.MultiTurn() {
			Expect(counts[string(c)]).To(Equal(200))
		}
		counts = dryRun("-ginkgo.label-filter=live && !live_irrelevance")
		Expect(counts).To(Equal(map[string]int{"live_simple": 258, "live_multiple": 1053, "live_parallel": 16, "live_parallel_multiple": 24, "live_relevance": 16}))
		counts = dryRun("-ginkgo.label-filter=group: containsAny irrelevance")
		Expect(counts).To(Equal(map[string]int{"irrelevance": 240, "live_irrelevance": 884, "live_relevance": 16}))
		counts = dryRun("-ginkgo.label-filter=lang: containsAny java")
		Expect(counts).To(Equal(map[string]int{"simple_java": 100}))
		counts = dryRun("-ginkgo.label-filter=TicketAPI && multi_turn_base")
		Expect(counts["multi_turn_base"]).To(BeNumerically(">", 0))
		Expect(counts).To(HaveLen(1))
	})

	It("hold the 5,200 format-sensitivity variants, selectable by configuration", func() {
		Expect(dryRun("-ginkgo.label-filter=format_sensitivity")).To(Equal(map[string]int{"format_sensitivity": 5200}))
		Expect(dryRun("-ginkgo.label-filter=ret_fmt: containsAny json && tool_call_tag: containsAny true")).To(Equal(map[string]int{"format_sensitivity": 600}))
	})

	It("focus one entry by id", func() {
		Expect(dryRun("-ginkgo.focus=multi_turn_base_42$")).To(Equal(map[string]int{"multi_turn_base": 1}))
	})

	It("split into shards with -bfcl.shard, every entry in exactly one", func() {
		total := map[string]int{}
		for k := 0; k < 3; k++ {
			part := dryRun("-bfcl.shard="+strconv.Itoa(k)+"/3", "-ginkgo.label-filter=multi_turn_base || memory_kv || simple_java")
			Expect(part).NotTo(BeEmpty())
			for c, n := range part {
				total[c] += n
			}
		}
		Expect(total).To(Equal(map[string]int{"multi_turn_base": 200, "memory_kv": 155, "simple_java": 100}))
	})

	It("take the CLI's selection flags and variables (-bfcl.ids, BFCL_TEST_CATEGORY, -bfcl.run-ids)", func() {
		Expect(dryRun("-bfcl.ids=simple_python_0,multi_turn_base_1,live_simple_0-0-0")).To(Equal(map[string]int{
			"simple_python": 1, "multi_turn_base": 1, "live_simple": 1}))
		Expect(dryRun("-bfcl.test-category=simple_java,memory")).To(Equal(map[string]int{
			"simple_java": 100, "memory_kv": 155, "memory_vector": 155, "memory_rec_sum": 155}))
		ids := filepath.Join(GinkgoT().TempDir(), "ids.json")
		Expect(os.WriteFile(ids, []byte(`{"multi_turn_miss_func": ["multi_turn_miss_func_3", "multi_turn_miss_func_1"]}`), 0o644)).To(Succeed())
		Expect(dryRun("-bfcl.run-ids="+ids, "-bfcl.test-category=simple_java")).To(Equal(map[string]int{"multi_turn_miss_func": 2}))
	})

	It("take the decoding settings of the README's table (-bfcl.mode, -bfcl.underscore-to-dot; issue 26)", func() {
		Expect(dryRun("-bfcl.ids=simple_python_0", "-bfcl.mode=fc", "-bfcl.underscore-to-dot=false")).To(Equal(map[string]int{"simple_python": 1}))
	})

	It("report an unknown id in -bfcl.ids as one failure naming it, not one per entry (issue 26)", func() {
		for _, bin := range suiteBinaries[:1] { // non_live: 1,150 entries would each fail
			report := filepath.Join(GinkgoT().TempDir(), "report.json")
			cmd := exec.Command(bin, "-ginkgo.json-report="+report, "-bfcl.ids=simple_python_0,simple_python_99999")
			cmd.Env = append(os.Environ(), "BFCL_RESULT_DIR="+GinkgoT().TempDir(), "BFCL_SCORE_DIR="+GinkgoT().TempDir())
			out, err := cmd.CombinedOutput()
			Expect(err).To(HaveOccurred(), string(out))
			b, err := os.ReadFile(report)
			Expect(err).NotTo(HaveOccurred())
			var reports []types.Report
			Expect(json.Unmarshal(b, &reports)).To(Succeed())
			var failed []types.SpecReport
			for _, r := range reports {
				for _, sr := range r.SpecReports {
					if sr.LeafNodeType == types.NodeTypeIt && sr.State.Is(types.SpecStateFailureStates) {
						failed = append(failed, sr)
					}
				}
			}
			Expect(failed).To(HaveLen(1), string(out))
			Expect(failed[0].LeafNodeText).To(Equal("bfcl configuration"))
			Expect(failed[0].Failure.Message).To(ContainSubstring("simple_python_99999"))
		}
	})
})
