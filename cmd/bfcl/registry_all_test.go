package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/upstream"
)

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
