package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// ErrRefused matches (errors.Is) every connection refused by a Policy.
var ErrRefused = errors.New("destination is not a public address")

// RefusedError is a connection a Policy refused before it was made.
type RefusedError struct {
	Addr   netip.AddrPort // the address that was about to be connected to
	Reason string         // Classify's answer
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("refused: %s is not a public address: %s", e.Addr.Addr(), e.Reason)
}

// Is makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// Policy decides which addresses may be connected to. The zero Policy
// allows public addresses only (see Classify).
type Policy struct {
	// AllowPrivate lets every address through: the explicit opt-in for
	// users whose fetched pages live on an internal network.
	AllowPrivate bool
	// Public lists addresses treated as public whatever Classify says
	// (tests stand "the public web" up on loopback with it).
	Public []netip.AddrPort
	// Lookup resolves host names for DialContext (nil: the system
	// resolver). network is "ip", "ip4" or "ip6". Whatever it answers, the
	// address finally connected to is checked.
	Lookup func(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Check returns nil when ap may be connected to, else a *RefusedError.
func (p Policy) Check(ap netip.AddrPort) error {
	if p.AllowPrivate {
		return nil
	}
	a := ap.Addr().WithZone("")
	for _, pub := range p.Public {
		if pub.Port() == ap.Port() && pub.Addr().WithZone("").Unmap() == a.Unmap() {
			return nil
		}
	}
	if why := Classify(a); why != "" {
		return &RefusedError{Addr: ap, Reason: why}
	}
	return nil
}

// Control is a net.Dialer Control hook: it runs after the name is resolved
// and before the socket connects, with the numeric address, and refuses
// what p does not allow.
func (p Policy) Control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("netguard: cannot read the address being connected to (%q): %w", address, err)
	}
	return p.Check(ap)
}

// Dialer is a net.Dialer whose Control hook enforces p.
func (p Policy) Dialer() *net.Dialer {
	return &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: p.Control}
}

// DialContext connects as net.Dialer does, resolving names with p.Lookup
// when set, and checks every address it connects to (see Control). When
// all addresses fail, the error of a refused one is preferred, so the
// caller learns why.
func (p Policy) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	d := p.Dialer()
	host, port, err := net.SplitHostPort(address)
	if err != nil || p.Lookup == nil {
		return d.DialContext(ctx, network, address)
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return d.DialContext(ctx, network, address)
	}
	ipNet := "ip"
	switch network {
	case "tcp4", "udp4":
		ipNet = "ip4"
	case "tcp6", "udp6":
		ipNet = "ip6"
	}
	addrs, err := p.Lookup(ctx, ipNet, host)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("lookup %s: %w", host, err)}
	}
	if len(addrs) == 0 {
		return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("lookup %s: no addresses", host)}
	}
	var first error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.WithZone("").String(), port))
		if err == nil {
			return c, nil
		}
		if first == nil || (errors.Is(err, ErrRefused) && !errors.Is(first, ErrRefused)) {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, first
}

// DefaultMaxRedirects is how many redirects a client of NewClient follows
// (Go's default; upstream's requests allows 30).
const DefaultMaxRedirects = 10

// ClientOptions tune NewClient.
type ClientOptions struct {
	// Timeout bounds a whole request: connection, redirects and reading
	// the body. 0 means no bound beyond the caller's context.
	Timeout time.Duration
	// MaxRedirects bounds the redirects followed; 0 means
	// DefaultMaxRedirects, negative means none.
	MaxRedirects int
}

// NewClient returns an http.Client for URLs chosen by untrusted input:
// every connection (the first one and those of redirects, whatever the DNS
// answers) goes through p.DialContext, redirects are followed to http and
// https URLs only and at most MaxRedirects times, and unless p.AllowPrivate
// no proxy is used (a proxy would connect on the client's behalf, out of
// the dial check's reach). Bound the body with ReadAll or LimitBody.
func (p Policy) NewClient(o ClientOptions) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = p.DialContext
	tr.DialTLSContext = nil
	if !p.AllowPrivate {
		tr.Proxy = nil
	}
	max := o.MaxRedirects
	switch {
	case max == 0:
		max = DefaultMaxRedirects
	case max < 0:
		max = 0
	}
	return &http.Client{
		Transport: tr,
		Timeout:   o.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return fmt.Errorf("redirect to %s refused: only http and https URLs are fetched", req.URL.Redacted())
			}
			if len(via) > max {
				return fmt.Errorf("stopped after %d redirects", max)
			}
			return nil
		},
	}
}
