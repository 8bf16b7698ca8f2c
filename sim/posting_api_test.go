package sim

import (
	. "github.com/onsi/ginkgo/v2"
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
