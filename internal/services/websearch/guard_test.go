package websearch_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/services/netguard"
	"github.com/bfcl-go/bfcl/internal/services/websearch"
)

func addrPortOf(srv *httptest.Server) netip.AddrPort {
	u, err := url.Parse(srv.URL)
	Expect(err).NotTo(HaveOccurred())
	return netip.MustParseAddrPort(u.Host)
}

func portOf(srv *httptest.Server) string {
	return strconv.Itoa(int(addrPortOf(srv).Port()))
}

// Every server here is on loopback: "the public web" is one of them,
// marked public through the Policy the fetcher itself uses; the other is
// the evaluator's own network, which the model must not reach.
var _ = Describe("HTTPFetcher destination policy", func() {
	var (
		public, private *httptest.Server
		privateHits     atomic.Int64
		policy          *netguard.Policy
	)
	BeforeEach(func() {
		privateHits.Store(0)
		private = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			privateHits.Add(1)
			io.WriteString(w, "internal credentials")
		}))
		DeferCleanup(private.Close)
		public = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/redirect":
				http.Redirect(w, r, private.URL+"/latest/meta-data/", http.StatusFound)
			case "/big":
				io.WriteString(w, strings.Repeat("x", 2048))
			default:
				io.WriteString(w, "<p>public page</p>")
			}
		}))
		DeferCleanup(public.Close)
		policy = &netguard.Policy{
			Public: []netip.AddrPort{addrPortOf(public)},
			Lookup: func(_ context.Context, _, host string) ([]netip.Addr, error) {
				if host == "metadata.internal.test" {
					return []netip.Addr{addrPortOf(private).Addr()}, nil
				}
				return nil, errors.New("no such host")
			},
		}
	})
	paths := func() map[string]string {
		return map[string]string{
			"direct":   private.URL + "/latest/meta-data/",
			"hostname": "http://metadata.internal.test:" + portOf(private) + "/latest/meta-data/",
			"redirect": public.URL + "/redirect",
		}
	}

	It("fetches the public server", func() {
		p, err := websearch.HTTPFetcher{Policy: policy}.Fetch(context.Background(), public.URL+"/")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Text).To(Equal("<p>public page</p>"))
	})

	It("refuses the private server on every path, which receives no request", func() {
		for name, u := range paths() {
			_, err := websearch.HTTPFetcher{Policy: policy}.Fetch(context.Background(), u)
			Expect(err).To(MatchError(netguard.ErrRefused), name)
			Expect(err.Error()).To(ContainSubstring("127.0.0.1 is not a public address: loopback (127.0.0.0/8); web fetches may reach public addresses only"), name)
		}
		Expect(privateHits.Load()).To(BeZero())
	})

	It("lets the same fetches through with the opt-in", func() {
		policy.AllowPrivate = true
		for name, u := range paths() {
			p, err := websearch.HTTPFetcher{Policy: policy}.Fetch(context.Background(), u)
			Expect(err).NotTo(HaveOccurred(), name)
			Expect(p.Text).To(Equal("internal credentials"), name)
		}
		Expect(privateHits.Load()).To(BeEquivalentTo(3))
	})

	It("refuses a page larger than MaxBody", func() {
		_, err := websearch.HTTPFetcher{Policy: policy, MaxBody: 1024}.Fetch(context.Background(), public.URL+"/big")
		Expect(err).To(MatchError("response body larger than the 1 KiB limit"))
	})

	It("defaults to public-only; a policy with AllowPrivate is the opt-in", func() {
		_, err := websearch.HTTPFetcher{}.Fetch(context.Background(), private.URL+"/")
		Expect(err).To(MatchError(netguard.ErrRefused))
		Expect(privateHits.Load()).To(BeZero())
		p, err := websearch.HTTPFetcher{Policy: &netguard.Policy{AllowPrivate: true}}.Fetch(context.Background(), private.URL+"/")
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Text).To(Equal("internal credentials"))
	})
})
