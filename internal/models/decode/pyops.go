package decode

import (
	"regexp"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// The small pieces of Python the handler decoders are written in, each
// raising what CPython raises on the value kinds a result can hold.

// strArg is a str method call on v: v must be a str, else the
// AttributeError Python raises for the method.
func strArg(v pyval.Value, method string) (string, error) {
	s, ok := v.(pyval.Str)
	if !ok {
		return "", pyval.NewAttributeError("'%s' object has no attribute '%s'", typeName(v), method)
	}
	return string(s), nil
}

// reSubject is the string argument of re.search / re.findall.
func reSubject(v pyval.Value) (string, error) {
	s, ok := v.(pyval.Str)
	if !ok {
		return "", pyval.NewTypeError("expected string or bytes-like object, got '%s'", typeName(v))
	}
	return string(s), nil
}

// concatStr is "prefix" + v + "suffix".
func concatStr(prefix string, v pyval.Value, suffix string) (string, error) {
	s, ok := v.(pyval.Str)
	if !ok {
		return "", pyval.NewTypeError("can only concatenate str (not \"%s\") to str", typeName(v))
	}
	return prefix + string(s) + suffix, nil
}

// isList is type(v) == list.
func isList(v pyval.Value) bool { _, ok := v.(*pyval.List); return ok }

// isDict is type(v) == dict (and isinstance(v, dict) for JSON values).
func isDict(v pyval.Value) bool { _, ok := v.(*pyval.Dict); return ok }

// listOfDicts is `type(r) == list and all(type(x) == dict for x in r)`.
func listOfDicts(r pyval.Value) bool {
	l, ok := r.(*pyval.List)
	if !ok {
		return false
	}
	for _, it := range l.Items {
		if !isDict(it) {
			return false
		}
	}
	return true
}

// notAListError is the ValueError several handlers raise:
// f"Model did not return a list of function calls: {result}".
func notAListError(result pyval.Value) error {
	return pyval.NewValueError("Model did not return a list of function calls: %s", pyval.StrOf(result))
}

// items is v.items() for a value that should be a dict.
func items(v pyval.Value) ([]pyval.KV, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, pyval.NewAttributeError("'%s' object has no attribute 'items'", typeName(v))
	}
	return d.Items(), nil
}

// dictGet is d.get(key, def) for a value that should be a dict.
func dictGet(v pyval.Value, key string, def pyval.Value) (pyval.Value, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, pyval.NewAttributeError("'%s' object has no attribute 'get'", typeName(v))
	}
	if x, ok := d.GetStr(key); ok {
		return x, nil
	}
	return def, nil
}

// getItem is v[key] for a str key.
func getItem(v pyval.Value, key string) (pyval.Value, error) {
	if v == nil {
		v = pyval.None
	}
	return pyval.GetItem(v, pyval.Str(key))
}

// oneCall is the dict display {name: args}.
func oneCall(name, args pyval.Value) (*pyval.Dict, error) {
	if err := pyval.CheckHashable(name); err != nil {
		return nil, err
	}
	d := pyval.NewDictCap(1)
	d.Set(name, args)
	return d, nil
}

// callText is f"{name}({sep.join(f'{k}={repr(v)}' for k, v in args.items())})".
func callText(name, args pyval.Value, sep string) (string, error) {
	kvs, err := items(args)
	if err != nil {
		return "", err
	}
	b := append([]byte(pyval.StrOf(name)), '(')
	for i, kv := range kvs {
		if i > 0 {
			b = append(b, sep...)
		}
		b = append(b, pyval.StrOf(kv.Key)...)
		b = append(b, '=')
		b = pyval.AppendRepr(b, kv.Value)
	}
	return string(append(b, ')')), nil
}

// iterItems is `for x in v` (pyval.Iterate with None handled).
func iterItems(v pyval.Value) ([]pyval.Value, error) {
	if v == nil {
		v = pyval.None
	}
	return pyval.Iterate(v)
}

// firstGroup is re.search(pattern, s, re.DOTALL).group(1), ok=false when
// there is no match.
func firstGroup(re *regexp.Regexp, s string) (string, bool) {
	m := re.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// pyStripChars is str.strip(chars).
func pyStripChars(s, chars string) string { return strings.Trim(s, chars) }

// evalText is Python's eval(s) with no names in scope: the literal and
// arithmetic subset a model's text can hold (eval strips leading spaces
// and tabs, as pyexpr.Parse does).
func evalText(s string) (pyval.Value, error) {
	e, err := pyexpr.Parse(s)
	if err != nil {
		return nil, err
	}
	return evalExpr(e)
}
