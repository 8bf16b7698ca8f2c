package oss

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// MiniCPMFCHandler's function listing (local_inference/minicpm_fc.py
// transform_function and jsonschema_to_code): each function document, as
// convert_to_tool leaves it, becomes a Python def line, a docstring holding
// the body of the pydantic class that datamodel-code-generator 0.25.7
// writes for the parameters schema (JsonSchemaParser with pydantic v1
// BaseModel output, field_constraints=True, formatted by black), and the
// classes that schema needs (enums, nested objects) before it.
//
// This is a port of what that path produces for the constructs BFCL's
// function documents use: the scalar types, object with and without
// properties, arrays (of scalars, objects, enums, arrays, items with
// constraints), string and integer enums, defaults, descriptions and the
// numeric/array constraints, with datamodel-code-generator's naming (field
// aliases, class names, inflect's singular forms for array items) and
// black's wrapping of the lines it writes (88 columns, magic trailing
// comma). A schema construct outside that set is an error naming the
// function and the construct (ErrMiniCPMSchema), never a different prompt.
// fixtures/minicpm holds the SHA-256 of upstream's output for every
// function document of the data set (see minicpm_test.go).

// ErrMiniCPMSchema is returned (wrapped, with the function and the
// construct) for a function document whose pydantic rendering bfcl-go does
// not reproduce.
var ErrMiniCPMSchema = errors.New("oss: MiniCPMFCHandler function listing: schema construct not reproduced")

func pydErr(fn, format string, args ...any) error {
	return fmt.Errorf("%w: function %q: %s", ErrMiniCPMSchema, fn, fmt.Sprintf(format, args...))
}

// miniCPMTransformFunction is transform_function(function) for one
// converted tool.
func miniCPMTransformFunction(tool pyval.Value) (string, error) {
	doc, ok := tool.(*pyval.Dict)
	if !ok {
		return "", fmt.Errorf("oss: MiniCPMFCHandler: function document is not a dict")
	}
	nameV, err := item(doc, "name")
	if err != nil {
		return "", err
	}
	fn := fstr(nameV)
	paramsV, err := item(doc, "parameters")
	if err != nil {
		return "", err
	}
	propsV, err := item(paramsV, "properties")
	if err != nil {
		return "", err
	}
	props, ok := propsV.(*pyval.Dict)
	if !ok {
		return "", pydErr(fn, "parameters.properties is not an object")
	}
	params, ok := paramsV.(*pyval.Dict)
	if !ok {
		return "", pydErr(fn, "parameters is not an object")
	}
	var required []pyval.Value
	if r, ok := params.GetStr("required"); ok {
		l, ok := r.(*pyval.List)
		if !ok {
			return "", pydErr(fn, "parameters.required is not a list")
		}
		required = l.Items
	}
	var plain, defaults []string
	for _, kv := range props.Items() {
		pname := fstr(kv.Key)
		pd, ok := kv.Value.(*pyval.Dict)
		if !ok {
			return "", pydErr(fn, "property %q is not an object", pname)
		}
		if def, has := pd.GetStr("default"); has {
			defaults = append(defaults, pname+"="+pyval.Repr(def))
		} else if !containsValue(required, kv.Key) {
			defaults = append(defaults, pname+"=None")
		} else {
			plain = append(plain, pname)
		}
	}
	res := "def " + fn + "(" + strings.Join(append(plain, defaults...), ", ") + "):\n"
	desc := pyval.Value(pyval.Str(""))
	if d, ok := doc.GetStr("description"); ok {
		desc = d
	}
	code, err := miniCPMJSONSchemaToCode(fn, params)
	if err != nil {
		return "", err
	}
	i := strings.Index(code, "class")
	if i >= 0 {
		code = code[i:]
	}
	classes, args, found := strings.Cut(code, "class Model(BaseModel):")
	if !found {
		return "", pydErr(fn, "no root class Model in the generated code")
	}
	res += "    \"\"\"\n    " + fstr(desc) + "\n    Args:\n" + args + "\n    \"\"\"\n"
	return classes + res, nil
}

func containsValue(list []pyval.Value, v pyval.Value) bool {
	for _, x := range list {
		if pyval.Equal(x, v) {
			return true
		}
	}
	return false
}

// pydClass is one generated class.
type pydClass struct {
	name  string
	base  string   // "BaseModel" or "Enum"
	lines []string // body statements, each already formatted by black (may span lines)
}

// pydGen is the state of one jsonschema_to_code call.
type pydGen struct {
	fn      string
	names   map[string]bool // reference names taken (unique class names)
	classes []*pydClass     // in datamodel-code-generator's results order
}

// miniCPMJSONSchemaToCode is jsonschema_to_code(parameters) from the first
// class on (the import block is cut off by transform_function).
func miniCPMJSONSchemaToCode(fn string, params *pyval.Dict) (string, error) {
	g := &pydGen{fn: fn, names: map[string]bool{"Model": true}}
	if pydNonBMP(params) {
		return "", pydErr(fn, "parameters: a character outside the Basic Multilingual Plane")
	}
	if err := g.checkKeys(params, "parameters", schemaKeysObject); err != nil {
		return "", err
	}
	root, err := g.object("Model", params, "parameters")
	if err != nil {
		return "", err
	}
	g.classes = append(g.classes, root)
	var b strings.Builder
	for i, c := range g.classes {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("class " + c.name + "(" + c.base + "):\n")
		if len(c.lines) == 0 {
			b.WriteString("    pass\n")
		}
		for _, l := range c.lines {
			b.WriteString(l)
		}
	}
	return b.String(), nil
}

// The schema keys this port knows; any other key in a property schema is
// an error (datamodel-code-generator may give it meaning).
var (
	schemaKeysObject = map[string]bool{"type": true, "properties": true, "required": true, "description": true, "default": true, "optional": true}
	schemaKeysProp   = map[string]bool{"type": true, "description": true, "default": true, "enum": true, "format": true, "items": true, "properties": true, "required": true, "optional": true, "minItems": true, "maxItems": true, "minimum": true, "maximum": true}
	pydConstraints   = map[string]string{"minimum": "ge", "maximum": "le", "minItems": "min_items", "maxItems": "max_items"}
)

func (g *pydGen) checkKeys(d *pyval.Dict, where string, allowed map[string]bool) error {
	for _, k := range d.Keys() {
		ks, ok := k.(pyval.Str)
		if !ok || !allowed[string(ks)] {
			return pydErr(g.fn, "%s: schema key %s", where, pyval.Repr(k))
		}
	}
	return nil
}

// object is parse_object: a BaseModel class named className (already
// unique) with one field per property.
func (g *pydGen) object(className string, obj *pyval.Dict, where string) (*pydClass, error) {
	c := &pydClass{name: className, base: "BaseModel"}
	propsV, ok := obj.GetStr("properties")
	if !ok {
		return c, nil
	}
	props, ok := propsV.(*pyval.Dict)
	if !ok {
		return nil, pydErr(g.fn, "%s.properties is not an object", where)
	}
	var required []pyval.Value
	if r, ok := obj.GetStr("required"); ok {
		l, ok := r.(*pyval.List)
		if !ok {
			return nil, pydErr(g.fn, "%s.required is %s, not a list", where, pyval.Repr(r))
		}
		required = l.Items
	}
	taken := map[string]bool{}
	for _, kv := range props.Items() {
		orig, ok := kv.Key.(pyval.Str)
		if !ok {
			return nil, pydErr(g.fn, "%s: property name %s", where, pyval.Repr(kv.Key))
		}
		p, ok := kv.Value.(*pyval.Dict)
		if !ok {
			return nil, pydErr(g.fn, "%s.%s is not an object", where, orig)
		}
		pwhere := where + "." + string(orig)
		if err := g.checkKeys(p, pwhere, schemaKeysProp); err != nil {
			return nil, err
		}
		name, err := g.fieldName(string(orig), taken, pydValidModelField, pwhere)
		if err != nil {
			return nil, err
		}
		taken[name] = true
		typ, err := g.item(name, p, pwhere, false, false)
		if err != nil {
			return nil, err
		}
		req := containsValue(required, kv.Key)
		alias := ""
		if name != string(orig) {
			alias = string(orig)
		}
		line, err := g.field(name, alias, typ, p, req)
		if err != nil {
			return nil, err
		}
		c.lines = append(c.lines, line)
	}
	return c, nil
}

// pydType is a field's type hint; model is the BaseModel class it is
// (listModel: the class of its list items), for default_factory.
type pydType struct {
	hint, model, listModel string
}

// field writes one model field as the BaseModel template and
// DataModelField.__str__ do, formatted by black.
func (g *pydGen) field(name, alias string, typ pydType, p *pyval.Dict, required bool) (string, error) {
	var args []bexpr
	if alias != "" {
		args = append(args, bkv{key: "alias=", val: batom{text: pyval.Repr(pyval.Str(alias))}})
	}
	if d, ok := p.GetStr("description"); ok && d != pyval.None {
		args = append(args, bkv{key: "description=", val: pyExpr(d)})
	}
	for key, kw := range pydConstraints {
		if !pydConstraintsField(p) {
			break
		}
		if v, ok := p.GetStr(key); ok && v != pyval.None {
			r, err := g.constraint(kw, v, typ.hint)
			if err != nil {
				return "", err
			}
			args = append(args, bkv{key: kw + "=", val: batom{text: r}})
		}
	}
	sort.Slice(args, func(i, j int) bool { return args[i].flat() < args[j].flat() })
	def, hasDefault := p.GetStr("default")
	if !hasDefault {
		def = pyval.None
	}
	def, err := yamlValue(def)
	if err != nil {
		return "", pydErr(g.fn, "field %s: default: %v", name, err)
	}
	// _get_default_as_pydantic_model
	var factory bexpr
	if !required && pyval.Truthy(def) {
		if typ.model != "" {
			factory = bkv{key: "default_factory=", val: bbracket{prefix: "lambda: " + typ.model + ".parse_obj", open: "(", close: ")", items: []bexpr{pyExpr(def)}}}
		} else if _, isList := def.(*pyval.List); isList && typ.listModel != "" {
			comp := bcomp{elem: batom{text: typ.listModel + ".parse_obj(v)"}, iter: pyExpr(def)}
			factory = bkv{key: "default_factory=", val: bbracket{prefix: "lambda: ", open: "[", close: "]", items: []bexpr{comp}}}
		}
	}
	hint := typ.hint
	if !required {
		hint = "Optional[" + hint + "]"
	}
	lhs := name + ": " + hint
	var out string
	switch {
	case len(args) == 0 && factory == nil && required:
		out, err = blackAnnotation(4, name, hint)
	case len(args) == 0 && factory == nil:
		out, err = blackStatement(4, lhs+" = ", pyExpr(def))
	default:
		var first bexpr = batom{text: "..."}
		switch {
		case factory != nil:
			first = factory
		case !required:
			first = pyExpr(def)
		}
		out, err = blackStatement(4, lhs+" = ", bbracket{prefix: "Field", open: "(", close: ")", items: append([]bexpr{first}, args...)})
	}
	if err != nil {
		return "", pydErr(g.fn, "field %s: %v", name, err)
	}
	return out, nil
}

// yamlValue is v as datamodel-code-generator reads it: it parses the
// schema's JSON text (json.dumps) with PyYAML's YAML 1.1 resolver, which
// takes a float written without a decimal point ("1e-07", "1e+20") for a
// string. A float that is not finite is an error (json.dumps writes
// NaN/Infinity).
func yamlValue(v pyval.Value) (pyval.Value, error) {
	switch x := v.(type) {
	case pyval.Float:
		f := float64(x)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("non-finite float %s", pyval.Repr(x))
		}
		if r := pyval.Repr(x); strings.Contains(r, "e") && !strings.Contains(r, ".") {
			return pyval.Str(r), nil
		}
	case *pyval.List:
		out := &pyval.List{Items: make([]pyval.Value, len(x.Items))}
		for i, it := range x.Items {
			y, err := yamlValue(it)
			if err != nil {
				return nil, err
			}
			out.Items[i] = y
		}
		return out, nil
	case *pyval.Dict:
		out := pyval.NewDict()
		for _, kv := range x.Items() {
			y, err := yamlValue(kv.Value)
			if err != nil {
				return nil, err
			}
			out.Set(kv.Key, y)
		}
		return out, nil
	}
	return v, nil
}

// pydNonBMP reports whether a key or string of v holds a character outside
// the Basic Multilingual Plane: json.dumps writes it as a surrogate pair,
// which PyYAML reads as two lone surrogates.
func pydNonBMP(v pyval.Value) bool {
	switch x := v.(type) {
	case pyval.Str:
		for _, r := range string(x) {
			if r > 0xFFFF {
				return true
			}
		}
	case *pyval.List:
		for _, it := range x.Items {
			if pydNonBMP(it) {
				return true
			}
		}
	case *pyval.Dict:
		for _, kv := range x.Items() {
			if pydNonBMP(kv.Key) || pydNonBMP(kv.Value) {
				return true
			}
		}
	}
	return false
}

// pydConstraintsField is JsonSchemaParser.is_constraints_field (with
// field_constraints): an array, or a schema that is neither an object nor
// an enum, has its constraints as Field arguments.
func pydConstraintsField(p *pyval.Dict) bool {
	t, _ := p.GetStr("type")
	_, items := p.GetStr("items")
	if t == pyval.Str("array") || items {
		return true
	}
	_, props := p.GetStr("properties")
	_, enum := p.GetStr("enum")
	return !(t == pyval.Str("object") || props || enum)
}

// constraint is the repr of a constraint value: gt/ge/lt/le are made
// float for a float field and int otherwise.
func (g *pydGen) constraint(kw string, v pyval.Value, hint string) (string, error) {
	switch kw {
	case "ge", "le":
		var f float64
		switch x := v.(type) {
		case pyval.Int:
			f = float64(x)
		case pyval.Float:
			if y, _ := yamlValue(x); y != v {
				return "", pydErr(g.fn, "constraint %s=%s (YAML reads it as a string)", kw, pyval.Repr(v))
			}
			f = float64(x)
		default:
			return "", pydErr(g.fn, "constraint %s=%s", kw, pyval.Repr(v))
		}
		if strings.Contains(hint, "float") {
			return blackNumber(pyval.Repr(pyval.Float(f))), nil
		}
		if f != float64(int64(f)) {
			return "", pydErr(g.fn, "constraint %s=%s on an int field", kw, pyval.Repr(v))
		}
		return pyval.Repr(pyval.Int(int64(f))), nil
	default:
		if _, ok := v.(pyval.Int); !ok {
			return "", pydErr(g.fn, "constraint %s=%s", kw, pyval.Repr(v))
		}
		return pyval.Repr(v), nil
	}
}

func hasAnyKey(d *pyval.Dict, keys ...string) bool {
	for _, k := range keys {
		if _, ok := d.GetStr(k); ok {
			return true
		}
	}
	return false
}

// item is parse_item: the type hint of a schema, adding the classes it
// needs. name is the field name the classes are named after; singular is
// set for the items of an array (class names singularized).
func (g *pydGen) item(name string, p *pyval.Dict, where string, singular, arrayItem bool) (pydType, error) {
	hint, model, listModel, err := g.itemHint(name, p, where, singular, arrayItem)
	return pydType{hint: hint, model: model, listModel: listModel}, err
}

func (g *pydGen) itemHint(name string, p *pyval.Dict, where string, singular, arrayItem bool) (hint, model, listModel string, err error) {
	typV, _ := p.GetStr("type")
	typ, ok := typV.(pyval.Str)
	if !ok {
		return "", "", "", pydErr(g.fn, "%s: type %s", where, pyval.Repr(orNone(typV)))
	}
	enumV, hasEnum := p.GetStr("enum")
	propsV, hasProps := p.GetStr("properties")
	if hasProps {
		pd, ok := propsV.(*pyval.Dict)
		if !ok {
			return "", "", "", pydErr(g.fn, "%s.properties is not an object", where)
		}
		hasProps = pd.Len() > 0 // parse_item: `if item.properties`
	}
	if arrayItem && !hasEnum && hasAnyKey(p, "minimum", "maximum", "minItems", "maxItems") {
		cn, err := g.rootType(name, p, where)
		return cn, "", "", err
	}
	if _, has := p.GetStr("properties"); has && typ != "object" {
		return "", "", "", pydErr(g.fn, "%s: properties on a %s", where, typ)
	}
	switch {
	case typ == "array":
		return g.array(name, p, where, hasEnum)
	case typ == "object":
		if !hasProps {
			if hasEnum {
				return "", "", "", pydErr(g.fn, "%s: enum on an object", where)
			}
			return "Dict[str, Any]", "", "", nil
		}
		cn, err := g.className(name, singular, "Item", where)
		if err != nil {
			return "", "", "", err
		}
		if err := g.checkKeys(p, where, schemaKeysProp); err != nil {
			return "", "", "", err
		}
		c, err := g.object(cn, p, where)
		if err != nil {
			return "", "", "", err
		}
		g.classes = append(g.classes, c)
		return cn, cn, "", nil
	case hasEnum:
		cn, err := g.enum(name, p, enumV, where, singular)
		return cn, "", "", err
	}
	if f, ok := p.GetStr("format"); ok {
		fs, _ := f.(pyval.Str)
		switch {
		case typ == "number" && fs == "float":
		case typ == "string" && fs == "date":
			return "date", "", "", nil
		default:
			return "", "", "", pydErr(g.fn, "%s: format %s on a %s", where, pyval.Repr(f), typ)
		}
	}
	switch typ {
	case "string":
		return "str", "", "", nil
	case "integer":
		return "int", "", "", nil
	case "number":
		return "float", "", "", nil
	case "boolean":
		return "bool", "", "", nil
	}
	return "", "", "", pydErr(g.fn, "%s: type %s", where, pyval.Repr(typ))
}

// array is parse_array_fields' type: List[item], in a Union with an enum
// class when the array schema itself has an enum.
func (g *pydGen) array(name string, p *pyval.Dict, where string, hasEnum bool) (hint, model, listModel string, err error) {
	hint, listModel, err = g.arrayList(name, p, where)
	if err != nil || !hasEnum {
		return hint, "", listModel, err
	}
	enumV, _ := p.GetStr("enum")
	cn, err := g.enum(name, p, enumV, where, false)
	if err != nil {
		return "", "", "", err
	}
	return "Union[" + hint + ", " + cn + "]", "", "", nil
}

func (g *pydGen) arrayList(name string, p *pyval.Dict, where string) (hint, listModel string, err error) {
	itV, ok := p.GetStr("items")
	if !ok {
		return "List", "", nil
	}
	it, ok := itV.(*pyval.Dict)
	if !ok {
		return "", "", pydErr(g.fn, "%s.items is not an object", where)
	}
	if err := g.checkKeys(it, where+".items", schemaKeysProp); err != nil {
		return "", "", err
	}
	if it.Len() == 0 {
		return "", "", pydErr(g.fn, "%s: empty items schema", where)
	}
	inner, err := g.item(name, it, where+".items", true, true)
	if err != nil {
		return "", "", err
	}
	return "List[" + inner.hint + "]", inner.model, nil
}

// rootType is parse_root_type for array items that carry constraints: a
// class with a __root__ field.
func (g *pydGen) rootType(name string, p *pyval.Dict, where string) (string, error) {
	cn, err := g.className(name, true, "Item", where)
	if err != nil {
		return "", err
	}
	q := pyval.NewDict()
	for _, kv := range p.Items() {
		q.Set(kv.Key, kv.Value)
	}
	if _, ok := q.GetStr("properties"); ok {
		return "", pydErr(g.fn, "%s: constrained object items", where)
	}
	for _, k := range []string{"items", "enum"} {
		if _, ok := q.GetStr(k); ok {
			return "", pydErr(g.fn, "%s: constrained items with %s", where, k)
		}
	}
	typ, err := g.item(name, q, where, true, false)
	if err != nil {
		return "", err
	}
	line, err := g.field("__root__", "", typ, q, true)
	if err != nil {
		return "", err
	}
	g.classes = append(g.classes, &pydClass{name: cn, base: "BaseModel", lines: []string{line}})
	return cn, nil
}

// enum is parse_enum: an Enum class with one member per value.
func (g *pydGen) enum(name string, p *pyval.Dict, enumV pyval.Value, where string, singular bool) (string, error) {
	l, ok := enumV.(*pyval.List)
	if !ok {
		return "", pydErr(g.fn, "%s: enum is not a list", where)
	}
	typV, _ := p.GetStr("type")
	typ := string(typV.(pyval.Str))
	c := &pydClass{base: "Enum"}
	taken := map[string]bool{}
	for _, v := range l.Items {
		var member, value string
		switch x := v.(type) {
		case pyval.Str:
			member = string(x)
			value = "'" + pydEscape(string(x)) + "'"
		case pyval.Int:
			if typ == "string" {
				member = pyval.StrOf(x)
			} else {
				member = typ + "_" + pyval.StrOf(x)
			}
			value = pyval.Repr(x)
		case pyval.NoneType:
			return "", pydErr(g.fn, "%s: None in an enum", where)
		default:
			return "", pydErr(g.fn, "%s: enum value %s", where, pyval.Repr(v))
		}
		fname, err := g.fieldName(member, taken, nil, where)
		if err != nil {
			return "", err
		}
		taken[fname] = true
		line, err := blackStatement(4, fname+" = ", batom{text: value})
		if err != nil {
			return "", pydErr(g.fn, "%s: enum member %s: %v", where, fname, err)
		}
		c.lines = append(c.lines, line)
	}
	cn, err := g.className(name, singular, "Enum", where)
	if err != nil {
		return "", err
	}
	c.name = cn
	g.classes = append(g.classes, c)
	return cn, nil
}

// pydEscape is str.translate(escape_characters) of
// datamodel_code_generator/parser/base.py.
func pydEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\b", `\b`, "\f", `\f`, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return r.Replace(s)
}

// pydValidModelField is PydanticFieldNameResolver._validate_field_name:
// the name is not an attribute of pydantic's BaseModel (pydantic 2, as
// upstream's pyproject.toml requires: its deprecated v1 methods included).
func pydValidModelField(name string) bool { return !pydanticBaseModelAttrs[name] }

// fieldName is FieldNameResolver.get_valid_name (no snake-case, prefix
// "field") with excludes; for an enum member (valid == nil) it is
// EnumFieldNameResolver's ("mro" renamed and excluded).
func (g *pydGen) fieldName(name string, excludes map[string]bool, valid func(string) bool, where string) (string, error) {
	enum := valid == nil
	if enum {
		valid = func(string) bool { return true }
		if name == "mro" {
			name = "mro_"
		}
	}
	excluded := func(n string) bool { return excludes[n] || (enum && n == "mro") }
	name = pydNameBase(name)
	if pyKeywords[name] || !valid(name) {
		name += "_"
	}
	newName := name
	for count := 1; (!pyIdentifier(newName) && valid(newName)) || pyKeywords[newName] || excluded(newName); count++ {
		if count > 1000 {
			return "", pydErr(g.fn, "%s: no valid field name for %q", where, name)
		}
		newName = fmt.Sprintf("%s_%d", name, count)
	}
	return newName, nil
}

// className is ModelResolver.get_class_name (unique, CamelCase, singular
// for array items with the suffix) and registers the name.
func (g *pydGen) className(name string, singular bool, suffix, where string) (string, error) {
	cn := pydUpperCamelValid(name)
	if singular {
		s, err := inflectSingular(cn)
		if err != nil {
			return "", pydErr(g.fn, "%s: class name for array items of %q: %v", where, name, err)
		}
		if s == "" {
			s = cn + suffix
		}
		cn = s
	}
	unique := cn
	for count := 1; g.names[unique]; count++ {
		unique = fmt.Sprintf("%s%d", cn, count)
	}
	g.names[unique] = true
	return unique, nil
}

// pydNameBase is the start get_valid_name makes of every name: "_" for an
// empty one, a leading "#" dropped, non-word characters replaced, and
// "field_" before a numeric start or "field" before a leading "_".
func pydNameBase(name string) string {
	if name == "" {
		name = "_"
	}
	if name[0] == '#' {
		name = name[1:]
		if name == "" {
			name = "_"
		}
	}
	name = pydSubNonWord(name)
	if r := []rune(name)[0]; unicode.IsNumber(r) { // str.isnumeric
		name = "field_" + name
	}
	if strings.HasPrefix(name, "_") {
		name = "field" + name
	}
	return name
}

// pydUpperCamelValid is default_class_name_generator:
// get_valid_name(name, ignore_snake_case_field=True, upper_camel=True).
func pydUpperCamelValid(name string) string {
	name = pydNameBase(name)
	if pyKeywords[name] {
		name += "_"
	}
	newName := snakeToUpperCamel(name)
	for count := 1; !pyIdentifier(newName) || pyKeywords[newName]; count++ {
		newName = fmt.Sprintf("%s%d", name, count)
	}
	return newName
}

// snakeToUpperCamel is datamodel_code_generator.reference.snake_to_upper_camel.
func snakeToUpperCamel(word string) string {
	prefix := ""
	if strings.HasPrefix(word, "_") {
		prefix = "_"
		word = word[1:]
	}
	var b strings.Builder
	b.WriteString(prefix)
	for _, part := range strings.Split(word, "_") {
		if part == "" {
			continue
		}
		r := []rune(part)
		b.WriteString(strings.ToUpper(string(r[0])) + string(r[1:]))
	}
	return b.String()
}

// pydSubNonWord is re.sub(r'[¹²³⁴⁵⁶⁷⁸⁹]|\W', '_', name): Python's \w is
// "_" and str.isalnum (letters and numeric characters).
func pydSubNonWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("¹²³⁴⁵⁶⁷⁸⁹", r) || !(r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)) {
			b.WriteByte('_')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pyIdentifier is str.isidentifier for the names this port produces.
func pyIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || unicode.IsLetter(r) {
			continue
		}
		if i > 0 && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)) {
			continue
		}
		return false
	}
	return true
}

var pyKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields("False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield") {
		pyKeywords[k] = true
	}
	for _, k := range strings.Fields(pydanticBaseModelAttrList) {
		pydanticBaseModelAttrs[k] = true
	}
}

var pydanticBaseModelAttrs = map[string]bool{}

// pydanticBaseModelAttrList are the names for which hasattr(BaseModel,
// name) holds (pydantic 2.13.4; its metaclass's mro and register
// included), without those starting with "_" (which fieldName never
// produces: a leading "_" gets the "field" prefix).
const pydanticBaseModelAttrList = `construct copy dict from_orm json model_computed_fields model_config
model_construct model_copy model_dump model_dump_json model_extra model_fields model_fields_set
model_json_schema model_parametrized_name model_post_init model_rebuild model_validate
model_validate_json model_validate_strings mro parse_file parse_obj parse_raw register schema
schema_json update_forward_refs validate`
