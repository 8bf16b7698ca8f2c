package selection_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/selection"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

var _ = Describe("a selection", func() {
	var src *dataset.Source
	BeforeEach(func() {
		dir := testenv.NeedDataDir(GinkgoT(), "BFCL data set")
		var err error
		src, err = dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
	})
	ids := func(s *selection.Selection) []string {
		var out []string
		for _, it := range s.Items {
			out = append(out, it.ID)
		}
		return out
	}

	It("selects exactly the ids given, in data-set order, with their categories", func() {
		s, err := selection.Spec{IDs: []string{"multi_turn_base_1", "simple_python_0", "simple_python_10"}}.Resolve(src)
		Expect(err).NotTo(HaveOccurred())
		Expect(ids(s)).To(Equal([]string{"simple_python_0", "simple_python_10", "multi_turn_base_1"}))
		Expect(s.Categories).To(Equal([]category.Category{category.SimplePython, category.MultiTurnBase}))
		Expect(s.Contains(category.SimplePython, "simple_python_1")).To(BeFalse())
	})

	It("intersects ids with the categories given and names ids that are not there", func() {
		_, err := selection.Spec{Categories: []string{"simple_python"}, IDs: []string{"simple_python_0", "multi_turn_base_1", "simple_python_9999"}}.Resolve(src)
		Expect(err).To(MatchError(And(ContainSubstring("multi_turn_base_1"), ContainSubstring("simple_python_9999"), Not(ContainSubstring("simple_python_0,")))))
	})

	It("names ids that belong to no category and unknown categories", func() {
		_, err := selection.Spec{IDs: []string{"nonsense"}}.Resolve(src)
		Expect(err).To(MatchError(ContainSubstring("nonsense")))
		_, err = selection.Spec{Categories: []string{"simple_pyton"}}.Resolve(src)
		Expect(err).To(MatchError(ContainSubstring(`"simple_pyton"`)))
	})

	It("expands groups in upstream's canonical category order", func() {
		s, err := selection.Spec{Categories: []string{"multi_turn", "simple_python"}}.Resolve(src)
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Categories).To(Equal([]category.Category{category.SimplePython, category.MultiTurnBase, category.MultiTurnMissFunc, category.MultiTurnMissParam, category.MultiTurnLongContext}))
		Expect(s.Items).To(HaveLen(400 + 4*200))
		Expect(s.Items[0].ID).To(Equal("simple_python_0"))
		Expect(s.Items[400].ID).To(Equal("multi_turn_base_0"))
		Expect(s.Contains(category.SimpleJava, "simple_java_0")).To(BeFalse())
	})

	It("reads upstream's id file, ignoring the categories given and empty lists", func() {
		f := filepath.Join(GinkgoT().TempDir(), selection.UpstreamIDFile)
		Expect(os.WriteFile(f, []byte(`{"multi_turn_base": ["multi_turn_base_7", "multi_turn_base_2"], "simple_java": [], "live_simple": ["live_simple_3-2-1"]}`), 0o644)).To(Succeed())
		s, err := selection.Spec{Categories: []string{"irrelevance"}, RunIDs: f}.Resolve(src)
		Expect(err).NotTo(HaveOccurred())
		Expect(ids(s)).To(Equal([]string{"live_simple_3-2-1", "multi_turn_base_2", "multi_turn_base_7"}))
	})

	It("rejects an id file with a foreign id or no ids", func() {
		dir := GinkgoT().TempDir()
		bad := filepath.Join(dir, "bad.json")
		Expect(os.WriteFile(bad, []byte(`{"simple_python": ["multi_turn_base_1"]}`), 0o644)).To(Succeed())
		_, err := selection.Spec{RunIDs: bad}.Resolve(src)
		Expect(err).To(MatchError(ContainSubstring(`id "multi_turn_base_1" is not an entry of simple_python`)))
		empty := filepath.Join(dir, "empty.json")
		Expect(os.WriteFile(empty, []byte(`{"simple_python": []}`), 0o644)).To(Succeed())
		_, err = selection.Spec{RunIDs: empty}.Resolve(src)
		Expect(err).To(MatchError(ContainSubstring("lists no ids")))
	})

	It("selects format-sensitivity variants by their ids", func() {
		all, err := selection.Spec{Categories: []string{"format_sensitivity"}}.Resolve(src)
		Expect(err).NotTo(HaveOccurred())
		Expect(all.Items).To(HaveLen(5200))
		one := all.Items[77].ID
		s, err := selection.Spec{IDs: []string{one}}.Resolve(src)
		Expect(err).NotTo(HaveOccurred())
		Expect(ids(s)).To(Equal([]string{one}))
	})
})
