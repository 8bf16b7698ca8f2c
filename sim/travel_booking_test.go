package sim

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

var _ = Describe("TravelAPI", func() {
	cls := classTravelAPI()

	authenticated := func(longContext bool) Instance {
		t := loadedInstance(cls, nil, longContext)
		// python3.12: random.Random(141053).randint(100000, 999999)
		Expect(callMethod(cls, t, "authenticate_travel", "client_id", pyval.Str("c"), "client_secret", pyval.Str("s"),
			"refresh_token", pyval.Str("r"), "grant_type", pyval.Str("read_write"),
			"user_first_name", pyval.Str("A"), "user_last_name", pyval.Str("B"))).
			To(ContainSubstring(`"access_token": "`))
		return t
	}
	token := func(t Instance) pyval.Value {
		v, _ := t.State().GetStr("access_token")
		return v
	}

	It("prints the invalid-class set in CPython's PYTHONHASHSEED=0 order", func() {
		t := authenticated(false)
		card := callMethod(cls, t, "register_credit_card", "access_token", token(t), "card_number", pyval.Str("1"),
			"expiration_date", pyval.Str("1/1"), "cardholder_name", pyval.Str("A B"), "card_verification_number", pyval.Int(1))
		Expect(card).To(HavePrefix(`{"card_id": "`))
		id := pyval.Str(card[len(`{"card_id": "`) : len(card)-2])
		Expect(callMethod(cls, t, "book_flight", "access_token", token(t), "card_id", id, "travel_date", pyval.Str("2024-01-01"),
			"travel_from", pyval.Str("SFO"), "travel_to", pyval.Str("LAX"), "travel_class", pyval.Str("coach"))).
			To(Equal(`{"booking_status": false, "error": "Invalid travel class. Must be one of {'first', 'business', 'economy'}"}`))
		Expect(callMethod(cls, t, "book_flight", "access_token", token(t), "card_id", id, "travel_date", pyval.Str("2024-02-30"),
			"travel_from", pyval.Str("SFO"), "travel_to", pyval.Str("LAX"), "travel_class", pyval.Str("economy"))).
			To(Equal(`{"booking_status": false, "error": "Invalid date format. Use YYYY-MM-DD."}`))
		Expect(callMethod(cls, t, "book_flight", "access_token", token(t), "card_id", id, "travel_date", pyval.Int(5),
			"travel_from", pyval.Str("SFO"), "travel_to", pyval.Str("LAX"), "travel_class", pyval.Str("economy"))).
			To(Equal(`Error during execution: strptime() argument 1 must be str, not int`))
		Expect(callMethod(cls, t, "book_flight", "access_token", token(t), "card_id", id, "travel_date", pyval.Str("2024-01-01"),
			"travel_from", pyval.Str("SFO"), "travel_to", pyval.Str("PEK"), "travel_class", pyval.Str("economy"))).
			To(Equal(`{"booking_status": false, "error": "No available route for the given airports."}`))
	})

	It("raises the ValueErrors of get_flight_cost and compute_exchange_rate", func() {
		t := loadedInstance(cls, nil, false)
		Expect(callMethod(cls, t, "get_flight_cost", "travel_from", pyval.Str("SFO"), "travel_to", pyval.Str("PEK"),
			"travel_date", pyval.Str("2024-01-01"), "travel_class", pyval.Str("economy"))).
			To(Equal("Error during execution: No available route for the given airports."))
		Expect(callMethod(cls, t, "get_flight_cost", "travel_from", pyval.Str("SFO"), "travel_to", pyval.Str("LAX"),
			"travel_date", pyval.Str("2024-01-01"), "travel_class", pyval.Str("coach"))).
			To(Equal("Error during execution: Invalid travel class. Options are: economy, business, first."))
		// digit sum 2+0+2+4+1+2+1+5 = 17 (odd): multiplier 1, business factor 2.
		Expect(callMethod(cls, t, "get_flight_cost", "travel_from", pyval.Str("SFO"), "travel_to", pyval.Str("LAX"),
			"travel_date", pyval.Str("2024-12-15"), "travel_class", pyval.Str("business"))).
			To(Equal(`{"travel_cost_list": [400.0]}`))
		Expect(callMethod(cls, t, "compute_exchange_rate", "base_currency", pyval.Str("EUR"), "target_currency", pyval.Str("USD"), "value", pyval.Int(100))).
			To(Equal(`{"exchanged_value": 125.0}`))
		Expect(callMethod(cls, t, "compute_exchange_rate", "base_currency", pyval.Str("USD"), "target_currency", pyval.Str("RMB"), "value", pyval.Str("ab"))).
			To(Equal(`Error during execution: could not convert string to float: 'ababababababab'`))
		Expect(callMethod(cls, t, "compute_exchange_rate", "base_currency", pyval.Str("XXX"), "target_currency", pyval.Str("USD"), "value", pyval.Int(1))).
			To(Equal("Error during execution: No available exchange rate for the given currencies."))
	})

	It("behaves as CPython's TravelAPI on the differential cases", func() {
		runDiffCases(diffCasesFor("TravelAPI"))
	})

	It("shares the long-context credit cards with the module data by reference", func() {
		t := authenticated(true)
		tv := t.(*TravelAPI)
		const card = "1234567812345678"
		Expect(callMethod(cls, t, "book_flight", "access_token", token(t), "card_id", pyval.Str(card), "travel_date", pyval.Str("2024-12-15"),
			"travel_from", pyval.Str("SFO"), "travel_to", pyval.Str("LAX"), "travel_class", pyval.Str("economy"))).
			To(ContainSubstring(`"booking_status": true, "booking_history": {"booking_901": `))
		ext := tv.env.LC.Get(longcontext.CreditCardExtension).(*pyval.Dict)
		cardV, _ := ext.GetStr(card)
		bal, _ := cardV.(*pyval.Dict).GetStr("balance")
		Expect(bal).To(Equal(pyval.Float(4800.0)))
		// A second instance on the same Env (the other side of the same
		// entry) sees the changed balance.
		other := NewTravelAPI(tv.env)
		Expect(other.LoadScenario(pyval.NewDict(), true)).To(Succeed())
		got, _ := other.State().GetStr("credit_card_list")
		cardV, _ = got.(*pyval.Dict).GetStr(card)
		bal, _ = cardV.(*pyval.Dict).GetStr("balance")
		Expect(bal).To(Equal(pyval.Float(4800.0)))
	})
})
