package oss

import (
	"sort"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// FunctionGemmaHandler (local_inference/functiongemma.py): FunctionGemma's
// control tokens; the functions are declared in a developer turn in
// FunctionGemma's own schema notation (keys sorted, strings between
// <escape> tokens, types upper-cased). Quirks kept from upstream: a
// parameter named description, type, properties, required or nullable is
// left out of the declaration, and only OBJECT / ARRAY / STRING types get
// their details (BFCL's "dict" is "DICT", so its properties are not
// shown). Tool results are function responses named after the decoded call.

// FunctionGemma's control tokens and texts (functiongemma.py: Tokens,
// Prefixes, SYSTEM_PROMPT).
const (
	fgEscape        = "<escape>"
	fgStartTurn     = "<start_of_turn>"
	fgEndTurn       = "<end_of_turn>"
	fgStartFuncDecl = "<start_function_declaration>"
	fgEndFuncDecl   = "<end_function_declaration>"
	fgStartFuncCall = "<start_function_call>"
	fgEndFuncCall   = "<end_function_call>"
	fgStartFuncResp = "<start_function_response>"
	fgEndFuncResp   = "<end_function_response>"
	fgSystemPrompt  = "You are a model that can do function calling with the following functions"
)

type functionGemma struct{ base }

func newFunctionGemma(model string) Format {
	return &functionGemma{newBase("FunctionGemmaHandler", model).ownSystemPrompt()}
}

func (g *functionGemma) Prompt(msgs []Message, functions []pyval.Value) (string, error) {
	var b strings.Builder
	if err := fgSystemTurn(&b, msgs, functions); err != nil {
		return "", err
	}
	rest := msgs
	if len(msgs) > 0 && msgs[0].Role == RoleSystem {
		rest = msgs[1:]
	}
	for _, m := range rest {
		switch m.Role {
		case RoleUser:
			c, err := strip(m.Content)
			if err != nil {
				return "", err
			}
			b.WriteString(fgStartTurn + "user\n" + c + fgEndTurn + "\n")
		case RoleAssistant:
			if err := fgModelTurn(&b, m); err != nil {
				return "", err
			}
		case RoleTool:
			if err := fgToolTurn(&b, m); err != nil {
				return "", err
			}
		}
	}
	b.WriteString(fgStartTurn + "model\n")
	return b.String(), nil
}

func fgEsc(v pyval.Value) string { return fgEscape + fstr(v) + fgEscape }

// fgSystemTurn is _build_system_turn.
func fgSystemTurn(b *strings.Builder, msgs []Message, functions []pyval.Value) error {
	var system pyval.Value = pyval.Str(fgSystemPrompt)
	if len(msgs) > 0 && msgs[0].Role == RoleSystem {
		system = orNone(msgs[0].Content)
	}
	if len(functions) == 0 && !pyval.Truthy(system) {
		return nil
	}
	b.WriteString(fgStartTurn + "developer\n")
	if pyval.Truthy(system) {
		s, err := strip(system)
		if err != nil {
			return err
		}
		b.WriteString(s + "\n")
	}
	for _, f := range functions {
		decl, err := fgDeclaration(f)
		if err != nil {
			return err
		}
		b.WriteString(fgStartFuncDecl + decl + fgEndFuncDecl)
	}
	b.WriteString(fgEndTurn + "\n")
	return nil
}

// fgDeclaration is _format_function_declaration.
func fgDeclaration(tool pyval.Value) (string, error) {
	fn := tool
	inner, err := get(tool, "function", pyval.None)
	if err != nil {
		return "", err
	}
	if isDict(inner) {
		fn = inner
	}
	name, err := get(fn, "name", pyval.Str(""))
	if err != nil {
		return "", err
	}
	desc, err := get(fn, "description", pyval.Str(""))
	if err != nil {
		return "", err
	}
	params, err := get(fn, "parameters", pyval.NewDict())
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("declaration:" + fstr(name) + "{description:" + fgEsc(desc))
	if pyval.Truthy(params) {
		props, err := get(params, "properties", pyval.NewDict())
		if err != nil {
			return "", err
		}
		required, err := get(params, "required", pyval.NewList())
		if err != nil {
			return "", err
		}
		if pyval.Truthy(props) {
			s, err := fgParameters(props)
			if err != nil {
				return "", err
			}
			b.WriteString(",properties:{" + s + "}")
		}
		if pyval.Truthy(required) {
			s, err := fgEscapedList(required)
			if err != nil {
				return "", err
			}
			b.WriteString(",required:[" + s + "]")
		}
		if t, hasType, err := itemIfIn(params, "type"); err != nil {
			return "", err
		} else if hasType {
			u, err := pyUpper(t)
			if err != nil {
				return "", err
			}
			b.WriteString(",type:" + fgEscape + u + fgEscape)
		}
	}
	b.WriteString("}")
	return b.String(), nil
}

// pyUpper is v.upper() for a str v (ASCII type names in practice).
func pyUpper(v pyval.Value) (string, error) {
	s, err := pyval.StrMethod(orNone(v), "upper")
	return strings.ToUpper(s), err
}

// fgEscapedList is ",".join(escape(x) for x in v).
func fgEscapedList(v pyval.Value) (string, error) {
	items, err := pyval.Iterate(v)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = fgEsc(it)
	}
	return strings.Join(parts, ","), nil
}

// sortedItems is sorted(d.items()) for a dict (keys are unique, so only
// keys are compared).
func sortedItems(v pyval.Value) ([]pyval.KV, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, pyval.NoAttribute(orNone(v), "items")
	}
	items := d.Items()
	var err error
	sort.SliceStable(items, func(i, j int) bool {
		a, aok := items[i].Key.(pyval.Str)
		b, bok := items[j].Key.(pyval.Str)
		if aok && bok {
			return a < b
		}
		less, e := pyval.Less(items[i].Key, items[j].Key)
		if e != nil && err == nil {
			err = e
		}
		return less
	})
	return items, err
}

// fgStandardKeys are the property names _format_parameters skips.
var fgStandardKeys = map[string]bool{"description": true, "type": true, "properties": true, "required": true, "nullable": true}

// fgParameters is _format_parameters.
func fgParameters(props pyval.Value) (string, error) {
	if !pyval.Truthy(orNone(props)) {
		return "", nil
	}
	items, err := sortedItems(props)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, kv := range items {
		if err := pyval.CheckHashable(kv.Key); err != nil {
			return "", err
		}
		if k, ok := kv.Key.(pyval.Str); ok && fgStandardKeys[string(k)] {
			continue
		}
		s, err := fgSchemaProperty(kv.Key, kv.Value)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ","), nil
}

// fgSchemaProperty is _format_schema_property.
func fgSchemaProperty(key, value pyval.Value) (string, error) {
	desc, err := get(value, "description", pyval.Str(""))
	if err != nil {
		return "", err
	}
	t, err := get(value, "type", pyval.Str(""))
	if err != nil {
		return "", err
	}
	typ, err := pyUpper(t)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(fstr(key) + ":{description:" + fgEsc(desc))
	switch typ {
	case "STRING":
		if enum, hasEnum, err := itemIfIn(value, "enum"); err != nil {
			return "", err
		} else if hasEnum {
			s, err := fgValue(enum, true)
			if err != nil {
				return "", err
			}
			b.WriteString(",enum:" + s)
		}
	case "OBJECT":
		s, err := fgObjectDetails(value)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	case "ARRAY":
		s, err := fgArrayDetails(value)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	b.WriteString(",type:" + fgEscape + typ + fgEscape + "}")
	return b.String(), nil
}

// fgObjectDetails is _format_object_details.
func fgObjectDetails(value pyval.Value) (string, error) {
	var b strings.Builder
	b.WriteString(",properties:{")
	sub, err := get(value, "properties", pyval.NewDict())
	if err != nil {
		return "", err
	}
	if pyval.Truthy(sub) {
		s, err := fgParameters(sub)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	b.WriteString("}")
	req, err := get(value, "required", pyval.NewList())
	if err != nil {
		return "", err
	}
	if pyval.Truthy(req) {
		s, err := fgEscapedList(req)
		if err != nil {
			return "", err
		}
		b.WriteString(",required:[" + s + "]")
	}
	return b.String(), nil
}

// fgArrayDetails is _format_array_details.
func fgArrayDetails(value pyval.Value) (string, error) {
	items, err := get(value, "items", pyval.NewDict())
	if err != nil {
		return "", err
	}
	if !pyval.Truthy(items) {
		return "", nil
	}
	kvs, err := sortedItems(items)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, kv := range kvs {
		if kv.Value == pyval.None {
			continue
		}
		var part string
		switch {
		case pyval.Equal(kv.Key, pyval.Str("properties")) && isDict(kv.Value):
			s, err := fgParameters(kv.Value)
			if err != nil {
				return "", err
			}
			part = "properties:{" + s + "}"
		case pyval.Equal(kv.Key, pyval.Str("required")):
			s, err := fgEscapedList(kv.Value)
			if err != nil {
				return "", err
			}
			part = "required:[" + s + "]"
		case pyval.Equal(kv.Key, pyval.Str("type")):
			var v pyval.Value
			if _, ok := kv.Value.(pyval.Str); ok {
				u, _ := pyUpper(kv.Value)
				v = pyval.Str(u)
			} else {
				ts, err := pyval.Iterate(kv.Value)
				if err != nil {
					return "", err
				}
				up := make([]pyval.Value, len(ts))
				for i, t := range ts {
					u, err := pyUpper(t)
					if err != nil {
						return "", err
					}
					up[i] = pyval.Str(u)
				}
				v = pyval.NewList(up...)
			}
			s, err := fgValue(v, true)
			if err != nil {
				return "", err
			}
			part = "type:" + s
		default:
			s, err := fgValue(kv.Value, true)
			if err != nil {
				return "", err
			}
			part = fstr(kv.Key) + ":" + s
		}
		parts = append(parts, part)
	}
	return ",items:{" + strings.Join(parts, ",") + "}", nil
}

// fgValue is _format_value.
func fgValue(v pyval.Value, escapeKeys bool) (string, error) {
	switch x := orNone(v).(type) {
	case pyval.NoneType:
		return "null", nil
	case pyval.Bool:
		if x {
			return "true", nil
		}
		return "false", nil
	case pyval.Str:
		return fgEsc(x), nil
	case *pyval.List, pyval.Tuple:
		items, _ := pyval.Iterate(x)
		parts := make([]string, len(items))
		for i, it := range items {
			s, err := fgValue(it, escapeKeys)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ",") + "]", nil
	case *pyval.Dict:
		kvs, err := sortedItems(x)
		if err != nil {
			return "", err
		}
		parts := make([]string, len(kvs))
		for i, kv := range kvs {
			k := fstr(kv.Key)
			if escapeKeys {
				k = fgEsc(kv.Key)
			}
			s, err := fgValue(kv.Value, escapeKeys)
			if err != nil {
				return "", err
			}
			parts[i] = k + ":" + s
		}
		return "{" + strings.Join(parts, ",") + "}", nil
	}
	return fstr(v), nil
}

// fgModelTurn is _build_model_turn.
func fgModelTurn(b *strings.Builder, m Message) error {
	b.WriteString(fgStartTurn + "model\n")
	if pyval.Truthy(orNone(m.Content)) {
		c, err := strip(m.Content)
		if err != nil {
			return err
		}
		b.WriteString(c)
	}
	if m.ToolCalls != nil {
		for _, tc := range m.ToolCalls.Items {
			fn, err := get(tc, "function", pyval.NewDict())
			if err != nil {
				return err
			}
			name, err := get(fn, "name", pyval.None)
			if err != nil {
				return err
			}
			args, err := get(fn, "arguments", pyval.None)
			if err != nil {
				return err
			}
			b.WriteString(fgStartFuncCall + "call:" + fstr(name))
			if s, ok := args.(pyval.Str); ok {
				if v, err := loads(string(s)); err == nil {
					args = v
				}
			}
			if isDict(args) {
				s, err := fgValue(args, false)
				if err != nil {
					return err
				}
				b.WriteString(s)
			} else {
				b.WriteString("{value:" + fgEsc(args) + "}")
			}
			b.WriteString(fgEndFuncCall)
		}
	}
	b.WriteString(fgEndTurn + "\n")
	return nil
}

// fgToolTurn is _build_tool_turn: a function response named after the
// message's name ("unknown_tool" without one), a JSON object result in
// FunctionGemma notation, anything else as {value:<escape>...<escape>}.
func fgToolTurn(b *strings.Builder, m Message) error {
	name := "unknown_tool"
	if m.Name != nil {
		name = *m.Name
	}
	content := orNone(m.Content)
	result := content
	if s, ok := content.(pyval.Str); ok {
		if v, err := loads(string(s)); err == nil {
			result = v
		}
	}
	b.WriteString(fgStartFuncResp + "response:" + name)
	if isDict(result) {
		s, err := fgValue(result, false)
		if err != nil {
			return err
		}
		b.WriteString(s)
	} else {
		b.WriteString("{value:" + fgEsc(content) + "}")
	}
	b.WriteString(fgEndFuncResp)
	return nil
}
