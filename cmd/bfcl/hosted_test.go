package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
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
	"github.com/bfcl-go/bfcl/internal/models/upstream"
	"github.com/bfcl-go/bfcl/internal/store/results"
	"github.com/bfcl-go/bfcl/internal/testkit/reqparity"
)

// bfcl generate with the providers of upstream's hosted API handlers,
// through the built binary, against one fake server speaking the four wire
// formats (the drivers' own tests check the request bodies).
var _ = Describe("bfcl generate with a hosted-API provider", Label("e2e"), func() {
	var srv *httptest.Server
	BeforeEach(func() {
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			switch {
			case r.URL.Path == "/v1/chat/completions": // mistral
				fmt.Fprint(w, `{"choices":[{"message":{"role":"assistant","content":"","tool_calls":[{"id":"abcdefghi","type":"function","function":{"name":"f","arguments":"{}"}}]}}],"usage":{"prompt_tokens":10,"completion_tokens":3}}`)
			case r.URL.Path == "/v2/chat": // cohere
				fmt.Fprint(w, `{"message":{"role":"assistant","tool_plan":"Call f.","tool_calls":[{"id":"f_1","type":"function","function":{"name":"f","arguments":"{}"}}]},"usage":{"billed_units":{"input_tokens":10,"output_tokens":3}}}`)
			case strings.HasPrefix(r.URL.Path, "/model/") && strings.HasSuffix(r.URL.Path, "/converse"): // bedrock
				if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
					w.WriteHeader(403)
					fmt.Fprint(w, `{"message":"Missing Authentication Token"}`)
					return
				}
				fmt.Fprint(w, `{"output":{"message":{"role":"assistant","content":[{"toolUse":{"toolUseId":"t1","name":"f","input":{}}}]}},"usage":{"inputTokens":10,"outputTokens":3}}`)
			case r.URL.Path == "/compatible-mode/v1/chat/completions": // qwen
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}\n\n"+
					"data: {\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":3}}\n\ndata: [DONE]\n\n")
			default:
				w.WriteHeader(404)
			}
		}))
		DeferCleanup(srv.Close)
	})

	registry := func(dir string, keyed bool) string {
		key := ""
		if keyed {
			key = "    api_key_env: HOSTED_TEST_KEY\n"
		}
		y := "models:\n"
		for _, m := range []struct{ provider, model, base string }{
			{"mistral", "mistral-large-2411", srv.URL},
			{"cohere", "command-a-03-2025", srv.URL},
			{"bedrock", "us.amazon.nova-pro-v1:0", srv.URL},
			{"qwen", "qwen3-8b", srv.URL + "/compatible-mode/v1"},
		} {
			y += fmt.Sprintf("  - name: h-%s\n    provider: %s\n    model: %s\n    base_url: %s\n%s", m.provider, m.provider, m.model, m.base, key)
		}
		path := filepath.Join(dir, "models.yaml")
		Expect(os.WriteFile(path, []byte(y), 0o644)).To(Succeed())
		return path
	}
	// env is the environment without any provider credential.
	env := func(data string, extra ...string) []string {
		var out []string
		for _, kv := range cliEnv(data) {
			switch strings.SplitN(kv, "=", 2)[0] {
			case "MISTRAL_API_KEY", "COHERE_API_KEY", "QWEN_API_KEY", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
				"AWS_PROFILE", "AWS_SSO_PROFILE_NAME", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "AWS_REGION":
				continue
			}
			out = append(out, kv)
		}
		out = append(out, "AWS_CONFIG_FILE=/nonexistent/bfcl-test/config", "AWS_SHARED_CREDENTIALS_FILE=/nonexistent/bfcl-test/credentials",
			"AWS_EC2_METADATA_DISABLED=true")
		return append(out, extra...)
	}

	It("runs each provider's model and stores the answers as its upstream handler does", func() {
		w := GinkgoT().TempDir()
		data := tinyDataDir()
		reg := registry(w, true)
		want := map[string]string{
			"h-mistral": `[{"f": "{}"}]`,
			"h-cohere":  `[{"tool_name": "f", "parameters": {}}]`,
			"h-bedrock": `[{"f": {}}]`,
			"h-qwen":    `[{"f": "{}"}]`,
		}
		r := bfcl(w, env(data, "HOSTED_TEST_KEY=k", "AWS_ACCESS_KEY_ID=AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY=secret"),
			"generate", "--model", "h-mistral,h-cohere,h-bedrock,h-qwen", "--models-file", reg, "--test-category", "simple_python")
		Expect(r.exit).To(Equal(0), "%s", r.stderr)
		for name, res := range want {
			recs, err := results.Read(results.Path(filepath.Join(w, "result"), name, category.SimplePython))
			Expect(err).NotTo(HaveOccurred(), name)
			Expect(recs).To(HaveLen(3), name)
			for _, rec := range recs {
				Expect(string(rec.Result)).To(MatchJSON(res), name)
			}
		}
		Expect(strings.Count(r.stdout, "100.00%")).To(BeNumerically(">=", 4), "every model passes the three entries:\n%s", r.stdout)
		Expect(r.stderr).NotTo(ContainSubstring("pass 0.0%"), "the run's own verdicts decode with the handler too")
	})

	It("names the missing credential in one line, within a second, before any request", func() {
		w := GinkgoT().TempDir()
		data := tinyDataDir()
		reg := registry(w, false)
		for name, variable := range map[string]string{"h-mistral": "MISTRAL_API_KEY", "h-cohere": "COHERE_API_KEY", "h-qwen": "QWEN_API_KEY",
			"h-bedrock": "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"} {
			start := time.Now()
			r := bfcl(w, env(data), "generate", "--model", name, "--models-file", reg, "--test-category", "simple_python")
			took := time.Since(start)
			Expect(r.exit).To(Equal(1), name)
			Expect(r.stderr).To(ContainSubstring(variable), name)
			Expect(strings.Count(strings.TrimSpace(r.stderr), "\n")).To(BeNumerically("<=", 1), "%s: %q", name, r.stderr)
			Expect(took).To(BeNumerically("<", 2*time.Second), "%s took %v (binary start included)", name, took)
			GinkgoWriter.Printf("%s: failed in %v: %s", name, took, r.stderr)
		}
	})
})

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

// Issue 23: `bfcl generate --model <name>` works for every entry of
// upstream's registry, or names what is missing in one line within a
// second. Every entry is run by its registry name with no credential set
// and every address variable pointing at a closed port: the run must stop
// before any request, naming the key variable its handler reads, or (when
// the handler needs no key, as local servers and fixed-key handlers) at the
// probe of that dead address.
var _ = Describe("every model of upstream's registry", Label("e2e"), func() {
	It("runs by its registry name, or stops in one line within a second naming what is missing", func() {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		deadAddr := l.Addr().String()
		Expect(l.Close()).To(Succeed())
		dead := "http://" + deadAddr + "/v1"

		// No credential anywhere; every address a handler reads points at
		// the closed port.
		vars := map[string]bool{"AWS_ACCESS_KEY_ID": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_SESSION_TOKEN": true,
			"AWS_PROFILE": true, "GEMINI_API_KEY": true, "LOCAL_SERVER_ENDPOINT": true, "LOCAL_SERVER_PORT": true}
		addrs := map[string]bool{}
		for _, e := range upstream.All() {
			t, err := upstream.TransportOf(e)
			Expect(err).NotTo(HaveOccurred(), e.Name)
			if t.KeyEnv != "" {
				vars[t.KeyEnv] = true
			}
			if t.BaseURLEnv != "" {
				addrs[t.BaseURLEnv] = true
			}
		}
		for v := range vars {
			if old, ok := os.LookupEnv(v); ok {
				DeferCleanup(os.Setenv, v, old)
				os.Unsetenv(v)
			}
		}
		for v := range addrs {
			old, had := os.LookupEnv(v)
			os.Setenv(v, dead)
			if had {
				DeferCleanup(os.Setenv, v, old)
			} else {
				DeferCleanup(os.Unsetenv, v)
			}
		}
		os.Setenv("BFCL_REQUEST_CACHE", "off")
		DeferCleanup(os.Unsetenv, "BFCL_REQUEST_CACHE")
		w := GinkgoT().TempDir()
		empty := filepath.Join(w, "models.yaml") // no entry shadows a registry name
		Expect(os.WriteFile(empty, []byte("models:\n  - name: unrelated-entry\n    provider: ollama\n    model: x\n"), 0o644)).To(Succeed())
		os.Setenv("BFCL_MODELS_FILE", empty)
		DeferCleanup(os.Unsetenv, "BFCL_MODELS_FILE")

		data := tinyDataDir()
		var failures []string
		for i, e := range upstream.All() {
			t, _ := upstream.TransportOf(e)
			args := []string{"--model", e.Name, "--data-dir", data, "--test-category", "simple_python",
				"--result-dir", filepath.Join(w, fmt.Sprint(i), "result"), "--score-dir", filepath.Join(w, fmt.Sprint(i), "score"), "--no-report"}
			if t.BaseURLEnv == "" && t.KeyEnv == "" && t.Provider != "bedrock" {
				// a fixed address and no key (GorillaHandler's server,
				// FunctionaryHandler's localhost:8000): the same handler at
				// the dead address, through a models.yaml entry.
				reg := filepath.Join(w, fmt.Sprint(i), "models.yaml")
				Expect(os.MkdirAll(filepath.Dir(reg), 0o755)).To(Succeed())
				Expect(os.WriteFile(reg, []byte(fmt.Sprintf("models:\n  - name: m\n    upstream: %q\n    base_url: %s\n", e.Name, dead)), 0o644)).To(Succeed())
				args = append(args[:0:0], "--model", "m", "--models-file", reg)
				args = append(args, "--data-dir", data, "--test-category", "simple_python",
					"--result-dir", filepath.Join(w, fmt.Sprint(i), "result"), "--score-dir", filepath.Join(w, fmt.Sprint(i), "score"), "--no-report")
			}
			start := time.Now()
			err := cmdGenerate(args)
			took := time.Since(start)
			var want string
			switch {
			case e.Handler == "Falcon3FCHandler": // the prompt is the model's own chat template
				want = "tokenizer_config.json"
			case t.Provider == "bedrock":
				want = "AWS_ACCESS_KEY_ID"
			case t.KeyEnv != "" && t.Key == "":
				want = t.KeyEnv
			default:
				want = deadAddr
			}
			switch {
			case err == nil:
				failures = append(failures, e.Name+": ran with no credential and a dead server")
			case !strings.Contains(err.Error(), want):
				failures = append(failures, fmt.Sprintf("%s (%s): error does not name %s: %v", e.Name, e.Handler, want, err))
			case strings.Contains(strings.TrimSpace(err.Error()), "\n"):
				failures = append(failures, fmt.Sprintf("%s: error of several lines: %q", e.Name, err))
			case took > time.Second:
				failures = append(failures, fmt.Sprintf("%s: stopped after %v", e.Name, took))
			}
		}
		Expect(failures).To(BeEmpty(), "%d of %d registry entries:\n%s", len(failures), len(upstream.All()), strings.Join(failures, "\n"))
	})
})
