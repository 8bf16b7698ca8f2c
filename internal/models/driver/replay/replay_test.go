package replay_test

import (
	"context"
	"encoding/json"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/replay"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

var _ = Describe("the replay driver", func() {
	ctx := context.Background()

	It("answers a multi-turn record's steps in order, with their reasoning, and refuses a request beyond them", func() {
		rec := results.Record{ID: "multi_turn_base_1",
			Result:           json.RawMessage(`[[[{"ls": "{\"a\": false}"}, {"cd": {"folder": "x"}}], "done"], [[]]]`),
			ReasoningContent: json.RawMessage(`[["look", ""], ["nothing"]]`)}
		d, err := replay.New(rec, true)
		Expect(err).NotTo(HaveOccurred())
		Expect(d.Remaining()).To(Equal(3))
		r, err := d.Complete(ctx, core.Request{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.ToolCalls).To(Equal([]core.ToolCall{{ID: "call_0", Name: "ls", Arguments: `{"a": false}`}, {ID: "call_1", Name: "cd", Arguments: `{"folder": "x"}`}}))
		Expect(r.Reasoning).To(Equal("look"))
		r, _ = d.Complete(ctx, core.Request{})
		Expect(r).To(Equal(core.Response{Text: "done"}))
		r, _ = d.Complete(ctx, core.Request{})
		Expect(r.ToolCalls).To(BeEmpty())
		Expect(r.ToolCalls).NotTo(BeNil(), "an empty call list stays a list")
		Expect(r.Reasoning).To(Equal("nothing"))
		Expect(d.Remaining()).To(Equal(0))
		_, err = d.Complete(ctx, core.Request{})
		Expect(err).To(MatchError(ContainSubstring("multi_turn_base_1: request 4, but the record holds 3 model outputs")))
	})

	It("answers a single-turn record once", func() {
		d, err := replay.New(results.Record{ID: "simple_python_0", Result: json.RawMessage(`[]`), ReasoningContent: json.RawMessage(`"hm"`)}, false)
		Expect(err).NotTo(HaveOccurred())
		r, err := d.Complete(ctx, core.Request{})
		Expect(err).NotTo(HaveOccurred())
		Expect(r.ToolCalls).To(Equal([]core.ToolCall{}))
		Expect(r.Reasoning).To(Equal("hm"))
	})

	It("names the entry and step of an output it cannot answer with", func() {
		_, err := replay.New(results.Record{ID: "multi_turn_base_2", Result: json.RawMessage(`[[1]]`)}, true)
		Expect(err).To(MatchError(ContainSubstring("multi_turn_base_2 turn 0 step 0: stored output 1 is neither text nor a list of calls")))
		_, err = replay.New(results.Record{ID: "multi_turn_base_3", Result: json.RawMessage(`"Error during inference: x"`)}, true)
		Expect(err).To(MatchError(ContainSubstring("multi_turn_base_3: result is not a list per turn")))
		_, err = replay.New(results.Record{ID: "simple_0", Result: json.RawMessage(`[{"a": "{}", "b": "{}"}]`)}, false)
		Expect(err).To(MatchError(ContainSubstring("is not one {name: arguments}")))
	})
})
