// Package netguard bounds what the harness does on the network on behalf
// of untrusted input: which destinations a URL chosen by the model under
// test may reach (public addresses only, judged on the address actually
// connected to, so DNS answers and redirects cannot smuggle in a private
// one), and how much of a response body is read before it is an error.
package netguard

import (
	"fmt"
	"net/netip"
)

// block is a range of addresses that are not the public Internet.
type block struct {
	prefix netip.Prefix
	kind   string
	// embedded is set for IPv6 forms that carry an IPv4 address (the
	// address is judged by that IPv4 address); it returns it.
	embedded func(netip.Addr) netip.Addr
}

func blk(prefix, kind string) block { return block{prefix: netip.MustParsePrefix(prefix), kind: kind} }

// First match wins: the more specific blocks come first.
var v4Blocks = []block{
	blk("0.0.0.0/8", "unspecified (\"this network\")"),
	blk("10.0.0.0/8", "private (RFC 1918)"),
	blk("100.64.0.0/10", "carrier-grade NAT (RFC 6598)"),
	blk("127.0.0.0/8", "loopback"),
	blk("169.254.0.0/16", "link-local (cloud metadata services live at 169.254.169.254)"),
	blk("172.16.0.0/12", "private (RFC 1918)"),
	blk("192.0.0.0/24", "IETF protocol assignments (RFC 6890)"),
	blk("192.0.2.0/24", "documentation (RFC 5737)"),
	blk("192.88.99.0/24", "6to4 relay anycast (RFC 7526)"),
	blk("192.168.0.0/16", "private (RFC 1918)"),
	blk("198.18.0.0/15", "benchmarking (RFC 2544)"),
	blk("198.51.100.0/24", "documentation (RFC 5737)"),
	blk("203.0.113.0/24", "documentation (RFC 5737)"),
	blk("224.0.0.0/4", "multicast"),
	blk("255.255.255.255/32", "broadcast"),
	blk("240.0.0.0/4", "reserved (RFC 1112)"),
}

var v6Blocks = []block{
	blk("::/128", "unspecified"),
	blk("::1/128", "loopback"),
	{prefix: netip.MustParsePrefix("::ffff:0:0/96"), kind: "IPv4-mapped", embedded: func(a netip.Addr) netip.Addr { return a.Unmap() }},
	blk("::/96", "IPv4-compatible (deprecated, RFC 4291)"),
	{prefix: netip.MustParsePrefix("64:ff9b::/96"), kind: "NAT64", embedded: lastFour},
	blk("64:ff9b:1::/48", "local-use NAT64 (RFC 8215)"),
	blk("100::/64", "discard-only (RFC 6666)"),
	blk("2001::/32", "Teredo tunnelling (RFC 4380)"),
	blk("2001:2::/48", "benchmarking (RFC 5180)"),
	blk("2001:db8::/32", "documentation (RFC 3849)"),
	{prefix: netip.MustParsePrefix("2002::/16"), kind: "6to4", embedded: sixToFour},
	blk("3fff::/20", "documentation (RFC 9637)"),
	blk("fc00::/7", "unique local (RFC 4193; the AWS metadata service lives at fd00:ec2::254)"),
	blk("fe80::/10", "link-local"),
	blk("fec0::/10", "site-local (deprecated, RFC 3879)"),
	blk("ff00::/8", "multicast"),
}

// globalUnicast is the only IPv6 space allocated for public unicast; an
// address outside it (and outside the blocks above) is reserved.
var globalUnicast = netip.MustParsePrefix("2000::/3")

func lastFour(a netip.Addr) netip.Addr {
	b := a.As16()
	return netip.AddrFrom4([4]byte(b[12:16]))
}

func sixToFour(a netip.Addr) netip.Addr {
	b := a.As16()
	return netip.AddrFrom4([4]byte(b[2:6]))
}

// Classify says why a is not a public address ("loopback (127.0.0.0/8)",
// "private (RFC 1918) (10.0.0.0/8)", ...), or returns "" when it is
// public. A zone (fe80::1%eth0) is ignored. IPv6 forms that carry an IPv4
// address (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16)
// are judged by that IPv4 address.
func Classify(a netip.Addr) string {
	if !a.IsValid() {
		return "not a valid IP address"
	}
	a = a.WithZone("")
	if a.Is4() {
		why, _ := classifyIn(a, v4Blocks)
		return why
	}
	if why, matched := classifyIn(a, v6Blocks); matched {
		return why
	}
	if !globalUnicast.Contains(a) {
		return "reserved (outside the global unicast range 2000::/3)"
	}
	return ""
}

// classifyIn finds the block of a: matched reports whether one holds it,
// why is "" when that block is an IPv6 form of a public IPv4 address.
func classifyIn(a netip.Addr, blocks []block) (why string, matched bool) {
	for _, b := range blocks {
		if !b.prefix.Contains(a) {
			continue
		}
		if b.embedded == nil {
			return fmt.Sprintf("%s (%s)", b.kind, b.prefix), true
		}
		v4 := b.embedded(a)
		if why, _ := classifyIn(v4, v4Blocks); why != "" {
			return fmt.Sprintf("%s form of %s, %s", b.kind, v4, why), true
		}
		return "", true
	}
	return "", false
}
