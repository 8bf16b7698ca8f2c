package prompt_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
)

// The stored answers were printed by CPython 3.11 running the body of
// MiningHandler._parse_query_response_prompting (mining.py at the pin) on
// the same texts (json.dumps of model_responses).
var _ = Describe("MiningHandler's prompting methods (DMCitoHandler)", func() {
	DescribeTable("the stored answer", func(text, stored string) {
		got, err := prompt.MiningAnswer(text)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(stored))
	},
		Entry("the block's JSON, stripped of Python's whitespace (\\x1f, NBSP)",
			"<tool_calls>\n \x1f[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]\u00a0\n</tool_calls>", `[{"name": "f", "arguments": {"a": 1}}]`),
		Entry("the first block only", "<tool_calls>\n[1]\n</tool_calls> and <tool_calls>\n[2]\n</tool_calls>", `[1]`),
		Entry("a block that is not JSON: its stripped content", "<tool_calls>\nf(a=1)\n</tool_calls>", `"f(a=1)"`),
		Entry("tags without the newlines: the whole text", `<tool_calls>[{"name": "f"}]</tool_calls>`, `"<tool_calls>[{\"name\": \"f\"}]</tool_calls>"`),
		Entry("no block, JSON text: json.loads (last duplicate wins, big ints kept)",
			` {"a": 1, "a": 2, "b": 12345678901234567890123} `, `{"a": 2, "b": 12345678901234567890123}`),
		Entry("an answer: the text, ensure_ascii", "<answer>\nIch weiß\n</answer>", `"<answer>\nIch wei\u00df\n</answer>"`),
		Entry("floats keep their fraction", "<tool_calls>\n[{\"name\": \"café\", \"arguments\": {\"x\": 1.0}}]\n</tool_calls>",
			`[{"name": "caf\u00e9", "arguments": {"x": 1.0}}]`),
	)
	It("refuses a parsed NaN, which a result line cannot hold", func() {
		_, err := prompt.MiningAnswer("<tool_calls>\n[NaN]\n</tool_calls>")
		Expect(err).To(MatchError(ContainSubstring("NaN or Infinity")))
	})

	fn := json.RawMessage(`{"name": "f", "description": "Say \"hi\". Note that the provided function is in Python 3 syntax.", "parameters": {"type": "dict", "properties": {"n": {"type": "integer", "description": "N", "default": null}}, "required": []}}`)
	It("puts its own system prompt, with str() of the documents, first; other classes keep formulate_system_prompt", func() {
		msgs, err := prompt.FirstTurnOf("DMCitoHandler", "simple_python_0", []json.RawMessage{fn},
			[]dataset.Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "hi"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(msgs).To(HaveLen(2))
		Expect(msgs[0].Role).To(Equal(core.RoleSystem))
		Expect(msgs[0].Content).To(HavePrefix("You are a function calling AI model.  \nYou are provided with function signatures within <tools></tools> XML tags.  \n"))
		Expect(msgs[0].Content).To(ContainSubstring("<tools>  \n[{'name': 'f', 'description': 'Say \"hi\". Note that the provided function is in Python 3 syntax.', " +
			"'parameters': {'type': 'dict', 'properties': {'n': {'type': 'integer', 'description': 'N', 'default': None}}, 'required': []}}]  \n</tools>\nUse the following pydantic"))
		Expect(msgs[0].Content).To(HaveSuffix("</answer>\n\n\nBe brief."))
		Expect(msgs[1]).To(Equal(core.Message{Role: core.RoleUser, Content: "hi"}))

		mining, err := prompt.FirstTurnOf("MiningHandler", "simple_python_0", []json.RawMessage{fn}, []dataset.Message{{Role: "user", Content: "hi"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(mining).To(HaveLen(2))
		Expect(strings.HasPrefix(mining[0].Content, "You are a function calling AI model.")).To(BeTrue())

		base, err := prompt.FirstTurnOf("OpenAICompletionsHandler", "simple_python_0", []json.RawMessage{fn}, []dataset.Message{{Role: "user", Content: "hi"}})
		Expect(err).NotTo(HaveOccurred())
		want, err := prompt.FirstTurn("simple_python_0", []json.RawMessage{fn}, []dataset.Message{{Role: "user", Content: "hi"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(base).To(Equal(want))
	})
	It("names the entry when a document is not JSON or the turn is empty", func() {
		_, err := prompt.FirstTurnOf("DMCitoHandler", "simple_python_7", []json.RawMessage{json.RawMessage(`{"name":`)}, []dataset.Message{{Role: "user", Content: "hi"}})
		Expect(err).To(MatchError(And(ContainSubstring("simple_python_7"), ContainSubstring("function document 0"))))
		_, err = prompt.FirstTurnOf("DMCitoHandler", "simple_python_7", []json.RawMessage{fn}, nil)
		Expect(err).To(MatchError(ContainSubstring("simple_python_7")))
	})
})
