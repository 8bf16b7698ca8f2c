package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// trading_bot.py (class TradingBot). Result and error strings are protocol
// constants reproduced byte for byte from that file.

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/python/pyrandom"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// tbCurrentTime is upstream's CURRENT_TIME = datetime(2024, 9, 1, 10, 30), a
// naive datetime. Upstream turns it into a POSIX timestamp with the local
// time zone; the reference ran with TZ=UTC (and no zone has a DST change
// in the one-day window used), so UTC is used here.
func tbCurrentTime() time.Time { return time.Date(2024, 9, 1, 10, 30, 0, 0, time.UTC) }

// tbDefaultSeed is DEFAULT_STATE["random_seed"] of trading_bot.py.
const tbDefaultSeed = 1053520

// tbDefaults is upstream's DEFAULT_STATE, built once; _load_scenario's
// deepcopy is scenarioValue's copy of each default used.
var tbDefaults = sync.OnceValue(tbDefaultState)

// tbDefaultState builds a fresh copy of upstream's DEFAULT_STATE (what
// deepcopy(DEFAULT_STATE) gives _load_scenario).
func tbDefaultState() *pyval.Dict {
	order := func(id int64, typ, sym string, price float64, amount int64, status string) *pyval.Dict {
		return dictOf("id", pyval.Int(id), "order_type", pyval.Str(typ), "symbol", pyval.Str(sym),
			"price", pyval.Float(price), "amount", pyval.Int(amount), "status", pyval.Str(status))
	}
	orders := pyval.NewDict()
	orders.Set(pyval.Int(12345), order(12345, "Buy", "AAPL", 210.65, 10, "Completed"))
	orders.Set(pyval.Int(12446), order(12446, "Sell", "GOOG", 2840.56, 5, "Pending"))
	stock := func(price, change, volume, ma5, ma20 float64) *pyval.Dict {
		return dictOf("price", pyval.Float(price), "percent_change", pyval.Float(change),
			"volume", pyval.Float(volume), "MA(5)", pyval.Float(ma5), "MA(20)", pyval.Float(ma20))
	}
	stocks := dictOf(
		"AAPL", stock(227.16, 0.17, 2.552, 227.11, 227.09),
		"GOOG", stock(2840.34, 0.24, 1.123, 2835.67, 2842.15),
		"TSLA", stock(667.92, -0.12, 1.654, 671.15, 668.20),
		"MSFT", stock(310.23, 0.09, 3.234, 309.88, 310.11),
		"NVDA", stock(220.34, 0.34, 1.234, 220.45, 220.67),
		"ALPH", stock(1320.45, -0.08, 1.567, 1321.12, 1325.78),
		"OMEG", stock(457.23, 0.12, 2.345, 456.78, 458.12),
		"QUAS", stock(725.89, -0.03, 1.789, 726.45, 728.00),
		"NEPT", stock(88.34, 0.19, 0.654, 88.21, 88.67),
		"SYNX", stock(345.67, 0.11, 2.112, 345.34, 346.12),
		"ZETA", stock(22.09, -0.05, 0.789, 22.12, 22.34),
	)
	return dictOf(
		"orders", orders,
		"account_info", dictOf("account_id", pyval.Int(12345), "balance", pyval.Float(10000.0),
			"binding_card", pyval.Int(1974202140965533)),
		"authenticated", pyval.Bool(false),
		"market_status", pyval.Str("Closed"),
		"order_counter", pyval.Int(12446),
		"stocks", stocks,
		"watch_list", pyval.NewList(pyval.Str("NVDA")),
		"transaction_history", pyval.NewList(),
		"random_seed", pyval.Int(tbDefaultSeed),
	)
}

// TradingBot is upstream's TradingBot. Attributes hold whatever Python
// values the scenario supplied; dict/list-typed ones are checked at load.
type TradingBot struct {
	env *Env

	orders             *pyval.Dict
	accountInfo        pyval.Value
	authenticated      pyval.Value
	marketStatus       pyval.Value
	orderCounter       pyval.Value
	stocks             *pyval.Dict
	watchList          *pyval.List
	transactionHistory *pyval.List
	longContext        bool
	random             *pyrandom.Rand
}

// NewTradingBot returns an instance as upstream's constructor leaves it.
func NewTradingBot(env *Env) *TradingBot { return &TradingBot{env: env} }

// ClassName implements Instance.
func (*TradingBot) ClassName() string { return "TradingBot" }

// LoadScenario is upstream's _load_scenario.
func (t *TradingBot) LoadScenario(config *pyval.Dict, longContext bool) error {
	def := tbDefaults()
	get := func(key string) pyval.Value { return scenarioValue(config, def, key, key) }

	ordersV := get("orders")
	orders, ok := ordersV.(*pyval.Dict)
	if !ok {
		return pyval.NoAttribute(ordersV, "items")
	}
	// Digit-string keys become ints; every other key is kept as is.
	conv := pyval.NewDictCap(orders.Len())
	for _, kv := range orders.Items() {
		k := kv.Key
		if s, isStr := k.(pyval.Str); isStr && strIsDigit(string(s)) {
			n, err := pyval.ToInt(s)
			if err != nil {
				return err
			}
			k = n
		}
		conv.Set(k, kv.Value)
	}
	t.orders = conv
	t.accountInfo = get("account_info")
	t.authenticated = get("authenticated")
	t.marketStatus = get("market_status")
	t.orderCounter = get("order_counter")
	stocksV := get("stocks")
	if t.stocks, ok = stocksV.(*pyval.Dict); !ok {
		return fmt.Errorf("TradingBot: initial_config stocks is a %s, not a dict", stocksV.TypeName())
	}
	wl := get("watch_list")
	if t.watchList, ok = wl.(*pyval.List); !ok {
		return fmt.Errorf("TradingBot: initial_config watch_list is a %s, not a list", wl.TypeName())
	}
	th := get("transaction_history")
	if t.transactionHistory, ok = th.(*pyval.List); !ok {
		return fmt.Errorf("TradingBot: initial_config transaction_history is a %s, not a list", th.TypeName())
	}
	t.longContext = longContext
	r, err := newRandom(get("random_seed"))
	if err != nil {
		return err
	}
	t.random = r
	return nil
}

// State implements Instance. Before LoadScenario the instance has no public
// attributes (upstream's __init__ only annotates them).
func (t *TradingBot) State() *pyval.Dict {
	if t.random == nil {
		return pyval.NewDict()
	}
	return dictOf(
		"orders", t.orders,
		"account_info", t.accountInfo,
		"authenticated", t.authenticated,
		"market_status", t.marketStatus,
		"order_counter", t.orderCounter,
		"stocks", t.stocks,
		"watch_list", t.watchList,
		"transaction_history", t.transactionHistory,
		"long_context", pyval.Bool(t.longContext),
	)
}

func (t *TradingBot) lc(name string) pyval.Value { return longContextValue(t.env, "TradingBot", name) }

// generateTransactionTimestamp is upstream's _generate_transaction_timestamp:
// a random second between CURRENT_TIME and one day later.
func (t *TradingBot) generateTransactionTimestamp() pyval.Value {
	start := tbCurrentTime().Unix()
	end := tbCurrentTime().Add(24 * time.Hour).Unix()
	ts := t.random.RandInt(int(start), int(end))
	return pyval.Str(time.Unix(int64(ts), 0).UTC().Format("2006-01-02 15:04:05"))
}

// GetCurrentTime is upstream's get_current_time.
func (t *TradingBot) GetCurrentTime() (pyval.Value, error) {
	return dictOf("current_time", pyval.Str(tbCurrentTime().Format("03:04 PM"))), nil
}

// GetSymbolByName is upstream's get_symbol_by_name.
func (t *TradingBot) GetSymbolByName(args stubs.TradingBotGetSymbolByNameArgs) (pyval.Value, error) {
	name := args.Name.V
	symbolMap := dictOf(
		"Apple", pyval.Str("AAPL"),
		"Google", pyval.Str("GOOG"),
		"Tesla", pyval.Str("TSLA"),
		"Microsoft", pyval.Str("MSFT"),
		"Nvidia", pyval.Str("NVDA"),
		"Zeta Corp", pyval.Str("ZETA"),
		"Alpha Tech", pyval.Str("ALPH"),
		"Omega Industries", pyval.Str("OMEG"),
		"Quasar Ltd.", pyval.Str("QUAS"),
		"Neptune Systems", pyval.Str("NEPT"),
		"Synex Solutions", pyval.Str("SYNX"),
		"Amazon", pyval.Str("AMZN"),
		"Gorilla", pyval.Str("GORI"),
	)
	v, err := pyval.DictGet(symbolMap, name, pyval.Str("Stock not found"))
	if err != nil {
		return nil, err
	}
	return dictOf("symbol", v), nil
}

// GetStockInfo is upstream's get_stock_info.
func (t *TradingBot) GetStockInfo(args stubs.TradingBotGetStockInfoArgs) (pyval.Value, error) {
	symbol := args.Symbol.V
	if notIn, err := errorUnlessIn(t.stocks, symbol, "Stock with symbol '"+pyval.StrOf(symbol)+"' not found."); notIn != nil || err != nil {
		return notIn, err
	}
	stock, _ := t.stocks.Get(symbol)
	if t.longContext {
		cp, err := copyValue(stock)
		if err != nil {
			return nil, err
		}
		if err := pyval.SetItem(cp, pyval.Str("MA(5)"), t.lc(longcontext.MA5Extension)); err != nil {
			return nil, err
		}
		if err := pyval.SetItem(cp, pyval.Str("MA(20)"), t.lc(longcontext.MA20Extension)); err != nil {
			return nil, err
		}
		return cp, nil
	}
	return stock, nil
}

// GetOrderDetails is upstream's get_order_details.
func (t *TradingBot) GetOrderDetails(args stubs.TradingBotGetOrderDetailsArgs) (pyval.Value, error) {
	orderID := args.OrderID.V
	in, err := pyval.Contains(t.orders, orderID)
	if err != nil {
		return nil, err
	}
	if !in {
		return errorDict("Order with ID " + pyval.StrOf(orderID) + " not found." +
			"Here is the list of orders_id: " + pyval.Repr(pyval.NewList(t.orders.Keys()...))), nil
	}
	order, _ := t.orders.Get(orderID)
	if !t.longContext {
		return order, nil
	}
	cp, err := copyValue(order)
	if err != nil {
		return nil, err
	}
	symbol, err := pyval.GetItem(cp, pyval.Str("symbol"))
	if err != nil {
		return nil, err
	}
	ext, ok := t.lc(longcontext.OrderDetailExtension).(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("TradingBot: %s is not a dict", longcontext.OrderDetailExtension)
	}
	formatted := pyval.NewDictCap(ext.Len())
	for _, kv := range ext.Items() {
		tmpl, ok := kv.Value.(pyval.Str)
		if !ok {
			return nil, pyval.NoAttribute(kv.Value, "format")
		}
		s, err := pyval.FormatFields(string(tmpl), map[string]pyval.Value{"symbol": symbol})
		if e, ok := err.(*pyval.Exception); ok && e.Type == "KeyError" {
			// except KeyError as e: str(e) is the repr of the missing name.
			return errorDict("KeyError during formatting: " + e.Msg), nil
		}
		if err != nil {
			return nil, err
		}
		formatted.Set(kv.Key, pyval.Str(s))
	}
	if err := pyval.SetItem(cp, pyval.Str("metadata"), formatted); err != nil {
		return nil, err
	}
	return cp, nil
}

// CancelOrder is upstream's cancel_order.
func (t *TradingBot) CancelOrder(args stubs.TradingBotCancelOrderArgs) (pyval.Value, error) {
	orderID := args.OrderID.V
	if notIn, err := errorUnlessIn(t.orders, orderID, "Order with ID "+pyval.StrOf(orderID)+" not found."); notIn != nil || err != nil {
		return notIn, err
	}
	order, _ := t.orders.Get(orderID)
	status, err := pyval.GetItem(order, pyval.Str("status"))
	if err != nil {
		return nil, err
	}
	if pyval.Equal(status, pyval.Str("Completed")) {
		return errorDict("Can't cancel order " + pyval.StrOf(orderID) + ". Order is already completed."), nil
	}
	if err := pyval.SetItem(order, pyval.Str("status"), pyval.Str("Cancelled")); err != nil {
		return nil, err
	}
	return dictOf("order_id", orderID, "status", pyval.Str("Cancelled")), nil
}

// PlaceOrder is upstream's place_order.
func (t *TradingBot) PlaceOrder(args stubs.TradingBotPlaceOrderArgs) (pyval.Value, error) {
	orderType, symbol, price, amount := args.OrderType.V, args.Symbol.V, args.Price.V, args.Amount.V
	if !pyval.Truthy(t.authenticated) {
		return errorDict("User not authenticated. Please log in to place an order."), nil
	}
	if notIn, err := errorUnlessIn(t.stocks, symbol, "Invalid stock symbol: "+pyval.StrOf(symbol)); notIn != nil || err != nil {
		return notIn, err
	}
	bad, err := pyval.Compare("<=", price, pyval.Int(0))
	if err != nil {
		return nil, err
	}
	if !bad {
		if bad, err = pyval.Compare("<=", amount, pyval.Int(0)); err != nil {
			return nil, err
		}
	}
	if bad {
		return errorDict("Price and amount must be positive values."), nil
	}
	lower, err := args.OrderType.Method("lower")
	if err != nil {
		return nil, err
	}
	if strings.ToLower(lower) == "buy" {
		fp, err := pyval.ToFloat(price)
		if err != nil {
			return nil, err
		}
		ia, err := pyval.ToInt(amount)
		if err != nil {
			return nil, err
		}
		totalCost, err := pyval.Mul(fp, ia)
		if err != nil {
			return nil, err
		}
		balance, err := pyval.DictGet(t.accountInfo, pyval.Str("balance"), pyval.Int(0))
		if err != nil {
			return nil, err
		}
		over, err := pyval.Compare(">", totalCost, balance)
		if err != nil {
			return nil, err
		}
		if over {
			balance, err := pyval.DictGet(t.accountInfo, pyval.Str("balance"), pyval.Int(0))
			if err != nil {
				return nil, err
			}
			tc, err := formatFixed(totalCost, 2)
			if err != nil {
				return nil, err
			}
			bal, err := formatFixed(balance, 2)
			if err != nil {
				return nil, err
			}
			return errorDict("Insufficient funds: required $" + tc + " but only $" + bal + " available."), nil
		}
	}
	fprice, err := pyval.ToFloat(price)
	if err != nil {
		return nil, err
	}
	orderID := t.orderCounter
	if err := pyval.CheckHashable(orderID); err != nil {
		return nil, err
	}
	t.orders.Set(orderID, dictOf(
		"id", orderID,
		"order_type", orderType,
		"symbol", symbol,
		"price", fprice,
		"amount", amount,
		"status", pyval.Str("Open"),
	))
	if err := increment(&t.orderCounter); err != nil {
		return nil, err
	}
	return dictOf(
		"order_id", orderID,
		"order_type", orderType,
		"status", pyval.Str("Pending"),
		"price", fprice,
		"amount", amount,
	), nil
}

// WithdrawFunds is upstream's withdraw_funds.
func (t *TradingBot) WithdrawFunds(args stubs.TradingBotWithdrawFundsArgs) (pyval.Value, error) {
	amount := args.Amount.V
	if !pyval.Truthy(t.authenticated) {
		return errorDict("User not authenticated. Please log in to make a transaction."), nil
	}
	if pyval.NotEqual(t.marketStatus, pyval.Str("Open")) {
		return errorDict("Market is closed. Transactions are not allowed."), nil
	}
	bad, err := pyval.Compare("<=", amount, pyval.Int(0))
	if err != nil {
		return nil, err
	}
	if bad {
		return errorDict("Transaction amount must be positive."), nil
	}
	balance, err := pyval.GetItem(t.accountInfo, pyval.Str("balance"))
	if err != nil {
		return nil, err
	}
	over, err := pyval.Compare(">", amount, balance)
	if err != nil {
		return nil, err
	}
	if over {
		return errorDict("Insufficient funds for withdrawal."), nil
	}
	return t.postTransaction(pyval.Sub, "withdrawal", amount, "Withdrawal successful")
}

// postTransaction is how withdraw_funds and fund_account end: the balance
// updated by op with amount, a history record of the kind typ with a fresh
// timestamp, and {"status": status, "new_balance": <balance>}.
func (t *TradingBot) postTransaction(op func(a, b pyval.Value) (pyval.Value, error), typ string, amount pyval.Value, status string) (pyval.Value, error) {
	if err := augAssignItem(t.accountInfo, pyval.Str("balance"), op, amount); err != nil {
		return nil, err
	}
	t.transactionHistory.Items = append(t.transactionHistory.Items, dictOf(
		"type", pyval.Str(typ),
		"amount", amount,
		"timestamp", t.generateTransactionTimestamp(),
	))
	newBalance, err := pyval.GetItem(t.accountInfo, pyval.Str("balance"))
	if err != nil {
		return nil, err
	}
	return dictOf("status", pyval.Str(status), "new_balance", newBalance), nil
}

// GetAccountInfo is upstream's get_account_info.
func (t *TradingBot) GetAccountInfo() (pyval.Value, error) {
	if !pyval.Truthy(t.authenticated) {
		return errorDict("User not authenticated. Please log in to view account information."), nil
	}
	return t.accountInfo, nil
}

// TradingLogin is upstream's trading_login (credentials are not checked).
func (t *TradingBot) TradingLogin(_ stubs.TradingBotTradingLoginArgs) (pyval.Value, error) {
	if pyval.Truthy(t.authenticated) {
		return dictOf("status", pyval.Str("Already logged in")), nil
	}
	t.authenticated = pyval.Bool(true)
	return dictOf("status", pyval.Str("Logged in successfully")), nil
}

// TradingGetLoginStatus is upstream's trading_get_login_status.
func (t *TradingBot) TradingGetLoginStatus() (pyval.Value, error) {
	return dictOf("status", pyval.Bool(pyval.Truthy(t.authenticated))), nil
}

// TradingLogout is upstream's trading_logout.
func (t *TradingBot) TradingLogout() (pyval.Value, error) {
	if !pyval.Truthy(t.authenticated) {
		return dictOf("status", pyval.Str("No user is currently logged in")), nil
	}
	t.authenticated = pyval.Bool(false)
	return dictOf("status", pyval.Str("Logged out successfully")), nil
}

// FundAccount is upstream's fund_account.
func (t *TradingBot) FundAccount(args stubs.TradingBotFundAccountArgs) (pyval.Value, error) {
	amount := args.Amount.V
	if !pyval.Truthy(t.authenticated) {
		return errorDict("User not authenticated. Please log in to fund the account."), nil
	}
	bad, err := pyval.Compare("<=", amount, pyval.Int(0))
	if err != nil {
		return nil, err
	}
	if bad {
		return errorDict("Funding amount must be positive."), nil
	}
	return t.postTransaction(pyval.Add, "deposit", amount, "Account funded successfully")
}

// RemoveStockFromWatchlist is upstream's remove_stock_from_watchlist.
func (t *TradingBot) RemoveStockFromWatchlist(args stubs.TradingBotRemoveStockFromWatchlistArgs) (pyval.Value, error) {
	symbol := args.Symbol.V
	if !pyval.Truthy(t.authenticated) {
		return errorDict("User not authenticated. Please log in to modify the watchlist."), nil
	}
	i := listIndex(t.watchList.Items, symbol)
	if i < 0 {
		return errorDict("Stock " + pyval.StrOf(symbol) + " not found in watchlist."), nil
	}
	t.watchList.Items = append(t.watchList.Items[:i:i], t.watchList.Items[i+1:]...)
	return dictOf("status", pyval.Str("Stock "+pyval.StrOf(symbol)+" removed from watchlist successfully.")), nil
}

// GetWatchlist is upstream's get_watchlist. Unauthenticated it returns a
// list holding an error string; in long-context mode it returns a list (the
// watch list followed by WATCH_LIST_EXTENSION, whose last item is Ellipsis),
// otherwise a dict.
func (t *TradingBot) GetWatchlist() (pyval.Value, error) {
	if !pyval.Truthy(t.authenticated) {
		return pyval.NewList(pyval.Str("Error: User not authenticated. Please log in to view the watchlist.")), nil
	}
	if t.longContext {
		ext, err := pyval.ListOf(t.lc(longcontext.WatchListExtension))
		if err != nil {
			return nil, err
		}
		items := make([]pyval.Value, 0, len(t.watchList.Items)+len(ext))
		items = append(items, t.watchList.Items...)
		items = append(items, ext...)
		return pyval.NewList(items...), nil
	}
	return dictOf("watchlist", t.watchList), nil
}

// GetOrderHistory is upstream's get_order_history.
func (t *TradingBot) GetOrderHistory() (pyval.Value, error) {
	if !pyval.Truthy(t.authenticated) {
		return pyval.NewList(errorDict("User not authenticated. Please log in to view order history.")), nil
	}
	return dictOf("history", pyval.NewList(t.orders.Keys()...)), nil
}

// GetTransactionHistory is upstream's get_transaction_history.
func (t *TradingBot) GetTransactionHistory(args stubs.TradingBotGetTransactionHistoryArgs) (pyval.Value, error) {
	startDate, endDate := args.StartDate.V, args.EndDate.V
	if !pyval.Truthy(t.authenticated) {
		return pyval.NewList(errorDict("User not authenticated. Please log in to view transaction history.")), nil
	}
	start := datetimeMin()
	if pyval.Truthy(startDate) {
		d, err := strptime(startDate, "%Y-%m-%d")
		if err != nil {
			return nil, err
		}
		start = d
	}
	end := datetimeMax()
	if pyval.Truthy(endDate) {
		d, err := strptime(endDate, "%Y-%m-%d")
		if err != nil {
			return nil, err
		}
		end = d
	}
	var filtered []pyval.Value
	for _, tr := range t.transactionHistory.Items {
		ts, err := pyval.GetItem(tr, pyval.Str("timestamp"))
		if err != nil {
			return nil, err
		}
		d, err := strptime(ts, "%Y-%m-%d %H:%M:%S")
		if err != nil {
			return nil, err
		}
		if !start.After(d) && !d.After(end) {
			filtered = append(filtered, tr)
		}
	}
	if t.longContext {
		ext, err := pyval.ListOf(t.lc(longcontext.TransactionHistoryExtension))
		if err != nil {
			return nil, err
		}
		filtered = append(filtered, ext...)
	}
	return dictOf("transaction_history", pyval.NewList(filtered...)), nil
}

// GetAvailableStocks is upstream's get_available_stocks.
func (t *TradingBot) GetAvailableStocks(args stubs.TradingBotGetAvailableStocksArgs) (pyval.Value, error) {
	sector := args.Sector.V
	tech := []pyval.Value{pyval.Str("AAPL"), pyval.Str("GOOG"), pyval.Str("MSFT"), pyval.Str("NVDA")}
	auto := []pyval.Value{pyval.Str("TSLA"), pyval.Str("F"), pyval.Str("GM")}
	if t.longContext {
		te, err := pyval.ListOf(t.lc(longcontext.TechnologyExtension))
		if err != nil {
			return nil, err
		}
		ae, err := pyval.ListOf(t.lc(longcontext.AutomobileExtension))
		if err != nil {
			return nil, err
		}
		tech = append(tech, te...)
		auto = append(auto, ae...)
	}
	sectorMap := dictOf("Technology", pyval.NewList(tech...), "Automobile", pyval.NewList(auto...))
	v, err := pyval.DictGet(sectorMap, sector, pyval.NewList())
	if err != nil {
		return nil, err
	}
	return dictOf("stock_list", v), nil
}

// FilterStocksByPrice is upstream's filter_stocks_by_price.
func (t *TradingBot) FilterStocksByPrice(args stubs.TradingBotFilterStocksByPriceArgs) (pyval.Value, error) {
	stocks, minPrice, maxPrice := args.Stocks.V, args.MinPrice.V, args.MaxPrice.V
	items, err := pyval.ListOf(stocks)
	if err != nil {
		return nil, err
	}
	price := func(symbol pyval.Value) (pyval.Value, error) {
		s, err := pyval.DictGet(t.stocks, symbol, pyval.NewDict())
		if err != nil {
			return nil, err
		}
		return pyval.DictGet(s, pyval.Str("price"), pyval.Int(0))
	}
	var out []pyval.Value
	for _, symbol := range items {
		p, err := price(symbol)
		if err != nil {
			return nil, err
		}
		ok, err := pyval.Compare(">=", p, minPrice)
		if err != nil {
			return nil, err
		}
		if ok {
			if p, err = price(symbol); err != nil {
				return nil, err
			}
			if ok, err = pyval.Compare("<=", p, maxPrice); err != nil {
				return nil, err
			}
		}
		if ok {
			out = append(out, symbol)
		}
	}
	return dictOf("filtered_stocks", pyval.NewList(out...)), nil
}

// AddToWatchlist is upstream's add_to_watchlist (no authentication check).
func (t *TradingBot) AddToWatchlist(args stubs.TradingBotAddToWatchlistArgs) (pyval.Value, error) {
	stock := args.Stock.V
	if listIndex(t.watchList.Items, stock) < 0 {
		in, err := pyval.Contains(t.stocks, stock)
		if err != nil {
			return nil, err
		}
		if in {
			t.watchList.Items = append(t.watchList.Items, stock)
		}
	}
	return dictOf("watchlist", t.watchList), nil
}

// NotifyPriceChange is upstream's notify_price_change.
func (t *TradingBot) NotifyPriceChange(args stubs.TradingBotNotifyPriceChangeArgs) (pyval.Value, error) {
	stocks, threshold := args.Stocks.V, args.Threshold.V
	items, err := pyval.ListOf(stocks)
	if err != nil {
		return nil, err
	}
	var changed []pyval.Value
	for _, symbol := range items {
		in, err := pyval.Contains(t.stocks, symbol)
		if err != nil {
			return nil, err
		}
		if !in {
			continue
		}
		st, _ := t.stocks.Get(symbol)
		pc, err := pyval.GetItem(st, pyval.Str("percent_change"))
		if err != nil {
			return nil, err
		}
		a, err := pyval.Abs(pc)
		if err != nil {
			return nil, err
		}
		ok, err := pyval.Compare(">=", a, threshold)
		if err != nil {
			return nil, err
		}
		if ok {
			changed = append(changed, symbol)
		}
	}
	if len(changed) > 0 {
		joined, err := pyval.Join(", ", changed)
		if err != nil {
			return nil, err
		}
		return dictOf("notification", pyval.Str("Stocks "+joined+" have significant price changes.")), nil
	}
	return dictOf("notification", pyval.Str("No significant price changes in the selected stocks.")), nil
}

// classTradingBot describes TradingBot for the registry.
func classTradingBot() Class {
	return Class{
		Name:    "TradingBot",
		Module:  "trading_bot",
		New:     func(env *Env) Instance { return NewTradingBot(env) },
		Methods: stubs.TradingBotMethods,
	}
}
