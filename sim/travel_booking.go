package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// travel_booking.py (class TravelAPI). Result and error strings, the route
// cost table and the exchange-rate table are protocol constants reproduced
// exactly from that file.

import (
	"strconv"
	"sync"
	"time"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/python/pyrandom"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// tvDefaultSeed is DEFAULT_STATE["random_seed"] of travel_booking.py.
const tvDefaultSeed = 141053

// tvDefaults is tvDefaultState built once, for scenarioValue to copy from.
var tvDefaults = sync.OnceValue(tvDefaultState)

func tvDefaultState() *pyval.Dict {
	return dictOf(
		"random_seed", pyval.Int(tvDefaultSeed),
		"credit_card_list", pyval.NewDict(),
		"booking_record", pyval.NewDict(),
		"access_token", pyval.None,
		"token_type", pyval.None,
		"token_expires_in", pyval.None,
		"token_scope", pyval.None,
		"user_first_name", pyval.None,
		"user_last_name", pyval.None,
		"budget_limit", pyval.None,
	)
}

// tvRoute is one entry of get_flight_cost's base_costs table.
type tvRoute struct {
	from, to string
	base     int64
}

// tvBaseCosts is get_flight_cost's base_costs, in upstream's order (the
// long-context mode lists every route's cost in this order).
func tvBaseCosts() []tvRoute { return tvRoutes }

// tvRoutes is tvBaseCosts's table (read only).
var tvRoutes = []tvRoute{
	{"SFO", "LAX", 200}, {"SFO", "JFK", 500}, {"SFO", "ORD", 400}, {"SFO", "BOS", 450},
	{"SFO", "RMS", 300}, {"SFO", "SBK", 350}, {"SFO", "MPC", 370}, {"SFO", "SVP", 320},
	{"SFO", "SHD", 330}, {"SFO", "SSV", 340}, {"SFO", "OKD", 360}, {"SFO", "WLB", 310},
	{"SFO", "CRH", 380}, {"SFO", "ATV", 390}, {"SFO", "PHV", 420}, {"SFO", "GFD", 430},
	{"SFO", "CIA", 700}, {"LAX", "SFO", 100}, {"LAX", "JFK", 600}, {"LAX", "ORD", 500},
	{"LAX", "BOS", 550}, {"LAX", "RMS", 310}, {"LAX", "SBK", 320}, {"LAX", "MPC", 330},
	{"LAX", "SVP", 340}, {"LAX", "SHD", 350}, {"LAX", "SSV", 360}, {"LAX", "OKD", 370},
	{"LAX", "WLB", 380}, {"LAX", "CRH", 390}, {"LAX", "ATV", 400}, {"LAX", "PHV", 410},
	{"LAX", "GFD", 420}, {"LAX", "HND", 430}, {"JFK", "ORD", 300}, {"JFK", "BOS", 250},
	{"JFK", "RMS", 450}, {"JFK", "SBK", 460}, {"JFK", "MPC", 470}, {"JFK", "SVP", 480},
	{"JFK", "SHD", 490}, {"JFK", "SSV", 500}, {"JFK", "OKD", 510}, {"JFK", "WLB", 520},
	{"JFK", "CRH", 530}, {"JFK", "ATV", 540}, {"JFK", "PHV", 550}, {"JFK", "GFD", 560},
	{"JFK", "LAX", 570}, {"JFK", "HND", 800}, {"JFK", "PVG", 950}, {"JFK", "PEK", 1000},
	{"ORD", "LAX", 180}, {"ORD", "BOS", 200}, {"ORD", "RMS", 350}, {"ORD", "SBK", 360},
	{"ORD", "MPC", 370}, {"ORD", "SVP", 380}, {"ORD", "SHD", 390}, {"ORD", "SSV", 400},
	{"ORD", "OKD", 410}, {"ORD", "WLB", 420}, {"ORD", "CRH", 430}, {"ORD", "ATV", 440},
	{"ORD", "PHV", 450}, {"ORD", "GFD", 460}, {"BOS", "RMS", 400}, {"BOS", "SBK", 410},
	{"BOS", "MPC", 420}, {"BOS", "SVP", 430}, {"BOS", "SHD", 440}, {"BOS", "SSV", 450},
	{"BOS", "OKD", 460}, {"BOS", "WLB", 470}, {"BOS", "CRH", 480}, {"BOS", "ATV", 490},
	{"BOS", "PHV", 500}, {"BOS", "GFD", 510}, {"RMS", "BOS", 200}, {"RMS", "JFK", 210},
	{"RMS", "SBK", 220}, {"RMS", "MPC", 230}, {"RMS", "SVP", 240}, {"RMS", "SHD", 250},
	{"RMS", "SSV", 260}, {"RMS", "OKD", 270}, {"RMS", "WLB", 280}, {"RMS", "CRH", 290},
	{"RMS", "ATV", 300}, {"RMS", "PHV", 310}, {"RMS", "GFD", 320}, {"RMS", "LAX", 330},
	{"SBK", "MPC", 200}, {"SBK", "SVP", 210}, {"SBK", "SHD", 220}, {"SBK", "SSV", 230},
	{"SBK", "OKD", 240}, {"SBK", "WLB", 250}, {"SBK", "CRH", 260}, {"SBK", "ATV", 270},
	{"SBK", "PHV", 280}, {"SBK", "GFD", 290}, {"MPC", "SVP", 210}, {"MPC", "SHD", 220},
	{"MPC", "SSV", 230}, {"MPC", "OKD", 240}, {"MPC", "WLB", 250}, {"MPC", "CRH", 260},
	{"MPC", "ATV", 270}, {"MPC", "PHV", 280}, {"MPC", "GFD", 290}, {"SVP", "SHD", 230},
	{"SVP", "SSV", 240}, {"SVP", "OKD", 250}, {"SVP", "WLB", 260}, {"SVP", "CRH", 270},
	{"SVP", "ATV", 280}, {"SVP", "PHV", 290}, {"SVP", "GFD", 300}, {"SHD", "SSV", 220},
	{"SHD", "OKD", 230}, {"SHD", "WLB", 240}, {"SHD", "CRH", 250}, {"SHD", "ATV", 260},
	{"SHD", "PHV", 270}, {"SHD", "GFD", 280}, {"SSV", "OKD", 240}, {"SSV", "WLB", 250},
	{"SSV", "CRH", 260}, {"SSV", "ATV", 270}, {"SSV", "PHV", 280}, {"SSV", "GFD", 290},
	{"OKD", "WLB", 230}, {"OKD", "CRH", 240}, {"OKD", "ATV", 250}, {"OKD", "PHV", 260},
	{"OKD", "GFD", 270}, {"WLB", "CRH", 250}, {"WLB", "ATV", 260}, {"WLB", "PHV", 270},
	{"WLB", "GFD", 280}, {"CRH", "ATV", 240}, {"CRH", "PHV", 250}, {"CRH", "GFD", 260},
	{"CRH", "SFO", 270}, {"CRH", "RMS", 280}, {"CRH", "HKG", 290}, {"CRH", "JFK", 300},
	{"ATV", "PHV", 230}, {"ATV", "GFD", 240}, {"PHV", "GFD", 220}, {"LHR", "CDG", 100},
	{"OKD", "LAX", 220}}

// tvAirports is list_all_airports()'s list.
func tvAirports() []string {
	return []string{
		"RMS", "SBK", "MPC", "SVP", "SHD", "CDG", "LHR", "SSV", "OKD", "WLB", "PEK", "HND",
		"HKG", "CIA", "CRH", "ATV", "PHV", "GFD", "SFO", "LAX", "JFK", "ORD", "BOS",
	}
}

// TravelAPI is upstream's TravelAPI.
type TravelAPI struct {
	env *Env

	random           *pyrandom.Rand
	creditCardList   *pyval.Dict
	bookingRecord    *pyval.Dict
	accessToken      pyval.Value
	tokenType        pyval.Value
	tokenExpiresIn   pyval.Value
	tokenScope       pyval.Value
	userFirstName    pyval.Value
	userLastName     pyval.Value
	budgetLimit      pyval.Value
	longContext      bool
	flightCostLookup *tvCostLookup // private _flight_cost_lookup (nil: {})
}

// NewTravelAPI returns an instance as upstream's constructor leaves it.
func NewTravelAPI(env *Env) *TravelAPI {
	return &TravelAPI{env: env}
}

// ClassName implements Instance.
func (*TravelAPI) ClassName() string { return "TravelAPI" }

// LoadScenario is upstream's _load_scenario. In long-context mode the
// CREDIT_CARD_EXTENSION / BOOKING_RECORD_EXTENSION entries are added by
// reference: the card dicts stay shared with env.LC, as upstream shares
// them with its module globals.
func (t *TravelAPI) LoadScenario(config *pyval.Dict, longContext bool) error {
	def := tvDefaults()
	get := func(key string) pyval.Value { return scenarioValue(config, def, key, key) }
	r, err := newRandom(get("random_seed"))
	if err != nil {
		return err
	}
	t.random = r
	var ok bool
	cc := get("credit_card_list")
	if t.creditCardList, ok = cc.(*pyval.Dict); !ok {
		return pyval.NewTypeError("TravelAPI: initial_config credit_card_list is a %s, not a dict", cc.TypeName())
	}
	br := get("booking_record")
	if t.bookingRecord, ok = br.(*pyval.Dict); !ok {
		return pyval.NewTypeError("TravelAPI: initial_config booking_record is a %s, not a dict", br.TypeName())
	}
	t.accessToken = get("access_token")
	t.tokenType = get("token_type")
	t.tokenExpiresIn = get("token_expires_in")
	t.tokenScope = get("token_scope")
	t.userFirstName = get("user_first_name")
	t.userLastName = get("user_last_name")
	t.budgetLimit = get("budget_limit")
	t.longContext = longContext
	if longContext {
		for _, ext := range []struct {
			name string
			into *pyval.Dict
		}{
			{longcontext.CreditCardExtension, t.creditCardList},
			{longcontext.BookingRecordExtension, t.bookingRecord},
		} {
			src, ok := t.lc(ext.name).(*pyval.Dict)
			if !ok {
				return pyval.NewTypeError("TravelAPI: long_context %s is not a dict", ext.name)
			}
			for _, kv := range src.Items() {
				if !ext.into.Has(kv.Key) {
					ext.into.Set(kv.Key, kv.Value)
				}
			}
		}
	}
	return nil
}

// State implements Instance. Before LoadScenario the instance has no public
// attributes (upstream's __init__ only annotates them).
func (t *TravelAPI) State() *pyval.Dict {
	if t.random == nil {
		return pyval.NewDict()
	}
	return dictOf(
		"credit_card_list", t.creditCardList,
		"booking_record", t.bookingRecord,
		"access_token", t.accessToken,
		"token_type", t.tokenType,
		"token_expires_in", t.tokenExpiresIn,
		"token_scope", t.tokenScope,
		"user_first_name", t.userFirstName,
		"user_last_name", t.userLastName,
		"budget_limit", t.budgetLimit,
		"long_context", pyval.Bool(t.longContext),
	)
}

func (t *TravelAPI) lc(name string) pyval.Value { return longContextValue(t.env, "TravelAPI", name) }

// tokenExpired is `self.token_expires_in == 0`.
func (t *TravelAPI) tokenExpired() bool { return pyval.Equal(t.tokenExpiresIn, pyval.Int(0)) }

// accessError is the check upstream's token-guarded methods open with:
// "Token expired" once the token's lifetime is 0, "Invalid access token"
// for another token, "" when the call may go on.
func (t *TravelAPI) accessError(accessToken pyval.Value) string {
	if t.tokenExpired() {
		return "Token expired"
	}
	if pyval.NotEqual(accessToken, t.accessToken) {
		return "Invalid access token"
	}
	return ""
}

// tvCostLookup is _flight_cost_lookup as get_flight_cost last left it:
// one key and cost, or in long-context mode the key of every route of
// tvBaseCosts with the call's class and date, the cost base * mult. The
// long-context keys are matched when looked up instead of being written
// out (book_flight looks up one key; get_flight_cost is called far more).
type tvCostLookup struct {
	long   bool
	key    string      // the one key
	cost   pyval.Value // its cost
	suffix string      // long context: "|{class}|{date}" of every key
	mult   int64       // long context: factor * date multiplier
}

// get is _flight_cost_lookup.get(key) (a nil lookup is the empty dict).
func (l *tvCostLookup) get(key string) (pyval.Value, bool) {
	switch {
	case l == nil:
		return nil, false
	case !l.long:
		if key == l.key {
			return l.cost, true
		}
		return nil, false
	}
	routes := tvBaseCosts()
	// Later routes overwrote earlier ones with the same key: search from
	// the end.
	for i := len(routes) - 1; i >= 0; i-- {
		r := routes[i]
		nf, nt := len(r.from), len(r.to)
		if len(key) == nf+1+nt+len(l.suffix) && key[:nf] == r.from && key[nf] == '|' &&
			key[nf+1:nf+1+nt] == r.to && key[nf+1+nt:] == l.suffix {
			return pyval.Float(float64(r.base * l.mult)), true
		}
	}
	return nil, false
}

// flightCostKey is the f-string f"{from}|{to}|{class}|{date}".
func tvFlightCostKey(from, to, class, date pyval.Value) string {
	return pyval.StrOf(from) + "|" + pyval.StrOf(to) + "|" + pyval.StrOf(class) + "|" + pyval.StrOf(date)
}

// AuthenticateTravel is upstream's authenticate_travel (credentials are not
// checked).
func (t *TravelAPI) AuthenticateTravel(args stubs.TravelAPIAuthenticateTravelArgs) (pyval.Value, error) {
	grantType, userFirstName, userLastName := args.GrantType.V, args.UserFirstName.V, args.UserLastName.V
	t.tokenExpiresIn = pyval.Int(2)
	t.accessToken = pyval.Str(strconv.Itoa(t.random.RandInt(100000, 999999)))
	t.tokenType = pyval.Str("Bearer")
	t.tokenScope = grantType
	t.userFirstName = userFirstName
	t.userLastName = userLastName
	return dictOf(
		"expires_in", pyval.Int(2),
		"access_token", t.accessToken,
		"token_type", pyval.Str("Bearer"),
		"scope", grantType,
	), nil
}

// TravelGetLoginStatus is upstream's travel_get_login_status.
func (t *TravelAPI) TravelGetLoginStatus() (pyval.Value, error) {
	notLoggedIn := t.tokenExpiresIn == pyval.None || t.tokenExpired()
	return dictOf("status", pyval.Bool(!notLoggedIn)), nil
}

// GetBudgetFiscalYear is upstream's get_budget_fiscal_year.
func (t *TravelAPI) GetBudgetFiscalYear(_ stubs.TravelAPIGetBudgetFiscalYearArgs) (pyval.Value, error) {
	return dictOf("budget_fiscal_year", pyval.Str("2018")), nil
}

// RegisterCreditCard is upstream's register_credit_card.
func (t *TravelAPI) RegisterCreditCard(args stubs.TravelAPIRegisterCreditCardArgs) (pyval.Value, error) {
	accessToken, cardNumber, expirationDate, cardholderName, cardVerificationNumber := args.AccessToken.V, args.CardNumber.V, args.ExpirationDate.V, args.CardholderName.V, args.CardVerificationNumber.V
	if t.tokenExpiresIn == pyval.None {
		return errorDict("Token not initialized"), nil
	}
	if msg := t.accessError(accessToken); msg != "" {
		return errorDict(msg), nil
	}
	in, err := pyval.Contains(t.creditCardList, cardNumber)
	if err != nil {
		return nil, err
	}
	if in {
		return errorDict("Card already registered"), nil
	}
	cardID := pyval.Str(strconv.Itoa(t.random.RandInt(100000000000, 999999999999)))
	t.creditCardList.Set(cardID, dictOf(
		"card_number", cardNumber,
		"expiration_date", expirationDate,
		"cardholder_name", cardholderName,
		"card_verification_number", cardVerificationNumber,
		"balance", pyval.Int(t.random.RandInt(10000, 99999)),
	))
	return dictOf("card_id", cardID), nil
}

// GetFlightCost is upstream's get_flight_cost.
func (t *TravelAPI) GetFlightCost(args stubs.TravelAPIGetFlightCostArgs) (pyval.Value, error) {
	return t.flightCost(args.TravelFrom.V, args.TravelTo.V, args.TravelDate.V, args.TravelClass.V)
}

// flightCost is get_flight_cost as book_flight calls it (self.get_flight_cost).
func (t *TravelAPI) flightCost(travelFrom, travelTo, travelDate, travelClass pyval.Value) (pyval.Value, error) {
	routes := tvBaseCosts()
	if err := pyval.CheckHashable(pyval.Tuple{travelFrom, travelTo}); err != nil {
		return nil, err
	}
	var base int64 = -1
	from, fromOK := travelFrom.(pyval.Str)
	to, toOK := travelTo.(pyval.Str)
	if fromOK && toOK {
		for _, r := range routes {
			if r.from == string(from) && r.to == string(to) {
				base = r.base
				break
			}
		}
	}
	if base < 0 {
		return nil, pyval.NewValueError("No available route for the given airports.")
	}
	var factor int64
	switch {
	case pyval.Equal(travelClass, pyval.Str("economy")):
		factor = 1
	case pyval.Equal(travelClass, pyval.Str("business")):
		factor = 2
	case pyval.Equal(travelClass, pyval.Str("first")):
		factor = 5
	default:
		return nil, pyval.NewValueError("Invalid travel class. Options are: economy, business, first.")
	}
	chars, err := pyval.ListOf(travelDate)
	if err != nil {
		return nil, err
	}
	var digitSum pyval.Value = pyval.Int(0)
	for _, c := range chars {
		s, err := pyval.StrMethod(c, "isdigit")
		if err != nil {
			return nil, err
		}
		if !strIsDigit(s) {
			continue
		}
		n, err := pyval.ToInt(c)
		if err != nil {
			return nil, err
		}
		if digitSum, err = pyval.Add(digitSum, n); err != nil {
			return nil, err
		}
	}
	parity, err := pyval.Mod(digitSum, pyval.Int(2))
	if err != nil {
		return nil, err
	}
	var multiplier int64 = 1
	if pyval.Equal(parity, pyval.Int(0)) {
		multiplier = 2
	}
	var costs []pyval.Value
	if t.longContext {
		costs = make([]pyval.Value, len(routes))
		for i, r := range routes {
			costs[i] = pyval.Float(float64(r.base * factor * multiplier))
		}
		t.flightCostLookup = &tvCostLookup{long: true, mult: factor * multiplier,
			suffix: "|" + pyval.StrOf(travelClass) + "|" + pyval.StrOf(travelDate)}
	} else {
		cost := pyval.Float(float64(base * factor * multiplier))
		costs = []pyval.Value{cost}
		t.flightCostLookup = &tvCostLookup{key: tvFlightCostKey(travelFrom, travelTo, travelClass, travelDate), cost: cost}
	}
	return dictOf("travel_cost_list", pyval.NewList(costs...)), nil
}

// GetCreditCardBalance is upstream's get_credit_card_balance.
func (t *TravelAPI) GetCreditCardBalance(args stubs.TravelAPIGetCreditCardBalanceArgs) (pyval.Value, error) {
	accessToken, cardID := args.AccessToken.V, args.CardID.V
	if msg := t.accessError(accessToken); msg != "" {
		return errorDict(msg), nil
	}
	in, err := pyval.Contains(t.creditCardList, cardID)
	if err != nil {
		return nil, err
	}
	if !in {
		return errorDict("Card not registered. Here are a list of card_id's: " +
			pyval.Repr(pyval.NewList(t.creditCardList.Keys()...))), nil
	}
	card, _ := t.creditCardList.Get(cardID)
	bal, err := pyval.GetItem(card, pyval.Str("balance"))
	if err != nil {
		return nil, err
	}
	return dictOf("card_balance", bal), nil
}

// tvBookingError is {"booking_status": False, "error": msg}.
func tvBookingError(msg string) *pyval.Dict {
	return dictOf("booking_status", pyval.Bool(false), "error", pyval.Str(msg))
}

// BookFlight is upstream's book_flight.
func (t *TravelAPI) BookFlight(args stubs.TravelAPIBookFlightArgs) (pyval.Value, error) {
	accessToken, cardID, travelDate, travelFrom, travelTo, travelClass := args.AccessToken.V, args.CardID.V, args.TravelDate.V, args.TravelFrom.V, args.TravelTo.V, args.TravelClass.V
	if msg := t.accessError(accessToken); msg != "" {
		return tvBookingError(msg), nil
	}
	in, err := pyval.Contains(t.creditCardList, cardID)
	if err != nil {
		return nil, err
	}
	if !in {
		return tvBookingError("Card not registered"), nil
	}
	card, _ := t.creditCardList.Get(cardID)
	hasBalance, err := pyval.Contains(card, pyval.Str("balance"))
	if err != nil {
		return nil, err
	}
	if !hasBalance {
		return tvBookingError("Balance not found"), nil
	}
	airports := make([]pyval.Value, 0, 23)
	for _, a := range tvAirports() {
		airports = append(airports, pyval.Str(a))
	}
	if listIndex(airports, travelFrom) < 0 {
		return tvBookingError("Invalid departure airport code: " + pyval.StrOf(travelFrom)), nil
	}
	if listIndex(airports, travelTo) < 0 {
		return tvBookingError("Invalid destination airport code: " + pyval.StrOf(travelTo)), nil
	}
	if _, err := strptime(travelDate, "%Y-%m-%d"); err != nil {
		if pyval.IsException(err, "ValueError") {
			return tvBookingError("Invalid date format. Use YYYY-MM-DD."), nil
		}
		return nil, err
	}
	if err := pyval.CheckHashable(travelClass); err != nil {
		return nil, err
	}
	if !pyval.Equal(travelClass, pyval.Str("economy")) && !pyval.Equal(travelClass, pyval.Str("business")) &&
		!pyval.Equal(travelClass, pyval.Str("first")) {
		// str() of the set {"economy", "business", "first"}: its iteration
		// order depends on the str hash, i.e. on PYTHONHASHSEED. The
		// reference ran with PYTHONHASHSEED=0, where CPython 3.11/3.12 print
		// {'first', 'business', 'economy'} (checked with
		// `PYTHONHASHSEED=0 python3.12 -c 'print({"economy", "business", "first"})'`).
		return tvBookingError("Invalid travel class. Must be one of {'first', 'business', 'economy'}"), nil
	}
	if _, err := t.flightCost(travelFrom, travelTo, travelDate, travelClass); err != nil {
		if pyval.IsException(err, "ValueError") {
			return tvBookingError(err.Error()), nil
		}
		return nil, err
	}
	travelCost, ok := t.flightCostLookup.get(tvFlightCostKey(travelFrom, travelTo, travelClass, travelDate))
	if !ok {
		return tvBookingError("No available route for the given parameters"), nil
	}
	balance, err := pyval.GetItem(card, pyval.Str("balance"))
	if err != nil {
		return nil, err
	}
	short, err := pyval.Compare("<", balance, travelCost)
	if err != nil {
		return nil, err
	}
	if short {
		return tvBookingError("Insufficient funds"), nil
	}
	if t.budgetLimit != pyval.None {
		balance, err := pyval.GetItem(card, pyval.Str("balance"))
		if err != nil {
			return nil, err
		}
		below, err := pyval.Compare("<", balance, t.budgetLimit)
		if err != nil {
			return nil, err
		}
		if below {
			return tvBookingError("Balance is less than budget limit"), nil
		}
	}
	if err := augAssignItem(card, pyval.Str("balance"), pyval.Sub, travelCost); err != nil {
		return nil, err
	}
	bookingID := pyval.Str(strconv.Itoa(t.random.RandInt(1000000, 9999999)))
	transactionID := pyval.Str(strconv.Itoa(t.random.RandInt(10000000, 99999999)))
	t.bookingRecord.Set(bookingID, dictOf(
		"card_id", cardID,
		"travel_date", travelDate,
		"travel_from", travelFrom,
		"travel_to", travelTo,
		"travel_class", travelClass,
		"travel_cost", travelCost,
		"transaction_id", transactionID,
	))
	var history pyval.Value = pyval.NewDict()
	if t.longContext {
		history = t.bookingRecord
	}
	return dictOf(
		"booking_id", bookingID,
		"transaction_id", transactionID,
		"booking_status", pyval.Bool(true),
		"booking_history", history,
	), nil
}

// RetrieveInvoice is upstream's retrieve_invoice.
func (t *TravelAPI) RetrieveInvoice(args stubs.TravelAPIRetrieveInvoiceArgs) (pyval.Value, error) {
	accessToken, bookingID := args.AccessToken.V, args.BookingID.V
	if msg := t.accessError(accessToken); msg != "" {
		return errorDict(msg), nil
	}
	if notIn, err := errorUnlessIn(t.bookingRecord, bookingID, "Booking not found"); notIn != nil || err != nil {
		return notIn, err
	}
	rec, _ := t.bookingRecord.Get(bookingID)
	invoice := dictOf("booking_id", bookingID)
	for _, k := range []string{"travel_date", "travel_from", "travel_to", "travel_class", "travel_cost", "transaction_id"} {
		v, err := pyval.GetItem(rec, pyval.Str(k))
		if err != nil {
			return nil, err
		}
		invoice.SetStr(k, v)
	}
	return dictOf("invoice", invoice), nil
}

// GetBookingHistory is upstream's get_booking_history (a deep copy).
func (t *TravelAPI) GetBookingHistory(args stubs.TravelAPIGetBookingHistoryArgs) (pyval.Value, error) {
	accessToken := args.AccessToken.V
	if msg := t.accessError(accessToken); msg != "" {
		return errorDict(msg), nil
	}
	return dictOf("booking_history", pyval.DeepCopy(t.bookingRecord)), nil
}

// ListAllAirports is upstream's list_all_airports (a list, printed with
// Python's list repr).
func (t *TravelAPI) ListAllAirports() (pyval.Value, error) {
	out := pyval.NewList()
	for _, a := range tvAirports() {
		out.Items = append(out.Items, pyval.Str(a))
	}
	return out, nil
}

// CancelBooking is upstream's cancel_booking.
func (t *TravelAPI) CancelBooking(args stubs.TravelAPICancelBookingArgs) (pyval.Value, error) {
	accessToken, bookingID := args.AccessToken.V, args.BookingID.V
	fail := func(msg string) *pyval.Dict {
		return dictOf("cancel_status", pyval.Bool(false), "error", pyval.Str(msg))
	}
	if msg := t.accessError(accessToken); msg != "" {
		return fail(msg), nil
	}
	in, err := pyval.Contains(t.bookingRecord, bookingID)
	if err != nil {
		return nil, err
	}
	if !in {
		return fail("Booking not found"), nil
	}
	rec, _ := t.bookingRecord.Get(bookingID)
	cardID, err := pyval.GetItem(rec, pyval.Str("card_id"))
	if err != nil {
		return nil, err
	}
	travelCost, err := pyval.GetItem(rec, pyval.Str("travel_cost"))
	if err != nil {
		return nil, err
	}
	card, err := pyval.GetItem(t.creditCardList, cardID)
	if err != nil {
		return nil, err
	}
	if err := augAssignItem(card, pyval.Str("balance"), pyval.Add, travelCost); err != nil {
		return nil, err
	}
	t.bookingRecord.Delete(bookingID)
	return dictOf("cancel_status", pyval.Bool(true)), nil
}

// ComputeExchangeRate is upstream's compute_exchange_rate.
func (t *TravelAPI) ComputeExchangeRate(args stubs.TravelAPIComputeExchangeRateArgs) (pyval.Value, error) {
	baseCurrency, targetCurrency, value := args.BaseCurrency.V, args.TargetCurrency.V, args.Value.V
	rates := []struct {
		from, to string
		rate     pyval.Value
	}{
		{"USD", "RMB", pyval.Int(7)},
		{"USD", "EUR", pyval.Float(0.8)},
		{"USD", "JPY", pyval.Int(110)},
		{"USD", "GBP", pyval.Float(0.7)},
		{"USD", "CAD", pyval.Float(1.3)},
		{"USD", "AUD", pyval.Float(1.4)},
		{"USD", "INR", pyval.Int(70)},
		{"USD", "RUB", pyval.Int(60)},
		{"USD", "BRL", pyval.Float(3.8)},
		{"USD", "MXN", pyval.Int(20)},
	}
	for _, r := range rates {
		from, to := pyval.Str(r.from), pyval.Str(r.to)
		if pyval.Equal(baseCurrency, from) && pyval.Equal(targetCurrency, to) {
			p, err := pyval.Mul(value, r.rate)
			if err != nil {
				return nil, err
			}
			f, err := pyval.ToFloat(p)
			if err != nil {
				return nil, err
			}
			return dictOf("exchanged_value", f), nil
		}
		if pyval.Equal(baseCurrency, to) && pyval.Equal(targetCurrency, from) {
			q, err := pyval.TrueDiv(value, r.rate)
			if err != nil {
				return nil, err
			}
			rounded, err := pyval.Round(q, pyval.Int(2))
			if err != nil {
				return nil, err
			}
			return dictOf("exchanged_value", rounded), nil
		}
	}
	return nil, pyval.NewValueError("No available exchange rate for the given currencies.")
}

// VerifyTravelerInformation is upstream's verify_traveler_information. The
// age is computed against today's date (upstream's datetime.today()).
func (t *TravelAPI) VerifyTravelerInformation(args stubs.TravelAPIVerifyTravelerInformationArgs) (pyval.Value, error) {
	firstName, lastName, dateOfBirth := args.FirstName.V, args.LastName.V, args.DateOfBirth.V
	fail := func(msg string) *pyval.Dict {
		return dictOf("verification_status", pyval.Bool(false), "verification_failure", pyval.Str(msg))
	}
	if pyval.NotEqual(t.userFirstName, firstName) || pyval.NotEqual(t.userLastName, lastName) {
		return fail("Cannot book flight information for another user." +
			"Expected " + pyval.StrOf(t.userFirstName) + " " + pyval.StrOf(t.userLastName) +
			", got " + pyval.StrOf(firstName) + " " + pyval.StrOf(lastName)), nil
	}
	birth, err := strptime(dateOfBirth, "%Y-%m-%d")
	if err != nil {
		if pyval.IsException(err, "ValueError") {
			return fail("Invalid date of birth format. Please use YYYY-MM-DD."), nil
		}
		return nil, err
	}
	today := time.Now()
	age := today.Year() - birth.Year()
	if int(today.Month()) < int(birth.Month()) || (today.Month() == birth.Month() && today.Day() < birth.Day()) {
		age--
	}
	if age < 18 {
		return fail("Traveler must be at least 18 years old."), nil
	}
	passport, err := args.PassportNumber.Method("startswith")
	if err != nil {
		return nil, err
	}
	if len(passport) < 2 || passport[:2] != "US" {
		return fail("Passport must be issued by the United States."), nil
	}
	return dictOf("verification_status", pyval.Bool(true)), nil
}

// SetBudgetLimit is upstream's set_budget_limit.
func (t *TravelAPI) SetBudgetLimit(args stubs.TravelAPISetBudgetLimitArgs) (pyval.Value, error) {
	accessToken, budgetLimit := args.AccessToken.V, args.BudgetLimit.V
	if msg := t.accessError(accessToken); msg != "" {
		return errorDict(msg), nil
	}
	f, err := pyval.ToFloat(budgetLimit)
	if err != nil {
		return nil, err
	}
	t.budgetLimit = f
	return dictOf("budget_limit", f), nil
}

// GetNearestAirportByCity is upstream's get_nearest_airport_by_city.
func (t *TravelAPI) GetNearestAirportByCity(args stubs.TravelAPIGetNearestAirportByCityArgs) (pyval.Value, error) {
	location := args.Location.V
	airportMap := dictOf(
		"Rivermist", pyval.Str("RMS"),
		"Stonebrook", pyval.Str("SBK"),
		"Maplecrest", pyval.Str("MPC"),
		"Silverpine", pyval.Str("SVP"),
		"Shadowridge", pyval.Str("SHD"),
		"London", pyval.Str("LHR"),
		"Paris", pyval.Str("CDG"),
		"Sunset Valley", pyval.Str("SSV"),
		"Oakendale", pyval.Str("OKD"),
		"Willowbend", pyval.Str("WLB"),
		"Crescent Hollow", pyval.Str("CRH"),
		"Autumnville", pyval.Str("ATV"),
		"Pinehaven", pyval.Str("PHV"),
		"Greenfield", pyval.Str("GFD"),
		"San Francisco", pyval.Str("SFO"),
		"Los Angeles", pyval.Str("LAX"),
		"New York", pyval.Str("JFK"),
		"Chicago", pyval.Str("ORD"),
		"Boston", pyval.Str("BOS"),
		"Beijing", pyval.Str("PEK"),
		"Hong Kong", pyval.Str("HKG"),
		"Rome", pyval.Str("CIA"),
		"Tokyo", pyval.Str("HND"),
	)
	v, err := pyval.DictGet(airportMap, location, pyval.Str("Unknown"))
	if err != nil {
		return nil, err
	}
	return dictOf("nearest_airport", v), nil
}

// PurchaseInsurance is upstream's purchase_insurance.
func (t *TravelAPI) PurchaseInsurance(args stubs.TravelAPIPurchaseInsuranceArgs) (pyval.Value, error) {
	accessToken, bookingID, insuranceCost, cardID := args.AccessToken.V, args.BookingID.V, args.InsuranceCost.V, args.CardID.V
	fail := func(msg string) *pyval.Dict {
		return dictOf("insurance_status", pyval.Bool(false), "error", pyval.Str(msg))
	}
	if msg := t.accessError(accessToken); msg != "" {
		return fail(msg), nil
	}
	if t.budgetLimit != pyval.None {
		over, err := pyval.Compare("<", t.budgetLimit, insuranceCost)
		if err != nil {
			return nil, err
		}
		if over {
			return fail("Exceeded budget limit"), nil
		}
	}
	in, err := pyval.Contains(t.bookingRecord, bookingID)
	if err != nil {
		return nil, err
	}
	if !in {
		return fail("Booking not found"), nil
	}
	in, err = pyval.Contains(t.creditCardList, cardID)
	if err != nil {
		return nil, err
	}
	if !in {
		return fail("Credit card not registered"), nil
	}
	card, _ := t.creditCardList.Get(cardID)
	if err := augAssignItem(card, pyval.Str("balance"), pyval.Sub, insuranceCost); err != nil {
		return nil, err
	}
	return dictOf(
		"insurance_id", pyval.Str(strconv.Itoa(t.random.RandInt(100000000, 999999999))),
		"insurance_status", pyval.Bool(true),
	), nil
}

// ContactCustomerSupport is upstream's contact_customer_support.
func (t *TravelAPI) ContactCustomerSupport(args stubs.TravelAPIContactCustomerSupportArgs) (pyval.Value, error) {
	bookingID := args.BookingID.V
	if notIn, err := errorUnlessIn(t.bookingRecord, bookingID, "Booking not found"); notIn != nil || err != nil {
		return notIn, err
	}
	return dictOf("customer_support_message", pyval.Str("Thank you for contacting customer support. Your message has been received and we will get back to you shortly.")), nil
}

// GetAllCreditCards is upstream's get_all_credit_cards.
func (t *TravelAPI) GetAllCreditCards() (pyval.Value, error) {
	return dictOf("credit_card_list", t.creditCardList), nil
}

// classTravelAPI describes TravelAPI for the registry.
func classTravelAPI() Class {
	return Class{
		Name:    "TravelAPI",
		Module:  "travel_booking",
		New:     func(env *Env) Instance { return NewTravelAPI(env) },
		Methods: stubs.TravelAPIMethods,
	}
}
