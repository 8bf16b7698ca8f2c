package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/bfcl-go/bfcl/internal/cache/memo"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// gorillaToOpenAPI maps BFCL parameter types (Python, Java and JavaScript
// spellings) to JSON-schema types. Reproduced exactly from upstream
// bfcl_eval/constants/type_mappings.py (GORILLA_TO_OPENAPI); a type not in
// the table becomes "string".
var gorillaToOpenAPI = map[string]string{
	"integer":   "integer",
	"number":    "number",
	"float":     "number",
	"string":    "string",
	"boolean":   "boolean",
	"bool":      "boolean",
	"array":     "array",
	"list":      "array",
	"dict":      "object",
	"object":    "object",
	"tuple":     "array",
	"any":       "string",
	"byte":      "integer",
	"short":     "integer",
	"long":      "integer",
	"double":    "number",
	"char":      "string",
	"ArrayList": "array",
	"Array":     "array",
	"HashMap":   "object",
	"Hashtable": "object",
	"Queue":     "array",
	"Stack":     "array",
	"Any":       "string",
	"String":    "string",
	"Bigint":    "integer",
}

// Text appended to descriptions, reproduced from upstream
// bfcl_eval/model_handler/utils.py (_cast_to_openai_type, convert_to_tool).
const (
	floatNote       = " This is a float type value."
	responseNoteFmt = " The response field has the following schema: %s"
)

// toolStyle is how a provider wants its tools shaped (upstream ModelStyle).
type toolStyle int

const (
	styleOpenAICompletions toolStyle = iota // {"type":"function","function":{...}}
	styleAnthropic                          // {name, description, input_schema}
	styleGoogle                             // {name, description, parameters} with unsupported fields folded into descriptions
	styleAmazon                             // {"toolSpec":{name, description, inputSchema:{json:...}}}, response folded into the description
	styleOpenAIResponses                    // {name, description, parameters, ..., "type":"function"}
	styleNovita                             // styleOpenAICompletions with the response folded into the description
	styleFireworks                          // styleNovita (FIREWORK_AI: dots kept, by the callers)
	styleWriter                             // styleOpenAICompletions with styleGoogle's folding, every enum folded, response folded (WRITER: dots kept)
)

// StyleNovita is the tool style of upstream's NovitaHandler
// (ModelStyle.NOVITA_AI), accepted by ConvertFunctions in place of a
// provider.
const StyleNovita = "novita"

// StyleFireworks is the tool style of upstream's FireworksHandler
// (ModelStyle.FIREWORK_AI), accepted by ConvertFunctions in place of a
// provider.
const StyleFireworks = "fireworks"

func styleOf(provider string) (toolStyle, error) {
	switch provider {
	case ProviderOpenAI, ProviderOllama, ProviderMistral, ProviderCohere, ProviderQwen:
		// upstream's OPENAI_COMPLETIONS, MISTRAL and COHERE styles are
		// one shape (CohereHandler then keeps name, description and
		// parameters of each function; see the cohere driver)
		return styleOpenAICompletions, nil
	case ProviderBedrock:
		return styleAmazon, nil
	case ProviderAnthropic:
		return styleAnthropic, nil
	case ProviderGemini:
		return styleGoogle, nil
	case ProviderResponses:
		return styleOpenAIResponses, nil
	case StyleNovita:
		return styleNovita, nil
	case StyleFireworks:
		return styleFireworks, nil
	case ProviderWriter:
		return styleWriter, nil
	}
	return 0, fmt.Errorf("convert functions: unknown provider %q (want ollama, openai, responses, anthropic, gemini, mistral, cohere, bedrock, qwen or writer)", provider)
}

// ConvertFunctions turns BFCL function docs into the tool list a provider
// accepts, following upstream's convert_to_tool with the GORILLA_TO_OPENAPI
// mapping: BFCL types become JSON-schema types (dict->object,
// float->number plus format "float" and a description note, tuple->array,
// any->string, Java/JavaScript spellings, unknown->string), nested
// properties and item types are converted the same way, parameters.type is
// forced to "object", and per provider:
//   - openai, ollama: {"type":"function","function":<doc>} (a "response"
//     field stays in place);
//   - responses: the doc itself with "type":"function" added (the
//     Responses API's flat tool);
//   - novita (StyleNovita) and fireworks (StyleFireworks): as openai, the
//     response folded into the description;
//   - writer: as openai, with gemini's folding below except that every
//     enum is folded (Palmyra takes none), and the response folded into
//     the description;
//   - anthropic: parameters renamed input_schema, response schema folded
//     into the description;
//   - gemini: the parameters' optional field dropped and, on each top-level
//     property, default/optional/required/maximum/minItems/maxItems/
//     additionalProperties, enum on non-string types and format on strings
//     folded into the description; response folded into the description.
//
// With underscored, dots in function names become underscores: upstream's
// convert_to_tool does this for every model style of these providers but
// FIREWORK_AI and WRITER (their drivers pass false),
// whatever the model's underscore_to_dot (which only tells the checker to
// map the names back; a model without it is scored on the names it saw).
// Drivers pass Config.ToolNamesUnderscored(): always, unless the
// underscore-to-dot-names correction is on.
// Key order of every object is preserved; new keys are appended, as
// Python's dicts do. Each result is the JSON of one tool.
//
// A conversion is pure, and a multi-turn entry sends the same documents at
// every step, so each document's conversion is computed once per process
// and shared: callers must not modify the returned bytes.
func ConvertFunctions(docs []json.RawMessage, provider string, underscored bool) ([]json.RawMessage, error) {
	style, err := styleOf(provider)
	if err != nil {
		return nil, err
	}
	out := make([]json.RawMessage, 0, len(docs))
	for i, raw := range docs {
		c, err := converted(raw, i, style, underscored)
		if err != nil {
			return nil, err
		}
		out = append(out, c.tool)
	}
	return out, nil
}

// AppendToolsJSON appends to dst the JSON array of ConvertFunctions'
// tools in compact form (as encoding/json writes a []json.RawMessage),
// for splicing into a request body.
//
// Every step of a multi-turn entry sends the same documents, as the same
// slice: the array is remembered for that slice (its first element's
// address and its length, the slice kept alive so the address stays its
// own), and callers must not modify docs' elements after the call.
func AppendToolsJSON(dst []byte, docs []json.RawMessage, provider string, underscored bool) ([]byte, error) {
	style, err := styleOf(provider)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return append(dst, "[]"...), nil
	}
	key := arrayKey{style: style, underscored: underscored, first: &docs[0], n: len(docs)}
	if a, ok := toolArrays.Get(key); ok {
		return append(dst, a.json...), nil
	}
	start := len(dst)
	dst, err = appendToolsJSON(dst, docs, style, underscored)
	if err != nil {
		return nil, err
	}
	toolArrays.Put(key, cachedArray{docs: docs, json: bytes.Clone(dst[start:])}, len(dst)-start)
	return dst, nil
}

// arrayKey names one slice of documents converted one way.
type arrayKey struct {
	style       toolStyle
	underscored bool
	first       *json.RawMessage
	n           int
}

// cachedArray is a remembered tools array.
type cachedArray struct {
	docs []json.RawMessage // keeps the slice, and so its address, alive
	json []byte
}

// toolArrays holds the tools arrays of the slices of documents lately
// sent (the entries in progress are at most a few hundred).
var toolArrays = memo.Recent[arrayKey, cachedArray]{Max: 16 << 20}

func appendToolsJSON(dst []byte, docs []json.RawMessage, style toolStyle, underscored bool) ([]byte, error) {
	// Two passes, so dst grows once: a multi-turn step resends every
	// document, tens of kilobytes.
	var small [32][]byte
	parts := small[:0]
	n := len(docs) + 1
	for i, raw := range docs {
		c, err := converted(raw, i, style, underscored)
		if err != nil {
			return nil, err
		}
		parts = append(parts, c.compact)
		n += len(c.compact)
	}
	dst = slices.Grow(dst, n)
	dst = append(dst, '[')
	for i, p := range parts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, p...)
	}
	return append(dst, ']'), nil
}

type convKey struct {
	style       toolStyle
	underscored bool
}

type conversion struct {
	compact []byte
	tool    json.RawMessage
}

var conversions memo.Table[convKey, conversion]

func converted(raw json.RawMessage, i int, style toolStyle, underscored bool) (conversion, error) {
	return conversions.Get(convKey{style, underscored}, raw, func() (conversion, error) {
		tool, err := convertDoc(raw, i, style, underscored)
		if err != nil {
			return conversion{}, err
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, tool); err != nil {
			return conversion{}, fmt.Errorf("convert functions: function doc %d: %w", i, err)
		}
		return conversion{compact: buf.Bytes(), tool: tool}, nil
	})
}

func convertDoc(raw json.RawMessage, i int, style toolStyle, underscored bool) (json.RawMessage, error) {
	v, err := pyval.FromJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("convert functions: function doc %d is not JSON: %w", i, err)
	}
	item, ok := v.(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("convert functions: function doc %d is a %s, not an object", i, v.TypeName())
	}
	tool, err := convertOne(item, style, underscored)
	if err != nil {
		name, _ := item.GetStr("name")
		return nil, fmt.Errorf("convert functions: function %s (doc %d): %w", pyval.StrOf(orNone(name)), i, err)
	}
	s, err := pyval.JSONDumps(tool)
	if err != nil {
		return nil, fmt.Errorf("convert functions: function doc %d: %w", i, err)
	}
	return json.RawMessage(s), nil
}

func orNone(v pyval.Value) pyval.Value {
	if v == nil {
		return pyval.None
	}
	return v
}

func convertOne(item *pyval.Dict, style toolStyle, underscored bool) (pyval.Value, error) {
	if underscored { // every style of these providers: upstream's convert_to_tool replaces dots
		if name, ok := item.GetStr("name"); ok {
			if s, ok := name.(pyval.Str); ok && strings.Contains(string(s), ".") {
				item.SetStr("name", pyval.Str(strings.ReplaceAll(string(s), ".", "_")))
			}
		}
	}
	params, err := dictField(item, "parameters")
	if err != nil {
		return nil, err
	}
	params.SetStr("type", pyval.Str("object"))
	props, err := dictField(params, "properties")
	if err != nil {
		return nil, fmt.Errorf("parameters: %w", err)
	}
	if err := castProperties(props); err != nil {
		return nil, err
	}

	if style == styleAnthropic {
		item.SetStr("input_schema", params)
		item.Delete(pyval.Str("parameters"))
	}
	if style == styleGoogle || style == styleWriter {
		if err := foldForGoogle(params, props, style == styleWriter); err != nil {
			return nil, err
		}
	}
	if style == styleAmazon {
		schema := &pyval.Dict{}
		schema.SetStr("json", params)
		item.SetStr("inputSchema", schema)
		item.Delete(pyval.Str("parameters"))
	}
	if resp, ok := item.GetStr("response"); ok && (style == styleAnthropic || style == styleGoogle || style == styleAmazon || style == styleNovita ||
		style == styleFireworks || style == styleWriter) {
		js, err := pyval.JSONDumps(resp)
		if err != nil {
			return nil, fmt.Errorf("response: %w", err)
		}
		if err := appendDescription(item, fmt.Sprintf(responseNoteFmt, js)); err != nil {
			return nil, err
		}
		item.Delete(pyval.Str("response"))
	}
	if style == styleAmazon {
		wrap := &pyval.Dict{}
		wrap.SetStr("toolSpec", item)
		return wrap, nil
	}
	if style == styleOpenAIResponses {
		item.SetStr("type", pyval.Str("function"))
		return item, nil
	}
	if style == styleOpenAICompletions || style == styleNovita || style == styleFireworks || style == styleWriter {
		wrap := &pyval.Dict{}
		wrap.SetStr("type", pyval.Str("function"))
		wrap.SetStr("function", item)
		return wrap, nil
	}
	return item, nil
}

func dictField(d *pyval.Dict, key string) (*pyval.Dict, error) {
	v, ok := d.GetStr(key)
	if !ok {
		return nil, fmt.Errorf("missing %q", key)
	}
	sub, ok := v.(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("%q is a %s, not an object", key, v.TypeName())
	}
	return sub, nil
}

// mapType looks a BFCL type up in the table; ok is false for unknown types
// (and for values that are not strings).
func mapType(v pyval.Value) (string, bool) {
	s, isStr := v.(pyval.Str)
	if !isStr {
		return "", false
	}
	t, ok := gorillaToOpenAPI[string(s)]
	return t, ok
}

// castProperties converts the types of a properties object in place, the
// way upstream's _cast_to_openai_type does (including its limits: item
// types are mapped strictly, two levels of items deep, and float notes are
// added only on properties, not on items).
func castProperties(props *pyval.Dict) error {
	for _, kv := range props.Items() {
		key := pyval.StrOf(kv.Key)
		prop, ok := kv.Value.(*pyval.Dict)
		if !ok {
			return fmt.Errorf("property %q is a %s, not an object", key, kv.Value.TypeName())
		}
		if t, has := prop.GetStr("type"); !has {
			prop.SetStr("type", pyval.Str("string"))
		} else {
			if s, ok := t.(pyval.Str); ok && s == "float" {
				prop.SetStr("format", pyval.Str("float"))
				if err := appendDescription(prop, floatNote); err != nil {
					return fmt.Errorf("property %q: %w", key, err)
				}
			}
			if _, isList := t.(*pyval.List); isList {
				return fmt.Errorf("property %q: unhashable type list as type", key)
			}
			mapped, ok := mapType(t)
			if !ok {
				mapped = "string"
			}
			prop.SetStr("type", pyval.Str(mapped))
		}
		t, _ := prop.GetStr("type")
		if t != pyval.Str("array") && t != pyval.Str("object") {
			continue
		}
		if sub, has := prop.GetStr("properties"); has {
			subd, ok := sub.(*pyval.Dict)
			if !ok {
				return fmt.Errorf("property %q: properties is a %s", key, sub.TypeName())
			}
			if err := castProperties(subd); err != nil {
				return fmt.Errorf("property %q: %w", key, err)
			}
			continue
		}
		itemsV, has := prop.GetStr("items")
		if !has {
			continue
		}
		items, ok := itemsV.(*pyval.Dict)
		if !ok {
			return fmt.Errorf("property %q: items is a %s, not an object", key, itemsV.TypeName())
		}
		if err := mapItemType(items, key); err != nil {
			return err
		}
		it, _ := items.GetStr("type")
		switch it {
		case pyval.Str("array"):
			if inner, has := items.GetStr("items"); has {
				innerd, ok := inner.(*pyval.Dict)
				if !ok {
					return fmt.Errorf("property %q: items.items is a %s", key, inner.TypeName())
				}
				if err := mapItemType(innerd, key); err != nil {
					return err
				}
			}
		case pyval.Str("object"):
			if sub, has := items.GetStr("properties"); has {
				subd, ok := sub.(*pyval.Dict)
				if !ok {
					return fmt.Errorf("property %q: items.properties is a %s", key, sub.TypeName())
				}
				if err := castProperties(subd); err != nil {
					return fmt.Errorf("property %q items: %w", key, err)
				}
			}
		}
	}
	return nil
}

// mapItemType maps the type of an items schema strictly: upstream indexes
// the table directly, so a missing or unknown item type is an error there.
func mapItemType(items *pyval.Dict, key string) error {
	t, has := items.GetStr("type")
	if !has {
		return fmt.Errorf("property %q: items has no type (upstream KeyError 'type')", key)
	}
	mapped, ok := mapType(t)
	if !ok {
		return fmt.Errorf("property %q: unknown item type %s (upstream KeyError)", key, pyval.Repr(t))
	}
	items.SetStr("type", pyval.Str(mapped))
	return nil
}

// appendDescription does d["description"] += note, failing like Python
// when the description is missing or not a string.
func appendDescription(d *pyval.Dict, note string) error {
	v, ok := d.GetStr("description")
	if !ok {
		return fmt.Errorf("no description to append %q to (upstream KeyError 'description')", note)
	}
	s, ok := v.(pyval.Str)
	if !ok {
		return fmt.Errorf("description is a %s, cannot append text", v.TypeName())
	}
	d.SetStr("description", s+pyval.Str(note))
	return nil
}

// googleFolded lists, in upstream's order, the property fields Gemini
// rejects and the sentence each is folded into (utils.py convert_to_tool).
var googleFolded = []struct{ key, format string }{
	{"default", " Default is: %s."},
	{"optional", " Optional: %s."},
	{"required", " Required: %s."},
	{"maximum", " Maximum value: %s."},
	{"minItems", " Minimum number of items: %s."},
	{"maxItems", " Maximum number of items: %s."},
	{"additionalProperties", " Additional properties: %s."},
}

// foldForGoogle is convert_to_tool's folding of the GOOGLE and WRITER
// styles: an enum is folded on every type with allEnums (WRITER), on
// non-string types only otherwise (GOOGLE).
func foldForGoogle(params, props *pyval.Dict, allEnums bool) error {
	params.Delete(pyval.Str("optional"))
	for _, kv := range props.Items() {
		p := kv.Value.(*pyval.Dict) // checked by castProperties
		if !p.Has(pyval.Str("description")) {
			p.SetStr("description", pyval.Str(""))
		}
		for _, f := range googleFolded {
			if v, ok := p.GetStr(f.key); ok {
				if err := appendDescription(p, fmt.Sprintf(f.format, pyval.StrOf(v))); err != nil {
					return fmt.Errorf("property %s: %w", pyval.StrOf(kv.Key), err)
				}
				p.Delete(pyval.Str(f.key))
			}
		}
		t, _ := p.GetStr("type")
		if v, ok := p.GetStr("enum"); ok && (allEnums || t != pyval.Str("string")) {
			if err := appendDescription(p, fmt.Sprintf(" Enum values: %s.", pyval.StrOf(v))); err != nil {
				return err
			}
			p.Delete(pyval.Str("enum"))
		}
		if v, ok := p.GetStr("format"); ok && t == pyval.Str("string") {
			if err := appendDescription(p, fmt.Sprintf(" Format: %s.", pyval.StrOf(v))); err != nil {
				return err
			}
			p.Delete(pyval.Str("format"))
		}
	}
	return nil
}
