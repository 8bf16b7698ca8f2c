package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/reqparity"
)

// upstreamFake answers the requests of upstream's recorded run of a
// handler class (fixtures/drivers/upstream): a request equal in value to a
// recorded one not yet answered gets that one's reply; anything else gets
// a 400 naming the closest difference, which fails the run.
type upstreamFake struct {
	mu      sync.Mutex
	run     *drivertest.UpstreamRun
	served  string // the model id the probe's list names
	used    map[[2]int]bool
	headers []http.Header
	paths   []string
	strays  []string
}

func jsonOf(b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

func (f *upstreamFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	// the chat driver's pre-run probe (no request of upstream's): the model
	// list, and a one-token "Say OK." offering a tool
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models") {
		fmt.Fprintf(w, `{"object":"list","data":[{"id":%q}]}`, f.served)
		return
	}
	if bytes.Contains(body, []byte(`"max_tokens":1`)) { // upstream's requests have no max_tokens
		fmt.Fprint(w, `{"choices":[{"index":0,"message":{"role":"assistant","content":"OK"}}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`)
		return
	}
	got := jsonOf(body)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.headers, f.paths = append(f.headers, r.Header.Clone()), append(f.paths, r.URL.Path)
	closest := ""
	for i, c := range f.run.Cases {
		for j, ex := range c.Exchanges {
			if f.used[[2]int{i, j}] {
				continue
			}
			d := reqparity.Diff(got, jsonOf(ex.Body))
			if d == "" {
				f.used[[2]int{i, j}] = true
				_, _ = w.Write(ex.Reply)
				return
			}
			if closest == "" || len(d) < len(closest) {
				closest = c.ID + fmt.Sprintf(" request %d: ", j+1) + d
			}
		}
	}
	f.strays = append(f.strays, closest)
	w.WriteHeader(http.StatusBadRequest)
	fmt.Fprintf(w, `{"error": %q}`, "not a request upstream sent; closest: "+closest)
}

// unanswered lists the recorded requests bfcl-go did not send.
func (f *upstreamFake) unanswered() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for i, c := range f.run.Cases {
		for j := range c.Exchanges {
			if !f.used[[2]int{i, j}] {
				out = append(out, fmt.Sprintf("%s request %d", c.ID, j+1))
			}
		}
	}
	return out
}

// bfcl generate with upstream registry names of the Writer and Gorilla
// APIs and of OpenAI-compatible subclasses that change the request
// (FireworksHandler, NanbeigeAPIHandler, NemotronHandler; MiningHandler's
// FC mode and DMCitoHandler's prompt mode): the requests equal those
// upstream's handler classes sent for the same entries and replies, the
// stored results too.
var _ = Describe("bfcl generate with upstream's Writer, Gorilla, Fireworks, Nanbeige, Nemotron, Mining and DM-Cito models", Label("e2e"), func() {
	for _, c := range []struct {
		class, model, urlEnv, urlPath, yaml string
		env                                 []string
		// then checks more of the run in work (its results in work/result)
		then func(work string, env []string)
	}{
		{class: "WriterHandler", model: "palmyra-x-004", urlEnv: "WRITER_BASE_URL", env: []string{"WRITER_API_KEY=wk"}},
		{class: "MiningHandler", model: "xiaoming-14B", urlEnv: "MINING_BASE_URL", urlPath: "/v1", env: []string{"MINING_API_KEY=mk"}},
		// prompt mode: MiningHandler's system prompt and <tool_calls> parser
		{class: "DMCitoHandler", model: "DM-Cito-8B-v3", urlEnv: "DMCITO_BASE_URL", urlPath: "/v1", env: []string{"DMCITO_API_KEY=dk"},
			then: dmCitoScores},
		// no variable moves these handlers' servers: a models.yaml entry of
		// the registry name with its own base_url (and key variable)
		{class: "GorillaHandler", model: "gorilla-local", yaml: "- {name: gorilla-local, upstream: gorilla-openfunctions-v2, base_url: %s/v1}"},
		{class: "FireworksHandler", model: "firefunction-local", env: []string{"FW_TEST_KEY=fk"},
			yaml: "- {name: firefunction-local, upstream: firefunction-v2-FC, base_url: %s/inference/v1, api_key_env: FW_TEST_KEY}"},
		{class: "NanbeigeAPIHandler", model: "nanbeige-local", env: []string{"NBG_TEST_KEY=nk"},
			yaml: "- {name: nanbeige-local, upstream: Nanbeige3.5-Pro-Thinking-FC, base_url: %s/api/gpt/open/chat/openai/v1, api_key_env: NBG_TEST_KEY}"},
		{class: "NemotronHandler", model: "nemotron-local", env: []string{"NV_TEST_KEY=vk"},
			yaml: "- {name: nemotron-local, upstream: nvidia/llama-3.1-nemotron-ultra-253b-v1, base_url: %s/v1, api_key_env: NV_TEST_KEY}"},
	} {
		It(c.class+" via "+c.model, func() {
			data := needData()
			run, err := drivertest.LoadUpstreamRun(c.class)
			Expect(err).NotTo(HaveOccurred())
			fake := &upstreamFake{run: run, served: run.Model, used: map[[2]int]bool{}}
			srv := httptest.NewServer(fake)
			defer srv.Close()
			work := GinkgoT().TempDir()
			extra := append([]string{"BFCL_PROJECT_ROOT=" + work}, c.env...)
			if c.urlEnv != "" {
				extra = append(extra, c.urlEnv+"="+srv.URL+c.urlPath)
			}
			if c.yaml != "" {
				p := filepath.Join(work, "models.yaml")
				Expect(os.WriteFile(p, []byte("models:\n"+fmt.Sprintf(c.yaml, srv.URL)+"\n"), 0o644)).To(Succeed())
				extra = append(extra, "BFCL_MODELS_FILE="+p)
			}
			var ids []string
			for _, k := range run.Cases {
				ids = append(ids, k.ID)
			}
			r := bfcl(work, cliEnv(data, extra...), "generate", "--model", c.model, "--ids", strings.Join(ids, ","),
				"--result-dir", filepath.Join(work, "result"), "--num-threads", "2")
			Expect(r.exit).To(Equal(0), "%s\nrequests upstream did not send: %v", r.stderr, fake.strays)
			Expect(fake.strays).To(BeEmpty())
			Expect(fake.unanswered()).To(BeEmpty(), "requests upstream sent that bfcl-go did not")
			want := run.Cases[0].Exchanges[0]
			u, err := url.Parse(want.URL)
			Expect(err).NotTo(HaveOccurred())
			for i, h := range fake.headers {
				Expect(fake.paths[i]).To(Equal(u.Path), "upstream's path under the fake's root")
				for k, v := range want.Headers {
					Expect(h.Get(k)).To(Equal(v), "header %s", k)
				}
			}
			for _, k := range run.Cases {
				cat, err := category.FromEntryID(k.ID)
				Expect(err).NotTo(HaveOccurred(), k.ID)
				recs, err := results.Read(results.Path(filepath.Join(work, "result"), c.model, cat))
				Expect(err).NotTo(HaveOccurred(), k.ID)
				found := false
				for _, rec := range recs {
					if rec.ID == k.ID {
						found = true
						Expect(reqparity.Diff(jsonOf(rec.Result), jsonOf(k.Result))).To(BeEmpty(), "%s: stored result", k.ID)
					}
				}
				Expect(found).To(BeTrue(), k.ID)
			}
			if c.then != nil {
				c.then(work, cliEnv(data, extra...))
			}
		})
	}

	It("names WRITER_API_KEY in one line, within a second, before any request", func() {
		w := GinkgoT().TempDir()
		data := tinyDataDir()
		var hits int
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits++; w.WriteHeader(500) }))
		defer srv.Close()
		var env []string
		for _, kv := range cliEnv(data, "WRITER_BASE_URL="+srv.URL) {
			if !strings.HasPrefix(kv, "WRITER_API_KEY=") {
				env = append(env, kv)
			}
		}
		start := time.Now()
		r := bfcl(w, env, "generate", "--model", "palmyra-x-004", "--test-category", "simple_python")
		took := time.Since(start)
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("WRITER_API_KEY"))
		Expect(strings.Count(strings.TrimSpace(r.stderr), "\n")).To(BeNumerically("<=", 1), "%q", r.stderr)
		Expect(took).To(BeNumerically("<", 2*time.Second), "took %v (binary start included)", took)
		Expect(hits).To(BeZero())
		GinkgoWriter.Printf("palmyra-x-004 without a key: failed in %v: %s", took, r.stderr)
	})
})

// dmCitoScores: DMCitoHandler's stored answers keep no reasoning (upstream's
// parser drops the reply's reasoning_content) and score through the
// name_arguments decoders.
func dmCitoScores(work string, env []string) {
	r := bfcl(work, env, "evaluate", "--model", "DM-Cito-8B-v3", "--result-dir", filepath.Join(work, "result"),
		"--score-dir", filepath.Join(work, "score"), "--partial-eval")
	GinkgoWriter.Println(r.stdout, r.stderr)
	Expect(r.exit).To(Equal(0), r.stderr)
	// right calls (simple_python_0, parallel_0's dotted names), an <answer>
	// text (irrelevance_0: no call), the wrong city (live_simple_58-27-0),
	// multi_turn_base_100's calls; multi_turn_miss_func_100 answers nothing
	// at its first turn
	for cat, score := range map[string]string{"simple_python": "100.00%  (1/1)", "parallel": "100.00%  (1/1)", "irrelevance": "100.00%  (1/1)",
		"live_simple": "0.00%  (0/1)", "multi_turn_base": "100.00%  (1/1)", "multi_turn_miss_func": "0.00%  (0/1)"} {
		Expect(r.stdout+r.stderr).To(MatchRegexp(`DM-Cito-8B-v3 %s +%s`, cat, regexp.QuoteMeta(score)), cat)
	}
	summary, err := os.ReadFile(filepath.Join(work, "score", "summary.json"))
	Expect(err).NotTo(HaveOccurred())
	Expect(string(summary)).NotTo(ContainSubstring("not upstream's requests"))
	recs, err := results.Read(results.Path(filepath.Join(work, "result"), "DM-Cito-8B-v3", mustCategory("simple_python_0")))
	Expect(err).NotTo(HaveOccurred())
	Expect(recs).To(HaveLen(1))
	Expect(recs[0].ReasoningContent).To(BeEmpty(), "the reply's reasoning_content is not stored")
}

func mustCategory(id string) category.Category {
	c, err := category.FromEntryID(id)
	Expect(err).NotTo(HaveOccurred(), id)
	return c
}
