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
		runDiffCases(diffCasesTravelAPI())
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

// diffCasesTravelAPI is generated by diffCaseGenerator (CPython 3.12.1, PYTHONHASHSEED=0, TZ=UTC).
func diffCasesTravelAPI() []methodDiffCase {
	return []methodDiffCase{
		{class: "TravelAPI", longContext: false, config: "",
			calls: []string{
				"register_credit_card(access_token='x', card_number='1', expiration_date='1', cardholder_name='a', card_verification_number=1)",
				"travel_get_login_status()",
				"get_credit_card_balance(access_token=None, card_id='1')",
				"authenticate_travel(client_id='c', client_secret='s', refresh_token='r', grant_type='read_write', user_first_name='Ann', user_last_name='Lee')",
				"travel_get_login_status()",
				"register_credit_card(access_token='x', card_number='1', expiration_date='1', cardholder_name='a', card_verification_number=1)",
				"get_budget_fiscal_year()",
				"get_all_credit_cards()",
				"list_all_airports()",
				"get_nearest_airport_by_city(location='Rome')",
				"get_nearest_airport_by_city(location='Nowhere')",
				"get_nearest_airport_by_city(location=[1])",
				"compute_exchange_rate(base_currency='USD', target_currency='RMB', value=100)",
				"compute_exchange_rate(base_currency='RMB', target_currency='USD', value=100)",
				"compute_exchange_rate(base_currency='USD', target_currency='EUR', value=3)",
				"compute_exchange_rate(base_currency='GBP', target_currency='USD', value=3)",
				"compute_exchange_rate(base_currency='USD', target_currency='EUR', value='3')",
				"compute_exchange_rate(base_currency='EUR', target_currency='USD', value='3')",
				"compute_exchange_rate(base_currency='USD', target_currency='JPY', value=True)",
				"compute_exchange_rate(base_currency='EUR', target_currency='GBP', value=3)",
				"get_flight_cost(travel_from='SFO', travel_to='LAX', travel_date='2024-12-15', travel_class='first')",
				"get_flight_cost(travel_from='SFO', travel_to='LAX', travel_date=['2', '1'], travel_class='economy')",
				"get_flight_cost(travel_from='SFO', travel_to='LAX', travel_date=['22', '11'], travel_class='economy')",
				"get_flight_cost(travel_from='SFO', travel_to='LAX', travel_date='²', travel_class='economy')",
				"get_flight_cost(travel_from='SFO', travel_to='LAX', travel_date='٣', travel_class='economy')",
				"get_flight_cost(travel_from='SFO', travel_to='LAX', travel_date=[1], travel_class='economy')",
				"get_flight_cost(travel_from='SFO', travel_to='LAX', travel_date=5, travel_class='economy')",
				"get_flight_cost(travel_from=['SFO'], travel_to='LAX', travel_date='1', travel_class='economy')",
				"get_flight_cost(travel_from='LAX', travel_to='SFO', travel_date='1', travel_class=['economy'])",
				"verify_traveler_information(first_name='Ann', last_name='Lee', date_of_birth='1990-01-01', passport_number='US1')",
				"verify_traveler_information(first_name='Ann', last_name='Lee', date_of_birth='1990-01-01', passport_number='UK1')",
				"verify_traveler_information(first_name='Ann', last_name='Lee', date_of_birth='2020-01-01', passport_number='US1')",
				"verify_traveler_information(first_name='Ann', last_name='Lee', date_of_birth='1990/01/01', passport_number='US1')",
				"verify_traveler_information(first_name='Ann', last_name='Lee', date_of_birth=1990, passport_number='US1')",
				"verify_traveler_information(first_name='Ann', last_name='Lee', date_of_birth='1990-01-01', passport_number=5)",
				"verify_traveler_information(first_name='Bob', last_name=None, date_of_birth='1990-01-01', passport_number='US1')",
				"set_budget_limit(access_token='bad', budget_limit=1)",
			},
			results: []string{
				"{\"error\": \"Token not initialized\"}",
				"{\"status\": false}",
				"{\"error\": \"Card not registered. Here are a list of card_id's: []\"}",
				"{\"expires_in\": 2, \"access_token\": \"251675\", \"token_type\": \"Bearer\", \"scope\": \"read_write\"}",
				"{\"status\": true}",
				"{\"error\": \"Invalid access token\"}",
				"{\"budget_fiscal_year\": \"2018\"}",
				"{\"credit_card_list\": {}}",
				"['RMS', 'SBK', 'MPC', 'SVP', 'SHD', 'CDG', 'LHR', 'SSV', 'OKD', 'WLB', 'PEK', 'HND', 'HKG', 'CIA', 'CRH', 'ATV', 'PHV', 'GFD', 'SFO', 'LAX', 'JFK', 'ORD', 'BOS']",
				"{\"nearest_airport\": \"CIA\"}",
				"{\"nearest_airport\": \"Unknown\"}",
				"Error during execution: unhashable type: 'list'",
				"{\"exchanged_value\": 700.0}",
				"{\"exchanged_value\": 14.29}",
				"{\"exchanged_value\": 2.4000000000000004}",
				"{\"exchanged_value\": 4.29}",
				"Error during execution: can't multiply sequence by non-int of type 'float'",
				"Error during execution: unsupported operand type(s) for /: 'str' and 'float'",
				"{\"exchanged_value\": 110.0}",
				"Error during execution: No available exchange rate for the given currencies.",
				"{\"travel_cost_list\": [1000.0]}",
				"{\"travel_cost_list\": [200.0]}",
				"{\"travel_cost_list\": [200.0]}",
				"Error during execution: invalid literal for int() with base 10: '²'",
				"{\"travel_cost_list\": [200.0]}",
				"Error during execution: 'int' object has no attribute 'isdigit'",
				"Error during execution: 'int' object is not iterable",
				"Error during execution: unhashable type: 'list'",
				"Error during execution: Invalid travel class. Options are: economy, business, first.",
				"{\"verification_status\": true}",
				"{\"verification_status\": false, \"verification_failure\": \"Passport must be issued by the United States.\"}",
				"{\"verification_status\": false, \"verification_failure\": \"Traveler must be at least 18 years old.\"}",
				"{\"verification_status\": false, \"verification_failure\": \"Invalid date of birth format. Please use YYYY-MM-DD.\"}",
				"Error during execution: strptime() argument 1 must be str, not int",
				"Error during execution: 'int' object has no attribute 'startswith'",
				"{\"verification_status\": false, \"verification_failure\": \"Cannot book flight information for another user.Expected Ann Lee, got Bob None\"}",
				"{\"error\": \"Invalid access token\"}",
			},
			state: "{'credit_card_list': {}, 'booking_record': {}, 'access_token': '251675', 'token_type': 'Bearer', 'token_expires_in': 2, 'token_scope': 'read_write', 'user_first_name': 'Ann', 'user_last_name': 'Lee', 'budget_limit': None, 'long_context': False}"},
		{class: "TravelAPI", longContext: false, config: "{'budget_limit': None}",
			calls: []string{
				"authenticate_travel(client_id='c', client_secret='s', refresh_token='r', grant_type='read_write', user_first_name='Ann', user_last_name='Lee')",
				"register_credit_card(access_token=ACCESS, card_number='4111', expiration_date='12/30', cardholder_name='Ann Lee', card_verification_number=123)",
				"register_credit_card(access_token=ACCESS, card_number=CARD, expiration_date='12/30', cardholder_name='Ann Lee', card_verification_number=123)",
				"register_credit_card(access_token=ACCESS, card_number=[1], expiration_date='12/30', cardholder_name='Ann Lee', card_verification_number=123)",
				"get_credit_card_balance(access_token=ACCESS, card_id=CARD)",
				"get_credit_card_balance(access_token=ACCESS, card_id='nope')",
				"book_flight(access_token=ACCESS, card_id=CARD, travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='business')",
				"book_flight(access_token=ACCESS, card_id=CARD, travel_date='2024-12-15', travel_from='SFO', travel_to='XXX', travel_class='business')",
				"book_flight(access_token=ACCESS, card_id=CARD, travel_date='2024-12-15', travel_from='XXX', travel_to='LAX', travel_class='business')",
				"book_flight(access_token=ACCESS, card_id=CARD, travel_date='12/15/2024', travel_from='SFO', travel_to='LAX', travel_class='business')",
				"book_flight(access_token=ACCESS, card_id=CARD, travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class=['x'])",
				"book_flight(access_token=ACCESS, card_id=CARD, travel_date='2024-12-15', travel_from='PEK', travel_to='LAX', travel_class='first')",
				"book_flight(access_token=ACCESS, card_id='nope', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='first')",
				"book_flight(access_token='bad', card_id=CARD, travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='first')",
				"set_budget_limit(access_token=ACCESS, budget_limit='1e6')",
				"book_flight(access_token=ACCESS, card_id=CARD, travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='economy')",
				"set_budget_limit(access_token=ACCESS, budget_limit=100)",
				"book_flight(access_token=ACCESS, card_id=CARD, travel_date='2024-12-16', travel_from='SFO', travel_to='LAX', travel_class='economy')",
				"get_booking_history(access_token=ACCESS)",
				"retrieve_invoice(access_token=ACCESS)",
				"retrieve_invoice(access_token=ACCESS, booking_id=BOOKING)",
				"purchase_insurance(access_token=ACCESS, insurance_type='travel', booking_id=BOOKING, insurance_cost=500, card_id=CARD)",
				"purchase_insurance(access_token=ACCESS, insurance_type='travel', booking_id=BOOKING, insurance_cost=50, card_id=CARD)",
				"purchase_insurance(access_token=ACCESS, insurance_type='travel', booking_id='x', insurance_cost=50, card_id=CARD)",
				"purchase_insurance(access_token=ACCESS, insurance_type='travel', booking_id=BOOKING, insurance_cost=50, card_id='x')",
				"purchase_insurance(access_token=ACCESS, insurance_type='travel', booking_id=BOOKING, insurance_cost='50', card_id=CARD)",
				"contact_customer_support(booking_id=BOOKING, message='hi')",
				"contact_customer_support(booking_id='x', message='hi')",
				"cancel_booking(access_token=ACCESS, booking_id=BOOKING)",
				"cancel_booking(access_token=ACCESS, booking_id=BOOKING)",
				"get_credit_card_balance(access_token=ACCESS, card_id=CARD)",
				"set_budget_limit(access_token=ACCESS, budget_limit='x')",
			},
			results: []string{
				"{\"expires_in\": 2, \"access_token\": \"251675\", \"token_type\": \"Bearer\", \"scope\": \"read_write\"}",
				"{\"card_id\": \"391310425148\"}",
				"{\"error\": \"Card already registered\"}",
				"Error during execution: unhashable type: 'list'",
				"{\"card_balance\": 58617}",
				"{\"error\": \"Card not registered. Here are a list of card_id's: ['391310425148']\"}",
				"{\"booking_id\": \"4191922\", \"transaction_id\": \"56121276\", \"booking_status\": true, \"booking_history\": {}}",
				"{\"booking_status\": false, \"error\": \"Invalid destination airport code: XXX\"}",
				"{\"booking_status\": false, \"error\": \"Invalid departure airport code: XXX\"}",
				"{\"booking_status\": false, \"error\": \"Invalid date format. Use YYYY-MM-DD.\"}",
				"Error during execution: unhashable type: 'list'",
				"{\"booking_status\": false, \"error\": \"No available route for the given airports.\"}",
				"{\"booking_status\": false, \"error\": \"Card not registered\"}",
				"{\"booking_status\": false, \"error\": \"Invalid access token\"}",
				"{\"budget_limit\": 1000000.0}",
				"{\"booking_status\": false, \"error\": \"Balance is less than budget limit\"}",
				"{\"budget_limit\": 100.0}",
				"{\"booking_id\": \"8737609\", \"transaction_id\": \"49536459\", \"booking_status\": true, \"booking_history\": {}}",
				"{\"booking_history\": {\"4191922\": {\"card_id\": \"391310425148\", \"travel_date\": \"2024-12-15\", \"travel_from\": \"SFO\", \"travel_to\": \"LAX\", \"travel_class\": \"business\", \"travel_cost\": 400.0, \"transaction_id\": \"56121276\"}, \"8737609\": {\"card_id\": \"391310425148\", \"travel_date\": \"2024-12-16\", \"travel_from\": \"SFO\", \"travel_to\": \"LAX\", \"travel_class\": \"economy\", \"travel_cost\": 400.0, \"transaction_id\": \"49536459\"}}}",
				"{\"error\": \"Booking not found\"}",
				"{\"invoice\": {\"booking_id\": \"8737609\", \"travel_date\": \"2024-12-16\", \"travel_from\": \"SFO\", \"travel_to\": \"LAX\", \"travel_class\": \"economy\", \"travel_cost\": 400.0, \"transaction_id\": \"49536459\"}}",
				"{\"insurance_status\": false, \"error\": \"Exceeded budget limit\"}",
				"{\"insurance_id\": \"796187181\", \"insurance_status\": true}",
				"{\"insurance_status\": false, \"error\": \"Booking not found\"}",
				"{\"insurance_status\": false, \"error\": \"Credit card not registered\"}",
				"Error during execution: '<' not supported between instances of 'float' and 'str'",
				"{\"customer_support_message\": \"Thank you for contacting customer support. Your message has been received and we will get back to you shortly.\"}",
				"{\"error\": \"Booking not found\"}",
				"{\"cancel_status\": true}",
				"{\"cancel_status\": false, \"error\": \"Booking not found\"}",
				"{\"card_balance\": 58167.0}",
				"Error during execution: could not convert string to float: 'x'",
			},
			state: "{'credit_card_list': {'391310425148': {'card_number': '4111', 'expiration_date': '12/30', 'cardholder_name': 'Ann Lee', 'card_verification_number': 123, 'balance': 58167.0}}, 'booking_record': {'4191922': {'card_id': '391310425148', 'travel_date': '2024-12-15', 'travel_from': 'SFO', 'travel_to': 'LAX', 'travel_class': 'business', 'travel_cost': 400.0, 'transaction_id': '56121276'}}, 'access_token': '251675', 'token_type': 'Bearer', 'token_expires_in': 2, 'token_scope': 'read_write', 'user_first_name': 'Ann', 'user_last_name': 'Lee', 'budget_limit': 100.0, 'long_context': False}"},
		{class: "TravelAPI", longContext: true, config: "",
			calls: []string{
				"authenticate_travel(client_id='c', client_secret='s', refresh_token='r', grant_type='read_write', user_first_name='Ann', user_last_name='Lee')",
				"book_flight(access_token=ACCESS, card_id='1234567812345678', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='economy')",
				"get_flight_cost(travel_from='JFK', travel_to='LAX', travel_date='2024-12-15', travel_class='economy')",
				"cancel_booking(access_token=ACCESS, booking_id='booking_901')",
				"get_all_credit_cards()",
			},
			results: []string{
				"{\"expires_in\": 2, \"access_token\": \"251675\", \"token_type\": \"Bearer\", \"scope\": \"read_write\"}",
				"{\"booking_id\": \"5431449\", \"transaction_id\": \"59784505\", \"booking_status\": true, \"booking_history\": {\"booking_901\": {\"card_id\": \"1234567812345678\", \"travel_date\": \"2024-05-21\", \"travel_from\": \"SFO\", \"travel_to\": \"JFK\", \"travel_class\": \"economy\", \"travel_cost\": 400.0, \"transaction_id\": \"trans_001\"}, \"booking_902\": {\"card_id\": \"2345678923456789\", \"travel_date\": \"2024-06-15\", \"travel_from\": \"LAX\", \"travel_to\": \"ORD\", \"travel_class\": \"business\", \"travel_cost\": 900.0, \"transaction_id\": \"trans_002\"}, \"booking_903\": {\"card_id\": \"3456789034567890\", \"travel_date\": \"2024-07-01\", \"travel_from\": \"BOS\", \"travel_to\": \"RMS\", \"travel_class\": \"first\", \"travel_cost\": 1500.0, \"transaction_id\": \"trans_003\"}, \"booking_904\": {\"card_id\": \"4567890145678901\", \"travel_date\": \"2024-08-21\", \"travel_from\": \"SFO\", \"travel_to\": \"ORD\", \"travel_class\": \"economy\", \"travel_cost\": 380.0, \"transaction_id\": \"trans_004\"}, \"booking_997\": {\"card_id\": \"9978997699789976\", \"travel_date\": \"2024-03-15\", \"travel_from\": \"MPC\", \"travel_to\": \"WLB\", \"travel_class\": \"business\", \"travel_cost\": 900.0, \"transaction_id\": \"trans_097\"}, \"booking_998\": {\"card_id\": \"9989997799899989\", \"travel_date\": \"2024-02-11\", \"travel_from\": \"SHD\", \"travel_to\": \"SVP\", \"travel_class\": \"economy\", \"travel_cost\": 450.0, \"transaction_id\": \"trans_098\"}, \"booking_999\": {\"card_id\": \"9999997899999999\", \"travel_date\": \"2024-01-23\", \"travel_from\": \"RMS\", \"travel_to\": \"SBK\", \"travel_class\": \"first\", \"travel_cost\": 2200.0, \"transaction_id\": \"trans_099\"}, \"booking_900\": {\"card_id\": \"1000000790000000\", \"travel_date\": \"2024-12-05\", \"travel_from\": \"SFO\", \"travel_to\": \"JFK\", \"travel_class\": \"business\", \"travel_cost\": 1300.0, \"transaction_id\": \"trans_100\"}, \"booking_401\": {\"card_id\": \"1234567812345678\", \"travel_date\": \"2024-05-21\", \"travel_from\": \"SFO\", \"travel_to\": \"JFK\", \"travel_class\": \"economy\", \"travel_cost\": 400.0, \"transaction_id\": \"trans_401\"}, \"booking_402\": {\"card_id\": \"2345678923456789\", \"travel_date\": \"2024-06-15\", \"travel_from\": \"LAX\", \"travel_to\": \"ORD\", \"travel_class\": \"business\", \"travel_cost\": 900.0, \"transaction_id\": \"trans_002\"}, \"booking_403\": {\"card_id\": \"3456789034567890\", \"travel_date\": \"2024-07-01\", \"travel_from\": \"BOS\", \"travel_to\": \"RMS\", \"travel_class\": \"first\", \"travel_cost\": 1500.0, \"transaction_id\": \"trans_403\"}, \"booking_404\": {\"card_id\": \"4567890145678901\", \"travel_date\": \"2024-08-21\", \"travel_from\": \"SFO\", \"travel_to\": \"ORD\", \"travel_class\": \"economy\", \"travel_cost\": 380.0, \"transaction_id\": \"trans_404\"}, \"booking_497\": {\"card_id\": \"9978997699789976\", \"travel_date\": \"2024-03-15\", \"travel_from\": \"MPC\", \"travel_to\": \"WLB\", \"travel_class\": \"business\", \"travel_cost\": 900.0, \"transaction_id\": \"trans_497\"}, \"booking_498\": {\"card_id\": \"9989997799899989\", \"travel_date\": \"2024-02-11\", \"travel_from\": \"SHD\", \"travel_to\": \"SVP\", \"travel_class\": \"economy\", \"travel_cost\": 450.0, \"transaction_id\": \"trans_498\"}, \"booking_499\": {\"card_id\": \"9999997899999999\", \"travel_date\": \"2024-01-23\", \"travel_from\": \"RMS\", \"travel_to\": \"SBK\", \"travel_class\": \"first\", \"travel_cost\": 2200.0, \"transaction_id\": \"trans_499\"}, \"booking_400\": {\"card_id\": \"1000000790000000\", \"travel_date\": \"2024-12-05\", \"travel_from\": \"SFO\", \"travel_to\": \"JFK\", \"travel_class\": \"business\", \"travel_cost\": 1300.0, \"transaction_id\": \"trans_400\"}, \"5431449\": {\"card_id\": \"1234567812345678\", \"travel_date\": \"2024-12-15\", \"travel_from\": \"SFO\", \"travel_to\": \"LAX\", \"travel_class\": \"economy\", \"travel_cost\": 200.0, \"transaction_id\": \"59784505\"}}}",
				"{\"travel_cost_list\": [200.0, 500.0, 400.0, 450.0, 300.0, 350.0, 370.0, 320.0, 330.0, 340.0, 360.0, 310.0, 380.0, 390.0, 420.0, 430.0, 700.0, 100.0, 600.0, 500.0, 550.0, 310.0, 320.0, 330.0, 340.0, 350.0, 360.0, 370.0, 380.0, 390.0, 400.0, 410.0, 420.0, 430.0, 300.0, 250.0, 450.0, 460.0, 470.0, 480.0, 490.0, 500.0, 510.0, 520.0, 530.0, 540.0, 550.0, 560.0, 570.0, 800.0, 950.0, 1000.0, 180.0, 200.0, 350.0, 360.0, 370.0, 380.0, 390.0, 400.0, 410.0, 420.0, 430.0, 440.0, 450.0, 460.0, 400.0, 410.0, 420.0, 430.0, 440.0, 450.0, 460.0, 470.0, 480.0, 490.0, 500.0, 510.0, 200.0, 210.0, 220.0, 230.0, 240.0, 250.0, 260.0, 270.0, 280.0, 290.0, 300.0, 310.0, 320.0, 330.0, 200.0, 210.0, 220.0, 230.0, 240.0, 250.0, 260.0, 270.0, 280.0, 290.0, 210.0, 220.0, 230.0, 240.0, 250.0, 260.0, 270.0, 280.0, 290.0, 230.0, 240.0, 250.0, 260.0, 270.0, 280.0, 290.0, 300.0, 220.0, 230.0, 240.0, 250.0, 260.0, 270.0, 280.0, 240.0, 250.0, 260.0, 270.0, 280.0, 290.0, 230.0, 240.0, 250.0, 260.0, 270.0, 250.0, 260.0, 270.0, 280.0, 240.0, 250.0, 260.0, 270.0, 280.0, 290.0, 300.0, 230.0, 240.0, 220.0, 100.0, 220.0]}",
				"{\"cancel_status\": true}",
				"{\"credit_card_list\": {\"1234567812345678\": {\"card_number\": \"1234567812345678\", \"expiration_date\": \"12/25\", \"cardholder_name\": \"John Doe\", \"card_verification_number\": 123, \"balance\": 5200.0}, \"2345678923456789\": {\"card_number\": \"2345678923456789\", \"expiration_date\": \"11/24\", \"cardholder_name\": \"Jane Smith\", \"card_verification_number\": 456, \"balance\": 7500.0}, \"3456789034567890\": {\"card_number\": \"3456789034567890\", \"expiration_date\": \"10/23\", \"cardholder_name\": \"Robert Johnson\", \"card_verification_number\": 789, \"balance\": 6200.0}, \"4567890145678901\": {\"card_number\": \"4567890145678901\", \"expiration_date\": \"09/26\", \"cardholder_name\": \"Emily Davis\", \"card_verification_number\": 321, \"balance\": 8200.0}, \"9978997699789976\": {\"card_number\": \"9978997699789976\", \"expiration_date\": \"01/30\", \"cardholder_name\": \"Cardholder 97\", \"card_verification_number\": 697, \"balance\": 5850.0}, \"9989997799899989\": {\"card_number\": \"9989997799899989\", \"expiration_date\": \"02/30\", \"cardholder_name\": \"Cardholder 98\", \"card_verification_number\": 698, \"balance\": 5900.0}, \"9999997899999999\": {\"card_number\": \"9999997899999999\", \"expiration_date\": \"03/30\", \"cardholder_name\": \"Cardholder 99\", \"card_verification_number\": 699, \"balance\": 5950.0}, \"1000000790000000\": {\"card_number\": \"1000000790000000\", \"expiration_date\": \"04/30\", \"cardholder_name\": \"Cardholder 100\", \"card_verification_number\": 700, \"balance\": 6000.0}, \"1234567812345674\": {\"card_number\": \"1234567812345674\", \"expiration_date\": \"12/25\", \"cardholder_name\": \"Johnyy Doe Stacks\", \"card_verification_number\": 132, \"balance\": 5000.0}, \"2345678923456784\": {\"card_number\": \"2345678923456784\", \"expiration_date\": \"11/24\", \"cardholder_name\": \"Jane Hudson\", \"card_verification_number\": 465, \"balance\": 7500.0}, \"3456789034567894\": {\"card_number\": \"3456789034567894\", \"expiration_date\": \"10/23\", \"cardholder_name\": \"Mitchell Johnson\", \"card_verification_number\": 798, \"balance\": 6200.0}, \"4567890145678904\": {\"card_number\": \"4567890145678904\", \"expiration_date\": \"09/26\", \"cardholder_name\": \"Emilio Berkeley\", \"card_verification_number\": 312, \"balance\": 8200.0}, \"9978997699789974\": {\"card_number\": \"9978997699789974\", \"expiration_date\": \"01/30\", \"cardholder_name\": \"Cardholder 397\", \"card_verification_number\": 679, \"balance\": 5850.0}, \"9989997799899984\": {\"card_number\": \"9989997799899984\", \"expiration_date\": \"02/30\", \"cardholder_name\": \"Cardholder 098\", \"card_verification_number\": 689, \"balance\": 5900.0}, \"9999997899999994\": {\"card_number\": \"9999997899999994\", \"expiration_date\": \"03/30\", \"cardholder_name\": \"Cardholder 499\", \"card_verification_number\": 696, \"balance\": 5950.0}, \"1000000790000004\": {\"card_number\": \"1000000790000004\", \"expiration_date\": \"04/30\", \"cardholder_name\": \"Cardholder 4100\", \"card_verification_number\": 712, \"balance\": 6000.0}, \"1456789034567891\": {\"card_number\": \"1456789034567891\", \"expiration_date\": \"10/23\", \"cardholder_name\": \"Roberto Johnson\", \"card_verification_number\": 798, \"balance\": 6200.0}, \"1567890145678901\": {\"card_number\": \"1567890145678901\", \"expiration_date\": \"09/26\", \"cardholder_name\": \"Emily Daviston\", \"card_verification_number\": 312, \"balance\": 8200.0}, \"1978997699789971\": {\"card_number\": \"1978997699789971\", \"expiration_date\": \"01/30\", \"cardholder_name\": \"Cardholder 697\", \"card_verification_number\": 679, \"balance\": 5850.0}, \"1989997799899981\": {\"card_number\": \"1989997799899981\", \"expiration_date\": \"02/30\", \"cardholder_name\": \"Cardholder 598\", \"card_verification_number\": 689, \"balance\": 5900.0}, \"1999997899999991\": {\"card_number\": \"1999997899999991\", \"expiration_date\": \"03/30\", \"cardholder_name\": \"Cardholder 499\", \"card_verification_number\": 696, \"balance\": 5950.0}, \"1000000790000001\": {\"card_number\": \"1000000790000004\", \"expiration_date\": \"04/30\", \"cardholder_name\": \"Cardholder 2100\", \"card_verification_number\": 712, \"balance\": 6000.0}}}",
			},
			state: "sha256:3d59c6ab8496a4bdbd9cc162a0ac8867f60300a9a2eef7b5adf95a1a4993909c"},
		{class: "TravelAPI", longContext: false, config: "{'access_token': 't', 'token_expires_in': 0, 'booking_record': {'b1': {'card_id': 'c1', 'travel_cost': 5}}, 'credit_card_list': {'c1': {'balance': 10}}}",
			calls: []string{
				"retrieve_invoice(access_token='t', booking_id='b1')",
				"cancel_booking(access_token='t', booking_id='b1')",
				"get_credit_card_balance(access_token='t', card_id='c1')",
				"book_flight(access_token='t', card_id='c1', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='economy')",
			},
			results: []string{
				"{\"error\": \"Token expired\"}",
				"{\"cancel_status\": false, \"error\": \"Token expired\"}",
				"{\"error\": \"Token expired\"}",
				"{\"booking_status\": false, \"error\": \"Token expired\"}",
			},
			state: "{'credit_card_list': {'c1': {'balance': 10}}, 'booking_record': {'b1': {'card_id': 'c1', 'travel_cost': 5}}, 'access_token': 't', 'token_type': None, 'token_expires_in': 0, 'token_scope': None, 'user_first_name': None, 'user_last_name': None, 'budget_limit': None, 'long_context': False}"},
		{class: "TravelAPI", longContext: false, config: "{'access_token': 't', 'token_expires_in': 2, 'booking_record': {'b1': {'card_id': 'c1', 'travel_cost': 5}}, 'credit_card_list': {'c1': {'balance': 10}, 'c2': {'limit': 1}}}",
			calls: []string{
				"retrieve_invoice(access_token='t', booking_id='b1')",
				"cancel_booking(access_token='t', booking_id='b1')",
				"get_credit_card_balance(access_token='t', card_id='c1')",
				"book_flight(access_token='t', card_id='c2', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='economy')",
				"book_flight(access_token='t', card_id='c1', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='economy')",
			},
			results: []string{
				"Error during execution: 'travel_date'",
				"{\"cancel_status\": true}",
				"{\"card_balance\": 15}",
				"{\"booking_status\": false, \"error\": \"Balance not found\"}",
				"{\"booking_status\": false, \"error\": \"Insufficient funds\"}",
			},
			state: "{'credit_card_list': {'c1': {'balance': 15}, 'c2': {'limit': 1}}, 'booking_record': {}, 'access_token': 't', 'token_type': None, 'token_expires_in': 2, 'token_scope': None, 'user_first_name': None, 'user_last_name': None, 'budget_limit': None, 'long_context': False}"},
	}
}
