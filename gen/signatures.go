package main

import (
	"fmt"
	"strings"
)

// signatures are upstream's Python signatures of every public method of the
// multi-turn backend classes (self omitted): parameter names in declaration
// order and the source text of each default. They are facts of the benchmark,
// read from the class definitions in
// bfcl_eval/eval_checker/multi_turn_eval/func_source_code/<Module>.py at the
// pinned commit (memory_kv.py, memory_vector.py and memory_rec_sum.py inherit
// nothing public from memory_api_metaclass.py). Methods are sorted by name,
// as inspect.getmembers lists them; the memory classes' methods are those of
// each subclass.
//
// With the function documents (multi_turn_func_doc/*.json) this table is the
// whole input of the stubs: a backend in sim/ implements what they describe.
var signatures = []classSig{
	{Class: "GorillaFileSystem", Module: "gorilla_file_system", Methods: []string{
		`cat(file_name)`,
		`cd(folder)`,
		`cp(source, destination)`,
		`diff(file_name1, file_name2)`,
		`du(human_readable=False)`,
		`echo(content, file_name=None)`,
		`find(path=".", name=None)`,
		`grep(file_name, pattern)`,
		`ls(a=False)`,
		`mkdir(dir_name)`,
		`mv(source, destination)`,
		`pwd()`,
		`rm(file_name)`,
		`rmdir(dir_name)`,
		`sort(file_name)`,
		`tail(file_name, lines=10)`,
		`touch(file_name)`,
		`wc(file_name, mode="l")`,
	}},
	{Class: "MathAPI", Module: "math_api", Methods: []string{
		`absolute_value(number)`,
		`add(a, b)`,
		`divide(a, b)`,
		`imperial_si_conversion(value, unit_in, unit_out)`,
		`logarithm(value, base, precision)`,
		`max_value(numbers)`,
		`mean(numbers)`,
		`min_value(numbers)`,
		`multiply(a, b)`,
		`percentage(part, whole)`,
		`power(base, exponent)`,
		`round_number(number, decimal_places=0)`,
		`si_unit_conversion(value, unit_in, unit_out)`,
		`square_root(number, precision)`,
		`standard_deviation(numbers)`,
		`subtract(a, b)`,
		`sum_values(numbers)`,
	}},
	{Class: "MemoryAPI_kv", Module: "memory_kv", Methods: []string{
		`archival_memory_add(key, value)`,
		`archival_memory_clear()`,
		`archival_memory_key_search(query, k=5)`,
		`archival_memory_list_keys()`,
		`archival_memory_remove(key)`,
		`archival_memory_replace(key, value)`,
		`archival_memory_retrieve(key)`,
		`core_memory_add(key, value)`,
		`core_memory_clear()`,
		`core_memory_key_search(query, k=5)`,
		`core_memory_list_keys()`,
		`core_memory_remove(key)`,
		`core_memory_replace(key, value)`,
		`core_memory_retrieve(key)`,
		`core_memory_retrieve_all()`,
	}},
	{Class: "MemoryAPI_rec_sum", Module: "memory_rec_sum", Methods: []string{
		`memory_append(text)`,
		`memory_clear()`,
		`memory_replace(old_text, new_text)`,
		`memory_retrieve()`,
		`memory_update(text)`,
	}},
	{Class: "MemoryAPI_vector", Module: "memory_vector", Methods: []string{
		`archival_memory_add(text)`,
		`archival_memory_clear()`,
		`archival_memory_remove(vec_id)`,
		`archival_memory_retrieve(query, top_k=5)`,
		`archival_memory_retrieve_all()`,
		`archival_memory_update(vec_id, new_text)`,
		`core_memory_add(text)`,
		`core_memory_clear()`,
		`core_memory_remove(vec_id)`,
		`core_memory_retrieve(query, top_k=5)`,
		`core_memory_retrieve_all()`,
		`core_memory_update(vec_id, new_text)`,
	}},
	{Class: "MessageAPI", Module: "message_api", Methods: []string{
		`add_contact(user_name)`,
		`delete_message(receiver_id)`,
		`get_message_stats()`,
		`get_user_id(user)`,
		`list_users()`,
		`message_get_login_status()`,
		`message_login(user_id)`,
		`search_messages(keyword)`,
		`send_message(receiver_id, message)`,
		`view_messages_sent()`,
	}},
	{Class: "TwitterAPI", Module: "posting_api", Methods: []string{
		`authenticate_twitter(username, password)`,
		`comment(tweet_id, comment_content)`,
		`follow_user(username_to_follow)`,
		`get_tweet(tweet_id)`,
		`get_tweet_comments(tweet_id)`,
		`get_user_stats(username)`,
		`get_user_tweets(username)`,
		`list_all_following()`,
		`mention(tweet_id, mentioned_usernames)`,
		`post_tweet(content, tags=[], mentions=[])`,
		`posting_get_login_status()`,
		`retweet(tweet_id)`,
		`search_tweets(keyword)`,
		`unfollow_user(username_to_unfollow)`,
	}},
	{Class: "TicketAPI", Module: "ticket_api", Methods: []string{
		`close_ticket(ticket_id)`,
		`create_ticket(title, description="", priority=1)`,
		`edit_ticket(ticket_id, updates)`,
		`get_ticket(ticket_id)`,
		`get_user_tickets(status=None)`,
		`logout()`,
		`resolve_ticket(ticket_id, resolution)`,
		`ticket_get_login_status()`,
		`ticket_login(username, password)`,
	}},
	{Class: "TradingBot", Module: "trading_bot", Methods: []string{
		`add_to_watchlist(stock)`,
		`cancel_order(order_id)`,
		`filter_stocks_by_price(stocks, min_price, max_price)`,
		`fund_account(amount)`,
		`get_account_info()`,
		`get_available_stocks(sector)`,
		`get_current_time()`,
		`get_order_details(order_id)`,
		`get_order_history()`,
		`get_stock_info(symbol)`,
		`get_symbol_by_name(name)`,
		`get_transaction_history(start_date=None, end_date=None)`,
		`get_watchlist()`,
		`notify_price_change(stocks, threshold)`,
		`place_order(order_type, symbol, price, amount)`,
		`remove_stock_from_watchlist(symbol)`,
		`trading_get_login_status()`,
		`trading_login(username, password)`,
		`trading_logout()`,
		`withdraw_funds(amount)`,
	}},
	{Class: "TravelAPI", Module: "travel_booking", Methods: []string{
		`authenticate_travel(client_id, client_secret, refresh_token, grant_type, user_first_name, user_last_name)`,
		`book_flight(access_token, card_id, travel_date, travel_from, travel_to, travel_class)`,
		`cancel_booking(access_token, booking_id)`,
		`compute_exchange_rate(base_currency, target_currency, value)`,
		`contact_customer_support(booking_id, message)`,
		`get_all_credit_cards()`,
		`get_booking_history(access_token)`,
		`get_budget_fiscal_year(lastModifiedAfter=None, includeRemoved=None)`,
		`get_credit_card_balance(access_token, card_id)`,
		`get_flight_cost(travel_from, travel_to, travel_date, travel_class)`,
		`get_nearest_airport_by_city(location)`,
		`list_all_airports()`,
		`purchase_insurance(access_token, insurance_type, booking_id, insurance_cost, card_id)`,
		`register_credit_card(access_token, card_number, expiration_date, cardholder_name, card_verification_number)`,
		`retrieve_invoice(access_token, booking_id=None, insurance_id=None)`,
		`set_budget_limit(access_token, budget_limit)`,
		`travel_get_login_status()`,
		`verify_traveler_information(first_name, last_name, date_of_birth, passport_number)`,
	}},
	{Class: "VehicleControlAPI", Module: "vehicle_control", Methods: []string{
		`activateParkingBrake(mode)`,
		`adjustClimateControl(temperature, unit="celsius", fanSpeed=50, mode="auto")`,
		`check_tire_pressure()`,
		`displayCarStatus(option)`,
		`display_log(messages)`,
		`estimate_distance(cityA, cityB)`,
		`estimate_drive_feasibility_by_mileage(distance)`,
		`fillFuelTank(fuelAmount)`,
		`find_nearest_tire_shop()`,
		`gallon_to_liter(gallon)`,
		`get_current_speed()`,
		`get_outside_temperature_from_google()`,
		`get_outside_temperature_from_weather_com()`,
		`get_zipcode_based_on_city(city)`,
		`liter_to_gallon(liter)`,
		`lockDoors(unlock, door)`,
		`pressBrakePedal(pedalPosition)`,
		`releaseBrakePedal()`,
		`setCruiseControl(speed, activate, distanceToNextVehicle)`,
		`setHeadlights(mode)`,
		`set_navigation(destination)`,
		`startEngine(ignitionMode)`,
	}},
	{Class: "WebSearchAPI", Module: "web_search", Methods: []string{
		`fetch_url_content(url, mode="raw")`,
		`search_engine_query(keywords, max_results=10, region="wt-wt")`,
	}},
}

// classSig is one backend class of the table.
type classSig struct {
	Class   string   // upstream class name
	Module  string   // upstream module file stem
	Methods []string // "name(p1, p2=default, ...)", sorted by name
}

// sigParam is one parameter of a parsed signature.
type sigParam struct {
	Name    string
	Default string // Python source of the default; "" when required
}

// sigMethod is one parsed signature.
type sigMethod struct {
	Name   string
	Params []sigParam
}

// parseSig parses one entry of the table. Defaults are simple literals
// (None, True, False, numbers, strings, []), so a comma always separates
// parameters.
func parseSig(s string) (sigMethod, error) {
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		return sigMethod{}, fmt.Errorf("signature %q: want name(params)", s)
	}
	m := sigMethod{Name: s[:open]}
	inner := strings.TrimSpace(s[open+1 : len(s)-1])
	if inner == "" {
		return m, nil
	}
	seenDefault := false
	for _, part := range strings.Split(inner, ",") {
		name, def, hasDef := strings.Cut(strings.TrimSpace(part), "=")
		name, def = strings.TrimSpace(name), strings.TrimSpace(def)
		if name == "" || (hasDef && def == "") {
			return sigMethod{}, fmt.Errorf("signature %q: malformed parameter %q", s, part)
		}
		if seenDefault && !hasDef {
			return sigMethod{}, fmt.Errorf("signature %q: required parameter %s follows a default", s, name)
		}
		seenDefault = seenDefault || hasDef
		m.Params = append(m.Params, sigParam{Name: name, Default: def})
	}
	return m, nil
}
