package astcheck

import (
	"fmt"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// callDict is the {name: args} dict a decoded call is upstream.
func callDict(c decode.Call) *pyval.Dict {
	d := pyval.NewDictCap(1)
	d.Set(pyval.Str(c.Name), c.Args)
	return d
}

// CallsValue is the decoded output as upstream holds it: a list of
// {name: args} dicts.
func CallsValue(calls []decode.Call) *pyval.List {
	items := make([]pyval.Value, len(calls))
	for i, c := range calls {
		items[i] = callDict(c)
	}
	return pyval.NewList(items...)
}

// errorValue converts an "error" list item to a Python value.
func errorValue(e any) pyval.Value {
	switch x := e.(type) {
	case string:
		return pyval.Str(x)
	case subError:
		inner := pyval.NewDict()
		subs := make([]pyval.Value, len(x.errs))
		for i, s := range x.errs {
			subs[i] = errorValue(s)
		}
		inner.SetStr("sub_error", pyval.NewList(subs...))
		inner.SetStr("sub_error_type", pyval.Str(x.errType))
		inner.SetStr("model_output_item", callDict(x.modelItem))
		inner.SetStr("possible_answer_item", x.answerItem)
		outer := pyval.NewDict()
		outer.SetStr(fmt.Sprintf("Model Result Index %d", x.index), inner)
		return outer
	}
	return pyval.Str(fmt.Sprint(e))
}

// renderErrors turns upstream's "error" list into strings: messages as
// they are, dict items as their json.dumps text.
func renderErrors(errs []any) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		if s, isStr := e.(string); isStr {
			out = append(out, s)
			continue
		}
		txt, err := pyval.JSONDumps(errorValue(e))
		if err != nil {
			txt = pyval.Repr(errorValue(e))
		}
		out = append(out, txt)
	}
	return out
}
