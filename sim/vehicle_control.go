package sim

// Port of upstream bfcl_eval/eval_checker/multi_turn_eval/func_source_code/
// vehicle_control.py (class VehicleControlAPI). Result and error strings are
// protocol constants reproduced byte for byte from that file.

import (
	"math"
	"sync"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/python/pyrandom"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Module constants of vehicle_control.py (types as upstream: the maximum
// fuel level is an int, the rest floats).
const (
	vcMaxFuelLevel   = 50
	vcMinFuelLevel   = 0.0
	vcMilePerGallon  = 20.0
	vcDefaultSeed    = 141053
	vcMaxBrakeForceN = 1000 // pressBrakePedal's max_brake_force (an int)
)

// vcDefaults is vcDefaultState built once, for scenarioValue to copy from.
var vcDefaults = sync.OnceValue(vcDefaultState)

func vcDefaultState() *pyval.Dict {
	return dictOf(
		"random_seed", pyval.Int(vcDefaultSeed),
		"fuelLevel", pyval.Float(0.0),
		"batteryVoltage", pyval.Float(12.6),
		"engine_state", pyval.Str("stopped"),
		"remainingUnlockedDoors", pyval.Int(4),
		"doorStatus", dictOf(
			"driver", pyval.Str("unlocked"),
			"passenger", pyval.Str("unlocked"),
			"rear_left", pyval.Str("unlocked"),
			"rear_right", pyval.Str("unlocked"),
		),
		"acTemperature", pyval.Float(25.0),
		"fanSpeed", pyval.Int(50),
		"acMode", pyval.Str("auto"),
		"humidityLevel", pyval.Float(50.0),
		"headLightStatus", pyval.Str("off"),
		"parkingBrakeStatus", pyval.Str("released"),
		"_parkingBrakeForce", pyval.Float(0.0),
		"_slopeAngle", pyval.Float(0.0),
		"brakePedalStatus", pyval.Str("released"),
		"brakePedalForce", pyval.Float(0.0),
		"distanceToNextVehicle", pyval.Float(50.0),
		"cruiseStatus", pyval.Str("inactive"),
		"destination", pyval.Str("None"),
		"frontLeftTirePressure", pyval.Float(32.0),
		"frontRightTirePressure", pyval.Float(32.0),
		"rearLeftTirePressure", pyval.Float(30.0),
		"rearRightTirePressure", pyval.Float(30.0),
	)
}

// VehicleControlAPI is upstream's VehicleControlAPI. Attributes hold
// whatever Python values the scenario or the calls supplied.
type VehicleControlAPI struct {
	env *Env

	random                 *pyrandom.Rand
	fuelLevel              pyval.Value
	batteryVoltage         pyval.Value
	engineState            pyval.Value
	remainingUnlockedDoors pyval.Value
	doorStatus             *pyval.Dict
	acTemperature          pyval.Value
	fanSpeed               pyval.Value
	acMode                 pyval.Value
	humidityLevel          pyval.Value
	headLightStatus        pyval.Value
	parkingBrakeStatus     pyval.Value
	parkingBrakeForce      pyval.Value // private _parkingBrakeForce
	slopeAngle             pyval.Value // private _slopeAngle
	brakePedalStatus       pyval.Value
	brakePedalForce        pyval.Value // private _brakePedalForce
	distanceToNextVehicle  pyval.Value
	cruiseStatus           pyval.Value
	destination            pyval.Value
	frontLeftTirePressure  pyval.Value
	frontRightTirePressure pyval.Value
	rearLeftTirePressure   pyval.Value
	rearRightTirePressure  pyval.Value
	longContext            bool
}

// NewVehicleControlAPI returns an instance as upstream's constructor leaves
// it.
func NewVehicleControlAPI(env *Env) *VehicleControlAPI { return &VehicleControlAPI{env: env} }

// ClassName implements Instance.
func (*VehicleControlAPI) ClassName() string { return "VehicleControlAPI" }

// LoadScenario is upstream's _load_scenario. Note the scenario keys that
// differ from the attribute names (engineState, parkingBrakeForce,
// slopeAngle, brakePedalForce) and that remainingUnlockedDoors is always
// recomputed from doorStatus.
func (v *VehicleControlAPI) LoadScenario(config *pyval.Dict, longContext bool) error {
	def := vcDefaults()
	get := func(key, defKey string) pyval.Value { return scenarioValue(config, def, key, defKey) }
	r, err := newRandom(get("random_seed", "random_seed"))
	if err != nil {
		return err
	}
	v.random = r
	v.fuelLevel = get("fuelLevel", "fuelLevel")
	v.batteryVoltage = get("batteryVoltage", "batteryVoltage")
	v.engineState = get("engineState", "engine_state")
	v.remainingUnlockedDoors = get("remainingUnlockedDoors", "remainingUnlockedDoors")
	ds := get("doorStatus", "doorStatus")
	d, ok := ds.(*pyval.Dict)
	if !ok {
		return pyval.NoAttribute(ds, "keys")
	}
	v.doorStatus = d
	locked := 0
	for _, kv := range d.Items() {
		if pyval.Equal(kv.Value, pyval.Str("locked")) {
			locked++
		}
	}
	v.remainingUnlockedDoors = pyval.Int(4 - locked)
	v.acTemperature = get("acTemperature", "acTemperature")
	v.fanSpeed = get("fanSpeed", "fanSpeed")
	v.acMode = get("acMode", "acMode")
	v.humidityLevel = get("humidityLevel", "humidityLevel")
	v.headLightStatus = get("headLightStatus", "headLightStatus")
	v.parkingBrakeStatus = get("parkingBrakeStatus", "parkingBrakeStatus")
	v.parkingBrakeForce = get("parkingBrakeForce", "_parkingBrakeForce")
	v.slopeAngle = get("slopeAngle", "_slopeAngle")
	v.brakePedalStatus = get("brakePedalStatus", "brakePedalStatus")
	v.brakePedalForce = get("brakePedalForce", "brakePedalForce")
	v.distanceToNextVehicle = get("distanceToNextVehicle", "distanceToNextVehicle")
	v.cruiseStatus = get("cruiseStatus", "cruiseStatus")
	v.destination = get("destination", "destination")
	v.frontLeftTirePressure = get("frontLeftTirePressure", "frontLeftTirePressure")
	v.frontRightTirePressure = get("frontRightTirePressure", "frontRightTirePressure")
	v.rearLeftTirePressure = get("rearLeftTirePressure", "rearLeftTirePressure")
	v.rearRightTirePressure = get("rearRightTirePressure", "rearRightTirePressure")
	v.longContext = longContext
	return nil
}

// State implements Instance. Before LoadScenario the instance has no public
// attributes (upstream's __init__ only annotates them).
func (v *VehicleControlAPI) State() *pyval.Dict {
	if v.random == nil {
		return pyval.NewDict()
	}
	return dictOf(
		"fuelLevel", v.fuelLevel,
		"batteryVoltage", v.batteryVoltage,
		"engine_state", v.engineState,
		"remainingUnlockedDoors", v.remainingUnlockedDoors,
		"doorStatus", v.doorStatus,
		"acTemperature", v.acTemperature,
		"fanSpeed", v.fanSpeed,
		"acMode", v.acMode,
		"humidityLevel", v.humidityLevel,
		"headLightStatus", v.headLightStatus,
		"parkingBrakeStatus", v.parkingBrakeStatus,
		"brakePedalStatus", v.brakePedalStatus,
		"distanceToNextVehicle", v.distanceToNextVehicle,
		"cruiseStatus", v.cruiseStatus,
		"destination", v.destination,
		"frontLeftTirePressure", v.frontLeftTirePressure,
		"frontRightTirePressure", v.frontRightTirePressure,
		"rearLeftTirePressure", v.rearLeftTirePressure,
		"rearRightTirePressure", v.rearRightTirePressure,
		"long_context", pyval.Bool(v.longContext),
	)
}

func (v *VehicleControlAPI) lc(name string) pyval.Value {
	return longContextValue(v.env, "VehicleControlAPI", name)
}

// chainedLE is the chained comparison `lo <= x <= hi`.
func chainedLE(lo, x, hi pyval.Value) (bool, error) {
	ok, err := pyval.Compare("<=", lo, x)
	if err != nil || !ok {
		return false, err
	}
	return pyval.Compare("<=", x, hi)
}

// StartEngine is upstream's startEngine.
func (v *VehicleControlAPI) StartEngine(args stubs.VehicleControlAPIStartEngineArgs) (pyval.Value, error) {
	ignitionMode := args.IgnitionMode.V
	if pyval.Equal(ignitionMode, pyval.Str("STOP")) {
		v.engineState = pyval.Str("stopped")
	}
	unlocked, err := pyval.Compare(">", v.remainingUnlockedDoors, pyval.Int(0))
	if err != nil {
		return nil, err
	}
	if unlocked {
		var doors []pyval.Value
		for _, kv := range v.doorStatus.Items() {
			if pyval.Equal(kv.Value, pyval.Str("unlocked")) {
				doors = append(doors, kv.Key)
			}
		}
		joined, err := pyval.Join(", ", doors)
		if err != nil {
			return nil, err
		}
		return errorDict("All doors must be locked before starting the engine. Here are the unlocked doors: " + joined), nil
	}
	if pyval.NotEqual(v.brakePedalStatus, pyval.Str("pressed")) {
		return errorDict("Brake pedal needs to be pressed when starting the engine."), nil
	}
	if pyval.NotEqual(v.brakePedalForce, pyval.Float(1000.0)) {
		return errorDict("Must press the brake fully before starting the engine."), nil
	}
	empty, err := pyval.Compare("<", v.fuelLevel, pyval.Float(vcMinFuelLevel))
	if err != nil {
		return nil, err
	}
	if empty {
		return errorDict("Fuel tank is empty."), nil
	}
	if !pyval.Equal(ignitionMode, pyval.Str("START")) {
		return errorDict("Invalid ignition mode."), nil
	}
	v.engineState = pyval.Str("running")
	return dictOf(
		"engineState", v.engineState,
		"fuelLevel", v.fuelLevel,
		"batteryVoltage", v.batteryVoltage,
	), nil
}

// FillFuelTank is upstream's fillFuelTank.
func (v *VehicleControlAPI) FillFuelTank(args stubs.VehicleControlAPIFillFuelTankArgs) (pyval.Value, error) {
	fuelAmount := args.FuelAmount.V
	neg, err := pyval.Compare("<", fuelAmount, pyval.Int(0))
	if err != nil {
		return nil, err
	}
	if neg {
		return errorDict("Fuel amount cannot be negative."), nil
	}
	// upstream computes self.fuelLevel + fuelAmount afresh for each bound
	for _, bound := range []struct {
		op    string
		limit pyval.Value
		msg   string
	}{
		{">", pyval.Int(vcMaxFuelLevel), "Cannot fill gas above the tank capacity."},
		{"<", pyval.Float(vcMinFuelLevel), "Fuel tank is empty. Min fuel level is 0 gallons."},
	} {
		sum, err := pyval.Add(v.fuelLevel, fuelAmount)
		if err != nil {
			return nil, err
		}
		out, err := pyval.Compare(bound.op, sum, bound.limit)
		if err != nil {
			return nil, err
		}
		if out {
			return errorDict(bound.msg), nil
		}
	}
	if v.fuelLevel, err = pyval.Add(v.fuelLevel, fuelAmount); err != nil {
		return nil, err
	}
	return dictOf("fuelLevel", v.fuelLevel), nil
}

// LockDoors is upstream's lockDoors.
func (v *VehicleControlAPI) LockDoors(args stubs.VehicleControlAPILockDoorsArgs) (pyval.Value, error) {
	unlock, door := args.Unlock.V, args.Door.V
	target, step := pyval.Str("locked"), pyval.Int(-1)
	if pyval.Truthy(unlock) {
		target, step = pyval.Str("unlocked"), pyval.Int(1)
	}
	doors, err := pyval.ListOf(door)
	if err != nil {
		return nil, err
	}
	for _, d := range doors {
		cur, err := pyval.GetItem(v.doorStatus, d)
		if err != nil {
			return nil, err
		}
		if pyval.Equal(cur, target) {
			continue
		}
		v.doorStatus.Set(d, target)
		if v.remainingUnlockedDoors, err = pyval.Add(v.remainingUnlockedDoors, step); err != nil {
			return nil, err
		}
	}
	return dictOf("lockStatus", target, "remainingUnlockedDoors", v.remainingUnlockedDoors), nil
}

// AdjustClimateControl is upstream's adjustClimateControl.
func (v *VehicleControlAPI) AdjustClimateControl(args stubs.VehicleControlAPIAdjustClimateControlArgs) (pyval.Value, error) {
	temperature, unit, fanSpeed, mode := args.Temperature.V, args.Unit.V, args.FanSpeed.V, args.Mode.V
	ok, err := chainedLE(pyval.Int(0), fanSpeed, pyval.Int(100))
	if err != nil {
		return nil, err
	}
	if !ok {
		return errorDict("Fan speed must be between 0 and 100."), nil
	}
	v.acTemperature = temperature
	if pyval.Equal(unit, pyval.Str("fahrenheit")) {
		x, err := pyval.Sub(temperature, pyval.Int(32))
		if err == nil {
			x, err = pyval.Mul(x, pyval.Int(5))
		}
		if err == nil {
			x, err = pyval.TrueDiv(x, pyval.Int(9))
		}
		if err != nil {
			return nil, err
		}
		v.acTemperature = x
	}
	v.fanSpeed = fanSpeed
	v.acMode = mode
	return dictOf(
		"currentACTemperature", temperature,
		"climateMode", mode,
		"humidityLevel", v.humidityLevel,
	), nil
}

// GetOutsideTemperatureFromGoogle is upstream's
// get_outside_temperature_from_google. In long-context mode it writes the
// temperature into the module-level LONG_WEATHER_EXTENSION dict and returns
// that dict.
func (v *VehicleControlAPI) GetOutsideTemperatureFromGoogle() (pyval.Value, error) {
	if v.longContext {
		ext := v.lc(longcontext.LongWeatherExtension)
		if err := pyval.SetItem(ext, pyval.Str("outsideTemperature"), pyval.Float(v.random.Uniform(-10.0, 40.0))); err != nil {
			return nil, err
		}
		return ext, nil
	}
	return dictOf("outsideTemperature", pyval.Float(v.random.Uniform(-10.0, 40.0))), nil
}

// GetOutsideTemperatureFromWeatherCom is upstream's
// get_outside_temperature_from_weather_com (always a 404 error).
func (v *VehicleControlAPI) GetOutsideTemperatureFromWeatherCom() (pyval.Value, error) {
	return dictOf("error", pyval.Int(404)), nil
}

// SetHeadlights is upstream's setHeadlights.
func (v *VehicleControlAPI) SetHeadlights(args stubs.VehicleControlAPISetHeadlightsArgs) (pyval.Value, error) {
	mode := args.Mode.V
	if listIndex([]pyval.Value{pyval.Str("on"), pyval.Str("off"), pyval.Str("auto")}, mode) < 0 {
		return errorDict("Invalid headlight mode."), nil
	}
	if pyval.Equal(mode, pyval.Str("on")) {
		v.headLightStatus = pyval.Str("on")
		return dictOf("headlightStatus", pyval.Str("on")), nil
	}
	v.headLightStatus = pyval.Str("off")
	return dictOf("headlightStatus", pyval.Str("off")), nil
}

// DisplayCarStatus is upstream's displayCarStatus.
func (v *VehicleControlAPI) DisplayCarStatus(args stubs.VehicleControlAPIDisplayCarStatusArgs) (pyval.Value, error) {
	option := args.Option.V
	status := pyval.NewDict()
	if v.longContext {
		status.SetStr("metadata", v.lc(longcontext.CarStatusMetadataExtension))
	}
	is := func(s string) bool { return pyval.Equal(option, pyval.Str(s)) }
	switch {
	case is("fuel"):
		status.SetStr("fuelLevel", v.fuelLevel)
	case is("battery"):
		status.SetStr("batteryVoltage", v.batteryVoltage)
	case is("doors"):
		status.SetStr("doorStatus", v.doorStatus)
	case is("climate"):
		status.SetStr("currentACTemperature", v.acTemperature)
		status.SetStr("fanSpeed", v.fanSpeed)
		status.SetStr("climateMode", v.acMode)
		status.SetStr("humidityLevel", v.humidityLevel)
	case is("headlights"):
		status.SetStr("headlightStatus", v.headLightStatus)
	case is("parkingBrake"):
		status.SetStr("parkingBrakeStatus", v.parkingBrakeStatus)
		status.SetStr("parkingBrakeForce", v.parkingBrakeForce)
		status.SetStr("slopeAngle", v.slopeAngle)
	case is("brakePedal"):
		status.SetStr("brakePedalStatus", v.brakePedalStatus)
		status.SetStr("brakePedalForce", v.brakePedalForce)
	case is("engine"):
		status.SetStr("engineState", v.engineState)
	default:
		status.SetStr("error", pyval.Str("Invalid option"))
	}
	return status, nil
}

// ActivateParkingBrake is upstream's activateParkingBrake.
func (v *VehicleControlAPI) ActivateParkingBrake(args stubs.VehicleControlAPIActivateParkingBrakeArgs) (pyval.Value, error) {
	mode := args.Mode.V
	if listIndex([]pyval.Value{pyval.Str("engage"), pyval.Str("release")}, mode) < 0 {
		return errorDict("Invalid mode"), nil
	}
	status, force := "released", 0.0
	if pyval.Equal(mode, pyval.Str("engage")) {
		status, force = "engaged", 500.0
	}
	v.parkingBrakeStatus = pyval.Str(status)
	v.parkingBrakeForce = pyval.Float(force)
	v.slopeAngle = pyval.Float(10.0)
	out := pyval.NewDict()
	if v.longContext {
		out.SetStr("parkingBrakeInstruction", v.lc(longcontext.ParkingBrakeInstruction))
	}
	out.SetStr("parkingBrakeStatus", pyval.Str(status))
	out.SetStr("_parkingBrakeForce", pyval.Float(force))
	out.SetStr("_slopeAngle", pyval.Float(10.0))
	return out, nil
}

// PressBrakePedal is upstream's pressBrakePedal.
func (v *VehicleControlAPI) PressBrakePedal(args stubs.VehicleControlAPIPressBrakePedalArgs) (pyval.Value, error) {
	pedalPosition := args.PedalPosition.V
	ok, err := chainedLE(pyval.Int(0), pedalPosition, pyval.Int(1))
	if err != nil {
		return nil, err
	}
	if !ok {
		return errorDict("Pedal position must be between 0 and 1."), nil
	}
	if pyval.Equal(pedalPosition, pyval.Int(0)) {
		v.brakePedalStatus = pyval.Str("released")
		v.brakePedalForce = pyval.Float(0.0)
		return dictOf("brakePedalStatus", pyval.Str("released"), "brakePedalForce", pyval.Float(0.0)), nil
	}
	force, err := pyval.Mul(pedalPosition, pyval.Int(vcMaxBrakeForceN))
	if err != nil {
		return nil, err
	}
	v.brakePedalStatus = pyval.Str("pressed")
	v.brakePedalForce = force
	f, err := pyval.ToFloat(force)
	if err != nil {
		return nil, err
	}
	return dictOf("brakePedalStatus", pyval.Str("pressed"), "brakePedalForce", f), nil
}

// ReleaseBrakePedal is upstream's releaseBrakePedal.
func (v *VehicleControlAPI) ReleaseBrakePedal() (pyval.Value, error) {
	v.brakePedalStatus = pyval.Str("released")
	v.brakePedalForce = pyval.Float(0.0)
	return dictOf("brakePedalStatus", pyval.Str("released"), "brakePedalForce", pyval.Float(0.0)), nil
}

// SetCruiseControl is upstream's setCruiseControl.
func (v *VehicleControlAPI) SetCruiseControl(args stubs.VehicleControlAPISetCruiseControlArgs) (pyval.Value, error) {
	speed, activate, distanceToNextVehicle := args.Speed.V, args.Activate.V, args.DistanceToNextVehicle.V
	dist, err := pyval.ToFloat(distanceToNextVehicle)
	if err != nil {
		return nil, err
	}
	sp, err := pyval.ToFloat(speed)
	if err != nil {
		return nil, err
	}
	if pyval.Equal(v.engineState, pyval.Str("stopped")) {
		return errorDict("Start the engine before activating the cruise control."), nil
	}
	s := float64(sp.(pyval.Float))
	if pyval.Truthy(activate) {
		v.distanceToNextVehicle = dist
		if s < 0 || s > 120 || math.Mod(s, 5) != 0 {
			return errorDict("Invalid speed"), nil
		}
		v.cruiseStatus = pyval.Str("active")
		return dictOf("cruiseStatus", pyval.Str("active"), "currentSpeed", sp, "distanceToNextVehicle", dist), nil
	}
	v.cruiseStatus = pyval.Str("inactive")
	v.distanceToNextVehicle = dist
	return dictOf("cruiseStatus", pyval.Str("inactive"), "currentSpeed", sp, "distanceToNextVehicle", dist), nil
}

// GetCurrentSpeed is upstream's get_current_speed.
func (v *VehicleControlAPI) GetCurrentSpeed() (pyval.Value, error) {
	return dictOf("currentSpeed", pyval.Float(v.random.Uniform(0.0, 120.0))), nil
}

// DisplayLog is upstream's display_log.
func (v *VehicleControlAPI) DisplayLog(args stubs.VehicleControlAPIDisplayLogArgs) (pyval.Value, error) {
	messages := args.Messages.V
	return dictOf("log", messages), nil
}

// EstimateDriveFeasibilityByMileage is upstream's
// estimate_drive_feasibility_by_mileage.
func (v *VehicleControlAPI) EstimateDriveFeasibilityByMileage(args stubs.VehicleControlAPIEstimateDriveFeasibilityByMileageArgs) (pyval.Value, error) {
	distance := args.Distance.V
	reach, err := pyval.Mul(v.fuelLevel, pyval.Float(vcMilePerGallon))
	if err != nil {
		return nil, err
	}
	short, err := pyval.Compare("<", reach, distance)
	if err != nil {
		return nil, err
	}
	return dictOf("canDrive", pyval.Bool(!short)), nil
}

// LiterToGallon is upstream's liter_to_gallon.
func (v *VehicleControlAPI) LiterToGallon(args stubs.VehicleControlAPILiterToGallonArgs) (pyval.Value, error) {
	return vcConvert(args.Liter.V, 0.264172, "gallon")
}

// GallonToLiter is upstream's gallon_to_liter.
func (v *VehicleControlAPI) GallonToLiter(args stubs.VehicleControlAPIGallonToLiterArgs) (pyval.Value, error) {
	return vcConvert(args.Gallon.V, 3.78541, "liter")
}

// vcConvert is the unit conversion of liter_to_gallon and gallon_to_liter:
// {key: amount * factor}.
func vcConvert(amount pyval.Value, factor float64, key string) (pyval.Value, error) {
	r, err := pyval.Mul(amount, pyval.Float(factor))
	if err != nil {
		return nil, err
	}
	return dictOf(key, r), nil
}

// EstimateDistance is upstream's estimate_distance (zipcode pairs, either
// order).
func (v *VehicleControlAPI) EstimateDistance(args stubs.VehicleControlAPIEstimateDistanceArgs) (pyval.Value, error) {
	cityA, cityB := args.CityA.V, args.CityB.V
	pairs := []struct {
		a, b string
		km   float64
	}{
		{"83214", "74532", 750.0},
		{"56108", "62947", 320.0},
		{"71354", "83462", 450.0},
		{"47329", "52013", 290.0},
		{"69238", "51479", 630.0},
		{"94016", "83214", 980.0},
		{"94016", "94704", 600.0},
		{"94704", "08540", 2550.0},
		{"94016", "08540", 1950.0},
		{"62947", "47329", 1053.0},
		{"94016", "62947", 780.0},
		{"74532", "94016", 880.0},
	}
	eq := func(x pyval.Value, s string) bool { return pyval.Equal(x, pyval.Str(s)) }
	distance := errorDict("distance not found in database.")
	for _, p := range pairs {
		if (eq(cityA, p.a) && eq(cityB, p.b)) || (eq(cityA, p.b) && eq(cityB, p.a)) {
			distance = dictOf("distance", pyval.Float(p.km))
			break
		}
	}
	if v.longContext {
		distance.SetStr("intermediaryCities", v.lc(longcontext.IntermediaryCities))
	}
	return distance, nil
}

// GetZipcodeBasedOnCity is upstream's get_zipcode_based_on_city.
func (v *VehicleControlAPI) GetZipcodeBasedOnCity(args stubs.VehicleControlAPIGetZipcodeBasedOnCityArgs) (pyval.Value, error) {
	city := args.City.V
	zips := []struct{ city, zip string }{
		{"Rivermist", "83214"},
		{"Stonebrook", "74532"},
		{"Maplecrest", "56108"},
		{"Silverpine", "62947"},
		{"Shadowridge", "71354"},
		{"Sunset Valley", "83462"},
		{"Oakendale", "47329"},
		{"Willowbend", "52013"},
		{"Crescent Hollow", "69238"},
		{"Autumnville", "51479"},
		{"San Francisco", "94016"},
	}
	for _, z := range zips {
		if pyval.Equal(city, pyval.Str(z.city)) {
			return dictOf("zipcode", pyval.Str(z.zip)), nil
		}
	}
	return dictOf("zipcode", pyval.Str("00000")), nil
}

// SetNavigation is upstream's set_navigation (the destination is stored
// before the concatenation that may raise).
func (v *VehicleControlAPI) SetNavigation(args stubs.VehicleControlAPISetNavigationArgs) (pyval.Value, error) {
	destination := args.Destination.V
	v.destination = destination
	msg, err := pyval.Add(pyval.Str("Navigating to "), destination)
	if err != nil {
		return nil, err
	}
	return dictOf("status", msg), nil
}

// CheckTirePressure is upstream's check_tire_pressure.
func (v *VehicleControlAPI) CheckTirePressure() (pyval.Value, error) {
	sum, err := pyval.Add(v.frontLeftTirePressure, v.frontRightTirePressure)
	if err == nil {
		sum, err = pyval.Add(sum, v.rearLeftTirePressure)
	}
	if err == nil {
		sum, err = pyval.Add(sum, v.rearRightTirePressure)
	}
	if err != nil {
		return nil, err
	}
	avg, err := pyval.TrueDiv(sum, pyval.Int(4))
	if err != nil {
		return nil, err
	}
	healthy, err := chainedLE(pyval.Int(30), avg, pyval.Int(35))
	if err != nil {
		return nil, err
	}
	var carInfo pyval.Value = pyval.NewDict()
	if v.longContext {
		carInfo = v.lc(longcontext.CarStatusMetadataExtension)
	}
	return dictOf(
		"frontLeftTirePressure", v.frontLeftTirePressure,
		"frontRightTirePressure", v.frontRightTirePressure,
		"rearLeftTirePressure", v.rearLeftTirePressure,
		"rearRightTirePressure", v.rearRightTirePressure,
		"healthy_tire_pressure", pyval.Bool(healthy),
		"car_info", carInfo,
	), nil
}

// FindNearestTireShop is upstream's find_nearest_tire_shop.
func (v *VehicleControlAPI) FindNearestTireShop() (pyval.Value, error) {
	return dictOf("shopLocation", pyval.Str("456 Oakwood Avenue, Rivermist, 83214")), nil
}

// classVehicleControlAPI describes VehicleControlAPI for the registry.
func classVehicleControlAPI() Class {
	return Class{
		Name:    "VehicleControlAPI",
		Module:  "vehicle_control",
		New:     func(env *Env) Instance { return NewVehicleControlAPI(env) },
		Methods: stubs.VehicleControlAPIMethods,
	}
}
