package tinygguf_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/internal/testkit/tinygguf"
	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/template"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// readGGUFHeader parses what a GGUF reader needs first and returns the
// tensor names, their offsets and the data start.
func readGGUFHeader(b []byte) (version uint32, kvs map[string]any, names []string, offsets []uint64, dataStart int) {
	r := bytes.NewReader(b)
	var magic [4]byte
	Expect(binary.Read(r, binary.LittleEndian, &magic)).To(Succeed())
	Expect(string(magic[:])).To(Equal("GGUF"))
	var nT, nKV uint64
	Expect(binary.Read(r, binary.LittleEndian, &version)).To(Succeed())
	Expect(binary.Read(r, binary.LittleEndian, &nT)).To(Succeed())
	Expect(binary.Read(r, binary.LittleEndian, &nKV)).To(Succeed())
	str := func() string {
		var n uint64
		Expect(binary.Read(r, binary.LittleEndian, &n)).To(Succeed())
		s := make([]byte, n)
		_, err := r.Read(s)
		if n > 0 {
			Expect(err).NotTo(HaveOccurred())
		}
		return string(s)
	}
	var value func(t uint32) any
	value = func(t uint32) any {
		switch t {
		case 4, 5, 6:
			var v uint32
			Expect(binary.Read(r, binary.LittleEndian, &v)).To(Succeed())
			return v
		case 7:
			var v uint8
			Expect(binary.Read(r, binary.LittleEndian, &v)).To(Succeed())
			return v == 1
		case 8:
			return str()
		case 9:
			var et uint32
			var n uint64
			Expect(binary.Read(r, binary.LittleEndian, &et)).To(Succeed())
			Expect(binary.Read(r, binary.LittleEndian, &n)).To(Succeed())
			out := make([]any, n)
			for i := range out {
				out[i] = value(et)
			}
			return out
		}
		Fail("unexpected gguf type")
		return nil
	}
	kvs = map[string]any{}
	for i := uint64(0); i < nKV; i++ {
		k := str()
		var t uint32
		Expect(binary.Read(r, binary.LittleEndian, &t)).To(Succeed())
		kvs[k] = value(t)
	}
	for i := uint64(0); i < nT; i++ {
		names = append(names, str())
		var nd uint32
		Expect(binary.Read(r, binary.LittleEndian, &nd)).To(Succeed())
		for j := uint32(0); j < nd; j++ {
			var d uint64
			Expect(binary.Read(r, binary.LittleEndian, &d)).To(Succeed())
		}
		var typ uint32
		var off uint64
		Expect(binary.Read(r, binary.LittleEndian, &typ)).To(Succeed())
		Expect(typ).To(BeZero())
		Expect(binary.Read(r, binary.LittleEndian, &off)).To(Succeed())
		offsets = append(offsets, off)
	}
	pos := len(b) - r.Len()
	dataStart = (pos + 31) / 32 * 32
	return version, kvs, names, offsets, dataStart
}

var _ = Describe("tinygguf", func() {
	It("scripts every marker to its answer and every answer to the end of turn", func() {
		m, err := tinygguf.Build(tinygguf.DefaultScript())
		Expect(err).NotTo(HaveOccurred())
		eos := m.TokenID("<|im_end|>")
		Expect(eos).To(Equal(m.EOS))
		want := map[string]string{
			tinygguf.MarkerCall1: "<tool_call>\n{\"name\": \"cd\", \"arguments\": {\"folder\": \"document\"}}\n</tool_call>",
			tinygguf.MarkerCall2: "<tool_call>\n{\"name\": \"ls\", \"arguments\": {\"a\": true}}\n</tool_call>",
			tinygguf.MarkerAfter: tinygguf.DefaultAfterTool,
			tinygguf.MarkerText:  tinygguf.DefaultText,
		}
		for marker, answer := range want {
			id := m.TokenID(marker)
			Expect(id).To(BeNumerically(">=", 0), marker)
			next := m.NextToken(id)
			Expect(m.Tokens[next]).To(Equal(answer), marker)
			Expect(m.NextToken(next)).To(Equal(eos), "after the answer to "+marker)
		}
		for _, ordinary := range []int{0, 'a' - 33, m.BOS, m.TokenID("<|im_start|>"), eos} {
			Expect(m.NextToken(ordinary)).To(Equal(eos))
		}
	})

	It("writes a well-formed GGUF v3 with aligned tensor data", func() {
		var buf bytes.Buffer
		Expect(tinygguf.Write(&buf, tinygguf.DefaultScript())).To(Succeed())
		b := buf.Bytes()
		version, kvs, names, offsets, dataStart := readGGUFHeader(b)
		Expect(version).To(Equal(uint32(3)))
		Expect(kvs["general.architecture"]).To(Equal("llama"))
		Expect(kvs["tokenizer.ggml.model"]).To(Equal("gpt2"))
		tokens := kvs["tokenizer.ggml.tokens"].([]any)
		Expect(kvs["tokenizer.ggml.token_type"]).To(HaveLen(len(tokens)))
		Expect(kvs["tokenizer.ggml.merges"]).To(BeEmpty())
		Expect(tokens[kvs["tokenizer.ggml.eos_token_id"].(uint32)]).To(Equal("<|im_end|>"))
		Expect(names).To(ContainElements("token_embd.weight", "output.weight", "output_norm.weight", "blk.1.ffn_down.weight"))
		Expect(names).To(HaveLen(3 + 2*9))
		Expect(dataStart % 32).To(BeZero())
		for _, off := range offsets {
			Expect(off % 32).To(BeZero())
		}
		Expect(len(b)).To(BeNumerically(">", dataStart+int(offsets[len(offsets)-1])))
		Expect(len(b)).To(BeNumerically("<", 2<<20), "the model stays tiny")
	})

	It("rejects scripts it cannot encode", func() {
		s := tinygguf.DefaultScript()
		s.Call1 = []tinygguf.Call{{Name: "cd", Arguments: json.RawMessage(`[1]`)}}
		Expect(tinygguf.Write(&bytes.Buffer{}, s)).To(MatchError(ContainSubstring("not a JSON object")))
		s = tinygguf.DefaultScript()
		s.Text = ""
		Expect(tinygguf.Write(&bytes.Buffer{}, s)).To(MatchError(ContainSubstring("empty")))
	})

	Describe("the chat template, rendered by Ollama's own template package", func() {
		var tmpl *template.Template
		BeforeEach(func() {
			src, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "fixtures", "ollama", "template.gotmpl"))
			Expect(err).NotTo(HaveOccurred())
			tmpl, err = template.Parse(strings.TrimRight(string(src), "\r\n"))
			Expect(err).NotTo(HaveOccurred())
		})
		var tools api.Tools
		Expect(json.Unmarshal([]byte(`[{"type":"function","function":{"name":"cd","parameters":{"type":"object","properties":{"folder":{"type":"string"}}}}},{"type":"function","function":{"name":"ls","parameters":{"type":"object","properties":{"a":{"type":"boolean"}}}}}]`), &tools)).To(Succeed())
		args := api.NewToolCallFunctionArguments()
		args.Set("folder", "document")
		call := api.ToolCall{ID: "c1", Function: api.ToolCallFunction{Name: "cd", Arguments: args}}
		render := func(msgs []api.Message, tools api.Tools) string {
			var b strings.Builder
			Expect(tmpl.Execute(&b, template.Values{Messages: msgs, Tools: tools})).To(Succeed())
			return b.String()
		}
		DescribeTable("ends the prompt with the marker of the situation",
			func(msgs []api.Message, withTools bool, marker string) {
				var t api.Tools
				if withTools {
					t = tools
				}
				out := render(msgs, t)
				Expect(out).To(HaveSuffix(marker))
				for _, other := range []string{tinygguf.MarkerCall1, tinygguf.MarkerCall2, tinygguf.MarkerAfter, tinygguf.MarkerText} {
					if other != marker {
						Expect(out).NotTo(ContainSubstring(other))
					}
				}
			},
			Entry("first user turn with tools", []api.Message{{Role: "system", Content: "sys"}, {Role: "user", Content: "go to document"}}, true, tinygguf.MarkerCall1),
			Entry("tool result", []api.Message{{Role: "user", Content: "q"}, {Role: "assistant", ToolCalls: []api.ToolCall{call}}, {Role: "tool", Content: "ok", ToolName: "cd"}}, true, tinygguf.MarkerAfter),
			Entry("second user turn after a tool result", []api.Message{{Role: "user", Content: "q"}, {Role: "assistant", ToolCalls: []api.ToolCall{call}}, {Role: "tool", Content: "ok"}, {Role: "assistant", Content: "done"}, {Role: "user", Content: "now list"}}, true, tinygguf.MarkerCall2),
			Entry("no tools", []api.Message{{Role: "user", Content: "hi"}}, false, tinygguf.MarkerText),
		)
		It("renders a past tool call with the <tool_call> tag Ollama's parser looks for", func() {
			out := render([]api.Message{{Role: "user", Content: "q"}, {Role: "assistant", ToolCalls: []api.ToolCall{call}}, {Role: "tool", Content: "ok"}}, tools)
			Expect(out).To(ContainSubstring("<tool_call>\n{\"name\": \"cd\", \"arguments\": {\"folder\":\"document\"}}\n</tool_call>"))
		})
	})

	It("keeps the committed Modelfile in sync with the template", func() {
		root := testenv.ModuleRoot()
		src, err := os.ReadFile(filepath.Join(root, "fixtures", "ollama", "template.gotmpl"))
		Expect(err).NotTo(HaveOccurred())
		want, err := tinygguf.Modelfile("./tiny.gguf", string(src))
		Expect(err).NotTo(HaveOccurred())
		got, err := os.ReadFile(filepath.Join(root, "fixtures", "ollama", "Modelfile"))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got)).To(Equal(want), "regenerate: go run ./cmd/tinygguf -o /tmp/tiny.gguf -modelfile fixtures/ollama/Modelfile -from ./tiny.gguf -template fixtures/ollama/template.gotmpl")
	})
})
