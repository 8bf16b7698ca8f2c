package main

import (
	"flag"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/evaluate"
	"github.com/bfcl-go/bfcl/internal/upstream"
)

var _ = Describe("evaluate's --handler and --alias flags", func() {
	It("set the handler and the aliases, with $BFCL_UPSTREAM_ALIASES", func() {
		GinkgoT().Setenv(upstream.EnvAliases, "a_b=Qwen/Qwen3-8B-FC")
		fs := flag.NewFlagSet("evaluate", flag.ContinueOnError)
		apply := upstreamEvaluateFlags(fs)
		Expect(fs.Parse([]string{"--handler", "HammerHandler", "--alias", "c=gpt-4o-2024-11-20-FC,d=Qwen/Qwen3-8B-FC"})).To(Succeed())
		var o evaluate.Options
		Expect(apply(&o)).To(Succeed())
		Expect(o.Handler).To(Equal("HammerHandler"))
		Expect(o.Aliases).To(Equal(map[string]string{"a_b": "Qwen/Qwen3-8B-FC", "c": "gpt-4o-2024-11-20-FC", "d": "Qwen/Qwen3-8B-FC"}))
	})

	It("reject an unknown handler class and an unknown registry name", func() {
		fs := flag.NewFlagSet("evaluate", flag.ContinueOnError)
		apply := upstreamEvaluateFlags(fs)
		Expect(fs.Parse([]string{"--handler", "Nope"})).To(Succeed())
		Expect(apply(&evaluate.Options{})).To(MatchError(ContainSubstring(`unknown upstream handler class "Nope"`)))
		fs = flag.NewFlagSet("evaluate", flag.ContinueOnError)
		apply = upstreamEvaluateFlags(fs)
		Expect(fs.Parse([]string{"--alias", "x=no/such"})).To(Succeed())
		Expect(apply(&evaluate.Options{})).To(MatchError(ContainSubstring(`"no/such" is not a model of upstream's registry`)))
	})
})
