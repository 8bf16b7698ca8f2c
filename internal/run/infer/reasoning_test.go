package infer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/sim"
)

// fsEntry is a two-turn file-system entry of our own with a real backend.
func fsEntry() *dataset.Entry {
	return &dataset.Entry{ID: "multi_turn_base_998", Category: "multi_turn_base", InvolvedClasses: []string{"GorillaFileSystem"},
		InitialConfig: json.RawMessage(`{"GorillaFileSystem": {"root": {"alex": {"type": "directory", "contents": {"notes.txt": {"type": "file", "content": "hi"}}}}}}`),
		Functions:     []json.RawMessage{json.RawMessage(`{"name": "ls", "description": "List.", "parameters": {"type": "dict", "properties": {}, "required": []}}`)},
		Question:      [][]dataset.Message{{{Role: "user", Content: "list"}}, {{Role: "user", Content: "thanks"}}}}
}

func engineExecutor(e *dataset.Entry) (infer.Executor, error) {
	conf, err := e.InitialConfigDict()
	if err != nil {
		return nil, err
	}
	s := engine.New(sim.NewEnv(nil), engine.Config{ModelName: "m", EntryID: e.ID, Involved: e.InvolvedClasses, InitialConfig: conf})
	return s, s.Init()
}

// reply is one model answer of the fake servers: a call of ls or a text,
// with or without reasoning.
type reply struct{ call, text, reasoning string }

func ollamaBody(r reply) string {
	msg := map[string]any{"role": "assistant", "content": r.text}
	if r.reasoning != "" {
		msg["thinking"] = r.reasoning
	}
	if r.call != "" {
		msg["tool_calls"] = []any{map[string]any{"function": map[string]any{"index": 0, "name": r.call, "arguments": map[string]any{}}}}
	}
	b, _ := json.Marshal(map[string]any{"model": "think:1b", "created_at": "2026-11-30T06:00:00Z", "message": msg, "done": true, "done_reason": "stop", "prompt_eval_count": 10, "eval_count": 2})
	return string(b) + "\n"
}

func openAIBody(field string) func(r reply) string {
	return func(r reply) string {
		msg := map[string]any{"role": "assistant", "content": r.text}
		if r.reasoning != "" {
			msg[field] = r.reasoning
		}
		if r.call != "" {
			msg["tool_calls"] = []any{map[string]any{"id": "call_1", "type": "function", "function": map[string]any{"name": r.call, "arguments": "{}"}}}
		}
		b, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion", "model": "think",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}}, "usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 2}})
		return string(b)
	}
}

var _ = Describe("reasoning models through fake servers", func() {
	// Turn 0: a call (with reasoning), then text (with reasoning; FC text
	// does not decode and ends the turn); turn 1: text without reasoning.
	replies := []reply{{call: "ls", reasoning: "I should list the folder."}, {text: "It holds notes.txt.", reasoning: "The listing shows one file."}, {text: "You're welcome."}}

	// Ollama's turns are rebuilt without the thinking; upstream's
	// OpenAICompletionsHandler sends the assistant message back exactly as
	// the server returned it, reasoning field included.
	DescribeTable("keep the reasoning in the record and the inference log; send it back only inside the server's own message",
		func(provider, basePath string, body func(reply) string, echoed bool) {
			fx := &drivertest.Fixture{Config: drivertest.FixtureConfig{Model: "think:1b", Mode: "fc", BasePath: basePath}}
			for _, r := range replies {
				text := body(r)
				fx.Exchanges = append(fx.Exchanges, drivertest.Exchange{Status: 200, ResponseText: &text})
			}
			srv := drivertest.Serve(fx)
			defer srv.Close()
			d, err := driver.New(fx.CoreConfig(provider, srv.URL))
			Expect(err).NotTo(HaveOccurred())
			rec, _, err := infer.Run(context.Background(), d, fsEntry(), infer.Options{Spec: decode.Spec{Mode: "fc"}, NewExecutor: engineExecutor, IncludeInputLog: true})
			Expect(err).NotTo(HaveOccurred())

			Expect(string(rec.ReasoningContent)).To(MatchJSON(`[["I should list the folder.", "The listing shows one file."], [""]]`))
			for i, r := range srv.Received() {
				if echoed {
					Expect(strings.Contains(string(r.Body), "list the folder")).To(Equal(i > 0), "request %d", i)
					Expect(strings.Contains(string(r.Body), "one file")).To(Equal(i > 1), "request %d", i)
					continue
				}
				Expect(string(r.Body)).NotTo(ContainSubstring("list the folder"))
				Expect(string(r.Body)).NotTo(ContainSubstring("one file"))
			}

			var log []json.RawMessage
			Expect(json.Unmarshal(rec.InferenceLog, &log)).To(Succeed())
			Expect(log).To(HaveLen(5)) // state, turn 0, state, turn 1, state
			state := `[{"role": "state_info", "class_name": "GorillaFileSystem", "content": {"long_context": false, "root": "<Directory: alex, Parent: None, Contents: {'notes.txt': <<File: notes.txt, Content: hi>>}>"}}]`
			for _, i := range []int{0, 2, 4} {
				Expect(string(log[i])).To(MatchJSON(state))
			}
			var turn0 map[string][]map[string]any
			Expect(json.Unmarshal(log[1], &turn0)).To(Succeed())
			Expect(turn0).To(HaveLen(3)) // begin_of_turn_query, step_0, step_1
			Expect(turn0["begin_of_turn_query"]).To(Equal([]map[string]any{{"role": "user", "content": "list"}}))
			step0 := turn0["step_0"]
			Expect(step0).To(HaveLen(4))
			Expect(step0[0]["role"]).To(Equal("inference_input"))
			input, _ := json.Marshal(step0[0]["content"])
			Expect(string(input)).To(MatchJSON(srv.Received()[0].Body), "the input log is the request body sent")
			Expect(step0[1]).To(Equal(map[string]any{"role": "assistant", "content": []any{map[string]any{"ls": "{}"}}, "reasoning_content": "I should list the folder."}))
			Expect(step0[2]).To(Equal(map[string]any{"role": "handler_log", "content": "Successfully decoded model response.", "model_response_decoded": []any{"ls()"}}))
			Expect(step0[3]).To(Equal(map[string]any{"role": "tool", "content": `{"current_directory_content": ["notes.txt"]}`}))
			step1 := turn0["step_1"]
			Expect(step1[1:]).To(Equal([]map[string]any{
				{"role": "assistant", "content": "It holds notes.txt.", "reasoning_content": "The listing shows one file."},
				{"role": "handler_log", "content": "Error decoding the model response. Proceed to next turn.", "error": "'str' object has no attribute 'items'"},
			}))
			var turn1 map[string][]map[string]any
			Expect(json.Unmarshal(log[3], &turn1)).To(Succeed())
			Expect(turn1["step_0"][1]).To(Equal(map[string]any{"role": "assistant", "content": "You're welcome."}), "no reasoning_content key without reasoning")
		},
		Entry("Ollama (message.thinking)", "ollama", "", ollamaBody, false),
		Entry("OpenAI-compatible (reasoning_content)", "openai", "/v1", openAIBody("reasoning_content"), true),
		Entry("OpenAI-compatible (reasoning)", "openai", "/v1", openAIBody("reasoning"), true),
	)
})

var _ = Describe("the log options", func() {
	run := func(opts infer.Options) (map[string]json.RawMessage, []string) {
		d := &scripted{script: func(n int, _ driver.Request) (driver.Response, error) {
			if n == 0 {
				return call("ls", "{}"), nil
			}
			return driver.Response{ToolCalls: []driver.ToolCall{}}, nil
		}}
		opts.Mode, opts.NewExecutor = "fc", engineExecutor
		rec, _, err := infer.Run(context.Background(), d, fsEntry(), opts)
		Expect(err).NotTo(HaveOccurred())
		line, err := rec.MarshalJSON()
		Expect(err).NotTo(HaveOccurred())
		var m map[string]json.RawMessage
		Expect(json.Unmarshal(line, &m)).To(Succeed())
		return m, topKeys(line)
	}

	It("writes upstream's multi-turn keys in upstream's order, the state_info lists included by default", func() {
		m, keys := run(infer.Options{})
		Expect(keys).To(Equal([]string{"id", "result", "input_token_count", "output_token_count", "latency", "inference_log"}))
		Expect(strings.Count(string(m["inference_log"]), `"role":"state_info"`)).To(Equal(3))
		Expect(string(m["inference_log"])).To(ContainSubstring(`"root":"<Directory: alex, Parent: None, Contents: {'notes.txt': <<File: notes.txt, Content: hi>>}>"`), "no HTML escaping")
		Expect(string(m["inference_log"])).NotTo(ContainSubstring("inference_input"))
		Expect(string(m["inference_log"])).To(ContainSubstring(`{"role":"handler_log","content":"Empty response from the model. Proceed to next turn.","model_response_decoded":[]}`))
	})

	It("drops the state_info lists with ExcludeStateLog and adds the input of every step with IncludeInputLog", func() {
		m, _ := run(infer.Options{ExcludeStateLog: true, IncludeInputLog: true})
		Expect(string(m["inference_log"])).NotTo(ContainSubstring("state_info"))
		var log []map[string][]map[string]any
		Expect(json.Unmarshal(m["inference_log"], &log)).To(Succeed())
		Expect(log).To(HaveLen(2))
		for _, turn := range log {
			for k, step := range turn {
				if k != "begin_of_turn_query" {
					// a driver without HTTP logs upstream's default ""
					Expect(step[0]).To(Equal(map[string]any{"role": "inference_input", "content": ""}), k)
				}
			}
		}
	})

	It("logs a prompt-mode turn 0 with the system prompt the model got, and the prompt-mode decoding", func() {
		d := &scripted{script: func(n int, _ driver.Request) (driver.Response, error) {
			if n%2 == 0 {
				return driver.Response{Text: "[ls()]"}, nil
			}
			return driver.Response{Text: "All done."}, nil
		}}
		rec, _, err := infer.Run(context.Background(), d, fsEntry(), infer.Options{Spec: decode.Spec{Mode: "prompt"}, NewExecutor: engineExecutor, ExcludeStateLog: true})
		Expect(err).NotTo(HaveOccurred())
		var log []map[string][]map[string]any
		Expect(json.Unmarshal(rec.InferenceLog, &log)).To(Succeed())
		Expect(log).To(HaveLen(2))
		q := log[0]["begin_of_turn_query"]
		Expect(q).To(HaveLen(2))
		Expect(q[0]["role"]).To(Equal("system"))
		Expect(q[0]["content"]).To(Equal(d.requests[0].Messages[0].Content))
		Expect(q[1]).To(Equal(map[string]any{"role": "user", "content": "list"}))
		Expect(log[0]["step_0"][:2]).To(Equal([]map[string]any{
			{"role": "assistant", "content": "[ls()]"},
			{"role": "handler_log", "content": "Successfully decoded model response.", "model_response_decoded": []any{"ls()"}},
		}))
		Expect(log[0]["step_1"][1]["content"]).To(Equal("Error decoding the model response. Proceed to next turn."))
		Expect(log[1]["begin_of_turn_query"]).To(Equal([]map[string]any{{"role": "user", "content": "thanks"}}))
	})

	It("logs the force-quit as upstream does", func() {
		d := &scripted{script: func(int, driver.Request) (driver.Response, error) { return call("ls", "{}"), nil }}
		rec, _, err := infer.Run(context.Background(), d, fsEntry(), infer.Options{Spec: decode.Spec{Mode: "fc"}, NewExecutor: engineExecutor, ExcludeStateLog: true})
		Expect(err).NotTo(HaveOccurred())
		var log []map[string][]map[string]any
		Expect(json.Unmarshal(rec.InferenceLog, &log)).To(Succeed())
		Expect(log).To(HaveLen(1))
		last := log[0][fmt.Sprintf("step_%d", infer.MaximumStepLimit)]
		Expect(last[len(last)-1]).To(Equal(map[string]any{"role": "handler_log", "content": "Model has been forced to quit after 20 steps."}))
		Expect(log[0]).To(HaveLen(infer.MaximumStepLimit + 2))
	})

	It("gives a single-turn line an inference log only with IncludeInputLog, before the token counts, as upstream", func() {
		e := &dataset.Entry{ID: "simple_python_0", Category: "simple_python", Question: [][]dataset.Message{{{Role: "user", Content: "hi"}}},
			Functions: []json.RawMessage{json.RawMessage(`{"name": "f", "description": "F.", "parameters": {"type": "dict", "properties": {}, "required": []}}`)}}
		d := &scripted{script: func(int, driver.Request) (driver.Response, error) {
			r := call("f", "{}")
			r.Reasoning, r.Request = "because", json.RawMessage(`{"model":"x"}`)
			return r, nil
		}}
		rec, _, err := infer.Run(context.Background(), d, e, infer.Options{Spec: decode.Spec{Mode: "fc"}})
		Expect(err).NotTo(HaveOccurred())
		line, _ := rec.MarshalJSON()
		Expect(topKeys(line)).To(Equal([]string{"id", "result", "input_token_count", "output_token_count", "latency", "reasoning_content"}))
		rec, _, err = infer.Run(context.Background(), d, e, infer.Options{Spec: decode.Spec{Mode: "fc"}, IncludeInputLog: true})
		Expect(err).NotTo(HaveOccurred())
		line, _ = rec.MarshalJSON()
		Expect(topKeys(line)).To(Equal([]string{"id", "result", "inference_log", "input_token_count", "output_token_count", "latency", "reasoning_content"}))
		Expect(string(rec.InferenceLog)).To(MatchJSON(`[{"role": "inference_input", "content": {"model": "x"}}]`))
	})
})

// topKeys lists the member names of a JSON object in order.
func topKeys(b []byte) []string {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	Expect(dec.Token()).To(Equal(json.Delim('{')))
	var out []string
	for dec.More() {
		k, err := dec.Token()
		Expect(err).NotTo(HaveOccurred())
		out = append(out, k.(string))
		var skip json.RawMessage
		Expect(dec.Decode(&skip)).To(Succeed())
	}
	return out
}
