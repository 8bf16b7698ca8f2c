package sim

import (
	"fmt"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// call invokes method on inst as a model's call reaches it: through the
// generated stubs' binder and dispatcher. args are the parameters in
// declaration order; a nil one is left out (it keeps its default), and those
// after it are passed by keyword.
func call(inst Instance, method string, args ...pyval.Value) (pyval.Value, error) {
	var params []Param
	for _, m := range Classes()[inst.ClassName()].Methods {
		if m.Name == method {
			params = m.Params
		}
	}
	if len(args) > len(params) {
		panic(fmt.Sprintf("call %s.%s: %d arguments for %d parameters", inst.ClassName(), method, len(args), len(params)))
	}
	var pos []pyval.Value
	var kw []pyval.KV
	for i, a := range args {
		switch {
		case a == nil:
		case kw == nil && len(pos) == i:
			pos = append(pos, a)
		default:
			kw = append(kw, pyval.KV{Key: pyval.Str(params[i].Name), Value: a})
		}
	}
	return stubs.Call(inst, method, pos, kw)
}
