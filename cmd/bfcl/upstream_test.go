package main

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/scores/evaluate"
)

func evaluateFlags(env map[string]string, args ...string) (*config.Flags, error) {
	fs, f := newVerb("evaluate")
	f.Getenv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	return f, fs.Parse(args)
}

var _ = Describe("evaluate's --handler and --alias settings", func() {
	It("set the handler and the aliases, from flags or the environment", func() {
		f, err := evaluateFlags(map[string]string{"BFCL_UPSTREAM_ALIASES": "a_b=Qwen/Qwen3-8B-FC", "BFCL_HANDLER": "GeminiHandler"},
			"--handler", "HammerHandler")
		Expect(err).NotTo(HaveOccurred())
		var o evaluate.Options
		Expect(applyUpstream(f, &o)).To(Succeed())
		Expect(o.Handler).To(Equal("HammerHandler"))
		Expect(o.Aliases).To(Equal(map[string]string{"a_b": "Qwen/Qwen3-8B-FC"}))

		f, err = evaluateFlags(nil, "--alias", "c=gpt-4o-2024-11-20-FC,openai/gpt-oss-120b=openbmb/MiniCPM-SALA-FC")
		Expect(err).NotTo(HaveOccurred())
		o = evaluate.Options{}
		Expect(applyUpstream(f, &o)).To(Succeed())
		Expect(o.Handler).To(BeEmpty())
		Expect(o.Aliases).To(Equal(map[string]string{"c": "gpt-4o-2024-11-20-FC", "openai_gpt-oss-120b": "openbmb/MiniCPM-SALA-FC"}))
	})

	It("reject an unknown handler class and an unknown registry name, naming where they came from", func() {
		f, err := evaluateFlags(map[string]string{"BFCL_HANDLER": "Nope"})
		Expect(err).NotTo(HaveOccurred())
		Expect(applyUpstream(f, &evaluate.Options{})).To(MatchError(And(ContainSubstring("BFCL_HANDLER"), ContainSubstring(`unknown upstream handler class "Nope"`))))
		f, err = evaluateFlags(nil, "--alias", "x=no/such")
		Expect(err).NotTo(HaveOccurred())
		Expect(applyUpstream(f, &evaluate.Options{})).To(MatchError(ContainSubstring(`"no/such" is not a model of upstream's registry`)))
	})
})
