package gold

import (
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Java and JavaScript entries take every argument as a string holding a
// literal of the language (upstream turns their parameter types into
// "string" for the model and converts back when checking, see
// eval_checker/ast_eval/type_convertor). These render a ground-truth value
// as such a literal, in the forms upstream's converters read back.

// paramType is a parameter's declared type and item type.
type paramType struct{ Type, Items string }

func javaLiteral(v pyval.Value, t paramType) string {
	if s, ok := v.(pyval.Str); ok {
		return string(s)
	}
	switch t.Type {
	case "long":
		return scalar(v) + "L"
	case "float":
		return scalar(v) + "f"
	case "Array":
		items := listItems(v)
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = javaItem(it, t.Items, false)
		}
		typ := t.Items
		if typ == "" || typ == "any" {
			typ = "Object"
		}
		return "new " + javaTypeName(typ) + "[]{" + strings.Join(parts, ", ") + "}"
	case "ArrayList":
		items := listItems(v)
		if len(items) == 0 {
			return "new ArrayList<>()"
		}
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = javaItem(it, t.Items, true)
		}
		return "new ArrayList<>(Arrays.asList(" + strings.Join(parts, ", ") + "))"
	case "HashMap":
		d, ok := v.(*pyval.Dict)
		if !ok {
			return scalar(v)
		}
		var b strings.Builder
		b.WriteString("new HashMap<String, String>() {{ ")
		for _, kv := range d.Items() {
			b.WriteString("put(" + strconv.Quote(pyval.StrOf(kv.Key)) + ", " + javaItem(kv.Value, "String", true) + "); ")
		}
		b.WriteString("}}")
		return b.String()
	}
	return scalar(v)
}

// javaItem renders a collection item: String items of an ArrayList are
// quoted (upstream strips one pair of quotes there), those of an Array are
// not (upstream keeps quotes there).
func javaItem(v pyval.Value, itemType string, quoteStrings bool) string {
	switch itemType {
	case "long":
		return scalar(v) + "L"
	case "float":
		return scalar(v) + "f"
	}
	if s, ok := v.(pyval.Str); ok && quoteStrings && (itemType == "String" || itemType == "char") {
		return strconv.Quote(string(s))
	}
	return scalar(v)
}

func javaTypeName(t string) string {
	switch t {
	case "integer":
		return "int"
	case "String", "Object":
		return t
	}
	return t
}

func jsLiteral(v pyval.Value, t paramType) string {
	switch x := v.(type) {
	case pyval.Str:
		return string(x)
	case *pyval.List, pyval.Tuple:
		items := listItems(v)
		parts := make([]string, len(items))
		for i, it := range items {
			parts[i] = jsItem(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *pyval.Dict:
		parts := make([]string, 0, x.Len())
		for _, kv := range x.Items() {
			parts = append(parts, pyval.StrOf(kv.Key)+": "+jsItem(kv.Value))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return scalar(v)
}

func jsItem(v pyval.Value) string {
	switch x := v.(type) {
	case pyval.Str:
		return "'" + string(x) + "'"
	case *pyval.List, pyval.Tuple, *pyval.Dict:
		return jsLiteral(x, paramType{})
	}
	return scalar(v)
}

// scalar renders bools as true/false and numbers as Python prints them.
func scalar(v pyval.Value) string {
	switch x := v.(type) {
	case pyval.Bool:
		if x {
			return "true"
		}
		return "false"
	case pyval.NoneType:
		return "null"
	}
	return pyval.StrOf(v)
}

func listItems(v pyval.Value) []pyval.Value {
	switch x := v.(type) {
	case *pyval.List:
		return x.Items
	case pyval.Tuple:
		return x
	}
	return []pyval.Value{v}
}
