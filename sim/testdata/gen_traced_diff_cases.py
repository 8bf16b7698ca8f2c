# Differential cases for TradingBot, TravelAPI and VehicleControlAPI: runs upstream's classes (CPython
# 3.12, PYTHONHASHSEED=0, TZ=UTC) on argument values a model could send and
# writes traced_diff_cases.json: (class, long_context, config, calls, results, state).
import json, sys, copy
sys.path.insert(0, '/work/upstream/berkeley-function-call-leaderboard')
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.trading_bot import TradingBot
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.travel_booking import TravelAPI
from bfcl_eval.eval_checker.multi_turn_eval.func_source_code.vehicle_control import VehicleControlAPI
import bfcl_eval.eval_checker.multi_turn_eval.func_source_code.long_context as LC
PRISTINE = {k: copy.deepcopy(v) for k, v in vars(LC).items() if not k.startswith('_')}

CLASSES = {'TradingBot': TradingBot, 'TravelAPI': TravelAPI, 'VehicleControlAPI': VehicleControlAPI}

def ser(r):
    if isinstance(r, str):
        return r
    if type(r) is dict:
        try:
            return json.dumps(r)
        except Exception:
            return str(r)
    return str(r)

def run(cls, lc, config, calls):
    for k, v in PRISTINE.items():
        cur = getattr(LC, k)
        if isinstance(cur, dict):
            cur.clear(); cur.update(copy.deepcopy(v))
    inst = CLASSES[cls]()
    inst._load_scenario(eval(config) if config else {}, long_context=lc)
    results = []
    ph = {}
    for c in calls:
        # Placeholders for values drawn from the generator: ACCESS is the
        # current access_token, CARD / BOOKING the last card_id / booking_id
        # a call returned.
        if 'ACCESS' in c:
            c = c.replace('ACCESS', repr(inst.access_token))
        for k in ('CARD', 'BOOKING'):
            if k in c:
                c = c.replace(k, repr(ph.get(k)))
        try:
            r = eval('inst.' + c)
            if type(r) is dict:
                if 'card_id' in r: ph['CARD'] = r['card_id']
                if 'booking_id' in r: ph['BOOKING'] = r['booking_id']
            results.append(ser(r))
        except Exception as e:
            results.append('Error during execution: ' + str(e))
    state = {k: v for k, v in vars(inst).items() if not k.startswith('_')}
    s = repr(state)
    if len(s) > 3000:
        import hashlib
        s = 'sha256:' + hashlib.sha256(s.encode()).hexdigest()
    return results, s

cases = []
def case(cls, calls, config='', lc=False):
    results, state = run(cls, lc, config, calls)
    cases.append((cls, lc, config, calls, results, state))

login = "trading_login(username='u', password='p')"
case('TradingBot', ["place_order(order_type='Buy', symbol='AAPL', price=10, amount=1)", login,
    "place_order(order_type='Buy', symbol='AAPL', price='10', amount=1)",
    "place_order(order_type='BUY', symbol='AAPL', price=10, amount=2.5)",
    "place_order(order_type='buy', symbol='AAPL', price=10.5, amount='2')",
    "place_order(order_type=7, symbol='AAPL', price=10, amount=1)",
    "place_order(order_type='Sell', symbol='MSFT', price=True, amount=3)",
    "place_order(order_type='Sell', symbol='XXXX', price=1, amount=3)",
    "place_order(order_type='Sell', symbol=['AAPL'], price=1, amount=3)",
    "place_order(order_type='Buy', symbol='GOOG', price=2840.34, amount=4)",
    "place_order(order_type='Buy', symbol='GOOG', price=0, amount=4)",
    "get_order_history()", "get_order_details(order_id=12447)", "get_order_details(order_id='12447')",
    "get_order_details(order_id=12447.0)", "get_order_details(order_id=[1])",
    "cancel_order(order_id=12345)", "cancel_order(order_id=12446)", "cancel_order(order_id=1)",
    "get_account_info()", "trading_get_login_status()", "trading_logout()", "trading_logout()",
    "get_watchlist()", "get_order_history()", "get_transaction_history()", login, login])
case('TradingBot', [login, "cancel_order(order_id='order_type')", "get_order_details(order_id='order_type')",
    "get_order_history()", "get_order_details(order_id=12345)"],
    config="{'orders': {'12345': {'id': 12345, 'order_type': 'Buy', 'symbol': 'AAPL', 'price': 210.65, 'amount': 10, 'status': 'Completed'}, 'order_type': 'Buy'}, 'account_info': {'account_id': 1, 'balance': 100, 'binding_card': 2}}")
case('TradingBot', [login, "get_order_details(order_id='order_type')", "get_order_details(order_id=12345)",
    "get_stock_info(symbol='NVDA')", "get_watchlist()", "get_available_stocks(sector='Automobile')",
    "get_transaction_history(start_date='2024-09-01')"],
    config="{'orders': {'12345': {'id': 12345, 'order_type': 'Buy', 'symbol': 'AAPL', 'price': 210.65, 'amount': 10, 'status': 'Completed'}, 'order_type': 'Buy'}}", lc=True)
case('TradingBot', [login, "fund_account(amount='100')", "fund_account(amount=0)", "fund_account(amount=100.25)",
    "withdraw_funds(amount=50)", "withdraw_funds(amount=1000000000)", "withdraw_funds(amount=-1)", "withdraw_funds(amount=None)",
    "fund_account(amount=3)", "fund_account(amount=True)",
    "get_transaction_history(start_date='2024-09-01', end_date='2024-09-01')",
    "get_transaction_history(start_date='2024-09-02')", "get_transaction_history(end_date='2024-9-2')",
    "get_transaction_history(start_date='2024-02-30')", "get_transaction_history(start_date='0000-01-01')",
    "get_transaction_history(start_date='2024-01-01 ')", "get_transaction_history(start_date=20240101)",
    "get_transaction_history(start_date='', end_date=None)", "get_transaction_history(start_date='２０２４-09-01')",
    "get_account_info()"], config="{'market_status': 'Open'}")
case('TradingBot', [login, "filter_stocks_by_price(stocks='AAPL', min_price=0, max_price=1000)",
    "filter_stocks_by_price(stocks=['AAPL', 'GOOG', 'ZETA', 'NOPE'], min_price=20, max_price=300)",
    "filter_stocks_by_price(stocks=['AAPL'], min_price='a', max_price=300)",
    "filter_stocks_by_price(stocks=['NOPE'], min_price=0, max_price=300)",
    "filter_stocks_by_price(stocks=[['x']], min_price=0, max_price=300)",
    "filter_stocks_by_price(stocks=5, min_price=0, max_price=300)",
    "notify_price_change(stocks=['AAPL', 'TSLA', 'ZETA', 'X'], threshold=0.1)",
    "notify_price_change(stocks=['AAPL'], threshold=5)", "notify_price_change(stocks=['AAPL'], threshold='x')",
    "notify_price_change(stocks={'NVDA': 1}, threshold=0)",
    "add_to_watchlist(stock='TSLA')", "add_to_watchlist(stock='TSLA')", "add_to_watchlist(stock='NOPE')",
    "add_to_watchlist(stock=['x'])", "remove_stock_from_watchlist(symbol='NVDA')", "remove_stock_from_watchlist(symbol='NVDA')",
    "remove_stock_from_watchlist(symbol=['NVDA'])", "get_watchlist()",
    "get_symbol_by_name(name='Zeta Corp')", "get_symbol_by_name(name='zeta')", "get_symbol_by_name(name=['x'])",
    "get_available_stocks(sector='Technology')", "get_available_stocks(sector='Energy')", "get_available_stocks(sector={})",
    "get_stock_info(symbol='ZETA')", "get_stock_info(symbol='zeta')", "get_current_time()"])

auth = "authenticate_travel(client_id='c', client_secret='s', refresh_token='r', grant_type='read_write', user_first_name='Ann', user_last_name='Lee')"
case('TravelAPI', ["register_credit_card(access_token='x', card_number='1', expiration_date='1', cardholder_name='a', card_verification_number=1)",
    "travel_get_login_status()", "get_credit_card_balance(access_token=None, card_id='1')", auth, "travel_get_login_status()",
    "register_credit_card(access_token='x', card_number='1', expiration_date='1', cardholder_name='a', card_verification_number=1)",
    "get_budget_fiscal_year()", "get_all_credit_cards()", "list_all_airports()",
    "get_nearest_airport_by_city(location='Rome')", "get_nearest_airport_by_city(location='Nowhere')",
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
    "set_budget_limit(access_token='bad', budget_limit=1)"])

case('TravelAPI', [auth,
    "register_credit_card(access_token=ACCESS, card_number='4111', expiration_date='12/30', cardholder_name='Ann Lee', card_verification_number=123)",
    "register_credit_card(access_token=ACCESS, card_number=CARD, expiration_date='12/30', cardholder_name='Ann Lee', card_verification_number=123)",
    "register_credit_card(access_token=ACCESS, card_number=[1], expiration_date='12/30', cardholder_name='Ann Lee', card_verification_number=123)",
    "get_credit_card_balance(access_token=ACCESS, card_id=CARD)", "get_credit_card_balance(access_token=ACCESS, card_id='nope')",
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
    "retrieve_invoice(access_token=ACCESS)", "retrieve_invoice(access_token=ACCESS, booking_id=BOOKING)",
    "purchase_insurance(access_token=ACCESS, insurance_type='travel', booking_id=BOOKING, insurance_cost=500, card_id=CARD)",
    "purchase_insurance(access_token=ACCESS, insurance_type='travel', booking_id=BOOKING, insurance_cost=50, card_id=CARD)",
    "purchase_insurance(access_token=ACCESS, insurance_type='travel', booking_id='x', insurance_cost=50, card_id=CARD)",
    "purchase_insurance(access_token=ACCESS, insurance_type='travel', booking_id=BOOKING, insurance_cost=50, card_id='x')",
    "purchase_insurance(access_token=ACCESS, insurance_type='travel', booking_id=BOOKING, insurance_cost='50', card_id=CARD)",
    "contact_customer_support(booking_id=BOOKING, message='hi')", "contact_customer_support(booking_id='x', message='hi')",
    "cancel_booking(access_token=ACCESS, booking_id=BOOKING)", "cancel_booking(access_token=ACCESS, booking_id=BOOKING)",
    "get_credit_card_balance(access_token=ACCESS, card_id=CARD)", "set_budget_limit(access_token=ACCESS, budget_limit='x')"],
    config="{'budget_limit': None}")

case('TravelAPI', [auth,
    "book_flight(access_token=ACCESS, card_id='1234567812345678', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='economy')",
    "get_flight_cost(travel_from='JFK', travel_to='LAX', travel_date='2024-12-15', travel_class='economy')",
    "cancel_booking(access_token=ACCESS, booking_id='booking_901')", "get_all_credit_cards()"], lc=True)
case('TravelAPI', ["retrieve_invoice(access_token='t', booking_id='b1')", "cancel_booking(access_token='t', booking_id='b1')",
    "get_credit_card_balance(access_token='t', card_id='c1')", "book_flight(access_token='t', card_id='c1', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='economy')"],
    config="{'access_token': 't', 'token_expires_in': 0, 'booking_record': {'b1': {'card_id': 'c1', 'travel_cost': 5}}, 'credit_card_list': {'c1': {'balance': 10}}}")
case('TravelAPI', ["retrieve_invoice(access_token='t', booking_id='b1')", "cancel_booking(access_token='t', booking_id='b1')",
    "get_credit_card_balance(access_token='t', card_id='c1')", "book_flight(access_token='t', card_id='c2', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='economy')",
    "book_flight(access_token='t', card_id='c1', travel_date='2024-12-15', travel_from='SFO', travel_to='LAX', travel_class='economy')"],
    config="{'access_token': 't', 'token_expires_in': 2, 'booking_record': {'b1': {'card_id': 'c1', 'travel_cost': 5}}, 'credit_card_list': {'c1': {'balance': 10}, 'c2': {'limit': 1}}}")

case('VehicleControlAPI', ["startEngine(ignitionMode='START')", "lockDoors(unlock=False, door=['driver', 'passenger', 'rear_left', 'rear_right'])",
    "startEngine(ignitionMode='START')", "pressBrakePedal(pedalPosition=0.5)", "startEngine(ignitionMode='START')",
    "pressBrakePedal(pedalPosition=1)", "startEngine(ignitionMode='GO')", "startEngine(ignitionMode='START')",
    "setCruiseControl(speed=65, activate=True, distanceToNextVehicle=100)", "setCruiseControl(speed=67, activate=True, distanceToNextVehicle='50')",
    "setCruiseControl(speed='inf', activate=True, distanceToNextVehicle=50)", "setCruiseControl(speed=60, activate=0, distanceToNextVehicle=50)",
    "startEngine(ignitionMode='STOP')", "setCruiseControl(speed=60, activate=True, distanceToNextVehicle=50)",
    "displayCarStatus(option='fuel')", "displayCarStatus(option='battery')", "displayCarStatus(option='doors')",
    "displayCarStatus(option='climate')", "displayCarStatus(option='headlights')", "displayCarStatus(option='parkingBrake')",
    "displayCarStatus(option='brakePedal')", "displayCarStatus(option='engine')", "displayCarStatus(option='x')",
    "lockDoors(unlock='yes', door='driver')", "lockDoors(unlock=True, door=['driver'])", "lockDoors(unlock=1, door=5)",
    "fillFuelTank(fuelAmount=10)", "fillFuelTank(fuelAmount=41)", "fillFuelTank(fuelAmount=-1)", "fillFuelTank(fuelAmount='5')",
    "fillFuelTank(fuelAmount=40.5)", "estimate_drive_feasibility_by_mileage(distance=1000)", "estimate_drive_feasibility_by_mileage(distance=2000)",
    "estimate_drive_feasibility_by_mileage(distance='x')",
    "adjustClimateControl(temperature=20)", "adjustClimateControl(temperature=68, unit='fahrenheit', fanSpeed=100, mode='cool')",
    "adjustClimateControl(temperature=20, fanSpeed=101)", "adjustClimateControl(temperature=20, fanSpeed='50')",
    "adjustClimateControl(temperature='x', unit='fahrenheit')", "setHeadlights(mode='auto')", "setHeadlights(mode='on')", "setHeadlights(mode=['on'])",
    "activateParkingBrake(mode='engage')", "activateParkingBrake(mode='release')", "activateParkingBrake(mode='x')",
    "pressBrakePedal(pedalPosition=0)", "pressBrakePedal(pedalPosition=2)", "pressBrakePedal(pedalPosition=True)", "releaseBrakePedal()",
    "get_outside_temperature_from_google()", "get_outside_temperature_from_weather_com()", "get_current_speed()",
    "display_log(messages=['a', 1])", "liter_to_gallon(liter=10)", "liter_to_gallon(liter='x')", "gallon_to_liter(gallon=2.5)",
    "gallon_to_liter(gallon=[1])", "estimate_distance(cityA='74532', cityB='83214')", "estimate_distance(cityA='08540', cityB='94016')",
    "estimate_distance(cityA=1, cityB=2)", "get_zipcode_based_on_city(city='San Francisco')", "get_zipcode_based_on_city(city='x')",
    "set_navigation(destination='1 Main St')", "check_tire_pressure()", "find_nearest_tire_shop()"])
case('VehicleControlAPI', ["check_tire_pressure()", "startEngine(ignitionMode='START')", "fillFuelTank(fuelAmount=5)",
    "activateParkingBrake(mode='engage')", "estimate_distance(cityA='74532', cityB='83214')", "displayCarStatus(option='fuel')",
    "get_outside_temperature_from_google()"],
    config="{'fuelLevel': 45, 'frontLeftTirePressure': 40, 'frontRightTirePressure': 40.5, 'rearLeftTirePressure': 20, 'rearRightTirePressure': 20, 'doorStatus': {'driver': 'locked', 'passenger': 'locked', 'rear_left': 'locked', 'rear_right': 'locked'}, 'brakePedalStatus': 'pressed', 'brakePedalForce': 1000.0, 'engineState': 'running', 'parkingBrakeForce': 5.0, 'slopeAngle': 1.0}",
    lc=True)
case('VehicleControlAPI', ["startEngine(ignitionMode='START')", "check_tire_pressure()", "displayCarStatus(option='parkingBrake')"],
    config="{'fuelLevel': -1, 'doorStatus': {'driver': 'locked', 'passenger': 'locked', 'rear_left': 'locked', 'rear_right': 'locked'}, 'brakePedalStatus': 'pressed', 'brakePedalForce': 1000, 'frontLeftTirePressure': 'x'}")

rows = [{"class": cls, "long_context": lc, "config": config, "calls": calls, "results": results, "state": state}
        for cls, lc, config, calls, results, state in cases]
with open("traced_diff_cases.json", "w", encoding="utf-8") as f:
    json.dump(rows, f, ensure_ascii=False, indent=1)
    f.write("\n")
