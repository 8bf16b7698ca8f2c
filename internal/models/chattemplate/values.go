package chattemplate

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ardanlabs/jinja"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// toJinja converts a Python value (as upstream's dicts hold it) to the
// engine's value, keeping dict order. Dict keys must be str, as for every
// JSON-born message and function document.
func toJinja(v pyval.Value) (jinja.Value, error) {
	switch x := v.(type) {
	case nil, pyval.NoneType:
		return jinja.None(), nil
	case pyval.Bool:
		return jinja.NewBool(bool(x)), nil
	case pyval.Int:
		return jinja.NewInt(int64(x)), nil
	case pyval.BigInt:
		if x.V.IsInt64() {
			return jinja.NewInt(x.V.Int64()), nil
		}
		return jinja.None(), fmt.Errorf("the integer %s does not fit 64 bits", x.V)
	case pyval.Float:
		return jinja.NewFloat(float64(x)), nil
	case pyval.Str:
		return jinja.NewString(string(x)), nil
	case *pyval.List:
		return listToJinja(x.Items)
	case pyval.Tuple:
		return listToJinja(x)
	case *pyval.Dict:
		d := jinja.NewDict()
		for _, kv := range x.Items() {
			k, ok := kv.Key.(pyval.Str)
			if !ok {
				return jinja.None(), fmt.Errorf("a dict key %s is not a str", pyval.Repr(kv.Key))
			}
			jv, err := toJinja(kv.Value)
			if err != nil {
				return jinja.None(), fmt.Errorf("[%q]: %w", string(k), err)
			}
			d.AsDict().Set(string(k), jv)
		}
		return d, nil
	}
	return jinja.None(), fmt.Errorf("a %s cannot be given to a chat template", v.TypeName())
}

func listToJinja(items []pyval.Value) (jinja.Value, error) {
	out := make([]jinja.Value, len(items))
	for i, it := range items {
		jv, err := toJinja(it)
		if err != nil {
			return jinja.None(), fmt.Errorf("[%d]: %w", i, err)
		}
		out[i] = jv
	}
	return jinja.NewList(out), nil
}

// fromJinja converts an engine value back to a Python value for
// json.dumps; sorted orders dict keys (sort_keys=True).
func fromJinja(v jinja.Value, sorted bool) (pyval.Value, error) {
	switch {
	case v.IsNone():
		return pyval.None, nil
	case v.IsUndefined():
		return nil, fmt.Errorf("Object of type Undefined is not JSON serializable")
	case v.IsBool():
		return pyval.Bool(v.AsBool()), nil
	case v.IsInt():
		return pyval.Int(v.AsInt()), nil
	case v.IsFloat():
		return pyval.Float(v.AsFloat()), nil
	case v.IsString():
		return pyval.Str(v.AsString()), nil
	case v.IsList():
		items := v.AsList().Items
		out := make([]pyval.Value, len(items))
		for i, it := range items {
			p, err := fromJinja(it, sorted)
			if err != nil {
				return nil, err
			}
			out[i] = p
		}
		return pyval.NewList(out...), nil
	case v.IsDict():
		d := v.AsDict()
		keys := d.OrderedKeys()
		if sorted {
			keys = slices.Clone(keys)
			slices.Sort(keys)
		}
		out := pyval.NewDictCap(len(keys))
		for _, k := range keys {
			item, _ := d.Get(k)
			p, err := fromJinja(item, sorted)
			if err != nil {
				return nil, err
			}
			out.SetStr(k, p)
		}
		return out, nil
	}
	return nil, fmt.Errorf("Object of type %s is not JSON serializable", kindName(v))
}

func kindName(v jinja.Value) string {
	if v.IsCallable() {
		return "function"
	}
	return "object"
}

// tojsonName is the name every `| tojson` of a template is bound to.
const tojsonName = "__bfcl_tojson"

// tojsonFilter is transformers' tojson filter: json.dumps(x,
// ensure_ascii=False, indent=None, separators=None, sort_keys=False), the
// arguments given by position or name.
var tojsonFilter = jinja.NewCallable("tojson", func(args []jinja.Value, kwargs map[string]jinja.Value) (jinja.Value, error) {
	if len(args) == 0 {
		return jinja.None(), fmt.Errorf("tojson: no value")
	}
	params := []string{"ensure_ascii", "indent", "separators", "sort_keys"}
	if len(args)-1 > len(params) {
		return jinja.None(), fmt.Errorf("tojson() takes at most %d arguments", len(params)+1)
	}
	arg := map[string]jinja.Value{}
	for i, a := range args[1:] {
		arg[params[i]] = a
	}
	for k, v := range kwargs {
		if !slices.Contains(params, k) {
			return jinja.None(), fmt.Errorf("tojson() got an unexpected keyword argument '%s'", k)
		}
		if _, dup := arg[k]; dup {
			return jinja.None(), fmt.Errorf("tojson() got multiple values for argument '%s'", k)
		}
		arg[k] = v
	}
	var o pyval.JSONOptions
	if v, ok := arg["ensure_ascii"]; ok {
		o.ASCII = v.IsTruthy()
	}
	if v, ok := arg["indent"]; ok && !v.IsNone() {
		if !v.IsInt() || v.AsInt() <= 0 {
			return jinja.None(), fmt.Errorf("tojson: indent=%s is not supported (a positive integer or None)", v)
		}
		o.Indent = int(v.AsInt())
	}
	if v, ok := arg["separators"]; ok && !v.IsNone() {
		item, key, err := separators(v)
		if err != nil {
			return jinja.None(), err
		}
		switch {
		case item == "," && key == ": " && o.Indent > 0, item == ", " && key == ": " && o.Indent == 0:
			// json.dumps's own separators
		case item == "," && key == ":" && o.Indent == 0:
			o.Compact = true
		default:
			return jinja.None(), fmt.Errorf("tojson: separators=(%q, %q) with indent=%d are not supported", item, key, o.Indent)
		}
	}
	sorted := false
	if v, ok := arg["sort_keys"]; ok {
		sorted = v.IsTruthy()
	}
	p, err := fromJinja(args[0], sorted)
	if err != nil {
		return jinja.None(), fmt.Errorf("tojson: %w", err)
	}
	b, err := pyval.AppendJSONWith(nil, p, o)
	if err != nil {
		return jinja.None(), fmt.Errorf("tojson: %w", err)
	}
	return jinja.NewString(string(b)), nil
})

func separators(v jinja.Value) (string, string, error) {
	if v.IsList() && v.AsList().Len() == 2 && v.AsList().Get(0).IsString() && v.AsList().Get(1).IsString() {
		return v.AsList().Get(0).AsString(), v.AsList().Get(1).AsString(), nil
	}
	return "", "", fmt.Errorf("tojson: separators must be two strings, not %s", v)
}

// strName is the function every {{ expression }} is written through.
const strName = "__bfcl_str"

// strFunc is what Jinja2 writes for a value: str(value) (repr inside lists
// and dicts, True/False/None), and nothing for an undefined value. It is
// also the string filter.
var strFunc = jinja.NewCallable(strName, func(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
	if len(args) != 1 {
		return jinja.None(), fmt.Errorf("%s: want one value", strName)
	}
	s, err := pyStr(args[0])
	if err != nil {
		return jinja.None(), err
	}
	return jinja.NewString(s), nil
})

func pyStr(v jinja.Value) (string, error) {
	switch {
	case v.IsUndefined():
		return "", nil
	case v.IsString():
		return v.AsString(), nil
	case v.IsCallable():
		return v.String(), nil
	}
	p, err := fromJinja(v, false)
	if err != nil {
		return "", err
	}
	return pyval.StrOf(p), nil
}

// stringName and joinName are the names the string and join filters are
// bound to.
const (
	stringName = "__bfcl_string"
	joinName   = "__bfcl_join"
)

// joinFilter is Jinja2's join(value, d=”, attribute=None): the items
// (a dict's keys, a string's characters), or each item's attribute, as
// str() writes them, with d between.
var joinFilter = jinja.NewCallable("join", func(args []jinja.Value, kwargs map[string]jinja.Value) (jinja.Value, error) {
	if len(args) == 0 || len(args) > 3 {
		return jinja.None(), fmt.Errorf("join: want a value, and at most a separator and an attribute")
	}
	sep, attr := jinja.NewString(""), jinja.Undefined()
	if len(args) > 1 {
		sep = args[1]
	}
	if len(args) > 2 {
		attr = args[2]
	}
	for k, v := range kwargs {
		switch k {
		case "d":
			sep = v
		case "attribute":
			attr = v
		default:
			return jinja.None(), fmt.Errorf("join() got an unexpected keyword argument '%s'", k)
		}
	}
	d, err := pyStr(sep)
	if err != nil {
		return jinja.None(), err
	}
	items, err := filterItems("join", args[0])
	if err != nil {
		return jinja.None(), err
	}
	parts := make([]string, len(items))
	for i, it := range items {
		if !attr.IsUndefined() && !attr.IsNone() {
			if !attr.IsString() || !it.IsDict() {
				return jinja.None(), fmt.Errorf("join: attribute %s of %s", attr, it)
			}
			it, _ = it.AsDict().Get(attr.AsString())
		}
		s, err := pyStr(it)
		if err != nil {
			return jinja.None(), err
		}
		parts[i] = s
	}
	return jinja.NewString(strings.Join(parts, d)), nil
})

// filterItems is what a filter iterating v goes over: a list's items, a
// dict's keys, a string's characters; anything else is not iterable.
func filterItems(filter string, v jinja.Value) ([]jinja.Value, error) {
	var items []jinja.Value
	switch {
	case v.IsList():
		items = v.AsList().Items
	case v.IsDict():
		for _, k := range v.AsDict().OrderedKeys() {
			items = append(items, jinja.NewString(k))
		}
	case v.IsString():
		for _, r := range v.AsString() {
			items = append(items, jinja.NewString(string(r)))
		}
	default:
		return nil, fmt.Errorf("%s: %s is not iterable", filter, v)
	}
	return items, nil
}

// sortName is the name the sort filter is bound to.
const sortName = "__bfcl_sort"

// sortFilter is Jinja2's sort(value, reverse=False, case_sensitive=False,
// attribute=None): Python's stable sorted() of the items (a dict's keys),
// by the item or its (dotted) attribute, strings compared lower-cased
// unless case_sensitive.
var sortFilter = jinja.NewCallable("sort", func(args []jinja.Value, kwargs map[string]jinja.Value) (jinja.Value, error) {
	params := []string{"reverse", "case_sensitive", "attribute"}
	if len(args) == 0 || len(args)-1 > len(params) {
		return jinja.None(), fmt.Errorf("sort: want a value and at most reverse, case_sensitive and attribute")
	}
	arg := map[string]jinja.Value{}
	for i, a := range args[1:] {
		arg[params[i]] = a
	}
	for k, v := range kwargs {
		if !slices.Contains(params, k) {
			return jinja.None(), fmt.Errorf("sort() got an unexpected keyword argument '%s'", k)
		}
		arg[k] = v
	}
	items, err := filterItems("sort", args[0])
	if err != nil {
		return jinja.None(), err
	}
	items = slices.Clone(items) // sorted in place below
	reverse := arg["reverse"].IsTruthy()
	caseSensitive := arg["case_sensitive"].IsTruthy()
	attr, hasAttr := arg["attribute"]
	hasAttr = hasAttr && !attr.IsNone() && !attr.IsUndefined()
	keys := make([]pyval.Value, len(items))
	for i, it := range items {
		k := it
		if hasAttr {
			var err error
			if k, err = attribute(it, attr); err != nil {
				return jinja.None(), fmt.Errorf("sort: %w", err)
			}
		}
		p, err := fromJinja(k, false)
		if err != nil {
			return jinja.None(), fmt.Errorf("sort: %w", err)
		}
		if s, ok := p.(pyval.Str); ok && !caseSensitive {
			p = pyval.Str(strings.ToLower(string(s)))
		}
		keys[i] = p
	}
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	var cmpErr error
	less := func(a, b int) bool {
		if reverse {
			a, b = b, a
		}
		l, err := pyval.Less(keys[a], keys[b])
		if err != nil && cmpErr == nil {
			cmpErr = err
		}
		return l
	}
	sort.SliceStable(idx, func(i, j int) bool { return less(idx[i], idx[j]) })
	if cmpErr != nil {
		return jinja.None(), fmt.Errorf("sort: %w", cmpErr)
	}
	out := make([]jinja.Value, len(items))
	for i, j := range idx {
		out[i] = items[j]
	}
	return jinja.NewList(out), nil
})

// attribute is Jinja2's make_attrgetter: a dotted path of dict keys and
// list indexes.
func attribute(v, attr jinja.Value) (jinja.Value, error) {
	var parts []string
	switch {
	case attr.IsString():
		parts = strings.Split(attr.AsString(), ".")
	case attr.IsInt():
		parts = []string{strconv.FormatInt(attr.AsInt(), 10)}
	default:
		return jinja.None(), fmt.Errorf("attribute %s is not a name", attr)
	}
	for _, p := range parts {
		switch {
		case v.IsDict():
			x, ok := v.AsDict().Get(p)
			if !ok {
				return jinja.None(), fmt.Errorf("'dict object' has no attribute '%s'", p)
			}
			v = x
		case v.IsList():
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 || n >= v.AsList().Len() {
				return jinja.None(), fmt.Errorf("'list object' has no attribute '%s'", p)
			}
			v = v.AsList().Get(n)
		default:
			return jinja.None(), fmt.Errorf("%s has no attribute '%s'", v, p)
		}
	}
	return v, nil
}
