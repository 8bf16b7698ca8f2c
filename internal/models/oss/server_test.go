package oss_test

import (
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/oss"
)

var _ = Describe("the local model, as OSSHandler finds it", func() {
	It("reads the context window from config.json, else tokenizer_config.json, and says what is missing", func() {
		dir := GinkgoT().TempDir()
		_, err := oss.ContextWindow(dir)
		Expect(err).To(MatchError(ContainSubstring("config.json")))
		Expect(os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"max_position_embeddings": 40960}`), 0o644)).To(Succeed())
		Expect(oss.ContextWindow(dir)).To(Equal(40960))
		Expect(os.WriteFile(filepath.Join(dir, "config.json"), []byte(`{"model_type": "x"}`), 0o644)).To(Succeed())
		_, err = oss.ContextWindow(dir)
		Expect(err).To(MatchError(ContainSubstring("context_window")))
		Expect(os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte(`{"model_max_length": 131072}`), 0o644)).To(Succeed())
		Expect(oss.ContextWindow(dir)).To(Equal(131072))
	})

	It("finds a downloaded model in the Hugging Face cache through refs/main", func() {
		hub := GinkgoT().TempDir()
		GinkgoT().Setenv("HF_HUB_CACHE", hub)
		_, ok := oss.CachedModelDir("Qwen/Qwen3-8B")
		Expect(ok).To(BeFalse())
		snap := filepath.Join(hub, "models--Qwen--Qwen3-8B", "snapshots", "abc123")
		Expect(os.MkdirAll(snap, 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(snap, "config.json"), []byte(`{"max_position_embeddings": 40960}`), 0o644)).To(Succeed())
		Expect(os.MkdirAll(filepath.Join(hub, "models--Qwen--Qwen3-8B", "refs"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(hub, "models--Qwen--Qwen3-8B", "refs", "main"), []byte("abc123\n"), 0o644)).To(Succeed())
		dir, ok := oss.CachedModelDir("Qwen/Qwen3-8B")
		Expect(ok).To(BeTrue())
		Expect(dir).To(Equal(snap))
		Expect(oss.ContextWindow(dir)).To(Equal(40960))
	})
})
