package gold

import (
	"encoding/xml"
	"strings"

	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// call is one gold function call.
type call struct {
	name string
	args *pyval.Dict
}

// renderPrompt writes calls as a prompt-mode answer in cfg's return format,
// in the shapes upstream's parsers read (model_handler/parser): Python
// calls, a JSON list of {"function", "parameters"}, or <functions> XML in
// the verbose or concise form, inside <TOOLCALL> tags when cfg asks for
// them.
func renderPrompt(calls []call, cfg prompt.Config) (string, error) {
	var out string
	switch cfg.ReturnFormat {
	case prompt.RetPython:
		parts := make([]string, len(calls))
		for i, c := range calls {
			args := make([]string, 0, c.args.Len())
			for _, kv := range c.args.Items() {
				args = append(args, pyval.StrOf(kv.Key)+"="+pyval.Repr(kv.Value))
			}
			parts[i] = c.name + "(" + strings.Join(args, ", ") + ")"
		}
		out = "[" + strings.Join(parts, ", ") + "]"
	case prompt.RetJSON:
		list := pyval.NewList()
		for _, c := range calls {
			d := pyval.NewDict()
			d.SetStr("function", pyval.Str(c.name))
			d.SetStr("parameters", c.args)
			list.Items = append(list.Items, d)
		}
		js, err := pyval.JSONDumps(list)
		if err != nil {
			return "", err
		}
		out = js
	case prompt.RetVerboseXML, prompt.RetConciseXML:
		var b strings.Builder
		b.WriteString("<functions>")
		for _, c := range calls {
			b.WriteString(`<function name="` + xmlEscape(c.name) + `">`)
			if cfg.ReturnFormat == prompt.RetVerboseXML {
				b.WriteString("<params>")
			}
			for _, kv := range c.args.Items() {
				typ, text := xmlValue(kv.Value)
				name := xmlEscape(pyval.StrOf(kv.Key))
				if cfg.ReturnFormat == prompt.RetVerboseXML {
					b.WriteString(`<param name="` + name + `" value="` + xmlEscape(text) + `" type="` + typ + `"/>`)
				} else {
					b.WriteString(`<param name="` + name + `" type="` + typ + `">` + xmlEscape(text) + `</param>`)
				}
			}
			if cfg.ReturnFormat == prompt.RetVerboseXML {
				b.WriteString("</params>")
			}
			b.WriteString("</function>")
		}
		b.WriteString("</functions>")
		out = b.String()
	default:
		return "", &pyval.Exception{Type: "ValueError", Msg: "gold: unknown return format " + cfg.ReturnFormat}
	}
	if cfg.ToolCallTag {
		out = "<TOOLCALL>" + out + "</TOOLCALL>"
	}
	return out, nil
}

// xmlValue is a value's type attribute and text as the XML parsers convert
// them back (convert_value_by_type: containers through ast.literal_eval).
func xmlValue(v pyval.Value) (typ, text string) {
	switch x := v.(type) {
	case pyval.Str:
		return "string", string(x)
	case pyval.Bool:
		if x {
			return "boolean", "true"
		}
		return "boolean", "false"
	case pyval.Int, pyval.BigInt:
		return "integer", pyval.StrOf(v)
	case pyval.Float:
		return "float", pyval.Repr(v)
	case pyval.NoneType:
		return "null", ""
	case pyval.Tuple:
		return "tuple", pyval.Repr(v)
	case *pyval.Dict:
		return "dict", pyval.Repr(v)
	}
	return "array", pyval.Repr(v)
}

func xmlEscape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
