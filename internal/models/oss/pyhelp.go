package oss

import (
	"regexp"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Python-level helpers: upstream's formatters index dicts, call str
// methods and concatenate; where Python raises, these return the same
// exception (upstream's inference of the entry fails there).

// strConcat is a + b.
func strConcat(a, b pyval.Value) (pyval.Value, error) { return pyval.Add(a, b) }

// concat is s + v for a str s, as a Go string.
func concat(s string, v pyval.Value) (string, error) {
	r, err := pyval.Add(pyval.Str(s), v)
	if err != nil {
		return "", err
	}
	return string(r.(pyval.Str)), nil
}

// fstr is f"{v}": str(v).
func fstr(v pyval.Value) string {
	if v == nil {
		return "None"
	}
	return pyval.StrOf(v)
}

// strip is v.strip() for a str v.
func strip(v pyval.Value) (string, error) {
	s, err := pyval.StrMethod(orNone(v), "strip")
	if err != nil {
		return "", err
	}
	return pyval.Strip(s), nil
}

func orNone(v pyval.Value) pyval.Value {
	if v == nil {
		return pyval.None
	}
	return v
}

// item is v[key] for a str key.
func item(v pyval.Value, key string) (pyval.Value, error) {
	return pyval.GetItem(orNone(v), pyval.Str(key))
}

// get is v.get(key, def) on a dict.
func get(v pyval.Value, key string, def pyval.Value) (pyval.Value, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, pyval.NoAttribute(orNone(v), "get")
	}
	if x, found := d.GetStr(key); found {
		return x, nil
	}
	return def, nil
}

// items is [v[k] for k in keys]: the first exception ends it.
func items(v pyval.Value, keys ...string) ([]pyval.Value, error) {
	out := make([]pyval.Value, len(keys))
	for i, k := range keys {
		x, err := item(v, k)
		if err != nil {
			return nil, err
		}
		out[i] = x
	}
	return out, nil
}

// convertTool is the walk the tool converters of hammer.py and
// think_agent.py share: a list is converted item by item, anything but a
// dict is kept as it is, and of a dict the name, description, parameters
// and the parameters' properties (default {}) are read, in that order, and
// handed to build.
func convertTool(f pyval.Value, build func(name, desc, params, props pyval.Value) (pyval.Value, error)) (pyval.Value, error) {
	switch x := f.(type) {
	case *pyval.List:
		out, err := pyval.MapEach(x.Items, func(it pyval.Value) (pyval.Value, error) { return convertTool(it, build) })
		if err != nil {
			return nil, err
		}
		return pyval.NewList(out...), nil
	case *pyval.Dict:
	default:
		return f, nil
	}
	parts, err := items(f, "name", "description", "parameters")
	if err != nil {
		return nil, err
	}
	props, err := get(parts[2], "properties", pyval.NewDict())
	if err != nil {
		return nil, err
	}
	return build(parts[0], parts[1], parts[2], props)
}

// itemIfIn is `if key in v: v[key]`: ok tells whether key is in v.
func itemIfIn(v pyval.Value, key string) (x pyval.Value, ok bool, err error) {
	if ok, err = in(key, v); err != nil || !ok {
		return nil, false, err
	}
	x, err = item(v, key)
	return x, err == nil, err
}

// in is `key in v`.
func in(key string, v pyval.Value) (bool, error) {
	return pyval.Contains(orNone(v), pyval.Str(key))
}

// isDict is isinstance(v, dict).
func isDict(v pyval.Value) bool { _, ok := v.(*pyval.Dict); return ok }

// dumps is json.dumps(v) with Python's defaults (ensure_ascii, ", " and
// ": " separators).
func dumps(v pyval.Value) (string, error) { return pyval.JSONDumps(orNone(v)) }

// writeToolsBlock writes header, then "\n" + json.dumps(f) for every
// function document, then footer: the tools block of the Qwen-style
// templates (one document a line between the header and footer texts).
func writeToolsBlock(b *strings.Builder, header string, functions []pyval.Value, footer string) error {
	b.WriteString(header)
	for _, f := range functions {
		js, err := dumps(f)
		if err != nil {
			return err
		}
		b.WriteString("\n" + js)
	}
	b.WriteString(footer)
	return nil
}

// dumpsIndent4 is json.dumps(v, indent=4).
func dumpsIndent4(v pyval.Value) (string, error) {
	b, err := pyval.AppendJSONWith(nil, orNone(v), pyval.JSONOptions{ASCII: true, Indent: 4})
	return string(b), err
}

// dumpsUnicode is json.dumps(v, ensure_ascii=False).
func dumpsUnicode(v pyval.Value) (string, error) {
	b, err := pyval.AppendJSONWith(nil, orNone(v), pyval.JSONOptions{})
	return string(b), err
}

// loads is json.loads(s).
func loads(s string) (pyval.Value, error) { return pyval.FromJSONString(s) }

// findAll is re.findall(pattern, s) for a pattern with one group.
func findAll(re *regexp.Regexp, s string) []string {
	ms := re.FindAllStringSubmatch(s, -1)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m[1]
	}
	return out
}

// splitThink is the reasoning split of the Qwen-style handlers: the
// reasoning is the text before the first "</think>" (trailing newlines
// removed), from after its last "<think>" (leading newlines removed); the
// answer is the text after the last "</think>" (leading newlines removed).
// ok is false when there is no "</think>".
func splitThink(text string) (reasoning, answer string, ok bool) {
	if !strings.Contains(text, "</think>") {
		return "", text, false
	}
	parts := strings.Split(text, "</think>")
	head := strings.Split(strings.TrimRight(parts[0], "\n"), "<think>")
	reasoning = strings.TrimLeft(head[len(head)-1], "\n")
	answer = strings.TrimLeft(parts[len(parts)-1], "\n")
	return reasoning, answer, true
}

// pyEval is eval(s) in a namespace with no names: what upstream's
// `eval(item)` on a model-written string can evaluate (literals and
// arithmetic); any name is a NameError.
func pyEval(s string) (pyval.Value, error) {
	e, err := pyexpr.Parse(s)
	if err != nil {
		return nil, err
	}
	return pyexpr.Eval(e, noNames{})
}

type noNames struct{}

func (noNames) LookupName(name string) (pyval.Value, error) {
	return nil, pyval.NewNameError("name '%s' is not defined", name)
}

func (noNames) Call(fn pyval.Value, _ []pyval.Value, _ []pyval.KV) (pyval.Value, error) {
	return nil, pyval.NewTypeError("'%s' object is not callable", fn.TypeName())
}

func (noNames) GetAttr(obj pyval.Value, name string) (pyval.Value, error) {
	return nil, pyval.NoAttribute(obj, name)
}

// nameArgs is {item["name"]: item["arguments"]}, after eval of a str item
// (the comprehension of Granite3FCHandler, PhiFCHandler, ArchHandler and
// MistralFCHandler).
func nameArgs(it pyval.Value, evalStr bool) (pyval.Value, error) {
	if s, ok := it.(pyval.Str); ok && evalStr {
		v, err := pyEval(string(s))
		if err != nil {
			return nil, err
		}
		it = v
	}
	na, err := items(it, "name", "arguments")
	if err != nil {
		return nil, err
	}
	if err := pyval.CheckHashable(na[0]); err != nil {
		return nil, err
	}
	d := pyval.NewDictCap(1)
	d.Set(na[0], na[1])
	return d, nil
}
