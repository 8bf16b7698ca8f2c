package openai_test

import (
	"context"
	"net/http"
	"net/http/httptest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/openai"
)

var _ = Describe("DMCitoHandler's prompt mode (MiningHandler's parser)", func() {
	complete := func(handler, mode, message string) (core.Response, int, error) {
		calls := 0
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			calls++
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"choices":[{"index":0,"finish_reason":"stop","message":` + message + `}],"usage":{"prompt_tokens":3,"completion_tokens":2}}`))
		}))
		defer srv.Close()
		d, err := openai.New(core.Config{Model: "DM-Cito-8B-v3", Mode: mode, Handler: handler, BaseURL: srv.URL, APIKey: "dk"})
		Expect(err).NotTo(HaveOccurred())
		resp, err := d.Complete(context.Background(), core.Request{Messages: []core.Message{{Role: core.RoleUser, Content: "hi"}}})
		return resp, calls, err
	}
	It("fails, without retrying, on an answer without content (upstream's re.search raises TypeError)", func() {
		_, calls, err := complete("DMCitoHandler", core.ModePrompt, `{"role":"assistant","content":null}`)
		Expect(err).To(MatchError(ContainSubstring("DMCitoHandler reads the answer from the message content, which is not a string here")))
		Expect(calls).To(Equal(1))
		_, _, err = complete("MiningHandler", core.ModePrompt, `{"role":"assistant"}`)
		Expect(err).To(MatchError(ContainSubstring("MiningHandler reads the answer")))
	})
	It("keeps the message as returned for the history; FC mode and other classes read no content", func() {
		resp, _, err := complete("DMCitoHandler", core.ModePrompt, `{"role":"assistant","content":"<answer>\nx\n</answer>","reasoning_content":"r"}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(resp.Replay)).To(Equal(`{"role":"assistant","content":"<answer>\nx\n</answer>","reasoning_content":"r"}`))
		_, _, err = complete("MiningHandler", core.ModeFC, `{"role":"assistant","content":null,"tool_calls":[]}`)
		Expect(err).NotTo(HaveOccurred())
		_, _, err = complete("OpenAICompletionsHandler", core.ModePrompt, `{"role":"assistant","content":null}`)
		Expect(err).NotTo(HaveOccurred())
	})
})
