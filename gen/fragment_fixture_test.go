package main

// fragmentClass is a small class exercising every emitter: a documented
// method with a required parameter, an immutable and a mutable default and
// an undocumented parameter, and an undocumented method without parameters.
func fragmentClass() stubClass {
	return stubClass{Name: "C", Module: "c_api", DocFile: "c_api.json", Methods: []stubMethod{
		{Class: "C", Name: "do_it", DocFile: "c_api.json", Summary: "Do it.", Params: []stubParam{
			{Name: "item_id", DocType: "integer", Doc: "The item."},
			{Name: "mode", DocType: "string", Doc: "How.", Default: `"fast"`},
			{Name: "tags", DocType: "array", Default: "[]"},
			{Name: "extra", Default: "None"},
		}},
		{Class: "C", Name: "reset"},
	}}
}
