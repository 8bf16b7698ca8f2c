package prompt

import (
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Python-level helpers for walking JSON-loaded function documents the way
// upstream's formatters do; errors name the Python exception upstream
// would raise (upstream's inference crashes on them).

// pyGet is v.get(key, def) on a dict.
func pyGet(v pyval.Value, key string, def pyval.Value) (pyval.Value, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, pyval.NoAttribute(v, "get")
	}
	if x, found := d.GetStr(key); found {
		return x, nil
	}
	return def, nil
}

// pyItem is v[key] on a dict.
func pyItem(v pyval.Value, key string) (pyval.Value, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, pyval.NewTypeError("%s indices must be integers or slices, not str", v.TypeName())
	}
	x, found := d.GetStr(key)
	if !found {
		return nil, pyval.NewKeyError(pyval.Str(key))
	}
	return x, nil
}

// pyIn is `key in v`.
func pyIn(key string, v pyval.Value) (bool, error) {
	return pyval.Contains(v, pyval.Str(key))
}

// pyOptItem is `v[key] if key in v`: found is false when v has no key.
func pyOptItem(v pyval.Value, key string) (x pyval.Value, found bool, err error) {
	if found, err = pyIn(key, v); err != nil || !found {
		return nil, false, err
	}
	if x, err = pyItem(v, key); err != nil {
		return nil, false, err
	}
	return x, true, nil
}

// nameAndDesc is a function's fn["name"] and fn.get("description", "").
func nameAndDesc(fn pyval.Value) (name, desc pyval.Value, err error) {
	if name, err = pyItem(fn, "name"); err != nil {
		return nil, nil, err
	}
	if desc, err = pyGet(fn, "description", pyval.Str("")); err != nil {
		return nil, nil, err
	}
	return name, desc, nil
}

// pyConcat is a += b for a str b.
func pyConcat(a pyval.Value, b string) (pyval.Value, error) {
	s, ok := a.(pyval.Str)
	if !ok {
		return nil, pyval.NewTypeError("unsupported operand type(s) for +=: '%s' and 'str'", a.TypeName())
	}
	return s + pyval.Str(b), nil
}

// pyItems is the (key, value) pairs of dict.items().
func pyItems(v pyval.Value) ([]pyval.KV, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, pyval.NoAttribute(v, "items")
	}
	return d.Items(), nil
}

// withEnum is upstream's `desc += f" Enum values: {meta['enum']}."` when
// meta has an "enum" key.
func withEnum(desc, meta pyval.Value) (pyval.Value, error) {
	enum, has, err := pyOptItem(meta, "enum")
	if err != nil {
		return nil, err
	}
	if !has {
		return desc, nil
	}
	return pyConcat(desc, " Enum values: "+pyval.StrOf(enum)+".")
}

// functionDocXML is upstream's _generate_function_doc_xml.
func functionDocXML(fns []pyval.Value) (string, error) {
	blocks := make([]string, 0, len(fns))
	for _, fn := range fns {
		name, desc, err := nameAndDesc(fn)
		if err != nil {
			return "", err
		}
		schema, err := pyItem(fn, "parameters")
		if err != nil {
			return "", err
		}
		props, err := pyGet(schema, "properties", pyval.NewDict())
		if err != nil {
			return "", err
		}
		required, err := pyGet(schema, "required", pyval.None)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		b.WriteString(`<function name="` + pyval.StrOf(name) + "\">\n")
		b.WriteString("  <desc>" + pyval.StrOf(desc) + "</desc>\n")
		b.WriteString("  <params>\n")
		items, err := pyItems(props)
		if err != nil {
			return "", err
		}
		for _, kv := range items {
			if err := paramXML(&b, kv.Key, kv.Value, required, 2); err != nil {
				return "", err
			}
		}
		b.WriteString("  </params>\n")
		b.WriteString("</function>\n")
		blocks = append(blocks, b.String())
	}
	return strings.Join(blocks, "\n"), nil
}

// paramXML is the nested _param_xml of _generate_function_doc_xml.
func paramXML(b *strings.Builder, name, meta, required pyval.Value, level int) error {
	indent := strings.Repeat(" ", level*2)
	pType, err := pyGet(meta, "type", pyval.Str("string"))
	if err != nil {
		return err
	}
	desc, err := pyGet(meta, "description", pyval.Str(""))
	if err != nil {
		return err
	}
	isRequired := "true"
	if required != pyval.None {
		in, err := pyval.Contains(required, name)
		if err != nil {
			return err
		}
		if !in {
			isRequired = "false"
		}
	}
	if desc, err = withEnum(desc, meta); err != nil {
		return err
	}
	typeText := pyval.StrOf(pType)
	items, hasItems, err := pyOptItem(meta, "items")
	if err != nil {
		return err
	}
	itemsTyped := false
	if hasItems {
		if itemsTyped, err = pyIn("type", items); err != nil {
			return err
		}
		if itemsTyped {
			inner, err := pyItem(items, "type")
			if err != nil {
				return err
			}
			typeText += "[" + pyval.StrOf(inner) + "]"
		}
	}
	if !itemsTyped {
		ap, hasAP, err := pyOptItem(meta, "additionalProperties")
		if err != nil {
			return err
		}
		if hasAP {
			inner, err := pyGet(ap, "type", pyval.Str("string"))
			if err != nil {
				return err
			}
			typeText += "[" + pyval.StrOf(inner) + "]"
		}
	}
	attrs := `name="` + pyval.StrOf(name) + `", type="` + typeText + `", required="` + isRequired + `"`
	def, hasDefault, err := pyOptItem(meta, "default")
	if err != nil {
		return err
	}
	if hasDefault {
		attrs += ` default="` + pyval.Repr(def) + `"`
	}
	// Upstream deletes every comma of the joined attributes, including
	// those inside names, types and default values.
	b.WriteString(indent + "<param " + strings.ReplaceAll(attrs, ",", "") + ">\n")
	b.WriteString(indent + "  <desc>" + pyval.StrOf(desc) + "</desc>\n")
	hasProps, err := pyIn("properties", meta)
	if err != nil {
		return err
	}
	if hasProps {
		childRequired, err := pyGet(meta, "required", pyval.None)
		if err != nil {
			return err
		}
		props, err := pyItem(meta, "properties")
		if err != nil {
			return err
		}
		items, err := pyItems(props)
		if err != nil {
			return err
		}
		b.WriteString(indent + "  <params>\n")
		for _, kv := range items {
			if err := paramXML(b, kv.Key, kv.Value, childRequired, level+2); err != nil {
				return err
			}
		}
		b.WriteString(indent + "  </params>\n")
	}
	b.WriteString(indent + "</param>\n")
	return nil
}

// functionDocPython is upstream's _generate_function_doc_python.
func functionDocPython(fns []pyval.Value) (string, error) {
	docs := make([]string, 0, 2*len(fns))
	for _, fn := range fns {
		name, desc, err := nameAndDesc(fn)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		b.WriteString("# Function: " + pyval.StrOf(name) + "\n")
		b.WriteString("    \"\"\"\n")
		b.WriteString("    " + pyval.StrOf(desc) + "\n\n")
		schema, err := pyGet(fn, "parameters", pyval.NewDict())
		if err != nil {
			return "", err
		}
		props, err := pyGet(schema, "properties", pyval.NewDict())
		if err != nil {
			return "", err
		}
		if pyval.Truthy(props) {
			b.WriteString("    Args:\n")
			items, err := pyItems(props)
			if err != nil {
				return "", err
			}
			for _, kv := range items {
				if err := paramDocPython(&b, kv.Key, kv.Value, 0); err != nil {
					return "", err
				}
			}
		}
		b.WriteString("    \"\"\"\n")
		docs = append(docs, b.String(), "\n")
	}
	return strings.Join(docs, "\n\n"), nil
}

// paramDocPython is the nested _param_doc of _generate_function_doc_python.
func paramDocPython(b *strings.Builder, name, meta pyval.Value, depth int) error {
	indent := strings.Repeat(" ", 8+4*depth)
	pyType, err := pyTypeName(meta)
	if err != nil {
		return err
	}
	desc, err := pyGet(meta, "description", pyval.Str(""))
	if err != nil {
		return err
	}
	if desc, err = withEnum(desc, meta); err != nil {
		return err
	}
	defaultNote := ""
	def, hasDefault, err := pyOptItem(meta, "default")
	if err != nil {
		return err
	}
	if hasDefault {
		defaultNote = ", default=" + pyval.Repr(def)
	}
	b.WriteString(indent + pyval.StrOf(name) + " (" + pyType + defaultNote + "): " + pyval.StrOf(desc) + "\n")
	props, hasProps, err := pyOptItem(meta, "properties")
	if err != nil {
		return err
	}
	if hasProps {
		items, err := pyItems(props)
		if err != nil {
			return err
		}
		for _, kv := range items {
			if err := paramDocPython(b, kv.Key, kv.Value, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// pyTypeName is the nested _to_py_type of _generate_function_doc_python.
func pyTypeName(meta pyval.Value) (string, error) {
	t, err := pyGet(meta, "type", pyval.Str("string"))
	if err != nil {
		return "", err
	}
	if err := pyval.CheckHashable(t); err != nil {
		return "", err
	}
	ts, isStr := t.(pyval.Str)
	if isStr {
		switch ts {
		case "string":
			return "str", nil
		case "number":
			return "float", nil
		case "integer":
			return "int", nil
		case "boolean":
			return "bool", nil
		}
		switch ts {
		case "array", "list", "tuple":
			inner, ok, err := pyInnerTypeName(meta, "items")
			if err != nil {
				return "", err
			}
			if ok {
				return "list[" + inner + "]", nil
			}
		case "object", "dict":
			inner, ok, err := pyInnerTypeName(meta, "additionalProperties")
			if err != nil {
				return "", err
			}
			if ok {
				return "dict[str, " + inner + "]", nil
			}
			return "dict", nil
		}
	}
	return pyval.StrOf(t), nil
}

// pyInnerTypeName is the Python type name of meta[key] (an array's "items",
// an object's "additionalProperties"), and whether meta has that key.
func pyInnerTypeName(meta pyval.Value, key string) (string, bool, error) {
	has, err := pyIn(key, meta)
	if err != nil || !has {
		return "", false, err
	}
	v, err := pyItem(meta, key)
	if err != nil {
		return "", false, err
	}
	name, err := pyTypeName(v)
	return name, err == nil, err
}
