package infer_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/config/corrections"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/run/infer"
)

// scripted answers each request with the next response of its script and
// records the requests.
type scripted struct {
	script   func(n int, req driver.Request) (driver.Response, error)
	requests []driver.Request
}

func (s *scripted) Name() string { return "scripted" }
func (s *scripted) Complete(_ context.Context, req driver.Request) (driver.Response, error) {
	s.requests = append(s.requests, req)
	return s.script(len(s.requests)-1, req)
}

// recorder is a fake backend: every call returns "ok:<call>".
type recorder struct{ calls []string }

func (r *recorder) Execute(calls []string) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		r.calls = append(r.calls, c)
		out[i] = "ok:" + c
	}
	return out
}

func call(name, args string) driver.Response {
	return driver.Response{ToolCalls: []driver.ToolCall{{ID: "c1", Name: name, Arguments: args}}, InputTokens: 10, OutputTokens: 2}
}

func multiTurnEntry(turns int) *dataset.Entry {
	e := &dataset.Entry{ID: "multi_turn_base_999", Category: "multi_turn_base", InvolvedClasses: []string{"GorillaFileSystem"},
		Functions: []json.RawMessage{json.RawMessage(`{"name": "ls", "description": "List.", "parameters": {"type": "dict", "properties": {}, "required": []}}`)}}
	for i := 0; i < turns; i++ {
		e.Question = append(e.Question, []dataset.Message{{Role: "user", Content: "turn"}})
	}
	return e
}

var _ = Describe("the multi-turn loop", func() {
	var rec *recorder
	opts := func() infer.Options {
		return infer.Options{Spec: decode.Spec{Mode: "fc"}, NewExecutor: func(*dataset.Entry) (infer.Executor, error) { return rec, nil }}
	}
	BeforeEach(func() { rec = &recorder{} })

	It("executes decoded calls, feeds results back as tool messages, and ends a turn on a text answer", func() {
		d := &scripted{script: func(n int, req driver.Request) (driver.Response, error) {
			if n%2 == 0 {
				return call("ls", `{"a": true}`), nil
			}
			return driver.Response{Text: "done"}, nil
		}}
		r, st, err := infer.Run(context.Background(), d, multiTurnEntry(2), opts())
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Calls).To(Equal(4))
		Expect(rec.calls).To(Equal([]string{"ls(a=True)", "ls(a=True)"}))
		Expect(string(r.Result)).To(MatchJSON(`[[[{"ls": "{\"a\": true}"}], "done"], [[{"ls": "{\"a\": true}"}], "done"]]`))
		Expect(string(r.InputTokenCount)).To(MatchJSON(`[[10, 0], [10, 0]]`))
		last := d.requests[1].Messages
		Expect(last[len(last)-1]).To(Equal(driver.Message{Role: "tool", Content: "ok:ls(a=True)", ToolCallID: "c1", Name: "ls"}))
	})

	It("force-quits the entry after the 21st model call of a turn (MAXIMUM_STEP_LIMIT 20)", func() {
		d := &scripted{script: func(int, driver.Request) (driver.Response, error) { return call("ls", `{}`), nil }}
		r, st, err := infer.Run(context.Background(), d, multiTurnEntry(3), opts())
		Expect(err).NotTo(HaveOccurred())
		Expect(st.Calls).To(Equal(21), "at most 21 model calls in a turn")
		var turns [][]json.RawMessage
		Expect(json.Unmarshal(r.Result, &turns)).To(Succeed())
		Expect(turns).To(HaveLen(1), "the remaining turns are not run; the checker reports force_terminated")
		Expect(turns[0]).To(HaveLen(21))
	})

	It("adds held-out functions at their turn with upstream's user message", func() {
		e := multiTurnEntry(1)
		e.Question = append(e.Question, []dataset.Message{})
		e.MissedFuncDocs = map[int][]json.RawMessage{1: {json.RawMessage(`{"name": "cd", "description": "Change.", "parameters": {"type": "dict", "properties": {}, "required": []}}`)}}
		d := &scripted{script: func(int, driver.Request) (driver.Response, error) { return driver.Response{Text: "ok"}, nil }}
		_, _, err := infer.Run(context.Background(), d, e, opts())
		Expect(err).NotTo(HaveOccurred())
		Expect(d.requests).To(HaveLen(2))
		Expect(d.requests[0].Functions).To(HaveLen(1))
		Expect(d.requests[1].Functions).To(HaveLen(2))
		msgs := d.requests[1].Messages
		Expect(msgs[len(msgs)-1]).To(Equal(driver.Message{Role: "user", Content: "I have updated some more functions you can choose from. What about now?"}))
	})

	It("stores a server's empty tool-call list as an empty list, and text as text", func() {
		d := &scripted{script: func(n int, req driver.Request) (driver.Response, error) {
			return driver.Response{ToolCalls: []driver.ToolCall{}}, nil
		}}
		r, _, err := infer.Run(context.Background(), d, multiTurnEntry(1), opts())
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.Result)).To(MatchJSON(`[[[]]]`))
	})

	It("stores the text of an empty tool-call list with the empty-tool-calls correction, and only then", func() {
		d := &scripted{script: func(n int, req driver.Request) (driver.Response, error) {
			return driver.Response{Text: "The answer is 42.", ToolCalls: []driver.ToolCall{}}, nil
		}}
		o := opts()
		r, _, err := infer.Run(context.Background(), d, multiTurnEntry(1), o)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.Result)).To(MatchJSON(`[[[]]]`), "pinned: upstream stores the empty list")
		o.Corrections = corrections.Of(corrections.EmptyToolCalls)
		r, _, err = infer.Run(context.Background(), d, multiTurnEntry(1), o)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.Result)).To(MatchJSON(`[["The answer is 42."]]`))
		// a driver's own stored form is kept as it is
		d = &scripted{script: func(n int, req driver.Request) (driver.Response, error) {
			return driver.Response{Text: "x", ToolCalls: []driver.ToolCall{}, Result: []byte(`null`)}, nil
		}}
		r, _, err = infer.Run(context.Background(), d, multiTurnEntry(1), o)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.Result)).To(MatchJSON(`[[null]]`))
	})

	It("returns a driver failure as an error and produces no record", func() {
		d := &scripted{script: func(int, driver.Request) (driver.Response, error) { return driver.Response{}, errors.New("HTTP 500") }}
		_, _, err := infer.Run(context.Background(), d, multiTurnEntry(1), opts())
		Expect(err).To(MatchError(ContainSubstring("multi_turn_base_999 turn 0 step 0: HTTP 500")))
	})
})

var _ = Describe("single-turn entries", func() {
	It("send the question with the hinted functions and store the calls", func() {
		e := &dataset.Entry{ID: "simple_python_0", Category: "simple_python",
			Question:  [][]dataset.Message{{{Role: "user", Content: "q"}}},
			Functions: []json.RawMessage{json.RawMessage(`{"name": "f", "description": "Does f.", "parameters": {"type": "dict", "properties": {}}}`)}}
		d := &scripted{script: func(int, driver.Request) (driver.Response, error) { return call("f", `{"x": 1}`), nil }}
		r, _, err := infer.Run(context.Background(), d, e, infer.Options{Spec: decode.Spec{Mode: "fc"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.Result)).To(MatchJSON(`[{"f": "{\"x\": 1}"}]`))
		Expect(string(d.requests[0].Functions[0])).To(ContainSubstring("Does f. Note that the provided function is in Python 3 syntax."))
	})
})

var _ = Describe("an oversized model answer", func() {
	It("is an error naming the entry and the limit, and no record", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"choices": [{"message": {"content": "` + strings.Repeat("a", 4096) + `"}}]}`))
		}))
		defer srv.Close()
		d, err := driver.New(driver.Config{Provider: "openai", Model: "m", BaseURL: srv.URL, MaxResponseBytes: 2048})
		Expect(err).NotTo(HaveOccurred())
		e := &dataset.Entry{ID: "simple_python_7", Category: "simple_python", Question: [][]dataset.Message{{{Role: "user", Content: "q"}}}}
		r, _, err := infer.Run(context.Background(), d, e, infer.Options{Spec: decode.Spec{Mode: "fc"}})
		Expect(err).To(MatchError(And(HavePrefix("infer: simple_python_7: openai: "), HaveSuffix("response body larger than the 2 KiB limit"))))
		Expect(r.ID).To(BeEmpty())
	})
})

var _ = Describe("prompt mode", func() {
	It("sends upstream's system prompt with the functions in it and stores the text", func() {
		e := &dataset.Entry{ID: "simple_python_0", Category: "simple_python",
			Question:  [][]dataset.Message{{{Role: "user", Content: "q"}}},
			Functions: []json.RawMessage{json.RawMessage(`{"name": "f", "description": "Does f.", "parameters": {"type": "dict", "properties": {}}}`)}}
		d := &scripted{script: func(int, driver.Request) (driver.Response, error) { return driver.Response{Text: "[f(x=1)]"}, nil }}
		r, _, err := infer.Run(context.Background(), d, e, infer.Options{Spec: decode.Spec{Mode: "prompt"}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.Result)).To(Equal(`"[f(x=1)]"`))
		Expect(d.requests[0].Functions).To(BeNil())
		Expect(d.requests[0].Messages[0].Role).To(Equal("system"))
		Expect(d.requests[0].Messages[0].Content).To(HavePrefix("You are an expert in composing functions."))
		Expect(d.requests[0].Messages[0].Content).To(ContainSubstring("Does f. Note that the provided function is in Python 3 syntax."))
	})

	It("executes the decoded Python calls and returns the results as a user message", func() {
		rec := &recorder{}
		d := &scripted{script: func(n int, req driver.Request) (driver.Response, error) {
			if n == 0 {
				return driver.Response{Text: "[ls(a=True)]"}, nil
			}
			return driver.Response{Text: "All done."}, nil
		}}
		r, _, err := infer.Run(context.Background(), d, multiTurnEntry(1), infer.Options{Spec: decode.Spec{Mode: "prompt"}, NewExecutor: func(*dataset.Entry) (infer.Executor, error) { return rec, nil }})
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.calls).To(Equal([]string{"ls(a=True)"}))
		Expect(string(r.Result)).To(MatchJSON(`[["[ls(a=True)]", "All done."]]`))
		second := d.requests[1].Messages
		Expect(second[len(second)-1].Role).To(Equal("user"))
		Expect(second[len(second)-1].Content).To(ContainSubstring("ok:ls(a=True)"))
	})
})

var _ = Describe("an upstream handler class", func() {
	It("decodes the text answers between steps as that handler's decode_execute does", func() {
		rec := &recorder{}
		d := &scripted{script: func(n int, req driver.Request) (driver.Response, error) {
			if n == 0 {
				return driver.Response{Text: "<tool_call>\n{\"name\": \"ls\", \"arguments\": {\"a\": true}}\n</tool_call>"}, nil
			}
			return driver.Response{Text: "All done."}, nil
		}}
		_, _, err := infer.Run(context.Background(), d, multiTurnEntry(1), infer.Options{Spec: decode.Spec{Mode: "prompt", Handler: "QwenFCHandler"}, NewExecutor: func(*dataset.Entry) (infer.Executor, error) { return rec, nil }})
		Expect(err).NotTo(HaveOccurred())
		Expect(rec.calls).To(Equal([]string{"ls(a=True)"}), "the default prompt decoder would read no call in a <tool_call> block")
	})
})
