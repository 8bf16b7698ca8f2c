package sim

import (
	"testing"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Benchmarks of the set-up and state encoding that `bfcl exec` and the
// multi-turn checker repeat for every entry (issue 27):
//
//	go test ./sim -run '^$' -bench 'LoadScenario|StatePyJSON|ResultJSONDumps' -benchmem

// benchConfigs returns, per class, the initial_config parts of every
// reference entry involving it (skipping without the data set).
func benchConfigs(b *testing.B) map[string][]*pyval.Dict {
	b.Helper()
	td, err := loadTraces()
	if err != nil {
		b.Skip(err.Error())
	}
	out := map[string][]*pyval.Dict{}
	for _, e := range td.entries {
		for _, cl := range e.InvolvedClasses {
			conf := pyval.NewDict()
			if v, ok := td.configs[e.ID].GetStr(cl); ok {
				conf = v.(*pyval.Dict)
			}
			out[cl] = append(out[cl], conf)
		}
	}
	return out
}

var benchClasses = []string{"TravelAPI", "TradingBot", "MessageAPI", "VehicleControlAPI", "GorillaFileSystem", "TwitterAPI", "TicketAPI"}

// loaded returns an instance of class loaded from conf (a deep copy, as
// the engine passes).
func loaded(b *testing.B, class string, conf *pyval.Dict) Instance {
	inst := Classes()[class].New(&Env{})
	if err := inst.LoadScenario(pyval.DeepCopy(conf).(*pyval.Dict), false); err != nil {
		b.Fatal(err)
	}
	return inst
}

// BenchmarkLoadScenario creates and loads an instance of each class for
// every reference entry involving it (config deep copy included).
func BenchmarkLoadScenario(b *testing.B) {
	confs := benchConfigs(b)
	for _, cl := range benchClasses {
		b.Run(cl, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				loaded(b, cl, confs[cl][i%len(confs[cl])])
			}
		})
	}
}

// BenchmarkStatePyJSON is the state of a freshly loaded instance in the
// trace encoding (what exec writes after every turn).
func BenchmarkStatePyJSON(b *testing.B) {
	confs := benchConfigs(b)
	for _, cl := range benchClasses {
		insts := make([]Instance, len(confs[cl]))
		for i, c := range confs[cl] {
			insts[i] = loaded(b, cl, c)
		}
		b.Run(cl, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := pyval.MarshalPyJSON(insts[i%len(insts)].State()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkResultJSONDumps is json.dumps of call results (the engine's
// result strings): the stock table of a TradingBot and a vehicle's status.
func BenchmarkResultJSONDumps(b *testing.B) {
	confs := benchConfigs(b)
	tb := loaded(b, "TradingBot", confs["TradingBot"][0]).(*TradingBot)
	vc := loaded(b, "VehicleControlAPI", confs["VehicleControlAPI"][0])
	results := map[string]pyval.Value{"stocks": tb.stocks, "vehicle": vc.State()}
	for name, v := range results {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := pyval.JSONDumps(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
