package oss_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// falconStyleDir writes a model folder whose tokenizer_config.json holds
// the Falcon3-style template of fixtures/chattemplate (written for the
// tests) and an AddedToken eos_token.
func falconStyleDir(dir string) string {
	src, err := os.ReadFile(filepath.Join(testenv.ModuleRoot(), "fixtures", "chattemplate", "templates", "falcon3_style.jinja"))
	Expect(err).NotTo(HaveOccurred())
	cfg, err := json.Marshal(map[string]any{"chat_template": string(src), "eos_token": map[string]any{"content": "<|endoftext|>"}})
	Expect(err).NotTo(HaveOccurred())
	Expect(os.MkdirAll(dir, 0o755)).To(Succeed())
	Expect(os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), cfg, 0o644)).To(Succeed())
	return dir
}

var _ = Describe("classes that render with the model's chat template", func() {
	fns := func() []pyval.Value {
		return []pyval.Value{mustPy(json.RawMessage(`{"name": "f", "description": "d <&>", "parameters": {"type": "dict", "properties": {"x": {"type": "float", "default": 1.0}}}}`))}
	}
	toolsJSON := "[\n  {\n    \"name\": \"f\",\n    \"description\": \"d <&>\",\n    \"parameters\": {\n      \"type\": \"dict\",\n      \"properties\": {\n        \"x\": {\n          \"type\": \"float\",\n          \"default\": 1.0\n        }\n      }\n    }\n  }\n]"
	preamble := "<|system|>\nYou can call functions. Each call goes in <tool_call></tool_call> tags as a JSON list of {\"name\": ..., \"arguments\": ...} objects.\n\n<tools>\n" + toolsJSON + "\n</tools>\n"

	It("knows which classes they are", func() {
		Expect(oss.UsesChatTemplate("Falcon3FCHandler")).To(BeTrue())
		Expect(oss.UsesChatTemplate("QuickTestingOSSHandler")).To(BeTrue())
		Expect(oss.UsesChatTemplate("QwenFCHandler")).To(BeFalse())
		Expect(oss.UsesChatTemplate("OpenAICompletionsHandler")).To(BeFalse())
	})

	It("Falcon3FCHandler: the question as it is, tools= the function documents, the generation prompt; results as tool messages", func() {
		dir := falconStyleDir(filepath.Join(GinkgoT().TempDir(), "falcon"))
		f, ok, err := oss.ForModel("Falcon3FCHandler", "tiiuae/Falcon3-7B-Instruct", dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(f.Extras()).To(Equal(oss.Extras{}), "OSSHandler: no stop_token_ids, no skip_special_tokens")
		functions := fns()
		turns, err := f.Setup("multi_turn_base_0", functions, [][]oss.Message{{oss.Text(oss.RoleUser, "Call f")}})
		Expect(err).NotTo(HaveOccurred())
		Expect(turns[0]).To(HaveLen(1), "no system prompt is added")
		p, err := f.Prompt(turns[0], functions)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(Equal(preamble + "<|user|>\nCall f\n<|assistant|>\n"))

		reply, err := f.ParseReply("<tool_call>[{\"name\": \"f\", \"arguments\": {\"x\": 2}}]</tool_call>")
		Expect(err).NotTo(HaveOccurred())
		msgs := append(turns[0], reply.History)
		msgs = append(msgs, f.ExecutionResults([]string{"4"}, []string{"f(x=2)"}, reply)...)
		p, err = f.Prompt(msgs, functions)
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(Equal(preamble + "<|user|>\nCall f\n<|assistant|>\n<tool_call>[{\"name\": \"f\", \"arguments\": {\"x\": 2}}]</tool_call><|endoftext|>\n" +
			"<|assistant|>\n<tool_response>\n4\n</tool_response>\n<|assistant|>\n"))
	})

	It("QuickTestingOSSHandler: BFCL's prompt-mode system prompt in the messages, no tools=", func() {
		dir := falconStyleDir(filepath.Join(GinkgoT().TempDir(), "quick"))
		f, _, err := oss.ForModel("QuickTestingOSSHandler", "some/model", dir)
		Expect(err).NotTo(HaveOccurred())
		turns, err := f.Setup("simple_python_0", fns(), [][]oss.Message{{oss.Text(oss.RoleUser, "Call f")}})
		Expect(err).NotTo(HaveOccurred())
		Expect(turns[0][0].Role).To(Equal(oss.RoleSystem))
		p, err := f.Prompt(turns[0], fns())
		Expect(err).NotTo(HaveOccurred())
		system, _ := turns[0][0].ContentText()
		Expect(p).To(Equal("<|system|>\n"+system+"\n<|user|>\nCall f\n<|assistant|>\n"), "the template's branch without tools")
	})

	It("finds the template in the Hugging Face cache as AutoTokenizer would", func() {
		cache := GinkgoT().TempDir()
		GinkgoT().Setenv("HF_HUB_CACHE", cache)
		repo := filepath.Join(cache, "models--tiiuae--Falcon3-7B-Instruct")
		falconStyleDir(filepath.Join(repo, "snapshots", "abc123"))
		Expect(os.MkdirAll(filepath.Join(repo, "refs"), 0o755)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(repo, "refs", "main"), []byte("abc123\n"), 0o644)).To(Succeed())
		f, _, err := oss.ForModel("Falcon3FCHandler", "tiiuae/Falcon3-7B-Instruct", "tiiuae/Falcon3-7B-Instruct")
		Expect(err).NotTo(HaveOccurred())
		p, err := f.Prompt([]oss.Message{oss.Text(oss.RoleUser, "hi")}, fns())
		Expect(err).NotTo(HaveOccurred())
		Expect(p).To(HaveSuffix("<|user|>\nhi\n<|assistant|>\n"))
	})

	It("says which model, where it looked and what to set when there is no template", func() {
		cache := GinkgoT().TempDir()
		GinkgoT().Setenv("HF_HUB_CACHE", cache)
		_, ok, err := oss.ForModel("Falcon3FCHandler", "tiiuae/Falcon3-7B-Instruct", "tiiuae/Falcon3-7B-Instruct")
		Expect(ok).To(BeTrue())
		Expect(errors.Is(err, oss.ErrNeedsChatTemplate)).To(BeTrue())
		for _, s := range []string{"Falcon3FCHandler", "tiiuae/Falcon3-7B-Instruct", filepath.Join(cache, "models--tiiuae--Falcon3-7B-Instruct"), "--local-model-path", "HF_HUB_CACHE"} {
			Expect(err.Error()).To(ContainSubstring(s))
		}

		empty := GinkgoT().TempDir()
		_, _, err = oss.ForModel("Falcon3FCHandler", "tiiuae/Falcon3-7B-Instruct", empty)
		Expect(errors.Is(err, oss.ErrNeedsChatTemplate)).To(BeTrue())
		Expect(err.Error()).To(ContainSubstring(filepath.Join(empty, "tokenizer_config.json")))

		Expect(os.WriteFile(filepath.Join(empty, "tokenizer_config.json"), []byte(`{"eos_token": "</s>"}`), 0o644)).To(Succeed())
		_, _, err = oss.ForModel("Falcon3FCHandler", "tiiuae/Falcon3-7B-Instruct", empty)
		Expect(err).To(MatchError(ContainSubstring("no chat_template")))
	})

	It("leaves every other class as ForClass makes it", func() {
		f, ok, err := oss.ForModel("QwenFCHandler", "Qwen/Qwen3-8B", "/nowhere")
		Expect(err).NotTo(HaveOccurred())
		Expect(ok).To(BeTrue())
		Expect(f.Class()).To(Equal("QwenFCHandler"))
		_, ok, err = oss.ForModel("OpenAICompletionsHandler", "gpt-4o", "")
		Expect(ok).To(BeFalse())
		Expect(err).NotTo(HaveOccurred())
	})
})
