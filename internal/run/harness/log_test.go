package harness_test

import (
	"context"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/run/harness"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

var _ = Describe("the inference-log settings", func() {
	It("reach the stored records: the state log by default, none with ExcludeStateLog, the input log with IncludeInputLog", func() {
		src := openDataSet()
		stored := func(include, exclude bool) string {
			root := GinkgoT().TempDir()
			cfg := harness.Config{Model: registry.Model{Name: "gold", Provider: "gold", Mode: "fc", Concurrency: 1}, Source: src,
				Storage: config.Storage{ResultDir: filepath.Join(root, "result"), ScoreDir: filepath.Join(root, "score"), IncludeInputLog: include, ExcludeStateLog: exclude}}
			cfg.NewExecutor = harness.DefaultExecutor(cfg)
			h, err := harness.New(cfg)
			Expect(err).NotTo(HaveOccurred())
			out, err := h.Run(context.Background(), "multi_turn_base", "multi_turn_base_3")
			Expect(err).NotTo(HaveOccurred())
			Expect(out.Verdict.Valid).To(BeTrue())
			recs, err := results.Read(results.Path(cfg.ResultDir, "gold", category.MultiTurnBase))
			Expect(err).NotTo(HaveOccurred())
			Expect(recs).To(HaveLen(1))
			return string(recs[0].InferenceLog)
		}
		log := stored(false, false)
		Expect(log).To(ContainSubstring(`"role":"state_info"`))
		Expect(log).NotTo(ContainSubstring(`"role":"inference_input"`))
		log = stored(true, true)
		Expect(log).NotTo(ContainSubstring(`"role":"state_info"`))
		Expect(strings.Count(log, `"role":"inference_input"`)).To(Equal(strings.Count(log, `"role":"assistant"`)))
	})
})
