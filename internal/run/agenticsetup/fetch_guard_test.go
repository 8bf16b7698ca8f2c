package agenticsetup_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/run/agenticsetup"
	"github.com/bfcl-go/bfcl/internal/services/websearch"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/sim"
)

var _ = Describe("a model asking for the evaluator's own network", func() {
	It("gets upstream's fetch-error result, the private server no request, and the session goes on", func() {
		var hits atomic.Int64
		private := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.Write([]byte("aws-secret"))
		}))
		defer private.Close()
		off, err := websearch.NewOffline(filepath.Join(testenv.ModuleRoot(), "fixtures", "agentic", "websearch"))
		Expect(err).NotTo(HaveOccurred())
		// the live fetcher as the harness builds it, with the offline searcher
		provider := websearch.Combine(off, websearch.HTTPFetcher{})

		e := &dataset.Entry{ID: "web_search_base_0", Category: "web_search_base", InvolvedClasses: []string{"WebSearchAPI"}}
		cfg, err := agenticsetup.InitialConfig(e, "")
		Expect(err).NotTo(HaveOccurred())
		s := engine.New(&sim.Env{}, engine.Config{ModelName: "m", EntryID: e.ID, Involved: e.InvolvedClasses, InitialConfig: cfg})
		Expect(s.Init()).To(Succeed())
		inst, _ := s.Instance("WebSearchAPI")
		Expect(agenticsetup.Configure(inst, agenticsetup.Options{Search: provider})).To(Succeed())

		url := private.URL + "/latest/meta-data/"
		host := strings.TrimPrefix(private.URL, "http://")
		out := s.Execute([]string{
			"fetch_url_content(url='" + url + "')",
			"search_engine_query(keywords='Zhang Yiming net worth', region='cn-zh')",
		})
		want, _ := json.Marshal(map[string]string{"error": "An error occurred while fetching " + url + `: Get "` + url + `": dial tcp ` + host +
			": refused: 127.0.0.1 is not a public address: loopback (127.0.0.0/8); web fetches may reach public addresses only"})
		Expect(out[0]).To(Equal(strings.ReplaceAll(string(want), `":"`, `": "`)))
		Expect(out[1]).To(ContainSubstring("Zhang Yiming profile"))
		Expect(hits.Load()).To(BeZero())
	})
})
