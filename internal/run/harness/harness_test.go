package harness_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/gold"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/run/harness"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// counting wraps gold and counts the requests; fail makes it fail.
type counting struct {
	inner driver.Driver
	calls *int64
	fail  bool
}

func (c counting) Name() string { return "counting" }
func (c counting) Complete(ctx context.Context, r driver.Request) (driver.Response, error) {
	atomic.AddInt64(c.calls, 1)
	if c.fail {
		return driver.Response{}, errors.New("openai: HTTP 500 Internal Server Error (after 5 attempts)")
	}
	return c.inner.Complete(ctx, r)
}

var _ = Describe("the harness", func() {
	var (
		src   *dataset.Source
		calls int64
		fail  bool
	)
	newHarness := func(root string, m registry.Model) *harness.Harness {
		cfg := harness.Config{Model: m, Source: src, Storage: config.Storage{ResultDir: filepath.Join(root, "result"), ScoreDir: filepath.Join(root, "score")}}
		cfg.NewDriver = func(e *dataset.Entry) (driver.Driver, error) {
			g, err := gold.New(e)
			if err != nil {
				return nil, err
			}
			return counting{inner: g, calls: &calls, fail: fail}, nil
		}
		cfg.NewExecutor = harness.DefaultExecutor(cfg)
		h, err := harness.New(cfg)
		Expect(err).NotTo(HaveOccurred())
		return h
	}
	BeforeEach(func() {
		src = openDataSet()
		calls, fail = 0, false
	})

	It("stores each result once and resumes without calling the model again", func() {
		root := GinkgoT().TempDir()
		m := registry.Model{Name: "fake", Provider: "openai", Mode: "fc", Concurrency: 2}
		out, err := newHarness(root, m).Run(context.Background(), "multi_turn_base", "multi_turn_base_3")
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Verdict.Valid).To(BeTrue())
		Expect(out.Resumed).To(BeFalse())
		first := calls
		Expect(first).To(BeNumerically(">", 1))

		out, err = newHarness(root, m).Run(context.Background(), "multi_turn_base", "multi_turn_base_3")
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Resumed).To(BeTrue())
		Expect(calls).To(Equal(first), "a resumed entry makes no request")
		recs, err := results.Read(results.Path(filepath.Join(root, "result"), "fake", category.MultiTurnBase))
		Expect(err).NotTo(HaveOccurred())
		Expect(recs).To(HaveLen(1))
	})

	It("does not store an entry whose requests failed, so the next run retries it", func() {
		root := GinkgoT().TempDir()
		m := registry.Model{Name: "fake", Provider: "openai", Mode: "fc", Concurrency: 1}
		fail = true
		_, err := newHarness(root, m).Run(context.Background(), "simple_python", "simple_python_0")
		Expect(err).To(MatchError(ContainSubstring("HTTP 500")))
		_, statErr := os.Stat(results.Path(filepath.Join(root, "result"), "fake", category.SimplePython))
		Expect(os.IsNotExist(statErr)).To(BeTrue())
		fail = false
		out, err := newHarness(root, m).Run(context.Background(), "simple_python", "simple_python_0")
		Expect(err).NotTo(HaveOccurred())
		Expect(out.Verdict.Valid).To(BeTrue())
	})

	It("leaves format sensitivity to prompt-mode models, as upstream", func() {
		m := registry.Model{Name: "fake", Provider: "openai", Mode: "fc", Concurrency: 1}
		_, err := newHarness(GinkgoT().TempDir(), m).Run(context.Background(), "format_sensitivity",
			"format_sensitivity_0:ret_fmt=python&tool_call_tag=True&func_doc_fmt=python&prompt_fmt=plaintext&style=classic:simple_python_19")
		Expect(err).To(MatchError(score.ErrNotApplicable))
	})
})
