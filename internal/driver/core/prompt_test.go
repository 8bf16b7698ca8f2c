package core_test

import (
	"encoding/json"

	"github.com/bfcl-go/bfcl/internal/driver/core"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("SystemPrompt", func() {
	It("reproduces upstream formulate_system_prompt byte for byte (all 96 formats, real function docs)", func() {
		n, formats := 0, map[string]bool{}
		readGoldenLines("prompt_golden.jsonl.gz", func(line []byte) {
			var c struct {
				Source    string            `json:"source"`
				Format    string            `json:"format"`
				Functions []json.RawMessage `json:"functions"`
				Prompt    string            `json:"prompt"`
			}
			Expect(json.Unmarshal(line, &c)).To(Succeed())
			got, err := core.SystemPrompt(c.Format, c.Functions)
			Expect(err).NotTo(HaveOccurred(), "%s %s", c.Source, c.Format)
			Expect(got).To(Equal(c.Prompt), "%s %s", c.Source, c.Format)
			n++
			formats[c.Format] = true
		})
		Expect(n).To(BeNumerically(">", 250))
		Expect(formats).To(HaveLen(96))
	})

	It("parses format strings and entry ids like upstream", func() {
		f, err := core.PromptFormatOfEntry("simple_python_58")
		Expect(err).NotTo(HaveOccurred())
		Expect(f).To(Equal(core.DefaultSystemPromptFormat))
		f, err = core.PromptFormatOfEntry("simple_python_58:ret_fmt=json&tool_call_tag=True&func_doc_fmt=xml&prompt_fmt=markdown&style=experimental:3")
		Expect(err).NotTo(HaveOccurred())
		pf, err := core.ParsePromptFormat(f)
		Expect(err).NotTo(HaveOccurred())
		Expect(pf).To(Equal(core.PromptFormat{ReturnFormat: "json", ToolCallTag: true, FuncDocFormat: "xml", PromptTemplate: "markdown", Style: "experimental"}))
		_, err = core.PromptFormatOfEntry("a:b")
		Expect(err).To(MatchError(ContainSubstring("exactly two colons")))
		_, err = core.ParsePromptFormat("ret_fmt=yaml")
		Expect(err).To(MatchError(ContainSubstring(`invalid system prompt format "ret_fmt=yaml"`)))
	})

	It("prepends to an existing system message or inserts one", func() {
		in := []core.Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "q"}}
		out := core.PrependSystemPrompt(in, "SP")
		Expect(out[0].Content).To(Equal("SP\n\nBe brief."))
		Expect(in[0].Content).To(Equal("Be brief."), "input untouched")
		out = core.PrependSystemPrompt([]core.Message{{Role: "user", Content: "q"}}, "SP")
		Expect(out).To(Equal([]core.Message{{Role: "system", Content: "SP"}, {Role: "user", Content: "q"}}))
	})
})
