package upstream_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// EnvUpdate rewrites registry.tsv from the upstream checkout when set.
const EnvUpdate = "BFCL_UPDATE_UPSTREAM_REGISTRY"

var _ = Describe("upstream's model registry table", func() {
	It("holds the 175 models of the pin: 103 FC, 72 prompt, 55 with underscore_to_dot", func() {
		all := upstream.All()
		fc, u2d := 0, 0
		for _, e := range all {
			if e.IsFC {
				fc++
			}
			if e.UnderscoreToDot {
				u2d++
			}
		}
		Expect(all).To(HaveLen(175))
		Expect(fc).To(Equal(103))
		Expect(len(all) - fc).To(Equal(72))
		Expect(u2d).To(Equal(55))
	})

	It("gives every model a decoding family, in the numbers upstream's handlers use them", func() {
		Expect(upstream.FamilyCounts(upstream.All())).To(Equal(map[string]int{
			decode.FamilyPrompt: 68, decode.FamilyFCJSON: 45, decode.FamilyFCDict: 15, decode.FamilyToolCall: 12,
			decode.FamilyXLAM: 6, decode.FamilyGeminiTool: 4, decode.FamilyHammer: 4, decode.FamilyFalcon: 4,
			decode.FamilyCohere: 3, decode.FamilyNameArgs: 3, decode.FamilyLlama31: 2, decode.FamilyPhiPrompt: 2,
			decode.FamilyNemotron: 1, decode.FamilyGorilla: 1, decode.FamilyFuncGemma: 1, decode.FamilyGraniteFC: 1,
			decode.FamilyGLM: 1, decode.FamilyMiniCPMFC: 1, decode.FamilyThinkAgent: 1,
		}))
	})

	It("agrees with the decode package on every family and note", func() {
		all := upstream.All()
		again := append([]upstream.Entry(nil), all...)
		upstream.Annotate(again)
		Expect(again).To(Equal(all))
	})

	It("looks entries up by name and by result folder", func() {
		e, ok := upstream.Lookup("Qwen/Qwen3-8B-FC")
		Expect(ok).To(BeTrue())
		Expect(e.Handler).To(Equal("QwenFCHandler"))
		Expect(e.IsFC).To(BeTrue())
		Expect(e.Family).To(Equal(decode.FamilyToolCall))
		Expect(e.Folder()).To(Equal("Qwen_Qwen3-8B-FC"))
		f, ok := upstream.ByFolder("Qwen_Qwen3-8B-FC")
		Expect(ok).To(BeTrue())
		Expect(f).To(Equal(e))
		_, ok = upstream.ByFolder("openai_gpt-oss-120b")
		Expect(ok).To(BeFalse())

		g, ok := upstream.Lookup("gpt-4o-2024-11-20-FC")
		Expect(ok).To(BeTrue())
		Expect(g.Handler).To(Equal("OpenAIResponsesHandler"))
		Expect(g.UnderscoreToDot).To(BeTrue())
		Expect(g.InputPrice).NotTo(BeNil())
		Expect(*g.InputPrice).To(Equal(2.5))
		Expect(*g.OutputPrice).To(Equal(10.0))
	})

	It("notes where upstream's own handler is broken", func() {
		e, ok := upstream.Lookup("qwen3-4b-nothink-FC")
		Expect(ok).To(BeTrue())
		Expect(e.Handler).To(Equal("QwenAgentNoThinkHandler"))
		Expect(e.Note).To(ContainSubstring("cannot construct"))
		h, _ := decode.LookupHandler(e.Handler)
		Expect(h.Unconstructible).To(BeTrue())
		g, _ := upstream.Lookup("gorilla-openfunctions-v2")
		Expect(g.Note).To(ContainSubstring("Unsupported language: False"))
	})

	It("round-trips through its TSV form", func() {
		all := upstream.All()
		back, err := upstream.ParseTSV(upstream.FormatTSV(all))
		Expect(err).NotTo(HaveOccurred())
		Expect(back).To(Equal(all))
	})

	It("rejects a model_config.py of another shape with the line", func() {
		_, err := upstream.ParseModelConfig("api_inference_model_map = {\n    \"m\": Other(\n    ),\n}\n")
		Expect(err).To(MatchError(ContainSubstring("model_config.py:2")))
		_, err = upstream.ParseModelConfig("x_model_map = {\n}\n")
		Expect(err).To(MatchError(ContainSubstring("no MODEL_CONFIG_MAPPING")))
	})

	It("is what model_config.py at the pinned commit says (drift check)", func() {
		repo, ok := testenv.UpstreamRepo()
		if !ok {
			Skip(testenv.MissingMessage("upstream repository (development-time drift check of registry.tsv)", repo, "BFCL_UPSTREAM_REPO"))
		}
		out, err := exec.Command("git", "-C", repo, "show", upstream.Commit+":"+upstream.ConfigPath).Output()
		Expect(err).NotTo(HaveOccurred(), "git show %s:%s in %s", upstream.Commit, upstream.ConfigPath, repo)
		derived, err := upstream.ParseModelConfig(string(out))
		Expect(err).NotTo(HaveOccurred())
		upstream.Annotate(derived)
		if os.Getenv(EnvUpdate) != "" {
			p := filepath.Join(testenv.ModuleRoot(), "internal", "upstream", "registry.tsv")
			Expect(os.WriteFile(p, []byte(upstream.FormatTSV(derived)), 0o644)).To(Succeed())
			Skip("rewrote " + p + " from upstream; rerun without " + EnvUpdate)
		}
		Expect(upstream.FormatTSV(upstream.All())).To(Equal(upstream.FormatTSV(derived)),
			"registry.tsv drifted from model_config.py; regenerate with %s=1 go test ./internal/models/upstream/", EnvUpdate)
	})
})

var _ = Describe("folder aliases", func() {
	It("map folders (\"/\" written \"_\") to registry names", func() {
		m, err := upstream.ParseAliases("openai/gpt-oss-120b=openbmb/MiniCPM-SALA-FC, x=Qwen/Qwen3-8B-FC", "x=Qwen/Qwen3-8B-FC")
		Expect(err).NotTo(HaveOccurred())
		Expect(m).To(Equal(map[string]string{"openai_gpt-oss-120b": "openbmb/MiniCPM-SALA-FC", "x": "Qwen/Qwen3-8B-FC"}))
	})
	It("reject malformed specs, unknown names and conflicting folders", func() {
		_, err := upstream.ParseAliases("just-a-folder")
		Expect(err).To(MatchError(ContainSubstring("want folder=registry-name")))
		_, err = upstream.ParseAliases("f=no/such")
		Expect(err).To(MatchError(ContainSubstring("not a model of upstream's registry")))
		_, err = upstream.ParseAliases("f=Qwen/Qwen3-8B-FC", "f=gpt-4o-2024-11-20-FC")
		Expect(err).To(MatchError(ContainSubstring("already aliased")))
	})
	It("print as the models --upstream table", func() {
		var b strings.Builder
		Expect(upstream.WriteTable(&b, upstream.All())).To(Succeed())
		Expect(b.String()).To(ContainSubstring("Qwen/Qwen3-8B-FC"))
		Expect(b.String()).To(ContainSubstring("175 models of upstream's registry"))
		Expect(strings.Count(b.String(), "\n")).To(Equal(1 + 175 + 2 + 4))
	})
})
