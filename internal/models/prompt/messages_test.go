package prompt_test

import (
	"encoding/json"
	"os"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
)

type messageCases struct {
	FirstTurn []struct {
		ID       string            `json:"id"`
		Messages []dataset.Message `json:"messages"`
	} `json:"first_turn"`
	HoldoutFull struct {
		ID      string `json:"id"`
		Turn    int    `json:"turn"`
		Content string `json:"content"`
	} `json:"holdout_full"`
	Holdout []struct {
		ID     string `json:"id"`
		Turn   int    `json:"turn"`
		Digest string `json:"digest"`
	} `json:"holdout"`
	ExecutionResults []struct {
		Results []string `json:"results"`
		Decoded []string `json:"decoded"`
		Content string   `json:"content"`
	} `json:"execution_results"`
}

func loadMessageCases() messageCases {
	b, err := os.ReadFile(fixture("messages.json"))
	Expect(err).NotTo(HaveOccurred())
	var c messageCases
	Expect(json.Unmarshal(b, &c)).To(Succeed())
	return c
}

func findEntry(src *dataset.Source, id string) *dataset.Entry {
	var entries []*dataset.Entry
	var err error
	if _, _, _, ferr := prompt.SplitFormatSensitivityID(id); ferr == nil {
		entries, err = prompt.FormatSensitivityEntries(src)
	} else {
		entries, err = src.Load(category.Category(id[:len(id)-len(lastPart(id))-1]))
	}
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		if e.ID == id {
			return e
		}
	}
	Fail("no entry " + id)
	return nil
}

func lastPart(id string) string {
	for i := len(id) - 1; i >= 0; i-- {
		if id[i] == '_' {
			return id[i+1:]
		}
	}
	return id
}

var _ = Describe("conversation messages", func() {
	It("builds the first turn as system_prompt_pre_processing_chat_model does (with and without a system message)", func() {
		src := openData()
		c := loadMessageCases()
		Expect(c.FirstTurn).To(HaveLen(8))
		merged := 0
		for _, tc := range c.FirstTurn {
			e := findEntry(src, tc.ID)
			view, err := dataset.InferenceView(e)
			Expect(err).NotTo(HaveOccurred())
			if view.Question[0][0].Role == "system" {
				merged++
			}
			got, err := prompt.FirstTurn(e.ID, view.Functions, view.Question[0])
			Expect(err).NotTo(HaveOccurred())
			Expect(got).To(Equal(prompt.Messages(tc.Messages)), tc.ID)
		}
		Expect(merged).To(Equal(3), "cases with an existing system message")
	})

	It("inserts or merges the system prompt without touching the input", func() {
		in := []core.Message{{Role: "system", Content: "S"}, {Role: "user", Content: "U"}}
		out, err := prompt.WithSystemPrompt(in, "P")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal([]core.Message{{Role: "system", Content: "P\n\nS"}, {Role: "user", Content: "U"}}))
		Expect(in[0].Content).To(Equal("S"))
		out, err = prompt.WithSystemPrompt(in[1:], "P")
		Expect(err).NotTo(HaveOccurred())
		Expect(out).To(Equal([]core.Message{{Role: "system", Content: "P"}, {Role: "user", Content: "U"}}))
		_, err = prompt.WithSystemPrompt(nil, "P")
		Expect(err).To(HaveOccurred())
	})

	It("formats the held-out-function turn of every miss_func entry as upstream", func() {
		src := openData()
		c := loadMessageCases()
		entries, err := src.Load("multi_turn_miss_func")
		Expect(err).NotTo(HaveOccurred())
		byID := map[string]*dataset.Entry{}
		for _, e := range entries {
			byID[e.ID] = e
		}
		e := byID[c.HoldoutFull.ID]
		Expect(e).NotTo(BeNil())
		m, err := prompt.HoldoutMessage(e.MissedFuncDocs[c.HoldoutFull.Turn])
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Role).To(Equal("user"))
		Expect(m.Content).To(Equal(c.HoldoutFull.Content))
		Expect(c.Holdout).To(HaveLen(200))
		for _, h := range c.Holdout {
			e := byID[h.ID]
			Expect(e).NotTo(BeNil(), h.ID)
			docs, ok := e.MissedFuncDocs[h.Turn]
			Expect(ok).To(BeTrue(), "%s turn %d", h.ID, h.Turn)
			m, err := prompt.HoldoutMessage(docs)
			Expect(err).NotTo(HaveOccurred())
			Expect(digest(m.Content)).To(Equal(h.Digest), "%s turn %d", h.ID, h.Turn)
		}
	})

	It("returns execution results as format_execution_results_prompting's user message", func() {
		c := loadMessageCases()
		Expect(c.ExecutionResults).To(HaveLen(6))
		for _, tc := range c.ExecutionResults {
			m := prompt.ExecutionResultsMessage(tc.Results, tc.Decoded)
			Expect(m.Role).To(Equal("user"))
			Expect(m.Content).To(Equal(tc.Content))
		}
	})

	It("keeps the assistant answer text", func() {
		Expect(prompt.AssistantMessage("[f(a=1)]")).To(Equal(core.Message{Role: "assistant", Content: "[f(a=1)]"}))
	})
})
