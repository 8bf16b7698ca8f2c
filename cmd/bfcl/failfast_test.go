package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/testkit/goldserver"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// tinyDataDir writes a three-entry simple_python data set of our own.
func tinyDataDir() string {
	dir := GinkgoT().TempDir()
	Expect(testenv.WriteTinyDataSet(dir)).To(Succeed())
	return dir
}

var _ = Describe("bfcl generate against a server that cannot serve the run", func() {
	var srv *httptest.Server
	BeforeEach(func() {
		srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer good" {
				w.WriteHeader(401)
				w.Write([]byte(`{"error":{"message":"Incorrect API key provided"}}`))
				return
			}
			if r.URL.Path == "/v1/models" {
				w.Write([]byte(`{"data":[{"id":"served"},{"id":"notools"}]}`))
				return
			}
			if body, _ := io.ReadAll(r.Body); strings.Contains(string(body), `"model":"notools"`) && strings.Contains(string(body), `"tools"`) {
				w.WriteHeader(400) // as vLLM answers when started without a tool parser
				w.Write([]byte(`{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","code":400}`))
				return
			}
			w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`))
		}))
		DeferCleanup(srv.Close)
		os.Setenv("BFCL_TEST_KEY", "good")
		DeferCleanup(os.Unsetenv, "BFCL_TEST_KEY")
		os.Setenv("BFCL_TEST_BAD_KEY", "bad")
		DeferCleanup(os.Unsetenv, "BFCL_TEST_BAD_KEY")
		os.Setenv("BFCL_REQUEST_CACHE", "off")
		DeferCleanup(os.Unsetenv, "BFCL_REQUEST_CACHE")
	})
	dead := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		defer l.Close()
		return "http://" + l.Addr().String() + "/v1"
	}
	generate := func(model, base, keyEnv string) (error, time.Duration) {
		dir := GinkgoT().TempDir()
		reg := filepath.Join(dir, "models.yaml")
		where := "base_url: " + base
		if replicas := strings.Split(base, " "); len(replicas) > 1 {
			where = "base_urls: [" + strings.Join(replicas, ", ") + "]"
		}
		Expect(os.WriteFile(reg, []byte(fmt.Sprintf("models:\n  - name: m\n    provider: openai\n    model: %s\n    %s\n    api_key_env: %s\n    concurrency: 2\n", model, where, keyEnv)), 0o644)).To(Succeed())
		start := time.Now()
		err := cmdGenerate([]string{"--model", "m", "--models-file", reg, "--data-dir", tinyDataDir(), "--test-category", "simple_python",
			"--result-dir", filepath.Join(dir, "result"), "--score-dir", filepath.Join(dir, "score")})
		return err, time.Since(start)
	}

	It("runs when the server is fine (the control case)", func() {
		err, _ := generate("served", srv.URL+"/v1", "BFCL_TEST_KEY")
		Expect(err).NotTo(HaveOccurred())
	})

	DescribeTable("ends within seconds, naming the cause",
		func(model string, base func() string, keyEnv, want string) {
			err, took := generate(model, base(), keyEnv)
			Expect(took).To(BeNumerically("<", 5*time.Second))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("a dead URL", "served", dead, "BFCL_TEST_KEY", "cannot reach http://127.0.0.1:"),
		Entry("a wrong key", "served", func() string { return srv.URL + "/v1" }, "BFCL_TEST_BAD_KEY", "refused the API key"),
		Entry("a missing model", "missing", func() string { return srv.URL + "/v1" }, "BFCL_TEST_KEY", `model "missing" is not served by`),
		Entry("a server that refuses tools", "notools", func() string { return srv.URL + "/v1" }, "BFCL_TEST_KEY", "--enable-auto-tool-choice"),
		Entry("a dead replica", "served", func() string { return srv.URL + "/v1 " + dead() }, "BFCL_TEST_KEY", "replica 2 of 2 (http://127.0.0.1:"),
	)
})

// Issue 26, item 12: a 401 with the key's variable unset says so.
var _ = Describe("a refused key", Label("e2e"), func() {
	It("names the unset api_key_env variable", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, `{"error": {"message": "Incorrect API key provided"}}`, http.StatusUnauthorized)
		}))
		defer srv.Close()
		w := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(w, "models.yaml"), []byte("models:\n  - {name: m, provider: openai, model: x, mode: fc, base_url: "+srv.URL+"/v1, api_key_env: BFCL_TEST_UNSET_KEY_26}\n"), 0o644)).To(Succeed())
		r := bfcl(w, cliEnv(needData()), "generate", "--model", "m", "--ids", "simple_python_0")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("refused the API key"))
		Expect(r.stderr).To(ContainSubstring("BFCL_TEST_UNSET_KEY_26, the model's api_key_env, is not set in the environment"))
	})
})

// Issue 26, item 9: a run served entirely from the request cache needs no
// live server.
var _ = Describe("a run from the request cache", Label("e2e"), func() {
	It("runs with the server down when every request is cached, and names the miss otherwise", func() {
		data := needData()
		src, err := dataset.Open(data)
		Expect(err).NotTo(HaveOccurred())
		entries, err := prompt.LoadCategory(src, "simple_javascript")
		Expect(err).NotTo(HaveOccurred())
		srv, err := goldserver.Start(entries[:3], 0)
		Expect(err).NotTo(HaveOccurred())
		w := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(w, "models.yaml"), []byte("models:\n  - {name: served, provider: openai, model: gold, mode: fc, base_url: "+srv.URL+"}\n"), 0o644)).To(Succeed())
		env := append(cliEnv(data), "BFCL_REQUEST_CACHE="+filepath.Join(w, "cache"))
		ids := "simple_javascript_0,simple_javascript_1"
		r := bfcl(w, env, "generate", "--model", "served", "--ids", ids)
		Expect(r.exit).To(Equal(0), r.stderr)
		srv.Close()
		r = bfcl(w, env, "generate", "--model", "served", "--ids", ids, "--allow-overwrite")
		Expect(r.exit).To(Equal(0), r.stderr)
		Expect(r.stderr).To(ContainSubstring("answering from the request cache"))
		Expect(r.stdout).To(MatchRegexp(`simple_javascript\s+non_live\s+2\s+`))
		// an entry whose request is not cached fails, naming why
		r = bfcl(w, env, "generate", "--model", "served", "--ids", "simple_javascript_2")
		Expect(r.exit).To(Equal(1))
		Expect(r.stderr).To(ContainSubstring("not in the request cache, and the server is unreachable"))
	})
})
