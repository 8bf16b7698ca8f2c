package sim

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("TwitterAPI", func() {
	It("replays every reference trace entry (results and states)", func() {
		replayAllFor("TwitterAPI")
	})

	It("matches call sequences recorded from the upstream Python class", func() {
		replayUpstreamDiff("TwitterAPI")
	})

	It("matches random 50-call sequences recorded from the upstream Python class", func() {
		replayUpstreamFixture("simA_upstream_random_apis.json", "TwitterAPI")
	})

	It("declares exactly upstream's public methods and parameters", func() {
		checkSignatures("TwitterAPI")
	})
})

var _ = Describe("pyLower", func() {
	It("lower-cases like CPython's str.lower (İ and final sigma)", func() {
		// pairs printed by CPython: print(repr(t), repr(t.lower()))
		for _, c := range [][2]string{
			{"ΟΔΟΣ", "οδος"}, {"ΣΑΣ", "σας"}, {"Σ", "σ"}, {"aΣ.", "aς."}, {"aΣb", "aσb"},
			{"İstanbul", "i̇stanbul"}, {"AΣ'", "aς'"}, {"ΑΣ ΑΣ", "ας ας"}, {"x Σ y", "x σ y"}, {"ǅΣ", "ǆς"},
			{"Hello World", "hello world"},
		} {
			Expect(pyLower(c[0])).To(Equal(c[1]), c[0])
		}
	})
})
