package sim

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

var _ = Describe("TicketAPI", func() {
	It("lists invalid update fields in CPython's set order", func() {
		t := NewTicketAPI(nil)
		cfg, err := pyval.FromJSONString(`{"ticket_queue": [{"id": 1, "status": "Open"}]}`)
		Expect(err).NotTo(HaveOccurred())
		Expect(t.LoadScenario(cfg.(*pyval.Dict), false)).To(Succeed())
		_, updates, _, err := parseCall(`f({'b': 1, 'a': 2, 'c': 3, 'dd': 4, 'ee': 5, 'ff': 6})`)
		Expect(err).NotTo(HaveOccurred())
		// expected text recorded with PYTHONHASHSEED=0 (testdata/simA_upstream_diff.json)
		got := serialiseResult(call(t, "edit_ticket", pyval.Int(1), updates[0]))
		Expect(got).To(Equal(`{"error": "Invalid fields for update: b, ee, c, ff, a, dd"}`))
	})
})
