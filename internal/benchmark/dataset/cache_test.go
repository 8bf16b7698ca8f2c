package dataset_test

import (
	"os"
	"path/filepath"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

var _ = Describe("the Source of one data folder", func() {
	var dir string
	BeforeEach(func() {
		var ok bool
		dir, ok = testenv.DataDir()
		if !ok {
			Skip(testenv.MissingMessage("BFCL data set", dir, dataset.EnvDataDir))
		}
	})

	It("is one value per process, whichever spelling of the folder opens it", func() {
		a, err := dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		b, err := dataset.Open(filepath.Join(dir, "."))
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(BeIdenticalTo(a))
	})

	It("loads a category once and hands every caller the same entries in its own slice", func() {
		src, err := dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		var wg sync.WaitGroup
		got := make([][]*dataset.Entry, 8)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer GinkgoRecover()
				es, err := src.LoadCategory("multi_turn_miss_func")
				Expect(err).NotTo(HaveOccurred())
				got[i] = es
			}()
		}
		wg.Wait()
		for _, es := range got[1:] {
			Expect(es).To(HaveLen(200))
			Expect(es[0]).To(BeIdenticalTo(got[0][0]))
		}
		got[1][0] = nil // the slice is the caller's
		Expect(got[0][0]).NotTo(BeNil())
		again, err := src.Load("multi_turn_miss_func")
		Expect(err).NotTo(HaveOccurred())
		Expect(again[0]).NotTo(BeNil())
	})

	It("owns the format-sensitivity expansion: 26 configurations per listed entry, ids numbered from 0", func() {
		src, err := dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		es, err := src.LoadCategory(dataset.FormatSensitivityCategory)
		Expect(err).NotTo(HaveOccurred())
		Expect(len(es) % 26).To(BeZero())
		Expect(es[0].ID).To(HavePrefix("format_sensitivity_0:ret_fmt=python&tool_call_tag=True&func_doc_fmt=python&"))
		Expect(es[0].Category).To(Equal(category.FormatSensitivity))
		again, err := src.LoadCategory(dataset.FormatSensitivityCategory)
		Expect(err).NotTo(HaveOccurred())
		Expect(again[len(again)-1]).To(BeIdenticalTo(es[len(es)-1]))
	})

	It("parses long_context.py once", func() {
		src, err := dataset.Open(dir)
		Expect(err).NotTo(HaveOccurred())
		a, err := src.LongContext()
		Expect(err).NotTo(HaveOccurred())
		b, err := src.LongContext()
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(BeIdenticalTo(a))
	})

	It("reports a missing question file by name, also on the second call", func() {
		tmp := GinkgoT().TempDir()
		Expect(os.MkdirAll(filepath.Join(tmp, "data"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(tmp, "data", "BFCL_v4_simple_python.json"), nil, 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(tmp, "long_context.py"), nil, 0o644)).To(Succeed())
		src, err := dataset.Open(tmp)
		Expect(err).NotTo(HaveOccurred())
		for range 2 {
			_, err = src.Load("multi_turn_base")
			Expect(err).To(MatchError(ContainSubstring("question file")))
		}
	})
})
