package minilm_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/services/embed/minilm"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// smallSpec is a quick model for the loader specs.
func smallSpec() bertSpec {
	return bertSpec{
		Hidden: 16, Layers: 1, Heads: 2, Inter: 32, MaxPos: 32, TypeVocab: 2,
		Vocab: wordsVocab(textWords(memoryTexts...)...), Seed: 3, MaxSeqLength: 32,
	}
}

func writeSmall(dir string, edit func(*bertSpec)) {
	spec := smallSpec()
	if edit != nil {
		edit(&spec)
	}
	Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
	_, err := writeRandomBERT(dir, spec)
	Expect(err).NotTo(HaveOccurred())
}

func fileSHA(path string) string {
	data, err := os.ReadFile(path)
	Expect(err).NotTo(HaveOccurred())
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

var _ = Describe("Load", func() {
	It("loads a complete folder and records the weights' SHA-256", func() {
		dir := GinkgoT().TempDir()
		writeSmall(dir, nil)
		m, err := minilm.Load(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.SHA256()).To(Equal(fileSHA(filepath.Join(dir, "model.safetensors"))))
		e := minilm.NewEmbedder(m)
		Expect(e.SHA256()).To(Equal(m.SHA256()))
		Expect(e.Name()).To(Equal("minilm:all-MiniLM-L6-v2@" + m.SHA256()[:12]))
	})

	DescribeTable("refuses a broken folder with a one-line error naming the problem",
		func(setup func(dir string), want ...string) {
			dir := GinkgoT().TempDir()
			writeSmall(dir, nil)
			setup(dir)
			_, err := minilm.Load(dir)
			Expect(err).To(HaveOccurred())
			fmt.Fprintln(GinkgoWriter, err)
			Expect(err.Error()).NotTo(ContainSubstring("\n"))
			for _, w := range want {
				Expect(err.Error()).To(ContainSubstring(w))
			}
		},
		Entry("missing model.safetensors", func(dir string) {
			Expect(os.Remove(filepath.Join(dir, "model.safetensors"))).To(Succeed())
		}, "all-MiniLM-L6-v2 not found in", "(missing model.safetensors)", "--embed-model-dir / BFCL_EMBED_MODEL_DIR", "one-time download"),
		Entry("missing config.json", func(dir string) {
			Expect(os.Remove(filepath.Join(dir, "config.json"))).To(Succeed())
		}, "(missing config.json)"),
		Entry("no tokenizer file", func(dir string) {
			Expect(os.Remove(filepath.Join(dir, "vocab.txt"))).To(Succeed())
		}, "(missing tokenizer.json and vocab.txt)"),
		Entry("no folder at all", func(dir string) {
			Expect(os.RemoveAll(dir)).To(Succeed())
		}, "does not exist", "BFCL_EMBED_MODEL_DIR"),
		Entry("hidden_act is not gelu", func(dir string) {
			writeSmall(dir, func(s *bertSpec) { s.Config = map[string]any{"hidden_act": "gelu_new"} })
		}, "config.json", `hidden_act "gelu_new" is not supported`),
		Entry("a RoBERTa-style config", func(dir string) {
			writeSmall(dir, func(s *bertSpec) { s.Config = map[string]any{"model_type": "roberta"} })
		}, `model_type "roberta"`),
		Entry("hidden size not a multiple of the heads", func(dir string) {
			writeSmall(dir, func(s *bertSpec) { s.Config = map[string]any{"num_attention_heads": 3} })
		}, "not a multiple of num_attention_heads"),
		Entry("config and weights disagree on a dimension", func(dir string) {
			writeSmall(dir, func(s *bertSpec) { s.Config = map[string]any{"intermediate_size": 24} })
		}, "model.safetensors", `"encoder.layer.0.intermediate.dense.weight" has shape [32 16], want [24 16]`),
		Entry("a tensor of the wrong shape", func(dir string) {
			writeSmall(dir, func(s *bertSpec) {
				s.Shape = map[string][]int{"encoder.layer.0.attention.self.key.weight": {8, 32}}
			})
		}, `"encoder.layer.0.attention.self.key.weight" has shape [8 32], want [16 16]`),
		Entry("a tensor of the wrong dtype", func(dir string) {
			writeSmall(dir, func(s *bertSpec) {
				s.DType = func(n string) string {
					if n == "embeddings.LayerNorm.weight" {
						return "I32"
					}
					return "F32"
				}
			})
		}, `"embeddings.LayerNorm.weight" has dtype I32, want F32`),
		Entry("a missing tensor", func(dir string) {
			writeSmall(dir, func(s *bertSpec) { s.Config = map[string]any{"num_hidden_layers": 2} })
		}, `has no tensor "encoder.layer.1.attention.self.query.weight"`),
		Entry("a truncated safetensors file", func(dir string) {
			p := filepath.Join(dir, "model.safetensors")
			data, err := os.ReadFile(p)
			Expect(err).NotTo(HaveOccurred())
			Expect(os.WriteFile(p, data[:len(data)/2], 0o644)).To(Succeed())
		}, "model.safetensors", "outside the"),
		Entry("not a safetensors file", func(dir string) {
			Expect(os.WriteFile(filepath.Join(dir, "model.safetensors"), []byte("<html>Not found</html>"), 0o644)).To(Succeed())
		}, "not a safetensors file"),
		Entry("a vocabulary without [CLS]", func(dir string) {
			Expect(os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte("[PAD]\n[UNK]\n[SEP]\n[MASK]\na\n"), 0o644)).To(Succeed())
		}, "vocab.txt", "no [CLS] token"),
		Entry("CLS pooling", func(dir string) {
			Expect(os.MkdirAll(filepath.Join(dir, "1_Pooling"), 0o755)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(dir, "1_Pooling", "config.json"), []byte(`{"word_embedding_dimension": 16, "pooling_mode_cls_token": true, "pooling_mode_mean_tokens": false}`), 0o644)).To(Succeed())
		}, "pooling_mode_cls_token is not supported"),
	)

	It("reads max_seq_length from sentence_bert_config.json, 256 without it", func() {
		dir := GinkgoT().TempDir()
		writeSmall(dir, func(s *bertSpec) { s.MaxPos = 512; s.MaxSeqLength = 0 })
		m, err := minilm.Load(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Tokenizer.MaxLen).To(Equal(256))
		Expect(os.WriteFile(filepath.Join(dir, "sentence_bert_config.json"), []byte(`{"max_seq_length": 12}`), 0o644)).To(Succeed())
		m, err = minilm.Load(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Tokenizer.Encode(strings.Repeat("a ", 50))).To(HaveLen(12))
	})
})

// hubCache lays out a Hugging Face hub cache under root holding the small
// model in snapshots/<rev> (the files as symbolic links into blobs/, as
// huggingface_hub stores them) and returns the snapshot folder.
func hubCache(root, rev string, files ...string) string {
	repo := filepath.Join(root, "models--sentence-transformers--all-MiniLM-L6-v2")
	src := GinkgoT().TempDir()
	writeSmall(src, nil)
	snap := filepath.Join(repo, "snapshots", rev)
	Expect(os.MkdirAll(snap, 0o755)).To(Succeed())
	Expect(os.MkdirAll(filepath.Join(repo, "blobs"), 0o755)).To(Succeed())
	if len(files) == 0 {
		files = []string{"config.json", "model.safetensors", "vocab.txt", "sentence_bert_config.json"}
	}
	for _, f := range files {
		blob := fileSHA(filepath.Join(src, f))
		data, err := os.ReadFile(filepath.Join(src, f))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(repo, "blobs", blob), data, 0o644)).To(Succeed())
		Expect(os.Symlink(filepath.Join("..", "..", "blobs", blob), filepath.Join(snap, f))).To(Succeed())
	}
	return snap
}

var _ = Describe("Locate", func() {
	var hub, cache string
	BeforeEach(func() {
		hub = filepath.Join(GinkgoT().TempDir(), "hub")
		cache = filepath.Join(GinkgoT().TempDir(), "models")
		for _, env := range []string{"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME", "HF_ENDPOINT", "SENTENCE_TRANSFORMERS_HOME"} {
			GinkgoT().Setenv(env, "")
		}
	})

	It("uses an explicit folder alone, and says what is missing there", func() {
		dir := GinkgoT().TempDir()
		writeSmall(dir, nil)
		got, err := minilm.Locate(context.Background(), minilm.LocateOptions{Dir: dir, HubCache: hub, CacheDir: cache})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(dir))
		hubCache(hub, minilm.PinnedRevision) // present, but not looked at
		_, err = minilm.Locate(context.Background(), minilm.LocateOptions{Dir: filepath.Join(dir, "nope"), HubCache: hub, CacheDir: cache})
		Expect(err).To(MatchError(ContainSubstring("nope does not exist")))
	})

	It("finds the pinned revision's snapshot in the hub cache ($HF_HUB_CACHE, else $HF_HOME/hub)", func() {
		snap := hubCache(hub, minilm.PinnedRevision)
		GinkgoT().Setenv("HF_HUB_CACHE", hub)
		got, err := minilm.Locate(context.Background(), minilm.LocateOptions{CacheDir: cache})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(snap))
		m, err := minilm.Load(got) // through the blob links
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Dim()).To(Equal(16))

		GinkgoT().Setenv("HF_HUB_CACHE", "")
		GinkgoT().Setenv("HF_HOME", filepath.Dir(hub))
		Expect(minilm.HubCacheDir()).To(Equal(hub))
		got, err = minilm.Locate(context.Background(), minilm.LocateOptions{CacheDir: cache})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(snap))
	})

	It("otherwise takes the snapshot refs/main names, and skips incomplete snapshots", func() {
		other := "0123456789abcdef0123456789abcdef01234567"
		snap := hubCache(hub, other)
		hubCache(hub, minilm.PinnedRevision, "config.json", "vocab.txt")                   // no weights
		_, err := testenv.HFSnapshot(hub, "sentence-transformers/all-MiniLM-L6-v2", other) // refs/main names it
		Expect(err).NotTo(HaveOccurred())
		got, err := minilm.Locate(context.Background(), minilm.LocateOptions{HubCache: hub, CacheDir: cache})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(snap))
	})

	It("also looks in $SENTENCE_TRANSFORMERS_HOME", func() {
		st := filepath.Join(GinkgoT().TempDir(), "st")
		snap := hubCache(st, minilm.PinnedRevision)
		GinkgoT().Setenv("SENTENCE_TRANSFORMERS_HOME", st)
		got, err := minilm.Locate(context.Background(), minilm.LocateOptions{HubCache: hub, CacheDir: cache})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(snap))
	})

	It("finds a previous download in the user cache", func() {
		dir := filepath.Join(cache, minilm.PinnedRevision)
		writeSmall(dir, nil)
		got, err := minilm.Locate(context.Background(), minilm.LocateOptions{HubCache: hub, CacheDir: cache})
		Expect(err).NotTo(HaveOccurred())
		Expect(got).To(Equal(dir))
	})

	It("without a model and without leave to download, says where it looked and what to do", func() {
		_, err := minilm.Locate(context.Background(), minilm.LocateOptions{HubCache: hub, CacheDir: cache})
		Expect(err).To(HaveOccurred())
		msg := err.Error()
		fmt.Fprintln(GinkgoWriter, msg)
		Expect(msg).NotTo(ContainSubstring("\n"))
		Expect(msg).To(ContainSubstring(filepath.Join(hub, "models--sentence-transformers--all-MiniLM-L6-v2", "snapshots")))
		Expect(msg).To(ContainSubstring(filepath.Join(cache, minilm.PinnedRevision)))
		Expect(msg).To(ContainSubstring("--embed-model-dir / BFCL_EMBED_MODEL_DIR"))
		Expect(msg).To(ContainSubstring("allow the one-time download"))
	})

	Context("downloading from the hub (an httptest server named by HF_ENDPOINT)", func() {
		var (
			src      string
			srv      *httptest.Server
			requests atomic.Int32
			mu       sync.Mutex
			paths    []string
		)
		const rev = "feedfacefeedfacefeedfacefeedfacefeedface"
		BeforeEach(func() {
			src = GinkgoT().TempDir()
			writeSmall(src, nil)
			paths = nil
			requests.Store(0)
			srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				mu.Lock()
				paths = append(paths, r.URL.Path)
				mu.Unlock()
				// The server has two revisions, both the small model.
				name, ok := strings.CutPrefix(r.URL.Path, "/sentence-transformers/all-MiniLM-L6-v2/resolve/"+rev+"/")
				if !ok {
					name, ok = strings.CutPrefix(r.URL.Path, "/sentence-transformers/all-MiniLM-L6-v2/resolve/"+minilm.PinnedRevision+"/")
				}
				if !ok {
					http.NotFound(w, r)
					return
				}
				http.ServeFile(w, r, filepath.Join(src, filepath.FromSlash(name)))
			}))
			DeferCleanup(srv.Close)
			GinkgoT().Setenv("HF_ENDPOINT", srv.URL+"/")
		})

		It("stores the revision in the user cache atomically, then finds it there without the network", func() {
			sha := fileSHA(filepath.Join(src, "model.safetensors"))
			var logs []string
			opts := minilm.LocateOptions{HubCache: hub, CacheDir: cache, Revision: rev, Download: true, ExpectSHA256: sha,
				Log: func(s string) { logs = append(logs, s) }}
			got, err := minilm.Locate(context.Background(), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(filepath.Join(cache, rev)))
			Expect(paths).To(ContainElements(
				"/sentence-transformers/all-MiniLM-L6-v2/resolve/"+rev+"/config.json",
				"/sentence-transformers/all-MiniLM-L6-v2/resolve/"+rev+"/model.safetensors",
				"/sentence-transformers/all-MiniLM-L6-v2/resolve/"+rev+"/vocab.txt"))
			Expect(logs).To(HaveLen(2))
			Expect(logs[0]).To(ContainSubstring(srv.URL))
			entries, err := os.ReadDir(cache)
			Expect(err).NotTo(HaveOccurred())
			Expect(entries).To(HaveLen(1)) // no temporary folder left
			m, err := minilm.Load(got)
			Expect(err).NotTo(HaveOccurred())
			Expect(m.SHA256()).To(Equal(sha))

			n := requests.Load()
			again, err := minilm.Locate(context.Background(), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(again).To(Equal(got))
			e, err := minilm.Open(context.Background(), opts)
			Expect(err).NotTo(HaveOccurred())
			Expect(e.Model().Dir).To(Equal(got))
			Expect(e.Name()).To(Equal("minilm:all-MiniLM-L6-v2@" + sha[:12]))
			Expect(requests.Load()).To(Equal(n))
		})

		It("keeps nothing when model.safetensors has another SHA-256", func() {
			_, err := minilm.Locate(context.Background(), minilm.LocateOptions{HubCache: hub, CacheDir: cache, Revision: rev, Download: true,
				ExpectSHA256: strings.Repeat("0", 64)})
			Expect(err).To(MatchError(And(ContainSubstring("has SHA-256"), ContainSubstring("not kept"))))
			entries, _ := os.ReadDir(cache)
			Expect(entries).To(BeEmpty())
		})

		It("checks a download of the pinned revision against the published SHA-256", func() {
			_, err := minilm.Locate(context.Background(), minilm.LocateOptions{HubCache: hub, CacheDir: cache, Download: true})
			Expect(err).To(MatchError(And(
				ContainSubstring("resolve/"+minilm.PinnedRevision+"/model.safetensors has SHA-256 "+fileSHA(filepath.Join(src, "model.safetensors"))),
				ContainSubstring("want "+minilm.PinnedSHA256))))
			entries, _ := os.ReadDir(cache)
			Expect(entries).To(BeEmpty())
		})

		It("keeps nothing when the weights do not fit config.json", func() {
			// config.json says hidden 32; the weights are hidden 16.
			writeSmall(src, func(s *bertSpec) { s.Config = map[string]any{"hidden_size": 32, "intermediate_size": 64} })
			_, err := minilm.Locate(context.Background(), minilm.LocateOptions{HubCache: hub, CacheDir: cache, Revision: rev, Download: true})
			Expect(err).To(MatchError(And(ContainSubstring("unusable"), ContainSubstring("has shape"))))
			entries, _ := os.ReadDir(cache)
			Expect(entries).To(BeEmpty())
		})

		It("reports a missing required file, and a revision the hub does not have", func() {
			Expect(os.Remove(filepath.Join(src, "model.safetensors"))).To(Succeed())
			_, err := minilm.Locate(context.Background(), minilm.LocateOptions{HubCache: hub, CacheDir: cache, Revision: rev, Download: true})
			Expect(err).To(MatchError(And(ContainSubstring("model.safetensors: not found (404)"), ContainSubstring(rev))))
			_, err = minilm.Locate(context.Background(), minilm.LocateOptions{HubCache: hub, CacheDir: cache, Download: true, Revision: "main"})
			Expect(err).To(MatchError(ContainSubstring("resolve/main/config.json: not found (404); is revision main of sentence-transformers/all-MiniLM-L6-v2 right?")))
			_, err = minilm.Locate(context.Background(), minilm.LocateOptions{HubCache: hub, CacheDir: cache, Download: true, Revision: "../x"})
			Expect(err).To(MatchError(ContainSubstring("is not a commit hash or branch name")))
		})
	})
})
