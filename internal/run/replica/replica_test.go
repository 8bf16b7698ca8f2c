package replica_test

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/run/replica"
)

// server answers POST /v1/chat/completions with its name and the body it
// got, after hold (when set) is closed.
func server(name string, status *atomic.Int32, hold chan struct{}) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if hold != nil {
			<-hold
		}
		if s := status.Load(); s != 0 {
			w.WriteHeader(int(s))
		}
		w.Write([]byte(name + ":" + r.URL.Path + ":" + string(b)))
	}))
}

func deadURL() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	Expect(err).NotTo(HaveOccurred())
	defer l.Close()
	return "http://" + l.Addr().String()
}

func post(c *http.Client, url, body string) (string, int, error) {
	resp, err := c.Post(url, "application/json", bytes.NewReader([]byte(body)))
	if err != nil {
		return "", 0, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b), resp.StatusCode, nil
}

var _ = Describe("Pool", func() {
	transport := func() http.RoundTripper { return http.DefaultTransport.(*http.Transport).Clone() }

	It("sends each request to the replica with the fewest in flight, rewriting the base URL", func() {
		hold := make(chan struct{})
		var ok atomic.Int32
		a, b := server("a", &ok, hold), server("b", &ok, hold)
		defer a.Close()
		defer b.Close()
		p, err := replica.New([]string{a.URL + "/v1", b.URL + "/v1/"}, transport(), replica.Options{})
		Expect(err).NotTo(HaveOccurred())
		c := &http.Client{Transport: p}
		var wg sync.WaitGroup
		got := make(chan string, 10)
		for i := 0; i < 10; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, _, err := post(c, a.URL+"/v1/chat/completions", "{}")
				Expect(err).NotTo(HaveOccurred())
				got <- s
			}()
		}
		Eventually(func() int {
			n := 0
			for _, s := range p.Stats() {
				n += s.InFlight
			}
			return n
		}).Should(Equal(10))
		st := p.Stats()
		Expect(st[0].InFlight).To(Equal(5))
		Expect(st[1].InFlight).To(Equal(5))
		close(hold)
		wg.Wait()
		close(got)
		seen := map[string]int{}
		for s := range got {
			seen[s]++
		}
		Expect(seen).To(Equal(map[string]int{"a:/v1/chat/completions:{}": 5, "b:/v1/chat/completions:{}": 5}))
	})

	It("sends a request that could not connect to another replica at once, and leaves the dead one out", func() {
		var ok atomic.Int32
		live := server("live", &ok, nil)
		defer live.Close()
		dead := deadURL()
		p, err := replica.New([]string{dead + "/v1", live.URL + "/v1"}, transport(), replica.Options{Cooldown: time.Hour})
		Expect(err).NotTo(HaveOccurred())
		c := &http.Client{Transport: p}
		for i := 0; i < 6; i++ {
			s, code, err := post(c, dead+"/v1/chat/completions", "x")
			Expect(err).NotTo(HaveOccurred())
			Expect(code).To(Equal(200))
			Expect(s).To(Equal("live:/v1/chat/completions:x"))
		}
		st := p.Stats()
		Expect(st[0].Sent).To(Equal(int64(1)), "the dead replica was tried once, then cooled down")
		Expect(st[0].Down).To(BeTrue())
		Expect(st[1].Sent).To(Equal(int64(6)))
	})

	It("takes a replica answering 503 out for the cool-down, then back", func() {
		var sick, fine atomic.Int32
		sick.Store(503)
		a, b := server("a", &sick, nil), server("b", &fine, nil)
		defer a.Close()
		defer b.Close()
		now := time.Unix(1000, 0)
		var mu sync.Mutex
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		p, err := replica.New([]string{a.URL, b.URL}, transport(), replica.Options{Cooldown: 10 * time.Second, Now: clock})
		Expect(err).NotTo(HaveOccurred())
		c := &http.Client{Transport: p}
		codes := map[int]int{}
		for i := 0; i < 6; i++ {
			_, code, err := post(c, a.URL+"/x", "")
			Expect(err).NotTo(HaveOccurred())
			codes[code]++
		}
		Expect(codes).To(Equal(map[int]int{503: 1, 200: 5}), "the 503 goes back to the retry loop; later requests avoid the replica")
		Expect(p.Stats()[0].Down).To(BeTrue())
		sick.Store(0)
		mu.Lock()
		now = now.Add(11 * time.Second)
		mu.Unlock()
		Expect(p.Stats()[0].Down).To(BeFalse())
		for i := 0; i < 4; i++ {
			_, code, _ := post(c, a.URL+"/x", "")
			Expect(code).To(Equal(200))
		}
		Expect(p.Stats()[0].Sent).To(BeNumerically(">=", 2), "back in rotation")
	})

	It("uses a cooling replica when every replica is down rather than failing outright", func() {
		var ok atomic.Int32
		a := server("a", &ok, nil)
		defer a.Close()
		dead := deadURL()
		p, _ := replica.New([]string{a.URL, dead}, transport(), replica.Options{Cooldown: time.Hour})
		c := &http.Client{Transport: p}
		// Take a down by hand: a 502 marks it.
		ok.Store(502)
		post(c, a.URL+"/x", "")
		ok.Store(0)
		s, code, err := post(c, a.URL+"/x", "y")
		Expect(err).NotTo(HaveOccurred())
		Expect(code).To(Equal(200))
		Expect(s).To(Equal("a:/x:y"))
	})

	It("passes other hosts' requests through and validates its URLs", func() {
		var ok atomic.Int32
		a, other := server("a", &ok, nil), server("other", &ok, nil)
		defer a.Close()
		defer other.Close()
		p, _ := replica.New([]string{a.URL + "/v1"}, transport(), replica.Options{})
		s, _, err := post(&http.Client{Transport: p}, other.URL+"/embed", "e")
		Expect(err).NotTo(HaveOccurred())
		Expect(s).To(Equal("other:/embed:e"))
		_, err = replica.New(nil, transport(), replica.Options{})
		Expect(err).To(MatchError(ContainSubstring("no base URLs")))
		_, err = replica.New([]string{"localhost:8000"}, transport(), replica.Options{})
		Expect(err).To(MatchError(ContainSubstring(`"localhost:8000" is not an absolute http(s) URL`)))
		_, err = replica.New([]string{a.URL, a.URL + "/"}, transport(), replica.Options{})
		Expect(err).To(MatchError(ContainSubstring("listed twice")))
	})
})
