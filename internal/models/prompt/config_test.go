package prompt_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
)

var _ = Describe("Config", func() {
	It("parses every format-sensitivity configuration and prints it back", func() {
		strs := category.FormatSensitivityConfigs()
		Expect(strs).To(HaveLen(26))
		all := prompt.AllConfigs()
		Expect(all).To(HaveLen(26))
		for i, s := range strs {
			c, err := prompt.ParseConfig(s)
			Expect(err).NotTo(HaveOccurred())
			Expect(c.String()).To(Equal(s))
			Expect(all[i]).To(Equal(c))
		}
		Expect(all[0]).To(Equal(prompt.Config{ReturnFormat: "python", ToolCallTag: true, FuncDocFormat: "python", PromptFormat: "plaintext", Style: "classic"}))
		Expect(all[25]).To(Equal(prompt.Config{ReturnFormat: "python", FuncDocFormat: "json", PromptFormat: "plaintext", Style: "experimental"}))
	})

	It("has the upstream default", func() {
		Expect(prompt.Default().String()).To(Equal(prompt.DefaultConfigString))
		c, err := prompt.ParseConfig(prompt.DefaultConfigString)
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(prompt.Default()))
	})

	DescribeTable("rejects what upstream's pattern rejects",
		func(s string) {
			_, err := prompt.ParseConfig(s)
			Expect(err).To(MatchError(ContainSubstring("invalid prompt configuration")))
		},
		Entry("empty", ""),
		Entry("wrong order", "tool_call_tag=False&ret_fmt=python&func_doc_fmt=json&prompt_fmt=plaintext&style=classic"),
		Entry("lower-case bool", "ret_fmt=python&tool_call_tag=false&func_doc_fmt=json&prompt_fmt=plaintext&style=classic"),
		Entry("unknown return format", "ret_fmt=yaml&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic"),
		Entry("xml doc is not a return format", "ret_fmt=xml&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic"),
		Entry("trailing text", prompt.DefaultConfigString+"&x=1"),
		Entry("trailing newline", prompt.DefaultConfigString+"\n"),
	)

	It("reads the configuration from entry ids as extract_prompt_format_from_id does", func() {
		s, err := prompt.ConfigStringOfEntry("simple_python_3")
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(Equal(prompt.DefaultConfigString))
		id := "format_sensitivity_7:ret_fmt=json&tool_call_tag=False&func_doc_fmt=python&prompt_fmt=plaintext&style=classic:live_simple_23-5-1"
		c, err := prompt.ConfigOfEntry(id)
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(prompt.Config{ReturnFormat: "json", FuncDocFormat: "python", PromptFormat: "plaintext", Style: "classic"}))
		_, err = prompt.ConfigOfEntry("a:b")
		Expect(err).To(MatchError(ContainSubstring("exactly two colons")))
		_, err = prompt.ConfigOfEntry("a:b:c")
		Expect(err).To(MatchError(ContainSubstring("invalid prompt configuration")))

		i, cfg, src, err := prompt.SplitFormatSensitivityID(id)
		Expect(err).NotTo(HaveOccurred())
		Expect(i).To(Equal(7))
		Expect(cfg).To(Equal(c))
		Expect(src).To(Equal("live_simple_23-5-1"))
		Expect(prompt.FormatSensitivityID(i, cfg, src)).To(Equal(id))
		_, _, _, err = prompt.SplitFormatSensitivityID("simple_python_3")
		Expect(err).To(HaveOccurred())
		_, _, _, err = prompt.SplitFormatSensitivityID("format_sensitivity_x:" + prompt.DefaultConfigString + ":a_1")
		Expect(err).To(HaveOccurred())
	})

	It("makes ids whose category is format_sensitivity", func() {
		id := prompt.FormatSensitivityID(12, prompt.AllConfigs()[3], "simple_python_58")
		c, err := category.FromEntryID(id)
		Expect(err).NotTo(HaveOccurred())
		Expect(c).To(Equal(category.FormatSensitivity))
	})
})
