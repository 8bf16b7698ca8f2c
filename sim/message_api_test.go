package sim

import (
	. "github.com/onsi/ginkgo/v2"
)

var _ = Describe("MessageAPI", func() {
	It("replays every reference trace entry (results and states)", func() {
		replayAllFor("MessageAPI")
	})

	It("matches call sequences recorded from the upstream Python class", func() {
		replayUpstreamDiff("MessageAPI")
	})

	It("matches random 50-call sequences recorded from the upstream Python class", func() {
		replayUpstreamFixture("simA_upstream_random_apis.json", "MessageAPI")
	})

	It("declares exactly upstream's public methods and parameters", func() {
		checkSignatures("MessageAPI")
	})
})
