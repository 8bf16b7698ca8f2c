package netguard_test

import (
	"net/netip"

	"github.com/bfcl-go/bfcl/internal/services/netguard"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("Classify", func() {
	DescribeTable("non-public addresses, with why",
		func(addr, want string) {
			Expect(netguard.Classify(netip.MustParseAddr(addr))).To(ContainSubstring(want))
		},
		// IPv4
		Entry(nil, "0.0.0.0", "unspecified"),
		Entry(nil, "0.1.2.3", "unspecified"),
		Entry(nil, "10.0.0.1", "private (RFC 1918)"),
		Entry(nil, "10.255.255.255", "10.0.0.0/8"),
		Entry(nil, "100.64.0.1", "carrier-grade NAT"),
		Entry(nil, "100.127.255.254", "100.64.0.0/10"),
		Entry(nil, "127.0.0.1", "loopback (127.0.0.0/8)"),
		Entry(nil, "127.255.0.9", "loopback"),
		Entry(nil, "169.254.169.254", "link-local"),
		Entry(nil, "169.254.0.1", "169.254.0.0/16"),
		Entry(nil, "172.16.0.1", "private (RFC 1918)"),
		Entry(nil, "172.31.255.255", "172.16.0.0/12"),
		Entry(nil, "192.0.0.8", "IETF protocol assignments"),
		Entry(nil, "192.0.2.10", "documentation"),
		Entry(nil, "192.88.99.1", "6to4 relay anycast"),
		Entry(nil, "192.168.1.1", "192.168.0.0/16"),
		Entry(nil, "198.18.0.1", "benchmarking"),
		Entry(nil, "198.19.255.255", "198.18.0.0/15"),
		Entry(nil, "198.51.100.7", "documentation"),
		Entry(nil, "203.0.113.9", "documentation"),
		Entry(nil, "224.0.0.1", "multicast"),
		Entry(nil, "239.255.255.250", "multicast"),
		Entry(nil, "240.0.0.1", "reserved"),
		Entry(nil, "255.255.255.255", "broadcast"),
		// IPv6
		Entry(nil, "::", "unspecified"),
		Entry(nil, "::1", "loopback (::1/128)"),
		Entry(nil, "fe80::1", "link-local (fe80::/10)"),
		Entry(nil, "fe80::1%eth0", "link-local"),
		Entry(nil, "fc00::1", "unique local"),
		Entry(nil, "fd00:ec2::254", "unique local (RFC 4193"),
		Entry(nil, "fd12:3456:789a::1", "fc00::/7"),
		Entry(nil, "fec0::1", "site-local"),
		Entry(nil, "ff02::1", "multicast"),
		Entry(nil, "ff0e::1", "multicast"),
		Entry(nil, "2001:db8::1", "documentation"),
		Entry(nil, "3fff::1", "documentation"),
		Entry(nil, "2001:2::1", "benchmarking"),
		Entry(nil, "2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"),
		Entry(nil, "100::1", "discard-only"),
		Entry(nil, "64:ff9b:1::1", "local-use NAT64"),
		Entry(nil, "::7f00:1", "IPv4-compatible"),
		Entry(nil, "::8.8.8.8", "IPv4-compatible"),
		Entry(nil, "4000::1", "outside the global unicast range"),
		// IPv6 forms of non-public IPv4 addresses
		Entry(nil, "::ffff:127.0.0.1", "IPv4-mapped form of 127.0.0.1, loopback"),
		Entry(nil, "::ffff:169.254.169.254", "IPv4-mapped form of 169.254.169.254, link-local"),
		Entry(nil, "::ffff:10.1.2.3", "IPv4-mapped form of 10.1.2.3, private"),
		Entry(nil, "::ffff:192.168.0.1", "private"),
		Entry(nil, "::ffff:100.64.1.1", "carrier-grade NAT"),
		Entry(nil, "::ffff:0.0.0.0", "unspecified"),
		Entry(nil, "::ffff:224.0.0.1", "multicast"),
		Entry(nil, "64:ff9b::7f00:1", "NAT64 form of 127.0.0.1, loopback"),
		Entry(nil, "64:ff9b::a9fe:a9fe", "NAT64 form of 169.254.169.254"),
		Entry(nil, "2002:c0a8:0101::1", "6to4 form of 192.168.1.1, private"),
		Entry(nil, "2002:7f00:1::", "6to4 form of 127.0.0.1"),
	)

	DescribeTable("public addresses",
		func(addr string) {
			Expect(netguard.Classify(netip.MustParseAddr(addr))).To(BeEmpty())
		},
		Entry(nil, "8.8.8.8"),
		Entry(nil, "1.1.1.1"),
		Entry(nil, "93.184.216.34"),
		Entry(nil, "9.255.255.255"),   // just below 10/8
		Entry(nil, "11.0.0.0"),        // just above 10/8
		Entry(nil, "100.63.255.255"),  // just below 100.64/10
		Entry(nil, "100.128.0.0"),     // just above
		Entry(nil, "126.255.255.255"), // just below 127/8
		Entry(nil, "169.253.255.255"),
		Entry(nil, "172.15.255.255"),
		Entry(nil, "172.32.0.0"),
		Entry(nil, "192.167.255.255"),
		Entry(nil, "192.169.0.0"),
		Entry(nil, "198.17.255.255"),
		Entry(nil, "198.20.0.0"),
		Entry(nil, "223.255.255.255"),
		Entry(nil, "2606:4700:4700::1111"),
		Entry(nil, "2a00:1450:4001::200e"),
		Entry(nil, "::ffff:8.8.8.8"),
		Entry(nil, "64:ff9b::808:808"),
		Entry(nil, "2002:808:808::1"),
	)

	It("refuses the zero Addr", func() {
		Expect(netguard.Classify(netip.Addr{})).To(Equal("not a valid IP address"))
	})
})

var _ = Describe("Policy.Check", func() {
	lo := netip.MustParseAddrPort("127.0.0.1:8080")
	It("refuses non-public addresses with a RefusedError naming the address and why", func() {
		err := netguard.Policy{}.Check(lo)
		Expect(err).To(MatchError(netguard.ErrRefused))
		var re *netguard.RefusedError
		Expect(err).To(BeAssignableToTypeOf(re))
		Expect(err.Error()).To(Equal("refused: 127.0.0.1 is not a public address: loopback (127.0.0.0/8)"))
		Expect(netguard.Policy{}.Check(netip.MustParseAddrPort("[::ffff:127.0.0.1]:8080"))).To(MatchError(netguard.ErrRefused))
		Expect(netguard.Policy{}.Check(netip.MustParseAddrPort("8.8.8.8:443"))).To(Succeed())
	})
	It("lets listed addr:ports through (also in IPv4-mapped form), but not the same address on another port", func() {
		p := netguard.Policy{Public: []netip.AddrPort{lo}}
		Expect(p.Check(lo)).To(Succeed())
		Expect(p.Check(netip.MustParseAddrPort("[::ffff:127.0.0.1]:8080"))).To(Succeed())
		Expect(p.Check(netip.MustParseAddrPort("127.0.0.1:8081"))).To(MatchError(netguard.ErrRefused))
		Expect(p.Check(netip.MustParseAddrPort("127.0.0.2:8080"))).To(MatchError(netguard.ErrRefused))
	})
	It("lets everything through with AllowPrivate", func() {
		p := netguard.Policy{AllowPrivate: true}
		Expect(p.Check(lo)).To(Succeed())
		Expect(p.Check(netip.MustParseAddrPort("169.254.169.254:80"))).To(Succeed())
	})
	It("is what the dialer's Control hook enforces", func() {
		Expect(netguard.Policy{}.Control("tcp4", "169.254.169.254:80", nil)).To(MatchError(ContainSubstring("169.254.169.254 is not a public address: link-local")))
		Expect(netguard.Policy{}.Control("tcp6", "[fd00:ec2::254]:80", nil)).To(MatchError(netguard.ErrRefused))
		Expect(netguard.Policy{}.Control("tcp", "8.8.8.8:53", nil)).To(Succeed())
		Expect(netguard.Policy{}.Control("tcp", "nonsense", nil)).To(MatchError(ContainSubstring("cannot read the address")))
	})
})
