package oss_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// The conversations of fixtures/oss/conversations.jsonl.gz were produced by
// driving upstream's handler classes through hand-written scenarios (see
// fixtures/oss/README.md): every class, tool calls in its own format,
// execution results, a held-out turn, a question with a system message.

type replayRecord struct {
	Class     string                       `json:"class"`
	Model     string                       `json:"model"`
	Scenario  string                       `json:"scenario"`
	EntryID   string                       `json:"entry_id"`
	Functions []json.RawMessage            `json:"functions"`
	Turns     json.RawMessage              `json:"turns"`
	HeldOut   map[string][]json.RawMessage `json:"held_out"`
	Steps     []replayStep                 `json:"steps"`
}

type replayStep struct {
	Turn           int             `json:"turn"`
	Step           int             `json:"step"`
	Messages       json.RawMessage `json:"messages"`
	Prompt         string          `json:"prompt"`
	Reply          string          `json:"reply"`
	ModelResponses string          `json:"model_responses"`
	Reasoning      string          `json:"reasoning"`
	ToolCallIDs    []string        `json:"tool_call_ids"`
	HistoryMessage json.RawMessage `json:"history_message"`
	Decoded        []string        `json:"decoded"`
	DecodeError    string          `json:"decode_error"`
	PromptError    string          `json:"prompt_error"`
	ParseError     string          `json:"parse_error"`
	Results        []string        `json:"results"`
	ResultMessages json.RawMessage `json:"result_messages"`
}

func replayRecords() []replayRecord {
	path := filepath.Join(testenv.ModuleRoot(), "fixtures", "oss", "conversations.jsonl.gz")
	f, err := os.Open(path)
	Expect(err).NotTo(HaveOccurred())
	defer f.Close()
	gz, err := gzip.NewReader(f)
	Expect(err).NotTo(HaveOccurred())
	sc := bufio.NewScanner(gz)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	var out []replayRecord
	for sc.Scan() {
		var r replayRecord
		Expect(json.Unmarshal(sc.Bytes(), &r)).To(Succeed())
		out = append(out, r)
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
	return out
}

var _ = Describe("conversations against upstream's classes (hand-written scenarios)", func() {
	It("reproduces every prompt, parsed reply and history message of every class", func() {
		records := replayRecords()
		Expect(records).NotTo(BeEmpty())
		classes := map[string]bool{}
		for _, rec := range records {
			classes[rec.Class] = true
			where := rec.Class + " " + rec.Model + " " + rec.Scenario
			f, ok := oss.ForClass(rec.Class, rec.Model)
			Expect(ok).To(BeTrue(), where)
			var ids []string
			for _, s := range rec.Steps {
				ids = append(ids, s.ToolCallIDs...)
			}
			oss.SetToolCallIDs(f, func() string {
				Expect(ids).NotTo(BeEmpty(), where)
				id := ids[0]
				ids = ids[1:]
				return id
			})
			fns, err := oss.FunctionsFromJSON(rec.Functions)
			Expect(err).NotTo(HaveOccurred())
			turnsV, err := pyval.FromJSON(rec.Turns)
			Expect(err).NotTo(HaveOccurred())
			turnList, err := pyval.ListOf(turnsV)
			Expect(err).NotTo(HaveOccurred())
			turns := make([][]oss.Message, len(turnList))
			for i, t := range turnList {
				turns[i], err = oss.MessagesFromDicts(t)
				Expect(err).NotTo(HaveOccurred())
			}
			heldOut := map[int][]json.RawMessage{}
			for k, docs := range rec.HeldOut {
				t, err := strconv.Atoi(k)
				Expect(err).NotTo(HaveOccurred())
				heldOut[t] = docs
			}
			c, err := oss.NewConversation(f, rec.EntryID, fns, turns, heldOut)
			Expect(err).NotTo(HaveOccurred(), where)
			turn := -1
			for _, s := range rec.Steps {
				at := where + " turn " + strconv.Itoa(s.Turn) + " step " + strconv.Itoa(s.Step)
				for ; turn < s.Turn; turn++ {
					_, err := c.StartTurn(turn + 1)
					Expect(err).NotTo(HaveOccurred(), at)
				}
				Expect(dumpsPy(oss.DictList(c.Messages()))).To(Equal(dumpsPy(mustPy(s.Messages))), at)
				p, err := c.Prompt()
				if s.PromptError != "" {
					Expect(err).To(HaveOccurred(), at+": upstream: "+s.PromptError)
					Expect(err.Error()).To(Equal(strings.SplitN(s.PromptError, ": ", 2)[1]), at)
					break
				}
				Expect(err).NotTo(HaveOccurred(), at)
				Expect(p).To(Equal(s.Prompt), at+": "+firstDiff(p, s.Prompt))
				n := len(c.Messages())
				r, err := c.AddReply(s.Reply)
				if s.ParseError != "" {
					Expect(err).To(HaveOccurred(), at+": upstream: "+s.ParseError)
					break
				}
				Expect(err).NotTo(HaveOccurred(), at)
				Expect(pyval.Repr(r.ModelResponses)).To(Equal(s.ModelResponses), at)
				Expect(r.Reasoning).To(Equal(s.Reasoning), at)
				Expect(nonNil(r.ToolCallIDs)).To(Equal(nonNil(s.ToolCallIDs)), at)
				Expect(dumpsPy(oss.DictList(c.Messages()[n:]))).To(Equal(dumpsPy(mustPy(s.HistoryMessage))), at)

				decoded, derr := decode.DecodeExecuteValue(r.ModelResponses, decode.Options{Spec: decode.Spec{Handler: rec.Class, Mode: decode.ModeFC}})
				if s.DecodeError != "" {
					Expect(derr).To(HaveOccurred(), at+": upstream: "+s.DecodeError)
				} else {
					Expect(derr).NotTo(HaveOccurred(), at)
					Expect(nonNil(decoded)).To(Equal(nonNil(s.Decoded)), at)
				}
				if len(s.Results) > 0 {
					n := len(c.Messages())
					c.AddResults(s.Results, s.Decoded, r)
					Expect(dumpsPy(oss.DictList(c.Messages()[n:]))).To(Equal(dumpsPy(mustPy(s.ResultMessages))), at)
				}
			}
		}
		Expect(len(classes)).To(Equal(25), "classes covered (all but the chat-template ones)")
	})
})

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
