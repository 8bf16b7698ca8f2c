package sim

import (
	. "github.com/onsi/ginkgo/v2"
)

// The parity specs every simulated class gets, one table for both groups of
// classes. The first group (GorillaFileSystem, MathAPI, MessageAPI,
// TwitterAPI, TicketAPI) replays the reference traces with replayAllFor,
// the call sequences recorded from the upstream Python classes
// (testdata/simA_*.json) and compares the recorded signatures; the second
// (TradingBot, TravelAPI, VehicleControlAPI) replays the traces with
// replayTraces, checks the registry against the function docs and replays
// the model-side calls of the reference verdict run.

var _ = Describe("upstream parity of the recorded-sequence classes", func() {
	for _, c := range []struct {
		class string
		// randomFixture is the testdata file of random call sequences
		// recorded for the class ("" when none was recorded), described
		// by randomSpec.
		randomFixture, randomSpec string
	}{
		{"GorillaFileSystem", "simA_upstream_random_fs.json", "matches 12 random 70-call sequences recorded from the upstream Python class"},
		{"MathAPI", "", ""},
		{"MessageAPI", "simA_upstream_random_apis.json", "matches random 50-call sequences recorded from the upstream Python class"},
		{"TwitterAPI", "simA_upstream_random_apis.json", "matches random 50-call sequences recorded from the upstream Python class"},
		{"TicketAPI", "simA_upstream_random_apis.json", "matches random 50-call sequences recorded from the upstream Python class"},
	} {
		Describe(c.class, func() {
			It("replays every reference trace entry (results and states)", func() {
				replayAllFor(c.class)
			})
			It("matches call sequences recorded from the upstream Python class", func() {
				replayUpstreamDiff(c.class)
			})
			if c.randomFixture != "" {
				It(c.randomSpec, func() {
					replayUpstreamFixture(c.randomFixture, c.class)
				})
			}
			It("declares exactly upstream's public methods and parameters", func() {
				checkSignatures(c.class)
			})
		})
	}
})

var _ = Describe("upstream parity of the traced classes", func() {
	for _, cls := range []Class{classTradingBot(), classTravelAPI(), classVehicleControlAPI()} {
		Describe(cls.Name, func() {
			It("replays every reference trace entry (results and states)", func() {
				replayTraces(cls.Name)
			})
			It("registers every public method, sorted, with the function docs' names", func() {
				registryChecks(cls)
			})
			It("reproduces every result of the reference run's model-side and ground-truth calls", func() {
				replayModelSide(cls.Name)
			})
		})
	}
})
