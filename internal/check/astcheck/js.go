package astcheck

import (
	"regexp"
	"strings"
	"sync"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// jsTypes is JS_TYPE_CONVERSION of bfcl_eval/constants/type_mappings.py.
var jsTypes = map[string]string{
	"String": "str", "integer": "int", "float": "float", "Bigint": "int",
	"Boolean": "bool", "dict": "dict", "array": "list", "any": "str",
}

// The regular expressions of js_type_converter.py for Go's RE2 (see
// java.go). The \b before "new" sits at the start of a re.match, where it
// always holds, so it is dropped.
var jsRE = sync.OnceValue(func() *jsRegexps {
	return &jsRegexps{
		intRe:     regexp.MustCompile(`^-?` + reD + `+` + reEnd),
		floatRe:   regexp.MustCompile(`^-?` + reD + `+(?:\.` + reD + `+)?` + reEnd),
		bigintRe:  regexp.MustCompile(`^-?` + reD + `+n` + reEnd),
		array2DRe: regexp.MustCompile(`^(?:\[` + reS + `*\[.*?\]` + reS + `*(?:,` + reS + `*\[.*?\]` + reS + `*)*\]|new` + reS + `+Array\(` + reS + `*\[.*?\]` + reS + `*(?:,` + reS + `*\[.*?\]` + reS + `*)*\))`),
		arrayRe:   regexp.MustCompile(`^(?:\[(.*?)\]|new` + reS + `+Array\((.*?)\))`),
		innerRe:   regexp.MustCompile(`\[(.*?)\]`),
		dictRe:    regexp.MustCompile(`^\{(.*?)\}`),
	}
})

// jsRegexps are compiled on first use (their Unicode classes cost
// about a millisecond at start-up otherwise).
type jsRegexps struct {
	intRe, floatRe, bigintRe, array2DRe, arrayRe, innerRe, dictRe *regexp.Regexp
}

// jsConvert is js_type_converter(value, expectedType, nestedType).
func jsConvert(value, expectedType, nested string) (pyval.Value, error) {
	if _, ok := jsTypes[expectedType]; !ok {
		return nil, pyval.NewValueError("Unsupported type: %s", expectedType)
	}
	switch expectedType {
	case "String":
		if !(strings.HasPrefix(value, `"`) && strings.HasSuffix(value, `"`)) &&
			!(strings.HasPrefix(value, "'") && strings.HasSuffix(value, "'")) {
			return pyval.Str(value), nil
		}
		return pyval.Str(pySlice1(value)), nil
	case "integer":
		if !jsRE().intRe.MatchString(value) {
			return pyval.Str(value), nil
		}
		return pyIntOrError(value)
	case "float":
		if !jsRE().floatRe.MatchString(value) {
			return pyval.Str(value), nil
		}
		return mustFloat(value), nil
	case "Bigint":
		if !jsRE().bigintRe.MatchString(value) {
			return pyval.Str(value), nil
		}
		return pyIntOrError(pyDropLast(value))
	case "Boolean":
		if value != "true" && value != "false" {
			return pyval.Str(value), nil
		}
		return pyval.Bool(value == "true"), nil
	case "dict":
		return jsParseDict(pyval.Strip(value)), nil
	case "array":
		return jsParseArray(pyval.Strip(value), nested), nil
	case "any":
		return pyval.Str(value), nil
	}
	return nil, pyval.NewValueError("Unsupported type: %s", expectedType)
}

// jsParseArray is parse_js_collection(code, "array", nested); code is
// already stripped. Any exception inside returns code, as upstream's bare
// except does.
func jsParseArray(code, nested string) pyval.Value {
	if loc := jsRE().array2DRe.FindStringIndex(code); loc != nil {
		inner := jsRE().innerRe.FindAllStringSubmatch(code[loc[0]:loc[1]], -1)
		out := make([]pyval.Value, 0, len(inner))
		for idx, in := range inner {
			s := pyval.Strip(in[1])
			if idx == 0 && strings.HasPrefix(s, "[") {
				s = s[1:]
			}
			parts := strings.Split(s, ",")
			row := make([]pyval.Value, 0, len(parts))
			for _, p := range parts {
				row = append(row, jsParseValue(pyval.Strip(p)))
			}
			out = append(out, pyval.NewList(row...))
		}
		return pyval.NewList(out...)
	}
	loc := jsRE().arrayRe.FindStringSubmatchIndex(code)
	if loc == nil {
		return pyval.Str(code)
	}
	var elems []string
	switch {
	case loc[2] >= 0:
		if s := pyval.Strip(code[loc[2]:loc[3]]); s != "" {
			elems = strings.Split(s, ",")
		}
	case loc[4] >= 0:
		if s := pyval.Strip(code[loc[4]:loc[5]]); s != "" {
			elems = strings.Split(s, ",")
		}
	}
	out := make([]pyval.Value, 0, len(elems))
	for _, e := range elems {
		e = pyval.Strip(e)
		if nested == "" {
			out = append(out, jsParseValue(e))
			continue
		}
		var v pyval.Value
		var err error
		if strings.HasPrefix(e, "'") || strings.HasPrefix(e, `"`) {
			v, err = jsConvert(e, nested, "String")
		} else {
			v, err = jsConvert(e, nested, "")
		}
		if err != nil {
			return pyval.Str(code)
		}
		out = append(out, v)
	}
	return pyval.NewList(out...)
}

// jsParseDict is parse_js_collection(code, "dict"); code is stripped.
func jsParseDict(code string) pyval.Value {
	if code == "{}" {
		return pyval.NewDict()
	}
	m := jsRE().dictRe.FindStringSubmatch(code)
	if m == nil {
		return pyval.Str(code)
	}
	d := pyval.NewDict()
	for _, kv := range jsFindPairs(m[1]) {
		key := pyStripChars(pyval.Strip(kv[0]), `'"`)
		val := pyval.Strip(kv[1])
		switch {
		case strings.HasPrefix(val, "[") && strings.HasSuffix(val, "]"):
			d.Set(pyval.Str(key), jsParseArray(pyval.Strip(val), ""))
		case strings.HasPrefix(val, "{") && strings.HasSuffix(val, "}"):
			d.Set(pyval.Str(key), jsParseDict(pyval.Strip(val)))
		default:
			d.Set(pyval.Str(key), jsParseValue(pyStripChars(val, `'"`)))
		}
	}
	return d
}

// jsFindPairs is re.findall(r"([^:]+):\s*(.*?)(?:,\s*(?=[^,]+:)|$)", s),
// written out by hand because RE2 has no look-ahead. At each start the
// key is the longest run of non-colons (it must be followed by ":"); the
// value starts after the whitespace following ":" and ends at the first
// position, before any newline, that is either the end (or a final
// newline) or a comma after which another "key:" follows.
func jsFindPairs(s string) [][2]string {
	rs := []rune(s)
	n := len(rs)
	var out [][2]string
	isEnd := func(q int) bool { return q == n || (q == n-1 && rs[q] == '\n') }
	// lookahead reports whether (?=[^,]+:) holds at r.
	lookahead := func(r int) bool {
		for j := r; j < n && rs[j] != ','; j++ {
			if rs[j] == ':' && j > r {
				return true
			}
		}
		return false
	}
	p := 0
	for p < n {
		k := p
		for k < n && rs[k] != ':' {
			k++
		}
		if k == p || k == n {
			p++
			continue
		}
		// rs[k] == ':'
		v := k + 1
		for v < n && pyval.IsSpace(rs[v]) {
			v++
		}
		end, valEnd := -1, -1
		for q := v; ; q++ {
			if q < n && rs[q] == ',' {
				// ,\s* then the look-ahead; \s* backtracks from greedy.
				rmax := q + 1
				for rmax < n && pyval.IsSpace(rs[rmax]) {
					rmax++
				}
				for r := rmax; r >= q+1; r-- {
					if lookahead(r) {
						end, valEnd = r, q
						break
					}
				}
				if end >= 0 {
					break
				}
			}
			if isEnd(q) {
				end, valEnd = q, q
				break
			}
			if q >= n || rs[q] == '\n' {
				break
			}
		}
		if end < 0 {
			p++
			continue
		}
		out = append(out, [2]string{string(rs[p:k]), string(rs[v:valEnd])})
		p = end
	}
	return out
}

// jsParseValue is parse_js_value.
func jsParseValue(s string) pyval.Value {
	s = pyval.Strip(s)
	switch {
	case s == "true":
		return pyval.Bool(true)
	case s == "false":
		return pyval.Bool(false)
	case (strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`)) ||
		(strings.HasPrefix(s, "'") && strings.HasSuffix(s, "'")):
		return pyval.Str(pySlice1(s))
	}
	if v, ok := pyInt(s); ok {
		return v
	}
	if f, ok := pyFloat(s); ok {
		return pyval.Float(f)
	}
	return pyval.Str(s)
}
