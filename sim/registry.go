package sim

// Classes returns every backend class by upstream class name. Each call
// builds a fresh table; nothing here is shared mutable state.
func Classes() map[string]Class {
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
