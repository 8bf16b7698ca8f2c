package openai_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/openai"
)

// responsesServer answers /v1/responses with the given bodies in turn and
// records the requests.
func responsesServer(replies ...string) (*httptest.Server, func() []map[string]any, func() []http.Header) {
	var mu sync.Mutex
	var got []map[string]any
	var headers []http.Header
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer GinkgoRecover()
		Expect(r.URL.Path).To(Equal("/v1/responses"))
		b, _ := io.ReadAll(r.Body)
		var m map[string]any
		Expect(json.Unmarshal(b, &m)).To(Succeed())
		mu.Lock()
		got, headers = append(got, m), append(headers, r.Header.Clone())
		reply := replies[n%len(replies)]
		n++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, reply)
	}))
	return srv, func() []map[string]any { mu.Lock(); defer mu.Unlock(); return got },
		func() []http.Header { mu.Lock(); defer mu.Unlock(); return headers }
}

const reasoningCall = `{"id":"resp_1","object":"response","status":"completed","output":[
 {"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Need a listing."}],"encrypted_content":"gAAA"},
 {"type":"function_call","id":"fc_1","call_id":"call_1","name":"ls","arguments":"{\"a\": true}","status":"completed"}],
 "usage":{"input_tokens":11,"output_tokens":7}}`

const textReply = `{"id":"resp_2","object":"response","status":"completed","output":[
 {"type":"message","id":"msg_2","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Done","annotations":[]},{"type":"output_text","text":".","annotations":[]}]}],
 "usage":{"input_tokens":20,"output_tokens":2}}`

var lsDoc = json.RawMessage(`{"name": "fs.ls", "description": "List.", "parameters": {"type": "dict", "properties": {"a": {"type": "boolean", "description": "all"}}, "required": []}}`)

var _ = Describe("Responses driver (upstream's OpenAIResponsesHandler)", func() {
	It("asks a reasoning model for summaries and encrypted reasoning instead of a temperature, and sends its output items back verbatim", func() {
		srv, got, headers := responsesServer(reasoningCall, textReply)
		defer srv.Close()
		d, err := openai.NewResponses(core.Config{Model: "gpt-5-mini-2025-08-07", BaseURL: srv.URL + "/v1", APIKey: "sk", Mode: core.ModeFC,
			Headers: map[string]string{"X-Team": "bfcl"}})
		Expect(err).NotTo(HaveOccurred())
		msgs := []core.Message{{Role: core.RoleSystem, Content: "Be brief."}, {Role: core.RoleUser, Content: "list"}}
		r, err := d.Complete(context.Background(), core.Request{Messages: msgs, Functions: []json.RawMessage{lsDoc}, Temperature: 0.001, EntryID: "multi_turn_base_1"})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.ToolCalls).To(Equal([]core.ToolCall{{ID: "call_1", Name: "ls", Arguments: `{"a": true}`}}))
		Expect(r.Text).To(BeEmpty())
		Expect(r.Reasoning).To(Equal("Need a listing.\n"))
		Expect(r.InputTokens).To(Equal(11))

		msgs = append(msgs, core.Message{Role: core.RoleAssistant, ToolCalls: r.ToolCalls, Replay: r.Replay},
			core.Message{Role: core.RoleTool, Content: "['a.txt']", ToolCallID: "call_1", Name: "ls"})
		r2, err := d.Complete(context.Background(), core.Request{Messages: msgs, Functions: []json.RawMessage{lsDoc}, Temperature: 0.001})
		Expect(err).NotTo(HaveOccurred())
		Expect(r2.Text).To(Equal("Done."))
		Expect(r2.ToolCalls).To(BeNil())

		reqs := got()
		Expect(reqs).To(HaveLen(2))
		first, _ := json.Marshal(reqs[0])
		Expect(string(first)).To(MatchJSON(`{"model":"gpt-5-mini-2025-08-07","store":false,
			"include":["reasoning.encrypted_content"],"reasoning":{"summary":"auto"},
			"input":[{"role":"developer","content":"Be brief."},{"role":"user","content":"list"}],
			"tools":[{"name":"fs_ls","description":"List.","parameters":{"type":"object","properties":{"a":{"type":"boolean","description":"all"}},"required":[]},"type":"function"}]}`))
		second, _ := json.Marshal(reqs[1]["input"])
		Expect(string(second)).To(MatchJSON(`[{"role":"developer","content":"Be brief."},{"role":"user","content":"list"},
			{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Need a listing."}],"encrypted_content":"gAAA"},
			{"type":"function_call","id":"fc_1","call_id":"call_1","name":"ls","arguments":"{\"a\": true}","status":"completed"},
			{"type":"function_call_output","call_id":"call_1","output":"['a.txt']"}]`))
		for _, h := range headers() {
			Expect(h.Get("Authorization")).To(Equal("Bearer sk"))
			Expect(h.Get("X-Team")).To(Equal("bfcl"))
		}
	})

	It("sends temperature and no reasoning options to other models, and max_output_tokens only when set", func() {
		srv, got, _ := responsesServer(textReply)
		defer srv.Close()
		d, err := openai.NewResponses(core.Config{Model: "gpt-4o-2024-11-20", BaseURL: srv.URL + "/v1", Mode: core.ModePrompt})
		Expect(err).NotTo(HaveOccurred())
		_, err = d.Complete(context.Background(), core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "hi"}}, Functions: []json.RawMessage{lsDoc}, Temperature: 0.001})
		Expect(err).NotTo(HaveOccurred())
		_, err = d.Complete(context.Background(), core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "hi"}}, Temperature: 0.001, MaxTokens: 100})
		Expect(err).NotTo(HaveOccurred())
		a, _ := json.Marshal(got()[0])
		Expect(string(a)).To(MatchJSON(`{"model":"gpt-4o-2024-11-20","store":false,"temperature":0.001,"input":[{"role":"user","content":"hi"}]}`))
		Expect(got()[1]["max_output_tokens"]).To(BeNumerically("==", 100))
	})

	DescribeTable("tells the reasoning models as upstream does (the id contains o3, o4-mini or gpt-5)",
		func(model string, reasoning bool) { Expect(openai.IsReasoningModel(model)).To(Equal(reasoning)) },
		Entry(nil, "o3-2025-04-16", true), Entry(nil, "o4-mini-2025-04-16", true), Entry(nil, "gpt-5-2025-08-07", true),
		Entry(nil, "gpt-4o-2024-11-20", false), Entry(nil, "gpt-4.1-2025-04-14", false),
	)

	It("refuses a seed, which the Responses API does not take", func() {
		d, err := openai.NewResponses(core.Config{Model: "gpt-4o", BaseURL: "http://127.0.0.1:9/v1"})
		Expect(err).NotTo(HaveOccurred())
		seed := int64(1)
		_, err = d.BuildRequest(core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "hi"}}, Seed: &seed})
		Expect(err).To(MatchError(ContainSubstring("takes no seed")))
	})

	It("refuses a reply without output, naming the provider", func() {
		srv, _, _ := responsesServer(`{"id":"x","status":"completed"}`)
		defer srv.Close()
		d, err := openai.NewResponses(core.Config{Model: "gpt-4o", BaseURL: srv.URL + "/v1", MaxRetries: -1})
		Expect(err).NotTo(HaveOccurred())
		_, err = d.Complete(context.Background(), core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "hi"}}})
		Expect(err).To(MatchError(And(ContainSubstring("responses"), ContainSubstring("no output"))))
	})
})
