package datafetch_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/datafetch"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/services/netguard"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// upstreamServer serves a local copy of the data set under upstream's
// repository layout, as the raw-file host does, counting requests.
func upstreamServer(local string, hits *int64, corrupt string) *httptest.Server {
	const root = "/" + dataset.UpstreamCommit + "/berkeley-function-call-leaderboard/bfcl_eval/"
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		atomic.AddInt64(hits, 1)
		p, ok := strings.CutPrefix(r.URL.Path, root)
		if !ok {
			http.NotFound(w, r)
			return
		}
		if p == "eval_checker/multi_turn_eval/func_source_code/long_context.py" {
			p = "long_context.py"
		}
		if corrupt != "" && p == corrupt {
			w.Write([]byte("tampered"))
			return
		}
		http.ServeFile(w, r, filepath.Join(local, filepath.FromSlash(p)))
	}))
}

var _ = Describe("Fetch", func() {
	var local string
	BeforeEach(func() {
		dir := testenv.NeedDataDir(GinkgoT(), "BFCL data set")
		local = dir
	})

	It("downloads every file at the pinned commit, verifies it, and is a no-op the second time", func() {
		var hits int64
		srv := upstreamServer(local, &hits, "")
		defer srv.Close()
		dest := GinkgoT().TempDir()
		Expect(datafetch.Fetch(context.Background(), dest, datafetch.Options{BaseURL: srv.URL})).To(Succeed())
		files, err := datafetch.Files()
		Expect(err).NotTo(HaveOccurred())
		Expect(hits).To(BeEquivalentTo(len(files)))
		bad, err := datafetch.Verify(dest)
		Expect(err).NotTo(HaveOccurred())
		Expect(bad).To(BeEmpty())
		_, err = dataset.Open(dest)
		Expect(err).NotTo(HaveOccurred())

		Expect(datafetch.Fetch(context.Background(), dest, datafetch.Options{BaseURL: srv.URL})).To(Succeed())
		Expect(hits).To(BeEquivalentTo(len(files)), "a complete copy must not be downloaded again")

		Expect(os.Remove(filepath.Join(dest, "data", "BFCL_v4_parallel.json"))).To(Succeed())
		Expect(datafetch.Fetch(context.Background(), dest, datafetch.Options{BaseURL: srv.URL})).To(Succeed())
		Expect(hits).To(BeEquivalentTo(len(files) + 1))
	})

	It("refuses a file whose checksum differs", func() {
		var hits int64
		srv := upstreamServer(local, &hits, "data/BFCL_v4_multiple.json")
		defer srv.Close()
		dest := GinkgoT().TempDir()
		err := datafetch.Fetch(context.Background(), dest, datafetch.Options{BaseURL: srv.URL})
		Expect(err).To(MatchError(ContainSubstring("BFCL_v4_multiple.json: SHA-256")))
		_, statErr := os.Stat(filepath.Join(dest, "data", "BFCL_v4_multiple.json"))
		Expect(os.IsNotExist(statErr)).To(BeTrue())
	})

	It("refuses a file longer than MaxFile, without retrying or keeping any of it", func() {
		var hits int64
		srv := upstreamServer(local, &hits, "")
		defer srv.Close()
		dest := GinkgoT().TempDir()
		err := datafetch.Fetch(context.Background(), dest, datafetch.Options{BaseURL: srv.URL, MaxFile: 1024})
		Expect(err).To(MatchError(netguard.ErrTooLarge))
		Expect(err).To(MatchError(ContainSubstring("response body larger than the 1 KiB limit")))
		Expect(hits).To(BeEquivalentTo(1))
		left, err := filepath.Glob(filepath.Join(dest, "*", "*"))
		Expect(err).NotTo(HaveOccurred())
		Expect(left).To(BeEmpty())
	})

	It("covers the shared copy exactly", func() {
		bad, err := datafetch.Verify(local)
		Expect(err).NotTo(HaveOccurred())
		Expect(bad).To(BeEmpty())
	})
})
