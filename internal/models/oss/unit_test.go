package oss_test

import (
	"encoding/json"
	"errors"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

var _ = Describe("request", func() {
	It("computes max_tokens as OSSHandler._query_prompting does", func() {
		Expect(oss.MaxTokens(100, 32768)).To(Equal(4096))
		Expect(oss.MaxTokens(30000, 32768)).To(Equal(32768 - 30000 - 2))
		Expect(oss.MaxTokens(32766, 32768)).To(Equal(0))
		Expect(oss.MaxTokens(32767, 32768)).To(Equal(1000), "prompt leaves less than 2 tokens")
		Expect(oss.MaxTokens(40000, 32768)).To(Equal(1000))
	})

	It("writes the body with the class's extra fields only", func() {
		glm, err := oss.ForRegistry("THUDM/glm-4-9b-chat")
		Expect(err).NotTo(HaveOccurred())
		b, err := json.Marshal(oss.NewRequest(glm, "p", 1, 8192, oss.DefaultTemperature))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(`{"model":"THUDM/glm-4-9b-chat","prompt":"p","temperature":0.001,"max_tokens":4096,"stop_token_ids":[151329,151336,151338]}`))

		cpm, ok := oss.ForClass("MiniCPMFCHandler", "openbmb/MiniCPM3-4B")
		Expect(ok).To(BeTrue())
		b, err = json.Marshal(oss.NewRequest(cpm, "p", 1, 8192, 0.7))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(`{"model":"openbmb/MiniCPM3-4B","prompt":"p","temperature":0.7,"max_tokens":4096,"stop_token_ids":[2,73440],"skip_special_tokens":false}`))

		qwen, err := oss.ForRegistry("Qwen/Qwen3-8B-FC")
		Expect(err).NotTo(HaveOccurred())
		b, err = json.Marshal(oss.NewRequest(qwen, "p", 1, 8192, oss.DefaultTemperature))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(`{"model":"Qwen/Qwen3-8B","prompt":"p","temperature":0.001,"max_tokens":4096}`))
	})
})

var _ = Describe("registry", func() {
	It("has a Format for every local-inference model of upstream's registry (served model id as upstream derives it)", func() {
		n := 0
		for _, e := range upstream.All() {
			if e.Map != "local_inference" || e.Handler == "OpenAICompletionsHandler" {
				// openbmb/MiniCPM-SALA-FC is served through the hosted
				// OpenAI-compatible chat handler, not a completions class.
				continue
			}
			f, err := oss.ForRegistry(e.Name)
			Expect(err).NotTo(HaveOccurred(), e.Name)
			Expect(f.Class()).To(Equal(e.Handler))
			want := e.ModelName
			switch e.Handler {
			case "LlamaHandler", "LlamaHandler_3_1", "Granite3FCHandler", "PelicanVLFCHandler":
				want = strings.ReplaceAll(want, "-FC", "")
			}
			Expect(f.ServedModel()).To(Equal(want), e.Name)
			n++
		}
		Expect(n).To(BeNumerically(">=", 70))
		_, err := oss.ForRegistry("gpt-4o-2024-11-20-FC")
		Expect(err).To(MatchError(ContainSubstring("not a local-inference")))
		_, ok := oss.ForClass("NoSuchHandler", "m")
		Expect(ok).To(BeFalse())
		Expect(oss.Classes()).To(HaveLen(27))
	})
})

var _ = Describe("classes whose prompt bfcl-go cannot build", func() {
	msgs := []oss.Message{oss.Text(oss.RoleUser, "hi")}
	fns := []pyval.Value{mustPy(json.RawMessage(`{"name": "f", "description": "d", "parameters": {"type": "dict", "properties": {}}}`))}

	It("says that the model's chat template is needed", func() {
		for _, class := range []string{"Falcon3FCHandler", "QuickTestingOSSHandler"} {
			f, ok := oss.ForClass(class, "tiiuae/Falcon3-7B-Instruct-FC")
			Expect(ok).To(BeTrue())
			_, err := f.Prompt(msgs, fns)
			Expect(errors.Is(err, oss.ErrNeedsChatTemplate)).To(BeTrue(), class)
		}
	})
})

var _ = Describe("conversation", func() {
	It("rejects a held-out turn that has its own message, as upstream asserts", func() {
		f, _ := oss.ForClass("QwenFCHandler", "Qwen/Qwen3-8B")
		turns := [][]oss.Message{{oss.Text(oss.RoleUser, "a")}, {oss.Text(oss.RoleUser, "b")}}
		c, err := oss.NewConversation(f, "multi_turn_miss_func_1", nil, turns, map[int][]json.RawMessage{1: nil})
		Expect(err).NotTo(HaveOccurred())
		_, err = c.StartTurn(0)
		Expect(err).NotTo(HaveOccurred())
		_, err = c.StartTurn(1)
		Expect(err).To(MatchError(ContainSubstring("held-out turn 1")))
		_, err = c.StartTurn(2)
		Expect(err).To(HaveOccurred())
	})

	It("reads back the history dicts it writes", func() {
		m := oss.Message{Role: oss.RoleAssistant, Content: pyval.Str(""), ToolCalls: pyval.NewList(pyval.NewDict())}
		rc := "r"
		m.ReasoningContent = &rc
		back, err := oss.MessageFromDict(m.Dict())
		Expect(err).NotTo(HaveOccurred())
		Expect(dumpsPy(back.Dict())).To(Equal(`{"role": "assistant", "content": "", "tool_calls": [{}], "reasoning_content": "r"}`))
		d := pyval.NewDict()
		d.SetStr("role", pyval.Str("user"))
		d.SetStr("content", pyval.Str("x"))
		d.SetStr("thought", pyval.Str("y"))
		_, err = oss.MessageFromDict(d)
		Expect(err).To(MatchError(ContainSubstring("unknown message key")))
	})
})
