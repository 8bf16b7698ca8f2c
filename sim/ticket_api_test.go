package sim

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/pyval"
)

var _ = Describe("TicketAPI", func() {
	It("replays every reference trace entry (results and states)", func() {
		replayAllFor("TicketAPI")
	})

	It("matches call sequences recorded from the upstream Python class", func() {
		replayUpstreamDiff("TicketAPI")
	})

	It("hashes str like CPython with PYTHONHASHSEED=0 (siphash13, zero key)", func() {
		// values printed by: PYTHONHASHSEED=0 python3 -c "print(hash('a'), ...)"
		Expect(cpythonStrHash("a")).To(Equal(int64(4644417185603328019)))
		Expect(cpythonStrHash("assignee")).To(Equal(int64(7330802622297391332)))
		Expect(cpythonStrHash("")).To(Equal(int64(0)))
		Expect(cpythonStrHash("é")).To(Equal(int64(6047309291227476195)))
		Expect(cpythonStrHash("€")).To(Equal(int64(-5529981157763016009)))
		Expect(cpythonStrHash("😀")).To(Equal(int64(-3536540696076613844)))
		Expect(cpythonIntHash(-1)).To(Equal(int64(-2)))
	})

	It("lists invalid update fields in CPython's set order", func() {
		t := NewTicketAPI(nil)
		cfg, err := pyval.FromJSONString(`{"ticket_queue": [{"id": 1, "status": "Open"}]}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(t.LoadScenario(cfg.(*pyval.Dict), false)).To(Succeed())
		_, updates, _, err := parseCall(`f({'b': 1, 'a': 2, 'c': 3, 'dd': 4, 'ee': 5, 'ff': 6})`)
		Expect(err).NotTo(HaveOccurred())
		// expected text recorded with PYTHONHASHSEED=0 (testdata/simA_upstream_diff.json)
		got := serialiseResult(t.EditTicket(pyval.Int(1), updates[0]))
		Expect(got).To(Equal(`{"error": "Invalid fields for update: b, ee, c, ff, a, dd"}`))
	})
})
