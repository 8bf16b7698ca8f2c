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
