package oss_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// contextWindow is the context given to MaxTokens in these specs: the
// reference's max_tokens is 4096 on every row (whitespace token counts far
// below any model context), which this reproduces.
const contextWindow = 131072

// whitespaceTokens is the reference's stand-in tokenizer: str.split().
func whitespaceTokens(s string) int { return len(pyval.Split(s)) }

var _ = Describe("prompts against upstream's requests", func() {
	It("rebuilds every completions prompt byte for byte from the row's messages and functions, with the same body", func() {
		rows := completionRows()
		Expect(rows).NotTo(BeEmpty())
		prompts, bodies := tally{}, tally{}
		var failures []string
		for _, r := range rows {
			f, err := oss.ForRegistry(r.HandlerKey)
			Expect(err).NotTo(HaveOccurred())
			e := entryOf(r.EntryID)
			fns := functionsOf(e, r.OSSFunctionNames)
			msgs := r.messages()

			// The messages read back are the dicts upstream's formatter got.
			want, err := pyval.FromJSON(r.OSSMessages)
			Expect(err).NotTo(HaveOccurred())
			Expect(dumpsPy(oss.DictList(msgs))).To(Equal(dumpsPy(want)), r.where())

			// HammerHandler's formatter edits the documents at each query:
			// replay the entry's earlier queries on them first.
			for i := 0; i < r.Call; i++ {
				_, err := f.Prompt(msgs, fns)
				Expect(err).NotTo(HaveOccurred())
			}
			got, err := f.Prompt(msgs, fns)
			Expect(err).NotTo(HaveOccurred(), r.where())
			ok := got == r.FormattedPrompt
			prompts.add(r.HandlerKey, ok)
			if !ok && len(failures) < 5 {
				failures = append(failures, r.where()+": "+firstDiff(got, r.FormattedPrompt))
			}

			bodyOK := checkBody(f, got, r)
			bodies.add(r.HandlerKey, bodyOK)
			if !bodyOK && len(failures) < 5 {
				failures = append(failures, r.where()+": body differs: "+string(r.Body[:min(len(r.Body), 300)]))
			}
		}
		AddReportEntry("prompts equal per configuration", ReportEntryVisibilityAlways, prompts.report("prompts equal"))
		AddReportEntry("request bodies equal per configuration", ReportEntryVisibilityAlways, bodies.report("bodies equal"))
		Expect(failures).To(BeEmpty())
		Expect(prompts.allEqual()).To(BeTrue())
		Expect(bodies.allEqual()).To(BeTrue())
		Expect(len(prompts)).To(BeNumerically(">=", 24), "configurations")
	})

	It("grows each entry's conversation from its question and the canned replies into every kept request", func() {
		rows := completionRows()
		type key struct{ handler, entry string }
		groups := map[key][]refRow{}
		for _, r := range rows {
			k := key{r.HandlerKey, r.EntryID}
			groups[k] = append(groups[k], r)
		}
		keys := make([]key, 0, len(groups))
		for k := range groups {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if keys[i].handler != keys[j].handler {
				return keys[i].handler < keys[j].handler
			}
			return keys[i].entry < keys[j].entry
		})
		checked, skipped := tally{}, map[string]int{}
		var failures []string
		realCalls := 0
		for _, k := range keys {
			if strings.HasPrefix(k.entry, "memory_") {
				// Their first turn carries the memory backend's instruction,
				// which needs the memory prerequisites run: covered by the
				// per-row spec above only.
				skipped[k.handler]++
				continue
			}
			g := groups[k]
			sort.Slice(g, func(i, j int) bool { return g[i].Call < g[j].Call })
			res := growConversation(k.handler, g)
			for _, ok := range res.rows {
				checked.add(k.handler, ok)
			}
			realCalls += res.toolSteps
			failures = append(failures, res.failures...)
		}
		report := checked.report("conversation rows equal")
		for h, n := range skipped {
			report += fmt.Sprintf("%-40s %d memory entries left to the per-row spec\n", h, n)
		}
		AddReportEntry("conversations per configuration", ReportEntryVisibilityAlways, report)
		Expect(failures[:min(len(failures), 5)]).To(BeEmpty())
		Expect(checked.allEqual()).To(BeTrue())
		// The three entries whose first reply is a real call, in the
		// configurations whose canned reply was one.
		Expect(realCalls).To(BeNumerically(">=", 3*10))
	})
})

func dumpsPy(v pyval.Value) string {
	s, err := pyval.JSONDumps(v)
	Expect(err).NotTo(HaveOccurred())
	return s
}

// checkBody compares the request built for prompt with the row's body.
func checkBody(f oss.Format, prompt string, r refRow) bool {
	var fields map[string]json.RawMessage
	Expect(json.Unmarshal(r.Body, &fields)).To(Succeed())
	for name := range fields {
		switch name {
		case "model", "prompt", "temperature", "max_tokens", "stop_token_ids", "skip_special_tokens":
		default:
			return false
		}
	}
	var body refBody
	Expect(json.Unmarshal(r.Body, &body)).To(Succeed())
	tokens := whitespaceTokens(prompt)
	Expect(tokens + 2 + oss.DefaultMaxTokens).To(BeNumerically("<=", contextWindow))
	req := oss.NewRequest(f, prompt, tokens, contextWindow, oss.DefaultTemperature)
	_, hasStop := fields["stop_token_ids"]
	_, hasSkip := fields["skip_special_tokens"]
	if hasStop != (req.StopTokenIDs != nil) || hasSkip != (req.SkipSpecialTokens != nil) {
		return false
	}
	// The body as the request writes it says the same.
	raw, err := json.Marshal(req)
	Expect(err).NotTo(HaveOccurred())
	var back refBody
	Expect(json.Unmarshal(raw, &back)).To(Succeed())
	same := func(a, b refBody) bool {
		return a.Model == b.Model && a.Prompt == b.Prompt && a.Temperature == b.Temperature &&
			a.MaxTokens == b.MaxTokens && fmt.Sprint(a.StopTokenIDs) == fmt.Sprint(b.StopTokenIDs) &&
			(a.SkipSpecialTokens == nil) == (b.SkipSpecialTokens == nil) &&
			(a.SkipSpecialTokens == nil || *a.SkipSpecialTokens == *b.SkipSpecialTokens)
	}
	built := refBody{Model: req.Model, Prompt: prompt, Temperature: req.Temperature, MaxTokens: req.MaxTokens,
		StopTokenIDs: req.StopTokenIDs, SkipSpecialTokens: req.SkipSpecialTokens}
	return same(body, built) && same(back, built)
}

// grown is the outcome of replaying one entry of one configuration.
type grown struct {
	rows      []bool // per kept row: history and prompt equal
	toolSteps int    // steps whose results went back to the model
	failures  []string
}

// completedReply is the canned reply of every request but the three real
// calls (README of the reference).
const completedReply = "I have completed the request."

// growConversation runs an entry as upstream's inference loop does, from
// the data set's question, with the reference's replies (the canned reply
// for requests the reference did not keep): each reply is decoded with the
// class's decoder; a failed or empty decoding ends the turn, otherwise the
// results go back and the turn goes on. It compares the history and prompt
// at every kept request (matched by the entry's request count, "call").
// Executed results are taken from the history of a later kept request
// (histories only grow), and the replay stops after the last kept request.
func growConversation(handlerKey string, rows []refRow) grown {
	var out grown
	f, err := oss.ForRegistry(handlerKey)
	Expect(err).NotTo(HaveOccurred())
	reg, _ := upstream.Lookup(handlerKey)
	first := rows[0]
	e := entryOf(first.EntryID)
	fns := functionsOf(e, first.OSSFunctionNames)
	c, err := oss.NewConversation(f, e.ID, fns, questionTurns(e), e.MissedFuncDocs)
	Expect(err).NotTo(HaveOccurred(), first.where())

	kept := map[int]refRow{}
	lastCall := 0
	for _, r := range rows {
		kept[r.Call] = r
		lastCall = max(lastCall, r.Call)
	}
	// later returns the first kept row after call.
	later := func(call int) (refRow, bool) {
		for k := call + 1; k <= lastCall; k++ {
			if r, ok := kept[k]; ok {
				return r, true
			}
		}
		return refRow{}, false
	}
	call := 0
	for t := 0; t < c.Turns() && call <= lastCall; t++ {
		_, err := c.StartTurn(t)
		Expect(err).NotTo(HaveOccurred())
		for step := 0; call <= lastCall; step++ {
			Expect(step).To(BeNumerically("<=", 20), "upstream's MAXIMUM_STEP_LIMIT")
			p, err := c.Prompt()
			Expect(err).NotTo(HaveOccurred(), "%s %s turn %d step %d", handlerKey, e.ID, t, step)
			answer := completedReply
			if r, isKept := kept[call]; isKept {
				histOK := dumpsPy(oss.DictList(c.Messages())) == dumpsPy(mustPy(r.OSSMessages))
				promptOK := p == r.FormattedPrompt
				out.rows = append(out.rows, histOK && promptOK)
				if !histOK {
					out.failures = append(out.failures, r.where()+": history differs:\n got "+dumpsPy(oss.DictList(c.Messages()))+"\nwant "+string(r.OSSMessages))
				} else if !promptOK {
					out.failures = append(out.failures, r.where()+": "+firstDiff(p, r.FormattedPrompt))
				}
				answer = r.answerText()
			}
			call++
			reply, err := c.AddReply(answer)
			Expect(err).NotTo(HaveOccurred())
			decoded, err := decode.DecodeExecuteValue(reply.ModelResponses, decode.Options{Spec: decode.Spec{Handler: f.Class(), Mode: reg.Mode()}})
			if err != nil || len(decoded) == 0 || (len(decoded) == 1 && decoded[0] == "") {
				break // is_empty_execute_response or a decoding error: next turn
			}
			next, ok := later(call - 1)
			if !ok {
				return out // nothing kept after this: the replay is done
			}
			c.AddResults(resultsIn(next, len(c.Messages()), len(decoded)), decoded, reply)
			out.toolSteps++
		}
	}
	return out
}

func mustPy(raw json.RawMessage) pyval.Value {
	v, err := pyval.FromJSON(raw)
	Expect(err).NotTo(HaveOccurred())
	return v
}

// resultsIn returns the first want execution results a row's history
// holds after its first n messages: str contents, or the contents of a
// list of tool dicts (DeepseekReasoningHandler).
func resultsIn(r refRow, n, want int) []string {
	msgs := r.messages()
	var out []string
	for _, m := range msgs[min(n, len(msgs)):] {
		if len(out) >= want {
			break
		}
		switch c := m.Content.(type) {
		case pyval.Str:
			out = append(out, string(c))
		case *pyval.List:
			for _, it := range c.Items {
				v, _ := it.(*pyval.Dict).GetStr("content")
				out = append(out, pyval.StrOf(v))
			}
		}
	}
	Expect(out).To(HaveLen(want), "results in %s after message %d", r.where(), n)
	return out
}
