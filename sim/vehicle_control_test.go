package sim

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

var _ = Describe("VehicleControlAPI", func() {
	cls := classVehicleControlAPI()

	It("draws temperatures and speeds from random.Random(141053)", func() {
		v := loadedInstance(cls, nil, false)
		// python3.12: r = random.Random(141053); r.uniform(-10.0, 40.0), r.uniform(0.0, 120.0)
		Expect(callMethod(cls, v, "get_outside_temperature_from_google")).To(Equal(`{"outsideTemperature": 36.63485703790535}`))
		Expect(callMethod(cls, v, "get_current_speed")).To(Equal(`{"currentSpeed": 99.11925428879405}`))
	})

	It("writes the long-context temperature into LONG_WEATHER_EXTENSION and returns it", func() {
		v := loadedInstance(cls, nil, true)
		got := callMethod(cls, v, "get_outside_temperature_from_google")
		Expect(got).To(HavePrefix(`{"-1_day": {"windSpeed": 15.0, `))
		Expect(got).To(HaveSuffix(`"outsideTemperature": 36.63485703790535}`))
		w := v.(*VehicleControlAPI).env.LC.Get(longcontext.LongWeatherExtension).(*pyval.Dict)
		t, _ := w.GetStr("outsideTemperature")
		Expect(t).To(Equal(pyval.Float(36.63485703790535)))
	})

	It("behaves as CPython's VehicleControlAPI on the differential cases", func() {
		runDiffCases(diffCasesFor("VehicleControlAPI"))
	})

	It("keeps state changed before an exception", func() {
		v := loadedInstance(cls, nil, false)
		Expect(callMethod(cls, v, "set_navigation", "destination", pyval.Int(5))).
			To(Equal(`Error during execution: can only concatenate str (not "int") to str`))
		d, _ := v.State().GetStr("destination")
		Expect(d).To(Equal(pyval.Int(5)))
		Expect(callMethod(cls, v, "lockDoors", "unlock", pyval.Bool(false), "door", pyval.NewList(pyval.Str("driver"), pyval.Str("trunk")))).
			To(Equal(`Error during execution: 'trunk'`))
		n, _ := v.State().GetStr("remainingUnlockedDoors")
		Expect(n).To(Equal(pyval.Int(3)))
		Expect(callMethod(cls, v, "setCruiseControl", "speed", pyval.Str("fast"), "activate", pyval.Bool(true), "distanceToNextVehicle", pyval.Int(100))).
			To(Equal(`Error during execution: could not convert string to float: 'fast'`))
		Expect(callMethod(cls, v, "pressBrakePedal", "pedalPosition", pyval.Str("1"))).
			To(Equal(`Error during execution: '<=' not supported between instances of 'int' and 'str'`))
		Expect(callMethod(cls, v, "adjustClimateControl", "temperature", pyval.Int(70), "unit", pyval.Str("fahrenheit"))).
			To(Equal(`{"currentACTemperature": 70, "climateMode": "auto", "humidityLevel": 50.0}`))
		ac, _ := v.State().GetStr("acTemperature")
		Expect(ac).To(Equal(pyval.Float(21.11111111111111)))
	})
})
