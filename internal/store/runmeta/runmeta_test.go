package runmeta_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/store/runmeta"
)

var _ = Describe("run metadata", func() {
	var dir string
	BeforeEach(func() { dir = filepath.Join(GinkgoT().TempDir(), "org_m") })

	It("round-trips a model entry with the data-set commit and version", func() {
		m := runmeta.FromModel(registry.Model{Name: "org/m", Provider: "openai", Model: "m-1", Mode: "prompt", UnderscoreToDot: true, Handler: "QwenFCHandler", Upstream: "Qwen/Qwen3-8B-FC"})
		m.Diagnostics = []string{"turn-isolated", "turn-isolated"}
		Expect(runmeta.Write(dir, m)).To(Succeed())
		got, err := runmeta.Read(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(got.Model).To(Equal("org/m"))
		Expect(got.Mode).To(Equal("prompt"))
		Expect(got.UnderscoreToDot).To(BeTrue())
		Expect(got.Handler).To(Equal("QwenFCHandler"))
		Expect(got.DataSetCommit).To(Equal(dataset.UpstreamCommit))
		Expect(got.BFCLVersion).NotTo(BeEmpty())
		Expect(got.Diagnostics).To(Equal([]string{"turn-isolated"}))
		Expect(got.NonOfficial()).To(Equal([]string{"turn-isolated"}))
		Expect(got.Describe()).To(ContainSubstring("NOT OFFICIAL"))
	})

	It("says a folder has none with ErrNone", func() {
		_, err := runmeta.Read(dir)
		Expect(err).To(MatchError(runmeta.ErrNone))
	})

	It("refuses to mix results of another decoding in one folder", func() {
		Expect(runmeta.Write(dir, runmeta.FromModel(registry.Model{Name: "m", Provider: "openai", Mode: "fc"}))).To(Succeed())
		Expect(runmeta.Write(dir, runmeta.FromModel(registry.Model{Name: "m", Provider: "openai", Mode: "fc"}))).To(Succeed())
		err := runmeta.Write(dir, runmeta.FromModel(registry.Model{Name: "m", Provider: "openai", Mode: "prompt"}))
		Expect(err).To(MatchError(ContainSubstring("mode fc (this run: prompt)")))
	})

	It("rejects a damaged file naming it", func() {
		Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
		Expect(os.WriteFile(runmeta.Path(dir), []byte(`{"format":1,"mode":"xml"}`), 0o644)).To(Succeed())
		_, err := runmeta.Read(dir)
		Expect(err).To(MatchError(And(ContainSubstring(runmeta.FileName), ContainSubstring(`"xml"`))))
	})
})
