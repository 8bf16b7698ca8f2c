package harness_test

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/selection"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/run/harness"
	"github.com/bfcl-go/bfcl/internal/testkit/goldserver"
)

var _ = Describe("RunAll against a server", func() {
	It("keeps the model's concurrency as the cap on requests in flight while more entries are in progress", func() {
		src := openDataSet()
		var entries []*dataset.Entry
		var items []selection.Item
		for _, c := range []category.Category{category.MultiTurnBase, category.SimplePython} {
			list, err := prompt.LoadCategory(src, c)
			Expect(err).NotTo(HaveOccurred())
			for _, e := range list[:12] {
				entries = append(entries, e)
				items = append(items, selection.Item{Category: c, ID: e.ID})
			}
		}
		srv, err := goldserver.Start(entries, 5*time.Millisecond)
		Expect(err).NotTo(HaveOccurred())
		defer srv.Close()
		root := GinkgoT().TempDir()
		const concurrency = 3
		m := registry.Model{Name: "served-gold", Provider: "openai", Model: "gold", Mode: "fc", BaseURL: srv.URL, Concurrency: concurrency}
		h, err := harness.New(harness.Config{Model: m, Source: src, Storage: config.Storage{ResultDir: filepath.Join(root, "result"), ScoreDir: filepath.Join(root, "score")}})
		Expect(err).NotTo(HaveOccurred())
		sum := h.RunAll(context.Background(), items, nil)
		Expect(sum.FirstError).NotTo(HaveOccurred())
		Expect(sum.Passed).To(Equal(len(items)), "the gold answers, served, pass")
		Expect(srv.Peak()).To(BeEquivalentTo(concurrency), "the server saw at most (and at some point exactly) the model's concurrency")
		Expect(sum.Calls).To(Equal(srv.Calls()))
	})

	It("counts skipped entries neither as done nor in the pass rate (issue 26)", func() {
		src := openDataSet()
		var entries []*dataset.Entry
		var items []selection.Item
		for _, c := range []category.Category{category.SimplePython, category.FormatSensitivity} {
			list, err := prompt.LoadCategory(src, c)
			Expect(err).NotTo(HaveOccurred())
			for _, e := range list[:3] {
				entries = append(entries, e)
				items = append(items, selection.Item{Category: c, ID: e.ID})
			}
		}
		srv, err := goldserver.Start(entries, 0)
		Expect(err).NotTo(HaveOccurred())
		defer srv.Close()
		root := GinkgoT().TempDir()
		m := registry.Model{Name: "served-gold", Provider: "openai", Model: "gold", Mode: "fc", BaseURL: srv.URL, Concurrency: 2}
		h, err := harness.New(harness.Config{Model: m, Source: src, Storage: config.Storage{ResultDir: filepath.Join(root, "result"), ScoreDir: filepath.Join(root, "score")}})
		Expect(err).NotTo(HaveOccurred())
		var progress strings.Builder
		sum := h.RunAll(context.Background(), items, &progress)
		Expect(sum.FirstError).NotTo(HaveOccurred())
		Expect(sum.Skipped).To(HaveKey(category.FormatSensitivity), "an FC model skips format sensitivity")
		Expect(sum.Done).To(Equal(3), "the three simple_python entries were stored and scored")
		Expect(sum.Passed).To(Equal(3))
		Expect(sum.Wrong).To(BeZero(), "gold answers no entry wrong")
		Expect(sum.Errors).To(BeZero())
		lines := strings.Split(strings.TrimSpace(progress.String()), "\r")
		Expect(lines[len(lines)-1]).To(HavePrefix("6/6 entries  pass 100.0%"))
	})
})
