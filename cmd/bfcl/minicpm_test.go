package main

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// MiniCPM3-4B-FC through the built binary, upstream's spelling: the prompts
// sent must be the ones upstream's MiniCPMFCHandler builds (digests in
// fixtures/minicpm/prompts.jsonl.gz, see its README), with the class's
// stop_token_ids and skip_special_tokens.
var _ = Describe("bfcl generate --model openbmb/MiniCPM3-4B-FC", Label("e2e"), func() {
	It("sends upstream's MiniCPM-FC prompts, function listings included, with its extra body", func() {
		data := needData()
		ids := []string{"simple_python_2", "simple_java_0", "live_multiple_0-0-0", "multi_turn_base_0", "multi_turn_miss_func_0"}
		want := map[string]bool{} // digests of the prompts upstream built for these entries
		f, err := os.Open(filepath.Join(testenv.ModuleRoot(), "fixtures", "minicpm", "prompts.jsonl.gz"))
		Expect(err).NotTo(HaveOccurred())
		defer f.Close()
		zr, err := gzip.NewReader(f)
		Expect(err).NotTo(HaveOccurred())
		sc := bufio.NewScanner(zr)
		for sc.Scan() {
			var d struct {
				Entry  string `json:"entry"`
				SHA256 string `json:"sha256"`
			}
			Expect(json.Unmarshal(sc.Bytes(), &d)).To(Succeed())
			for _, id := range ids {
				if d.Entry == id {
					want[d.SHA256] = true
				}
			}
		}
		Expect(want).To(HaveLen(12)) // every turn of each entry

		work := GinkgoT().TempDir()
		fake := &fakeCompletions{answers: map[string]string{}}
		srv := httptest.NewServer(fake)
		defer srv.Close()
		r := bfcl(work, cliEnv(data, "BFCL_PROJECT_ROOT="+work, "REMOTE_OPENAI_BASE_URL="+srv.URL+"/v1"),
			"generate", "--model", "openbmb/MiniCPM3-4B-FC", "--backend", "vllm", "--skip-server-setup",
			"--ids", "simple_python_2,simple_java_0,live_multiple_0-0-0,multi_turn_base_0,multi_turn_miss_func_0",
			"--result-dir", filepath.Join(work, "result"), "--score-dir", filepath.Join(work, "score"))
		Expect(r.exit).To(Equal(0), r.stdout+r.stderr)

		sent := map[string]bool{}
		for _, b := range fake.bodies {
			p, _ := b["prompt"].(string)
			if p == "Hi" {
				continue // the driver's probe of the server
			}
			sum := sha256.Sum256([]byte(p))
			sent[hex.EncodeToString(sum[:])[:32]] = true
			Expect(p).To(HavePrefix("<|im_start|>system\n# Functions\nHere is a list of functions that you can invoke:\n```python\nfrom enum import Enum\n"))
			Expect(b).To(HaveKeyWithValue("model", "openbmb/MiniCPM3-4B"))
			Expect(b).To(HaveKeyWithValue("stop_token_ids", []any{2.0, 73440.0}))
			Expect(b).To(HaveKeyWithValue("skip_special_tokens", false))
			Expect(b).To(HaveKeyWithValue("max_tokens", 4096.0))
		}
		for d := range want {
			Expect(sent).To(HaveKey(d), "a prompt upstream built was not sent byte for byte")
		}
	})
})
