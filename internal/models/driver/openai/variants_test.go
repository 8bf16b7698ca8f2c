package openai_test

import (
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/openai"
)

var _ = Describe("OpenAI-compatible subclasses' request variants", func() {
	doc := json.RawMessage(`{"name": "get.x", "description": "Get x.", "parameters": {"type": "dict", "properties": {"a": {"type": "integer", "description": "A"}}, "required": ["a"]}, "response": {"type": "dict", "properties": {}}}`)
	msgs := []core.Message{{Role: core.RoleUser, Content: "x?"}}
	build := func(cfg core.Config) string {
		cfg.BaseURL = "http://127.0.0.1:9/v1"
		d, err := openai.New(cfg)
		Expect(err).NotTo(HaveOccurred())
		b, err := d.BuildRequest(core.Request{Messages: msgs, Functions: []json.RawMessage{doc}, Temperature: 0.001})
		Expect(err).NotTo(HaveOccurred())
		return string(b)
	}
	It("NovitaHandler: no store, the response folded into the tool description (ModelStyle.NOVITA_AI)", func() {
		Expect(build(core.Config{Model: "m", Mode: core.ModeFC, Handler: "NovitaHandler"})).To(MatchJSON(`{"model":"m","messages":[{"role":"user","content":"x?"}],"temperature":0.001,
			"tools":[{"type":"function","function":{"name":"get_x","description":"Get x. The response field has the following schema: {\"type\": \"dict\", \"properties\": {}}",
			"parameters":{"type":"object","properties":{"a":{"type":"integer","description":"A"}},"required":["a"]}}}]}`))
		Expect(build(core.Config{Model: "m", Mode: core.ModePrompt, Handler: "NovitaHandler"})).To(MatchJSON(`{"model":"m","messages":[{"role":"user","content":"x?"}],"temperature":0.001}`))
	})
	It("DeepSeekAPIHandler: no store; in prompt mode no temperature and consecutive user messages combined", func() {
		Expect(build(core.Config{Model: "deepseek-chat", Mode: core.ModeFC, Handler: "DeepSeekAPIHandler"})).To(ContainSubstring(`"temperature":0.001,"tools"`))
		d, err := openai.New(core.Config{Model: "deepseek-reasoner", Mode: core.ModePrompt, Handler: "DeepSeekAPIHandler", BaseURL: "http://127.0.0.1:9/v1"})
		Expect(err).NotTo(HaveOccurred())
		b, err := d.BuildRequest(core.Request{Temperature: 0.001, Messages: []core.Message{{Role: core.RoleSystem, Content: "s"}, {Role: core.RoleUser, Content: "a"}, {Role: core.RoleUser, Content: "b"},
			{Role: core.RoleAssistant, Content: "[f()]"}, {Role: core.RoleUser, Content: "r"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(MatchJSON(`{"model":"deepseek-reasoner","messages":[{"role":"system","content":"s"},{"role":"user","content":"a\n\nb"},{"role":"assistant","content":"[f()]"},{"role":"user","content":"r"}]}`))
	})
	It("NvidiaHandler: prompt mode combines consecutive user messages and keeps temperature and store", func() {
		d, err := openai.New(core.Config{Model: "nv", Mode: core.ModePrompt, Handler: "NvidiaHandler", BaseURL: "http://127.0.0.1:9/v1"})
		Expect(err).NotTo(HaveOccurred())
		b, err := d.BuildRequest(core.Request{Temperature: 0.001, Messages: []core.Message{{Role: core.RoleUser, Content: "a"}, {Role: core.RoleUser, Content: "b"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(MatchJSON(`{"model":"nv","messages":[{"role":"user","content":"a\n\nb"}],"temperature":0.001,"store":false}`))
	})
	It("LingAPIHandler: prompt queries name the API's model and send no temperature or store; other models are refused as upstream does", func() {
		d, err := openai.New(core.Config{Model: "Ling/ling-lite-v1.5", Mode: core.ModePrompt, Handler: "LingAPIHandler", BaseURL: "http://127.0.0.1:9/v1"})
		Expect(err).NotTo(HaveOccurred())
		b, err := d.BuildRequest(core.Request{Temperature: 0.001, Messages: []core.Message{{Role: core.RoleUser, Content: "a"}, {Role: core.RoleUser, Content: "b"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(MatchJSON(`{"model":"Ling-lite-1.5-250604","messages":[{"role":"user","content":"a\n\nb"}]}`))
		d, err = openai.New(core.Config{Model: "Ling/other", Mode: core.ModePrompt, Handler: "LingAPIHandler", BaseURL: "http://127.0.0.1:9/v1"})
		Expect(err).NotTo(HaveOccurred())
		_, err = d.BuildRequest(core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "a"}}})
		Expect(err).To(MatchError(ContainSubstring("Ling/ling-lite-v1.5 only")))
	})
	It("GLMAPIHandler: glm-4.6 in FC mode asks for thinking instead of a temperature; other models and prompt mode are the base request", func() {
		Expect(build(core.Config{Model: "glm-4.6", Mode: core.ModeFC, Handler: "GLMAPIHandler"})).To(MatchJSON(`{"model":"glm-4.6","messages":[{"role":"user","content":"x?"}],"store":false,"thinking":{"type":"enabled"},
			"tools":[{"type":"function","function":{"name":"get_x","description":"Get x.","parameters":{"type":"object","properties":{"a":{"type":"integer","description":"A"}},"required":["a"]},"response":{"type":"dict","properties":{}}}}]}`))
		Expect(build(core.Config{Model: "glm-4.6", Mode: core.ModePrompt, Handler: "GLMAPIHandler"})).To(MatchJSON(`{"model":"glm-4.6","messages":[{"role":"user","content":"x?"}],"temperature":0.001,"store":false}`))
		Expect(build(core.Config{Model: "glm-4.5", Mode: core.ModeFC, Handler: "GLMAPIHandler"})).To(ContainSubstring(`"temperature":0.001,"store":false,"tools"`))
	})
})
