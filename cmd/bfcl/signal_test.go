//go:build unix

package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Issue 26, item 12: a run stopped by a signal (Ctrl-C, or the SIGTERM a
// Slurm or Kubernetes job gets before it is killed) reports exactly what it
// stored, keeps it, and the same command resumes without asking again.
var _ = Describe("bfcl generate stopped by a signal", func() {
	DescribeTable("stores what was answered, says so, and resumes",
		func(sig syscall.Signal) {
			data := tinyDataDir() // three simple_python entries
			var calls atomic.Int32
			blocked, release := make(chan struct{}), make(chan struct{})
			var once sync.Once
			answer := []byte(`{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}}]}`)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/v1/models" {
					w.Write([]byte(`{"data":[{"id":"served"}]}`))
					return
				}
				body, _ := io.ReadAll(r.Body)
				if !bytes.Contains(body, []byte(`"content":"q`)) { // the pre-run probe, not an entry's question
					w.Write(answer)
					return
				}
				if calls.Add(1) > 1 { // the first entry is answered; the next waits for the signal
					once.Do(func() { close(blocked) })
					select {
					case <-r.Context().Done():
					case <-release:
					}
					return
				}
				w.Write(answer)
			}))
			DeferCleanup(srv.Close)
			DeferCleanup(func() { close(release) }) // runs before Close

			dir := GinkgoT().TempDir()
			reg := filepath.Join(dir, "models.yaml")
			Expect(os.WriteFile(reg, []byte(fmt.Sprintf("models:\n  - name: m\n    provider: openai\n    model: served\n    base_url: %s/v1\n    api_key_env: BFCL_TEST_KEY\n    concurrency: 1\n", srv.URL)), 0o644)).To(Succeed())
			args := []string{"generate", "--model", "m", "--models-file", reg, "--data-dir", data, "--test-category", "simple_python",
				"--result-dir", filepath.Join(dir, "result"), "--score-dir", filepath.Join(dir, "score"), "--no-report"}
			env := cliEnv(data, "BFCL_TEST_KEY=k")
			resultFile := filepath.Join(dir, "result", "m", "non_live", "BFCL_v4_simple_python_result.json")

			cmd := exec.Command(bfclBin, args...)
			cmd.Dir, cmd.Env = dir, env
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stderr, &stderr
			Expect(cmd.Start()).To(Succeed())
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			Eventually(blocked).WithTimeout(60 * time.Second).Should(BeClosed())
			Expect(cmd.Process.Signal(sig)).To(Succeed())
			var err error
			Eventually(exited).WithTimeout(20 * time.Second).Should(Receive(&err))
			Expect(err).To(HaveOccurred(), "an interrupted run must not exit 0:\n%s", stderr.String())
			Expect(stderr.String()).To(ContainSubstring("interrupted: 1 of 3 entries stored; rerun the same command to resume"), "%s", stderr.String())
			Expect(readLines(resultFile)).To(HaveLen(1), "the run reported 1 entry stored:\n%s", stderr.String())

			calls.Store(-100) // the rerun's server answers everything
			again := bfcl(dir, env, args...)
			Expect(again.exit).To(Equal(0), again.stderr)
			Expect(calls.Load()).To(Equal(int32(-98)), "the rerun asked again for a stored entry")
			Expect(readLines(resultFile)).To(HaveLen(3))
		},
		Entry("Ctrl-C (SIGINT)", syscall.SIGINT),
		Entry("SIGTERM (Slurm, Kubernetes)", syscall.SIGTERM),
	)
})
