package sim

import (
	"maps"
	"sync"

	"github.com/bfcl-go/bfcl/generated/stubs"
)

// Classes returns every backend class by upstream class name. Each call
// returns a fresh table (a copy of one built once); nothing here is shared
// mutable state.
func Classes() map[string]Class { return maps.Clone(classTable()) }

var classTable = sync.OnceValue(buildClasses)

func buildClasses() map[string]Class {
	out := map[string]Class{}
	for _, c := range []Class{
		classGorillaFileSystem(),
		classMathAPI(),
		classMessageAPI(),
		classTwitterAPI(),
		classTicketAPI(),
		classTradingBot(),
		classTravelAPI(),
		classVehicleControlAPI(),
		classMemoryAPIKV(),
		classMemoryAPIVector(),
		classMemoryAPIRecSum(),
		classWebSearchAPI(),
	} {
		out[c.Name] = c
	}
	return out
}

// Each backend implements the interface its class's function documents and
// upstream signature generate: a changed document fails the build here or
// in the method that reads the changed parameter.
var (
	_ stubs.GorillaFileSystem = (*GorillaFileSystem)(nil)
	_ stubs.MathAPI           = (*MathAPI)(nil)
	_ stubs.MessageAPI        = (*MessageAPI)(nil)
	_ stubs.TwitterAPI        = (*TwitterAPI)(nil)
	_ stubs.TicketAPI         = (*TicketAPI)(nil)
	_ stubs.TradingBot        = (*TradingBot)(nil)
	_ stubs.TravelAPI         = (*TravelAPI)(nil)
	_ stubs.VehicleControlAPI = (*VehicleControlAPI)(nil)
	_ stubs.MemoryAPI_kv      = (*MemoryAPI_kv)(nil)
	_ stubs.MemoryAPI_vector  = (*MemoryAPI_vector)(nil)
	_ stubs.MemoryAPI_rec_sum = (*MemoryAPI_rec_sum)(nil)
	_ stubs.WebSearchAPI      = (*WebSearchAPI)(nil)
)
