package decode_test

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// hcase is one stored result (the "result" field of a result line, as
// JSON) decoded by an upstream handler class in one mode. ast is the repr
// of what decode_ast returns, exec the decode_execute list; an expected
// failure is written "!Type: message" (or "!Type" when only the exception
// class is checked).
type hcase struct {
	class  string
	fc     bool
	result string
	ast    string
	exec   []string
	execEr string
}

func outcome(v pyval.Value, err error) string {
	if err != nil {
		return fmt.Sprintf("!%s: %s", err.(*pyval.Exception).Type, err.Error())
	}
	return pyval.Repr(v)
}

func str(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func checkHandler(c hcase) {
	mode := decode.ModePrompt
	if c.fc {
		mode = decode.ModeFC
	}
	opts := decode.Options{Spec: decode.Spec{Mode: mode, Handler: c.class}}
	got, err := decode.DecodeAST(json.RawMessage(c.result), opts)
	o := outcome(got, err)
	if len(c.ast) > 0 && c.ast[0] == '!' && !containsColon(c.ast) {
		Expect(o).To(HavePrefix(c.ast+": "), "decode_ast")
	} else {
		Expect(o).To(Equal(c.ast), "decode_ast")
	}
	calls, err := decode.DecodeExecute(json.RawMessage(c.result), opts)
	if c.execEr != "" {
		Expect(err).To(HaveOccurred(), "decode_execute gave %q", calls)
		Expect(outcome(nil, err)).To(Equal(c.execEr), "decode_execute")
		return
	}
	Expect(err).NotTo(HaveOccurred(), "decode_execute")
	if len(c.exec) == 0 {
		Expect(calls).To(BeEmpty(), "decode_execute")
		return
	}
	Expect(calls).To(Equal(c.exec), "decode_execute")
}

func containsColon(s string) bool {
	for _, r := range s {
		if r == ':' {
			return true
		}
	}
	return false
}

var _ = Describe("decoders of upstream's handler classes", func() {
	DescribeTable("default prompt decoder (OSSHandler, the API handlers in prompt mode, NvidiaHandler)", checkHandler,
		Entry("calls with a unary plus read as minus", hcase{class: "LlamaHandler", fc: true,
			result: str("[get_weather(city='Paris', unit=+5)]"),
			ast:    "[{'get_weather': {'city': 'Paris', 'unit': -5}}]",
			exec:   []string{"get_weather(city='Paris', unit=-5)"}}),
		Entry("positional arguments dropped, bare names as strings, arithmetic evaluated", hcase{class: "QwenHandler",
			result: str("f(1, x=abc, y=2*3)"),
			ast:    "[{'f': {'x': 'abc', 'y': 6}}]",
			exec:   []string{"f(x='abc', y=6)"}}),
		Entry("a dict argument whose values are all dicts is executed as a call", hcase{class: "ClaudeHandler",
			result: str("[f(a={'g': {'k': 1}}, b={})]"),
			ast:    "[{'f': {'a': {'g': {'k': 1}}, 'b': {}}}]",
			execEr: "!IndexError: list index out of range"}),
		Entry("a repeated keyword keeps its first place and its last value (ast.parse accepts it)", hcase{class: "OSSHandler",
			result: str("[f(a=1, b=2, a=3)]"),
			ast:    "[{'f': {'a': 3, 'b': 2}}]",
			exec:   []string{"f(a=3, b=2)"}}),
		Entry("NvidiaHandler decodes prompt text even when registered as FC", hcase{class: "NvidiaHandler", fc: true,
			result: str("[f(a=1)]"), ast: "[{'f': {'a': 1}}]", exec: []string{"f(a=1)"}}),
	)

	DescribeTable("FC with JSON-string arguments (OpenAICompletionsHandler and its kin)", checkHandler,
		Entry("calls", hcase{class: "OpenAIResponsesHandler", fc: true,
			result: `[{"get_weather": "{\"city\": \"Paris\", \"days\": 3}"}]`,
			ast:    "[{'get_weather': {'city': 'Paris', 'days': 3}}]",
			exec:   []string{"get_weather(city='Paris',days=3)"}}),
		Entry("arguments that are not JSON", hcase{class: "QwenAPIHandler", fc: true,
			result: `[{"f": "{bad"}]`,
			ast:    "!JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
			execEr: "!JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"}),
		Entry("text in FC mode", hcase{class: "MistralHandler", fc: true,
			result: str("no call"),
			ast:    "!AttributeError: 'str' object has no attribute 'keys'",
			execEr: "!AttributeError: 'str' object has no attribute 'items'"}),
	)

	DescribeTable("FC with already decoded arguments (Nova, Arch, MistralFC, PhiFC, Granite3FC, Gemini FC)", checkHandler,
		Entry("NovaHandler: the list as stored", hcase{class: "NovaHandler", fc: true,
			result: `[{"f": {"a": 1, "b": [true, null]}}]`,
			ast:    "[{'f': {'a': 1, 'b': [True, None]}}]",
			exec:   []string{"f(a=1,b=[True, None])"}}),
		Entry("NovaHandler: text", hcase{class: "NovaHandler", fc: true,
			result: str("I cannot help"),
			ast:    "!ValueError: Model did not return a list of function calls: I cannot help",
			execEr: "!ValueError: Model did not return a list of function calls: I cannot help"}),
		Entry("ArchHandler: a list holding a str", hcase{class: "ArchHandler", fc: true,
			result: `["x"]`,
			ast:    "!ValueError: Model did not return a list of function calls: ['x']",
			execEr: "!ValueError: Model did not return a list of function calls: ['x']"}),
		Entry("MistralFCHandler checks only for a list (prompt-registered Ministral)", hcase{class: "MistralFCHandler",
			result: `["x"]`,
			ast:    "['x']",
			execEr: "!AttributeError: 'str' object has no attribute 'items'"}),
		Entry("PhiFCHandler: JSON-string arguments are still loaded in execution", hcase{class: "PhiFCHandler", fc: true,
			result: `[{"f": "{\"a\": 1}"}]`,
			ast:    "[{'f': '{\"a\": 1}'}]",
			exec:   []string{"f(a=1)"}}),
		Entry("GeminiHandler FC: a single call is wrapped, its execution iterates the dict's keys", hcase{class: "GeminiHandler", fc: true,
			result: `{"f": {"a": 1}}`,
			ast:    "[{'f': {'a': 1}}]",
			execEr: "!AttributeError: 'str' object has no attribute 'items'"}),
		Entry("GeminiHandler FC: calls", hcase{class: "GeminiHandler", fc: true,
			result: `[{"f": {"a": "x"}}, {"g": {}}]`,
			ast:    "[{'f': {'a': 'x'}}, {'g': {}}]",
			exec:   []string{"f(a='x')", "g()"}}),
	)

	block := func(s string) string { return "<tool_call>\n" + s + "\n</tool_call>" }
	DescribeTable("<tool_call> blocks with JSON name/arguments (QwenFC, Granite4FC, NanbeigeFC, PelicanVLFC)", checkHandler,
		Entry("two blocks, one not JSON (skipped)", hcase{class: "QwenFCHandler", fc: true,
			result: str(block(`{"name": "spotify.play", "arguments": {"artist": "Taylor Swift", "duration": 20}}`) + "\n" + block("not json")),
			ast:    "[{'spotify.play': {'artist': 'Taylor Swift', 'duration': 20}}]",
			exec:   []string{"spotify.play(artist='Taylor Swift',duration=20)"}}),
		Entry("a block that is not an object", hcase{class: "Granite4FCHandler", fc: true,
			result: str(block("[1]")),
			ast:    "!ValueError: Model did not return a list of function calls: <tool_call>\n[1]\n</tool_call>",
			execEr: "!ValueError: Model did not return a list of function calls: <tool_call>\n[1]\n</tool_call>"}),
		Entry("arguments as a JSON string: AST fails, execution loads them", hcase{class: "NanbeigeFCHandler", fc: true,
			result: str(block(`{"name": "f", "arguments": "{\"a\": 1}"}`)),
			ast:    "!AttributeError: 'str' object has no attribute 'items'",
			exec:   []string{"f(a=1)"}}),
		Entry("missing arguments", hcase{class: "PelicanVLFCHandler", fc: true,
			result: str(block(`{"name": "f"}`)),
			ast:    "!KeyError: 'arguments'",
			execEr: "!KeyError: 'arguments'"}),
		Entry("a block without its newlines is not a block", hcase{class: "QwenFCHandler", fc: true,
			result: str(`<tool_call>{"name": "f", "arguments": {}}</tool_call>`),
			ast:    "[]", exec: []string{}}),
	)

	DescribeTable("xLAM-style JSON (SalesforceQwen, SalesforceLlama, BitAgent)", checkHandler,
		Entry("a JSON list", hcase{class: "SalesforceQwenHandler", fc: true,
			result: str(`[{"name": "f", "arguments": {"a": 1, "b": "x"}}]`),
			ast:    "[{'f': {'a': 1, 'b': 'x'}}]",
			exec:   []string{"f(a=1,b='x')"}}),
		Entry("one object", hcase{class: "SalesforceLlamaHandler", fc: true,
			result: str(`{"name": "f", "arguments": {}}`),
			ast:    "[{'f': {}}]", exec: []string{"f()"}}),
		Entry("semicolon-separated objects", hcase{class: "SalesforceQwenHandler", fc: true,
			result: str(`{"name": "f", "arguments": {}}; {"name": "g", "arguments": {"b": "x"}}`),
			ast:    "[{'f': {}}, {'g': {'b': 'x'}}]",
			exec:   []string{"f()", "g(b='x')"}}),
		Entry("BitAgentHandler has no semicolon fallback", hcase{class: "BitAgentHandler", fc: true,
			result: str(`{"name": "f", "arguments": {}}; {"name": "g", "arguments": {"b": "x"}}`),
			ast:    "!JSONDecodeError: Extra data: line 1 column 31 (char 30)",
			execEr: "!JSONDecodeError: Extra data: line 1 column 31 (char 30)"}),
	)

	DescribeTable("GeminiHandler prompt mode: ```tool_code fences", checkHandler,
		Entry("a fenced call", hcase{class: "GeminiHandler",
			result: str("```tool_code\n[f(a=1), g(b='x')]\n```"),
			ast:    "[{'f': {'a': 1}}, {'g': {'b': 'x'}}]",
			exec:   []string{"f(a=1)", "g(b='x')"}}),
		Entry("stored calls in prompt mode", hcase{class: "GeminiHandler",
			result: `[{"f": {}}]`,
			ast:    "!AttributeError: 'list' object has no attribute 'replace'",
			execEr: "!AttributeError: 'list' object has no attribute 'replace'"}),
	)

	DescribeTable("HammerHandler JSON", checkHandler,
		Entry("fenced list", hcase{class: "HammerHandler", fc: true,
			result: str("```\n[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]\n```"),
			ast:    "[{'f': {'a': 1}}]", exec: []string{"f(a=1)"}}),
		Entry("not JSON: no calls", hcase{class: "HammerHandler", fc: true,
			result: str("I cannot"), ast: "[]", exec: []string{}}),
		Entry("an object with tool_calls: AST iterates its keys, execution reads them", hcase{class: "HammerHandler", fc: true,
			result: str(`{"tool_calls": [{"name": "f", "arguments": {"a": 1}}, "x"]}`),
			ast:    "!TypeError: string indices must be integers, not 'str'",
			exec:   []string{"f(a=1)"}}),
		Entry("execution defaults a missing name and arguments", hcase{class: "HammerHandler", fc: true,
			result: str(`[{"arguments": {"a": [1]}}, {"name": "g"}]`),
			ast:    "!KeyError: 'name'",
			exec:   []string{"(a=[1])", "g()"}}),
	)

	DescribeTable("Falcon3FCHandler: the first <tool_call> block", checkHandler,
		Entry("a fenced JSON list", hcase{class: "Falcon3FCHandler", fc: true,
			result: str("<tool_call>\n```json\n[{\"name\": \"f\", \"arguments\": {\"a\": 1}}]\n```\n</tool_call><tool_call>{}</tool_call>"),
			ast:    "[{'f': {'a': 1}}]", exec: []string{"f(a=1)"}}),
		Entry("no block", hcase{class: "Falcon3FCHandler", fc: true,
			result: str("hello"),
			ast:    "!ValueError: No <tool_call> found in the model's response: hello",
			execEr: "!ValueError: No <tool_call> found in the model's response: hello"}),
		Entry("a block that is not JSON", hcase{class: "Falcon3FCHandler", fc: true,
			result: str("<tool_call>oops</tool_call>"),
			ast:    "!ValueError: Failed to decode the model's response: <tool_call>oops</tool_call>",
			execEr: "!ValueError: Failed to decode the model's response: <tool_call>oops</tool_call>"}),
		Entry("a list of strings is not caught", hcase{class: "Falcon3FCHandler", fc: true,
			result: str(`<tool_call>["f"]</tool_call>`),
			ast:    "!TypeError: string indices must be integers, not 'str'",
			execEr: "!TypeError: string indices must be integers, not 'str'"}),
	)

	DescribeTable("CohereHandler tool_name/parameters", checkHandler,
		Entry("calls", hcase{class: "CohereHandler", fc: true,
			result: `[{"tool_name": "f", "parameters": {"a": [1, 2]}}]`,
			ast:    "[{'f': {'a': [1, 2]}}]", exec: []string{"f(a=[1, 2])"}}),
		Entry("text: no calls", hcase{class: "CohereHandler", fc: true,
			result: str("hi"), ast: "[]", exec: []string{}}),
		Entry("execution reads parameters first", hcase{class: "CohereHandler", fc: true,
			result: `[{"parameters": {}}]`,
			ast:    "!KeyError: 'tool_name'", execEr: "!KeyError: 'tool_name'"}),
	)

	DescribeTable("MiningHandler / DMCitoHandler name/arguments lists", checkHandler,
		Entry("calls", hcase{class: "DMCitoHandler",
			result: `[{"name": "f", "arguments": {"a": "x", "b": 2}}]`,
			ast:    "[{'f': {'a': 'x', 'b': 2}}]", exec: []string{"f(a='x', b=2)"}}),
		Entry("execution skips non-dicts and defaults the name", hcase{class: "MiningHandler", fc: true,
			result: `["x", {"arguments": {}}]`,
			ast:    "!TypeError: string indices must be integers, not 'str'", exec: []string{"()"}}),
	)

	DescribeTable("LlamaHandler_3_1 JSON with parameters", checkHandler,
		Entry("python tag and semicolons", hcase{class: "LlamaHandler_3_1", fc: true,
			result: str("<|python_tag|>{\"name\": \"f\", \"parameters\": {\"n\": \"10\"}}; {\"name\": \"g\", \"parameters\": {}}"),
			ast:    "[{'f': {'n': '10'}}, {'g': {}}]", exec: []string{"f(n='10')", "g()"}}),
		Entry("one object through eval", hcase{class: "LlamaHandler_3_1", fc: true,
			result: str(`{"name": "f", "parameters": {"k": 1}}`),
			ast:    "[{'f': {'k': 1}}]", exec: []string{"f(k=1)"}}),
		Entry("JSON true is a Python NameError under eval", hcase{class: "LlamaHandler_3_1", fc: true,
			result: str(`[{"name": "f", "parameters": {"ok": true}}]`),
			ast:    "!NameError: name 'true' is not defined", execEr: "!NameError: name 'true' is not defined"}),
	)

	DescribeTable("PhiHandler fences", checkHandler,
		Entry("```python fence", hcase{class: "PhiHandler",
			result: str("```python\n[f(a=1)]\n```"),
			ast:    "[{'f': {'a': 1}}]", exec: []string{"f(a=1)"}}),
		Entry("decode_execute does not strip before removing the fence", hcase{class: "PhiHandler",
			result: str(" ```python\n[f(a=1)]"),
			ast:    "[{'f': {'a': 1}}]", execEr: "!SyntaxError: '[' was never closed (<unknown>, line 1)"}),
	)

	DescribeTable("NemotronHandler <TOOLCALL>", checkHandler,
		Entry("calls in the tag", hcase{class: "NemotronHandler", fc: true,
			result: str("<TOOLCALL>[f(a=1)]</TOOLCALL>"),
			ast:    "[{'f': {'a': 1}}]", exec: []string{"f(a=1)"}}),
		Entry("no tag: no calls", hcase{class: "NemotronHandler", fc: true,
			result: str("hello"), ast: "[]", exec: []string{}}),
	)

	DescribeTable("the single-model handlers", checkHandler,
		Entry("GorillaHandler: decode_execute always raises", hcase{class: "GorillaHandler", fc: true,
			result: str("f(a=1)"),
			ast:    "[{'f': {'a': 1}}]", execEr: "!NotImplementedError: Unsupported language: False"}),
		Entry("FunctionGemmaHandler", hcase{class: "FunctionGemmaHandler", fc: true,
			result: str("<start_function_call>call:get_weather{city:<escape>Paris, FR<escape>,days:3,metric:true,ids:[1,2.5,x]}<end_function_call>" +
				"<start_function_call>call:ping<end_function_call><start_function_call>other<end_function_call>"),
			ast:  "[{'get_weather': {'city': 'Paris, FR', 'days': 3, 'metric': True, 'ids': [1, 2.5, 'x']}}, {'ping': {}}]",
			exec: []string{"get_weather(city='Paris, FR', days=3, metric=True, ids=[1, 2.5, 'x'])", "ping()"}}),
		Entry("GraniteFunctionCallingHandler", hcase{class: "GraniteFunctionCallingHandler", fc: true,
			result: str(`<function_call> {"name": "f", "arguments": {"a": 1}} <function_call> {"name": "no_function", "arguments": {}} <function_call> oops`),
			ast:    "[{'f': {'a': 1}}, 'No function is called', 'oops']",
			exec:   []string{"f(a=1)", "No function is called", "oops"}}),
		Entry("GLMHandler: name line and arguments line", hcase{class: "GLMHandler", fc: true,
			result: str("f\n{\"a\": 1}"),
			ast:    "[{'f': {'a': 1}}]", exec: []string{"f(a=1)"}}),
		Entry("GLMHandler: one line", hcase{class: "GLMHandler", fc: true,
			result: str("hello"),
			ast:    "['hello']", execEr: "!AttributeError: 'str' object has no attribute 'items'"}),
		Entry("MiniCPMFCHandler: thought, fenced calls, content", hcase{class: "MiniCPMFCHandler", fc: true,
			result: str("<|thought_start|>\nthink\n<|thought_end|>\n<|tool_call_start|>\n```python\nf(a=1)\ng(b='x', c=[1, 2]); h()\n```\n<|tool_call_end|>\nDone"),
			ast:    "[{'f': {'a': 1}}, {'g': {'b': 'x', 'c': [1, 2]}}, {'h': {}}]",
			exec:   []string{"f(a=1)", "g(b='x', c=[1, 2])", "h()"}}),
		Entry("MiniCPMFCHandler: lstrip('python') eats the start of the name", hcase{class: "MiniCPMFCHandler", fc: true,
			result: str("<|tool_call_start|>```pythonnot_here(x=1)```<|tool_call_end|>"),
			ast:    "[{'_here': {'x': 1}}]", exec: []string{"_here(x=1)"}}),
		Entry("MiniCPMFCHandler: no calls decode to the content", hcase{class: "MiniCPMFCHandler", fc: true,
			result: str("  Hello "), ast: "'Hello'", exec: []string{}}),
		Entry("MiniCPMFCHandler: an unreadable block is no calls", hcase{class: "MiniCPMFCHandler", fc: true,
			result: str("<|tool_call_start|>\nf(a=1)\n  g()\n<|tool_call_end|>rest"), ast: "'rest'", exec: []string{}}),
		Entry("ThinkAgentHandler: decode_execute raises for any call", hcase{class: "ThinkAgentHandler", fc: true,
			result: str("<think>hmm</think>\n[{'name': 'f', 'arguments': {'a': 'x'}}]"),
			ast:    "[{'f': {'a': 'x'}}]", execEr: "!AttributeError: 'str' object has no attribute 'items'"}),
		Entry("ThinkAgentHandler: no </think> is no calls", hcase{class: "ThinkAgentHandler", fc: true,
			result: str("[{'name': 'f', 'arguments': {}}]"), ast: "[]", exec: []string{}}),
	)

	It("refuses an unknown handler class, naming the known ones", func() {
		_, err := decode.DecodeAST(json.RawMessage(`"f()"`), decode.Options{Spec: decode.Spec{Handler: "NoSuchHandler"}})
		Expect(err).To(MatchError(And(ContainSubstring(`"NoSuchHandler"`), ContainSubstring("QwenFCHandler"))))
		Expect(decode.CheckHandler("")).To(Succeed())
	})

	It("keeps the default decoders when no handler is given", func() {
		r := json.RawMessage(`[{"f": "{\"a\": 1}"}]`)
		a, err := decode.DecodeAST(r, decode.Options{Spec: decode.Spec{Mode: decode.ModeFC}})
		Expect(err).NotTo(HaveOccurred())
		b, err := decode.DecodeAST(r, decode.Options{Spec: decode.Spec{Mode: decode.ModeFC, Handler: "OpenAICompletionsHandler"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(pyval.Repr(a)).To(Equal(pyval.Repr(b)))
	})
})
