package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/store/results"
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
