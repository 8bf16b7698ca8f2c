package netguard_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/bfcl-go/bfcl/internal/services/netguard"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// counted is a test server that counts the requests it receives.
type counted struct {
	*httptest.Server
	hits atomic.Int64
}

func serve(h http.HandlerFunc) *counted {
	c := &counted{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.hits.Add(1)
		h(w, r)
	}))
	DeferCleanup(c.Close)
	return c
}

func (c *counted) addrPort() netip.AddrPort {
	u, err := url.Parse(c.URL)
	Expect(err).NotTo(HaveOccurred())
	return netip.MustParseAddrPort(u.Host)
}

func get(c *http.Client, u string) (string, error) {
	resp, err := c.Get(u)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := netguard.ReadAll(resp.Body, 0)
	return string(b), err
}

var _ = Describe("NewClient", func() {
	var public, private *counted
	var policy netguard.Policy
	BeforeEach(func() {
		private = serve(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secret") })
		public = serve(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case "/to-private":
				http.Redirect(w, r, private.URL+"/", http.StatusFound)
			case "/to-file":
				http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
			case "/loop":
				http.Redirect(w, r, "/loop", http.StatusFound)
			default:
				io.WriteString(w, "hello")
			}
		})
		policy = netguard.Policy{
			Public: []netip.AddrPort{public.addrPort()},
			Lookup: func(_ context.Context, _, host string) ([]netip.Addr, error) {
				switch host {
				case "public.test":
					return []netip.Addr{public.addrPort().Addr()}, nil
				case "intranet.test":
					return []netip.Addr{private.addrPort().Addr()}, nil
				}
				return nil, errors.New("no such host")
			},
		}
	})

	It("fetches from the public server, by address and by name", func() {
		c := policy.NewClient(netguard.ClientOptions{})
		Expect(get(c, public.URL+"/")).To(Equal("hello"))
		Expect(get(c, "http://public.test:"+portOf(public)+"/")).To(Equal("hello"))
	})

	It("never reaches the private server: not directly, not by a name resolving to it, not by a redirect", func() {
		c := policy.NewClient(netguard.ClientOptions{})
		for _, u := range []string{private.URL + "/", "http://intranet.test:" + portOf(private) + "/", public.URL + "/to-private"} {
			_, err := get(c, u)
			Expect(err).To(MatchError(netguard.ErrRefused), u)
			Expect(err.Error()).To(ContainSubstring("127.0.0.1 is not a public address: loopback (127.0.0.0/8)"))
		}
		Expect(private.hits.Load()).To(BeZero())
	})

	It("never reaches it by other spellings of loopback either (system resolver)", func() {
		c := netguard.Policy{}.NewClient(netguard.ClientOptions{})
		port := portOf(private)
		for _, host := range []string{"[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "2130706433", "0x7f.1", "127.1", "localhost", "[::1]", "0.0.0.0"} {
			_, err := get(c, "http://"+host+":"+port+"/")
			Expect(err).To(HaveOccurred(), host)
		}
		Expect(private.hits.Load()).To(BeZero())
	})

	It("reaches it with AllowPrivate", func() {
		policy.AllowPrivate = true
		c := policy.NewClient(netguard.ClientOptions{})
		for _, u := range []string{private.URL + "/", "http://intranet.test:" + portOf(private) + "/", public.URL + "/to-private"} {
			Expect(get(c, u)).To(Equal("secret"), u)
		}
		Expect(private.hits.Load()).To(BeEquivalentTo(3))
	})

	It("follows redirects to http(s) only, a bounded number of times", func() {
		c := policy.NewClient(netguard.ClientOptions{MaxRedirects: 3})
		_, err := get(c, public.URL+"/to-file")
		Expect(err).To(MatchError(ContainSubstring("redirect to file:///etc/passwd refused: only http and https URLs are fetched")))
		before := public.hits.Load()
		_, err = get(c, public.URL+"/loop")
		Expect(err).To(MatchError(ContainSubstring("stopped after 3 redirects")))
		Expect(public.hits.Load() - before).To(BeEquivalentTo(4))
	})

	It("checks every connection, so a name that re-resolves to a private server (DNS rebinding) is refused", func() {
		// the rebound answer: another loopback address on the public server's port
		l, err := net.Listen("tcp", netip.AddrPortFrom(netip.MustParseAddr("127.0.0.2"), public.addrPort().Port()).String())
		if err != nil {
			Skip("cannot listen on 127.0.0.2: " + err.Error())
		}
		var hits atomic.Int64
		rebound := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) })}
		go rebound.Serve(l)
		DeferCleanup(rebound.Close)
		var lookups atomic.Int64
		policy.Lookup = func(context.Context, string, string) ([]netip.Addr, error) {
			if lookups.Add(1) == 1 {
				return []netip.Addr{public.addrPort().Addr()}, nil
			}
			return []netip.Addr{netip.MustParseAddr("127.0.0.2")}, nil
		}
		u := "http://rebind.test:" + portOf(public) + "/"
		Expect(get(policy.NewClient(netguard.ClientOptions{}), u)).To(Equal("hello"))
		_, err = get(policy.NewClient(netguard.ClientOptions{}), u)
		Expect(err).To(MatchError(ContainSubstring("127.0.0.2 is not a public address: loopback")))
		Expect(hits.Load()).To(BeZero())
		Expect(lookups.Load()).To(BeEquivalentTo(2))
	})

	It("reports a failed lookup", func() {
		_, err := get(policy.NewClient(netguard.ClientOptions{}), "http://nowhere.test/")
		Expect(err).To(MatchError(ContainSubstring("lookup nowhere.test: no such host")))
	})

	It("prefers the refusal when a name resolves to several addresses that all fail", func() {
		policy.Lookup = func(context.Context, string, string) ([]netip.Addr, error) {
			return []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("10.0.0.1")}, nil
		}
		policy.Public = []netip.AddrPort{netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), 1)}
		_, err := get(policy.NewClient(netguard.ClientOptions{}), "http://both.test:1/")
		Expect(err).To(MatchError(netguard.ErrRefused))
		Expect(err.Error()).To(ContainSubstring("10.0.0.1 is not a public address"))
	})
})

func portOf(c *counted) string {
	return strings.TrimPrefix(c.URL[strings.LastIndex(c.URL, ":"):], ":")
}

var _ = Describe("bounded bodies", func() {
	It("ReadAll returns a body of exactly the limit and refuses one byte more", func() {
		b, err := netguard.ReadAll(strings.NewReader("12345"), 5)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal("12345"))
		b, err = netguard.ReadAll(strings.NewReader("123456"), 5)
		Expect(err).To(MatchError(netguard.ErrTooLarge))
		Expect(err).To(MatchError("response body larger than the 5 bytes limit"))
		Expect(string(b)).To(Equal("12345"))
	})
	It("LimitBody fails the read that passes the limit, and keeps failing", func() {
		rc := netguard.LimitBody(io.NopCloser(bytes.NewReader(make([]byte, 3<<10))), 2<<10)
		b, err := io.ReadAll(rc)
		Expect(err).To(MatchError("response body larger than the 2 KiB limit"))
		Expect(b).To(HaveLen(2 << 10))
		_, err = rc.Read(make([]byte, 1))
		Expect(err).To(MatchError(netguard.ErrTooLarge))
		rc = netguard.LimitBody(io.NopCloser(bytes.NewReader(make([]byte, 2<<10))), 2<<10)
		b, err = io.ReadAll(rc)
		Expect(err).NotTo(HaveOccurred())
		Expect(b).To(HaveLen(2 << 10))
	})
	It("spells sizes", func() {
		Expect(netguard.Size(netguard.DefaultMaxBody)).To(Equal("64 MiB"))
		Expect(netguard.Size(1500)).To(Equal("1500 bytes"))
	})
})
