package astcheck

import (
	"regexp"
	"strings"
	"sync"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// javaTypes is JAVA_TYPE_CONVERSION of bfcl_eval/constants/type_mappings.py:
// Java type name -> Python type name.
var javaTypes = map[string]string{
	"byte": "int", "short": "int", "integer": "int", "float": "float",
	"double": "float", "long": "int", "boolean": "bool", "char": "str",
	"Array": "list", "ArrayList": "list", "Set": "set", "HashMap": "dict",
	"Hashtable": "dict", "Queue": "list", "Stack": "list", "String": "str",
	"any": "str",
}

// The regular expressions of java_type_converter.py, rewritten for Go's
// RE2: Python's `$` becomes reEnd, \s \d \w the Unicode classes, and
// re.match's implicit anchor an explicit ^.
var javaRE = sync.OnceValue(func() *javaRegexps {
	return &javaRegexps{
		intRe:     regexp.MustCompile(`^-?` + reD + `+` + reEnd),
		floatRe:   regexp.MustCompile(`^-?` + reD + `+(?:\.` + reD + `+)?(?:[eE][+-]?` + reD + `+)?[fF]` + reEnd),
		doubleRe:  regexp.MustCompile(`^-?` + reD + `+(?:\.` + reD + `+)?(?:[eE][+-]?` + reD + `+)?` + reEnd),
		longRe:    regexp.MustCompile(`^-?` + reD + `+[lL]` + reEnd),
		asListRe:  regexp.MustCompile(`new` + reS + `+ArrayList<` + reW + `*>\(Arrays\.asList\((.+?)\)\)`),
		addFormRe: regexp.MustCompile(`(?s)new` + reS + `+ArrayList<` + reW + `*>\(\)` + reS + `*\{\{` + reS + `*(.+?)` + reS + `*\}\}`),
		addCallRe: regexp.MustCompile(`add\((.+?)\)`),
		emptyAL:   regexp.MustCompile(`new` + reS + `+ArrayList<` + reW + `*>\(\)`),
		arrayRe:   regexp.MustCompile(`new` + reS + `+` + reW + `+\[\]` + reS + `*\{(.*?)\}`),
		hashMapRe: regexp.MustCompile(`(?s)new` + reS + `+HashMap<.*?>` + reS + `*\(\)` + reS + `*\{` + reS + `*\{?` + reS + `*(.*?)` + reS + `*\}?` + reS + `*\}`),
		putRe:     regexp.MustCompile(`put\("(.*?)",` + reS + `*(.*?)\)`),
		emptyHMRe: regexp.MustCompile(`(?s)new` + reS + `+HashMap<.*?>` + reS + `*\(\)`),
	}
})

// javaRegexps are compiled on first use (their Unicode classes cost
// about a millisecond at start-up otherwise).
type javaRegexps struct {
	intRe, floatRe, doubleRe, longRe, asListRe, addFormRe, addCallRe, emptyAL, arrayRe, hashMapRe, putRe, emptyHMRe *regexp.Regexp
}

// dropSuffixBeforeNL is re.sub(r"[xX]$", "", s) for a string the caller's
// regexp matched: the suffix letter is the last character, or the one
// before a final newline.
func dropSuffixBeforeNL(s string) string {
	if strings.HasSuffix(s, "\n") {
		return pyDropLast(s[:len(s)-1]) + "\n"
	}
	return pyDropLast(s)
}

// javaConvert is java_type_converter(value, expectedType, nestedType).
// nested is "" for None.
func javaConvert(value, expectedType, nested string) (pyval.Value, error) {
	if _, ok := javaTypes[expectedType]; !ok {
		return nil, pyval.NewValueError("Unsupported type: %s", expectedType)
	}
	switch expectedType {
	case "byte", "short", "integer":
		if !javaRE().intRe.MatchString(value) {
			return pyval.Str(value), nil
		}
		return pyIntOrError(value)
	case "float":
		if !javaRE().floatRe.MatchString(value) {
			return pyval.Str(value), nil
		}
		return mustFloat(dropSuffixBeforeNL(value)), nil
	case "double":
		if !javaRE().doubleRe.MatchString(value) {
			return pyval.Str(value), nil
		}
		return mustFloat(value), nil
	case "long":
		if !javaRE().longRe.MatchString(value) {
			return pyval.Str(value), nil
		}
		return pyIntOrError(dropSuffixBeforeNL(value))
	case "boolean":
		if value != "true" && value != "false" {
			return pyval.Str(value), nil
		}
		return pyval.Bool(value == "true"), nil
	case "char":
		// Upstream's pattern ^'.$' can never match, so a char stays as given.
		return pyval.Str(value), nil
	case "ArrayList":
		return javaParseArrayList(value, nested)
	case "Array":
		return javaParseArray(value, nested)
	case "HashMap":
		return javaParseHashMap(value), nil
	case "Set", "Hashtable":
		return nil, pyval.NewException("NotImplementedError", "Set conversion is not implemented")
	case "Queue", "Stack":
		return nil, pyval.NewException("NotImplementedError", expectedType+" conversion is not implemented")
	case "String", "any":
		return pyval.Str(value), nil
	}
	return nil, pyval.NewValueError("Unsupported type: %s", expectedType)
}

// javaElement converts one collection element the way parse_arraylist
// does: char and String items lose their first and last character, other
// item types go through the converter (or parse_java_value without one).
func javaElement(s, nested string) (pyval.Value, error) {
	switch nested {
	case "char", "String":
		return pyval.Str(pySlice1(s)), nil
	case "":
		return javaParseValue(s), nil
	}
	return javaConvert(s, nested, "")
}

func javaParseArrayList(in, nested string) (pyval.Value, error) {
	if m := javaRE().asListRe.FindStringSubmatch(in); m != nil {
		parts := strings.Split(m[1], ",")
		out := make([]pyval.Value, 0, len(parts))
		for _, p := range parts {
			v, err := javaElement(pyval.Strip(p), nested)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return pyval.NewList(out...), nil
	}
	if m := javaRE().addFormRe.FindStringSubmatch(in); m != nil {
		adds := javaRE().addCallRe.FindAllStringSubmatch(m[1], -1)
		out := make([]pyval.Value, 0, len(adds))
		for _, a := range adds {
			v, err := javaElement(pyval.Strip(a[1]), nested)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return pyval.NewList(out...), nil
	}
	if javaRE().emptyAL.MatchString(in) {
		return pyval.NewList(), nil
	}
	return pyval.Str(in), nil
}

func javaParseArray(in, nested string) (pyval.Value, error) {
	m := javaRE().arrayRe.FindStringSubmatch(in)
	if m == nil {
		return pyval.Str(in), nil
	}
	var out []pyval.Value
	for _, p := range strings.Split(m[1], ",") {
		x := pyval.Strip(p)
		if x == "" {
			continue
		}
		if nested == "" {
			out = append(out, javaParseValue(x))
			continue
		}
		v, err := javaConvert(x, nested, "")
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return pyval.NewList(out...), nil
}

func javaParseHashMap(in string) pyval.Value {
	if m := javaRE().hashMapRe.FindStringSubmatch(in); m != nil {
		d := pyval.NewDict()
		if pyval.Strip(m[1]) != "" {
			for _, p := range javaRE().putRe.FindAllStringSubmatch(m[1], -1) {
				d.Set(pyval.Str(p[1]), javaParseValue(pyval.Strip(p[2])))
			}
		}
		return d
	}
	if javaRE().emptyHMRe.MatchString(in) {
		return pyval.NewDict()
	}
	return pyval.Str(in)
}

// javaParseValue is parse_java_value: a value without type information.
func javaParseValue(s string) pyval.Value {
	switch {
	case s == "true":
		return pyval.Bool(true)
	case s == "false":
		return pyval.Bool(false)
	case strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`):
		return pyval.Str(pySlice1(s))
	case javaRE().longRe.MatchString(s):
		if v, ok := pyInt(pyDropLast(s)); ok {
			return v
		}
		return pyval.Str(s)
	case javaRE().floatRe.MatchString(s):
		return mustFloat(dropSuffixBeforeNL(s))
	}
	if v, ok := pyInt(s); ok {
		return v
	}
	if f, ok := pyFloat(s); ok {
		return pyval.Float(f)
	}
	return pyval.Str(s)
}
