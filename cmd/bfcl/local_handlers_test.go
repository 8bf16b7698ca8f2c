package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/oss"
	"github.com/bfcl-go/bfcl/internal/testkit/reqparity"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// fakeCompletions is an OpenAI-compatible /v1/completions server that
// answers each prompt of the reference with the reply upstream's handler
// was given for it, every other prompt with the reference's ending reply,
// and records every body it receives.
type fakeCompletions struct {
	mu      sync.Mutex
	answers map[string]string // formatted prompt -> reply
	bodies  []map[string]any
}

func (f *fakeCompletions) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/completions" {
		http.NotFound(w, r) // no /models, no /tokenize: max_tokens is upstream's 4096
		return
	}
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p, _ := body["prompt"].(string)
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	text, ok := f.answers[p]
	f.mu.Unlock()
	if !ok {
		text = reqparity.DefaultText
	}
	out, _ := json.Marshal(map[string]any{"object": "text_completion",
		"choices": []any{map[string]any{"index": 0, "text": text, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5}})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

var _ = Describe("bfcl generate with upstream's local-model handlers", Label("e2e", "reference"), func() {
	It("sends upstream's formatted prompts byte for byte, and its request bodies, for every local configuration of the reference", func() {
		data, ref := needData(), needReference()
		rows, err := reqparity.LoadAPI(ref, reqparity.APICompletions)
		Expect(err).NotTo(HaveOccurred())
		byKey := map[string][]reqparity.Row{}
		for _, r := range rows {
			byKey[r.HandlerKey] = append(byKey[r.HandlerKey], r)
		}
		Expect(len(byKey)).To(BeNumerically(">=", 24), "the reference's local configurations")
		keys := make([]string, 0, len(byKey))
		for k := range byKey {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var report []string
		for _, key := range keys {
			kept := byKey[key]
			// Entries whose first prompts are equal (multi_turn_base_42 and
			// multi_turn_long_context_42) got different replies upstream,
			// so they run in separate batches; a batch's fake server
			// knows each prompt's reply.
			sent := map[string]map[string]any{}
			for _, batch := range promptBatches(kept) {
				fake := &fakeCompletions{answers: map[string]string{}}
				ids := map[string]bool{}
				for _, r := range batch {
					var answer string
					Expect(json.Unmarshal(r.Answer, &answer)).To(Succeed(), "%s %s: a completions answer is a text", key, r.EntryID)
					fake.answers[r.FormattedPrompt] = answer
					ids[r.EntryID] = true
				}
				srv := httptest.NewServer(fake)
				dir := GinkgoT().TempDir()
				yaml := fmt.Sprintf("models:\n  - name: local-under-test\n    provider: completions\n    upstream: %s\n    base_url: %s/v1\n", key, srv.URL)
				Expect(os.WriteFile(filepath.Join(dir, "models.yaml"), []byte(yaml), 0o644)).To(Succeed())
				idList := make([]string, 0, len(ids))
				for id := range ids {
					idList = append(idList, id)
				}
				sort.Strings(idList)
				res := bfcl(dir, cliEnv(data, "BFCL_MODELS_FILE="+filepath.Join(dir, "models.yaml"),
					"BFCL_WEBSEARCH=offline:"+filepath.Join(testenv.ModuleRoot(), "fixtures", "agentic", "websearch")),
					"generate", "--model", "local-under-test", "--ids", strings.Join(idList, ","),
					"--result-dir", filepath.Join(dir, "result"), "--score-dir", filepath.Join(dir, "score"))
				srv.Close()
				Expect(res.exit).To(Equal(0), "%s: %s\n%s", key, res.stdout, res.stderr)
				for _, b := range fake.bodies {
					sent[b["prompt"].(string)] = b
				}
			}
			f, err := oss.ForRegistry(key)
			Expect(err).NotTo(HaveOccurred())
			equal := 0
			var missing []string
			for _, r := range kept {
				got, ok := sent[r.FormattedPrompt]
				if !ok {
					missing = append(missing, fmt.Sprintf("%s turn %d step %d: %s", r.EntryID, r.Turn, r.Step, closestPrompt(r.FormattedPrompt, sent)))
					continue
				}
				var want map[string]any
				Expect(json.Unmarshal(r.Body, &want)).To(Succeed())
				delete(want, "timeout") // an SDK option, not part of the body
				for k, v := range want {
					if k == "extra_body" {
						for ek, ev := range v.(map[string]any) {
							Expect(got).To(HaveKeyWithValue(ek, ev), "%s %s: extra body %s", key, r.EntryID, ek)
						}
						continue
					}
					Expect(got).To(HaveKeyWithValue(k, v), "%s %s turn %d step %d: body field %s", key, r.EntryID, r.Turn, r.Step, k)
				}
				equal++
			}
			report = append(report, fmt.Sprintf("%s (%s): %d/%d prompts equal", key, f.Class(), equal, len(kept)))
			Expect(missing).To(BeEmpty(), "%s: prompts upstream sent that bfcl-go did not send byte for byte", key)
		}
		AddReportEntry("local-model prompts", strings.Join(report, "\n"))
	})
})

// closestPrompt says where the sent prompt sharing the longest prefix with
// want departs from it.
func closestPrompt(want string, sent map[string]map[string]any) string {
	best, bestN := "", -1
	for p := range sent {
		n := 0
		for n < len(p) && n < len(want) && p[n] == want[n] {
			n++
		}
		if n > bestN {
			best, bestN = p, n
		}
	}
	clip := func(s string, at int) string {
		lo, hi := max(0, at-80), min(len(s), at+160)
		return fmt.Sprintf("%q", s[lo:hi])
	}
	return fmt.Sprintf("the closest prompt sent departs at byte %d of %d:\n  upstream: %s\n  bfcl-go:  %s", bestN, len(want), clip(want, bestN), clip(best, bestN))
}

// promptBatches splits a configuration's kept requests by entry into
// batches in which no prompt has two different replies.
func promptBatches(kept []reqparity.Row) [][]reqparity.Row {
	byEntry := map[string][]reqparity.Row{}
	var order []string
	for _, r := range kept {
		if _, ok := byEntry[r.EntryID]; !ok {
			order = append(order, r.EntryID)
		}
		byEntry[r.EntryID] = append(byEntry[r.EntryID], r)
	}
	var batches [][]reqparity.Row
	var replies []map[string]string
next:
	for _, id := range order {
		for i := range batches {
			fits := true
			for _, r := range byEntry[id] {
				if a, ok := replies[i][r.FormattedPrompt]; ok && a != string(r.Answer) {
					fits = false
				}
			}
			if fits {
				for _, r := range byEntry[id] {
					replies[i][r.FormattedPrompt] = string(r.Answer)
				}
				batches[i] = append(batches[i], byEntry[id]...)
				continue next
			}
		}
		m := map[string]string{}
		for _, r := range byEntry[id] {
			m[r.FormattedPrompt] = string(r.Answer)
		}
		batches, replies = append(batches, byEntry[id]), append(replies, m)
	}
	return batches
}
