package core

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/bfcl-go/bfcl/internal/pyval"
)

// Prompt-mode system prompt pieces, reproduced byte for byte from upstream
// bfcl_eval/constants/default_prompts.py (OUTPUT_FORMAT_MAPPING,
// PARAM_TYPE_MAPPING, PROMPT_STYLE_TEMPLATES, the two prompt templates and
// DEFAULT_SYSTEM_PROMPT_FORMAT).
var outputFormats = map[string]string{
	"python":      "[func_name1(params_name1=params_value1, params_name2=params_value2...), func_name2(params)]",
	"json":        "```json\n[{\"function\":\"func_name1\",\"parameters\":{\"param1\":\"value1\",\"param2\":\"value2\"...}},{\"function\":\"func_name2\",\"parameters\":{\"param\":\"value\"}}]\n```",
	"verbose_xml": "<functions><function name=\"func_name1\"><params><param name=\"param1\" value=\"value1\" type=\"type1\"/><param name=\"param2\" value=\"value2\" type=\"type2\"/>...</params></function><function name=\"func_name2\"><params><param name=\"param3\" value=\"value3\" type=\"type3\"/></params></function></functions>",
	"concise_xml": "<functions><function name=\"func_name1\"><param name=\"param1\" type=\"type1\">value1</param><param name=\"param2\" type=\"type2\">value2</param>...</function><function name=\"func_name2\"><param name=\"param3\" type=\"type3\">value</param></function></functions>",
}

var paramTypes = map[string]string{
	"python":      "",
	"json":        "",
	"verbose_xml": "The type fields of the parameters in your function calls must be one of: string, integer, float, boolean, array, dict, or tuple.",
	"concise_xml": "The type fields of the parameters in your function calls must be one of: string, integer, float, boolean, array, dict, or tuple.",
}

type promptStyle struct {
	persona, task, toolCallNoTag, toolCallWithTag, multiturnBehavior, availableTools string
}

var promptStyles = map[string]promptStyle{
	"classic": {
		persona:           "You are an expert in composing functions.",
		task:              "You are given a question and a set of possible functions. Based on the question, you will need to make one or more function/tool calls to achieve the purpose. If none of the functions can be used, point it out. If the given question lacks the parameters required by the function, also point it out.",
		toolCallNoTag:     "You should only return the function calls in your response.\n\nIf you decide to invoke any of the function(s), you MUST put it in the format of {output_format}. {param_types} You SHOULD NOT include any other text in the response.",
		toolCallWithTag:   "You should only return the function calls in the <TOOLCALL> section. If you decide to invoke any of the function(s), you MUST put it in the format of <TOOLCALL>{output_format}</TOOLCALL>. {param_types} You SHOULD NOT include any other text in the response.",
		multiturnBehavior: "At each turn, you should try your best to complete the tasks requested by the user within the current turn. Continue to output functions to call until you have fulfilled the user's request to the best of your ability. Once you have no more functions to call, the system will consider the current turn complete and proceed to the next turn or task.",
		availableTools:    "Here is a list of functions in {format} format that you can invoke.\n{functions}\n",
	},
	"experimental": {
		persona:           "You are an expert in generating structured function calls.",
		task:              "You are given a user query and a set of available functions. Your task is to produce one or more function/tool calls to fulfill the user's request. If no suitable function exists, or required parameters are missing, clearly indicate this.",
		toolCallNoTag:     "Respond with only the function calls.\n\nYou MUST format it exactly as {output_format}. {param_types} Do NOT include any other text.",
		toolCallWithTag:   "Return only the function calls enclosed in <TOOLCALL> tags.\n\nYou MUST format it exactly as <TOOLCALL>{output_format}</TOOLCALL>. {param_types} Do NOT include any other text.",
		multiturnBehavior: "At every turn, aim to complete the user's tasks within that turn. Continue emitting function calls until the request is satisfied to the best of your ability. Once no more calls are needed, the system will proceed to the next turn.",
		availableTools:    "Below is a list of callable functions in the {format} style:\n{functions}\n",
	},
}

var promptTemplates = map[string]string{
	"plaintext": "{persona}{task}\n\n{tool_call_format}\n\n{multiturn_behavior}\n\n{available_tools}",
	"markdown":  "{persona}\n\n## Task\n{task}\n\n## Tool Call Format\n{tool_call_format}\n\n## Multi-turn Behavior\n{multiturn_behavior}\n\n## Available Tools\n{available_tools}",
}

// DefaultSystemPromptFormat is upstream's DEFAULT_SYSTEM_PROMPT_FORMAT.
const DefaultSystemPromptFormat = "ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic"

var formatPattern = regexp.MustCompile(`^ret_fmt=(python|json|verbose_xml|concise_xml)&tool_call_tag=(True|False)&func_doc_fmt=(python|xml|json)&prompt_fmt=(plaintext|markdown)&style=(classic|experimental)$`)

// PromptFormat is a parsed system-prompt format string.
type PromptFormat struct {
	ReturnFormat   string // python, json, verbose_xml, concise_xml
	ToolCallTag    bool
	FuncDocFormat  string // python, xml, json
	PromptTemplate string // plaintext, markdown
	Style          string // classic, experimental
}

// ParsePromptFormat parses "ret_fmt=…&tool_call_tag=…&func_doc_fmt=…&prompt_fmt=…&style=…".
func ParsePromptFormat(s string) (PromptFormat, error) {
	m := formatPattern.FindStringSubmatch(s)
	if m == nil {
		return PromptFormat{}, fmt.Errorf("invalid system prompt format %q (want ret_fmt=…&tool_call_tag=…&func_doc_fmt=…&prompt_fmt=…&style=…)", s)
	}
	return PromptFormat{ReturnFormat: m[1], ToolCallTag: m[2] == "True", FuncDocFormat: m[3], PromptTemplate: m[4], Style: m[5]}, nil
}

// PromptFormatOfEntry is upstream's extract_prompt_format_from_id: the
// middle part of a format-sensitivity id "<id>:<format>:<n>", else the
// default format.
func PromptFormatOfEntry(entryID string) (string, error) {
	if !strings.Contains(entryID, ":") {
		return DefaultSystemPromptFormat, nil
	}
	parts := strings.Split(entryID, ":")
	if len(parts) != 3 {
		return "", fmt.Errorf("test entry id %q should contain exactly two colons (format-sensitivity ids)", entryID)
	}
	return parts[1], nil
}

// SystemPrompt is upstream's formulate_system_prompt: the prompt-mode
// system prompt for the given format string and BFCL function docs (as in
// the dataset).
func SystemPrompt(format string, functions []json.RawMessage) (string, error) {
	pf, err := ParsePromptFormat(format)
	if err != nil {
		return "", err
	}
	docs := make([]pyval.Value, len(functions))
	for i, raw := range functions {
		v, err := pyval.FromJSON(raw)
		if err != nil {
			return "", fmt.Errorf("system prompt: function doc %d is not JSON: %w", i, err)
		}
		docs[i] = v
	}
	var funcDoc string
	switch pf.FuncDocFormat {
	case "json":
		funcDoc, err = jsonDumpsIndent(pyval.NewList(docs...), 4)
	case "xml":
		funcDoc, err = functionDocXML(docs)
	case "python":
		funcDoc, err = functionDocPython(docs)
	}
	if err != nil {
		return "", fmt.Errorf("system prompt: %w", err)
	}
	style := promptStyles[pf.Style]
	callFormat := style.toolCallNoTag
	if pf.ToolCallTag {
		callFormat = style.toolCallWithTag
	}
	callFormat = strings.NewReplacer("{output_format}", outputFormats[pf.ReturnFormat], "{param_types}", paramTypes[pf.ReturnFormat]).Replace(callFormat)
	tools := strings.NewReplacer("{format}", pf.FuncDocFormat, "{functions}", funcDoc).Replace(style.availableTools)
	return strings.NewReplacer(
		"{persona}", style.persona,
		"{task}", style.task,
		"{tool_call_format}", callFormat,
		"{multiturn_behavior}", style.multiturnBehavior,
		"{available_tools}", tools,
	).Replace(promptTemplates[pf.PromptTemplate]), nil
}

// PrependSystemPrompt is upstream's system_prompt_pre_processing_chat_model
// after the prompt is built: an existing leading system message gets the
// prompt in front of its content (separated by a blank line); otherwise a
// system message is inserted first. msgs is not modified.
func PrependSystemPrompt(msgs []Message, prompt string) []Message {
	out := make([]Message, 0, len(msgs)+1)
	if len(msgs) > 0 && msgs[0].Role == RoleSystem {
		first := msgs[0]
		first.Content = prompt + "\n\n" + first.Content
		out = append(out, first)
		return append(out, msgs[1:]...)
	}
	out = append(out, Message{Role: RoleSystem, Content: prompt})
	return append(out, msgs...)
}

// jsonDumpsIndent is Python's json.dumps(v, indent=n) (ensure_ascii,
// ", "→"," at line ends, ": " between keys and values).
func jsonDumpsIndent(v pyval.Value, n int) (string, error) {
	var b []byte
	var walk func(v pyval.Value, depth int) error
	nl := func(depth int) {
		b = append(b, '\n')
		b = append(b, strings.Repeat(" ", n*depth)...)
	}
	walk = func(v pyval.Value, depth int) error {
		switch x := v.(type) {
		case *pyval.List:
			if len(x.Items) == 0 {
				b = append(b, "[]"...)
				return nil
			}
			b = append(b, '[')
			for i, it := range x.Items {
				if i > 0 {
					b = append(b, ',')
				}
				nl(depth + 1)
				if err := walk(it, depth+1); err != nil {
					return err
				}
			}
			nl(depth)
			b = append(b, ']')
		case *pyval.Dict:
			if x.Len() == 0 {
				b = append(b, "{}"...)
				return nil
			}
			b = append(b, '{')
			for i, kv := range x.Items() {
				if i > 0 {
					b = append(b, ',')
				}
				nl(depth + 1)
				var err error
				if b, err = pyval.AppendJSON(b, kv.Key); err != nil {
					return err
				}
				b = append(b, ": "...)
				if err := walk(kv.Value, depth+1); err != nil {
					return err
				}
			}
			nl(depth)
			b = append(b, '}')
		default:
			var err error
			b, err = pyval.AppendJSON(b, v)
			return err
		}
		return nil
	}
	if err := walk(v, 0); err != nil {
		return "", err
	}
	return string(b), nil
}

// get is dict.get(key, def) on a value that must be a dict.
func get(v pyval.Value, key string, def pyval.Value) (pyval.Value, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("'%s' object has no attribute 'get'", v.TypeName())
	}
	if x, ok := d.GetStr(key); ok {
		return x, nil
	}
	return def, nil
}

func has(v pyval.Value, key string) bool {
	d, ok := v.(*pyval.Dict)
	return ok && d.Has(pyval.Str(key))
}

// functionDocXML is upstream's _generate_function_doc_xml.
func functionDocXML(fns []pyval.Value) (string, error) {
	var param func(name string, meta pyval.Value, required pyval.Value, lvl int) (string, error)
	param = func(name string, meta pyval.Value, required pyval.Value, lvl int) (string, error) {
		indent := strings.Repeat(" ", lvl*2)
		t, err := get(meta, "type", pyval.Str("string"))
		if err != nil {
			return "", err
		}
		d, _ := get(meta, "description", pyval.Str(""))
		pType, pDesc := pyval.StrOf(t), pyval.StrOf(d)
		isRequired := "true"
		if required != nil && required != pyval.None {
			l, ok := required.(*pyval.List)
			if !ok {
				return "", fmt.Errorf("parameter %s: required is a %s, not a list", name, required.TypeName())
			}
			isRequired = "false"
			for _, r := range l.Items {
				if r == pyval.Str(name) {
					isRequired = "true"
				}
			}
		}
		if e, ok := meta.(*pyval.Dict).GetStr("enum"); ok {
			pDesc += fmt.Sprintf(" Enum values: %s.", pyval.StrOf(e))
		}
		items, _ := meta.(*pyval.Dict).GetStr("items")
		if items != nil && has(items, "type") {
			it, _ := get(items, "type", nil)
			pType = fmt.Sprintf("%s[%s]", pType, pyval.StrOf(it))
		} else if ap, ok := meta.(*pyval.Dict).GetStr("additionalProperties"); ok {
			it, err := get(ap, "type", pyval.Str("string"))
			if err != nil {
				return "", fmt.Errorf("parameter %s additionalProperties: %w", name, err)
			}
			pType = fmt.Sprintf("%s[%s]", pType, pyval.StrOf(it))
		}
		attrs := fmt.Sprintf(`name="%s", type="%s", required="%s"`, name, pType, isRequired)
		if def, ok := meta.(*pyval.Dict).GetStr("default"); ok {
			attrs += " " + fmt.Sprintf(`default="%s"`, pyval.Repr(def))
		}
		var b strings.Builder
		b.WriteString(indent + "<param " + strings.ReplaceAll(attrs, ",", "") + ">\n")
		fmt.Fprintf(&b, "%s  <desc>%s</desc>\n", indent, pDesc)
		if props, ok := meta.(*pyval.Dict).GetStr("properties"); ok {
			childReq, _ := get(meta, "required", nil)
			b.WriteString(indent + "  <params>\n")
			pd, ok := props.(*pyval.Dict)
			if !ok {
				return "", fmt.Errorf("parameter %s: properties is a %s", name, props.TypeName())
			}
			for _, kv := range pd.Items() {
				if _, ok := kv.Value.(*pyval.Dict); !ok {
					return "", fmt.Errorf("parameter %s: property %s is a %s", name, pyval.StrOf(kv.Key), kv.Value.TypeName())
				}
				s, err := param(pyval.StrOf(kv.Key), kv.Value, childReq, lvl+2)
				if err != nil {
					return "", err
				}
				b.WriteString(s)
			}
			b.WriteString(indent + "  </params>\n")
		}
		b.WriteString(indent + "</param>\n")
		return b.String(), nil
	}
	blocks := make([]string, 0, len(fns))
	for i, fn := range fns {
		fd, ok := fn.(*pyval.Dict)
		if !ok {
			return "", fmt.Errorf("function doc %d is a %s", i, fn.TypeName())
		}
		name, ok := fd.GetStr("name")
		if !ok {
			return "", fmt.Errorf("function doc %d has no name", i)
		}
		desc, _ := get(fd, "description", pyval.Str(""))
		ps, ok := fd.GetStr("parameters")
		if !ok {
			return "", fmt.Errorf("function %s has no parameters", pyval.StrOf(name))
		}
		props, err := get(ps, "properties", &pyval.Dict{})
		if err != nil {
			return "", err
		}
		req, _ := get(ps, "required", nil)
		var b strings.Builder
		fmt.Fprintf(&b, "<function name=\"%s\">\n  <desc>%s</desc>\n  <params>\n", pyval.StrOf(name), pyval.StrOf(desc))
		pd, ok := props.(*pyval.Dict)
		if !ok {
			return "", fmt.Errorf("function %s: properties is a %s", pyval.StrOf(name), props.TypeName())
		}
		for _, kv := range pd.Items() {
			if _, ok := kv.Value.(*pyval.Dict); !ok {
				return "", fmt.Errorf("function %s: property %s is a %s", pyval.StrOf(name), pyval.StrOf(kv.Key), kv.Value.TypeName())
			}
			s, err := param(pyval.StrOf(kv.Key), kv.Value, req, 2)
			if err != nil {
				return "", fmt.Errorf("function %s: %w", pyval.StrOf(name), err)
			}
			b.WriteString(s)
		}
		b.WriteString("  </params>\n</function>\n")
		blocks = append(blocks, b.String())
	}
	return strings.Join(blocks, "\n"), nil
}

// functionDocPython is upstream's _generate_function_doc_python.
func functionDocPython(fns []pyval.Value) (string, error) {
	var pyType func(meta pyval.Value) (string, error)
	pyType = func(meta pyval.Value) (string, error) {
		tv, err := get(meta, "type", pyval.Str("string"))
		if err != nil {
			return "", err
		}
		t, isStr := tv.(pyval.Str)
		if !isStr {
			return pyval.StrOf(tv), nil
		}
		switch t {
		case "string":
			return "str", nil
		case "number":
			return "float", nil
		case "integer":
			return "int", nil
		case "boolean":
			return "bool", nil
		}
		if (t == "array" || t == "list" || t == "tuple") && has(meta, "items") {
			items, _ := get(meta, "items", nil)
			inner, err := pyType(items)
			if err != nil {
				return "", err
			}
			return "list[" + inner + "]", nil
		}
		if t == "object" || t == "dict" {
			if has(meta, "additionalProperties") {
				ap, _ := get(meta, "additionalProperties", nil)
				inner, err := pyType(ap)
				if err != nil {
					return "", err
				}
				return "dict[str, " + inner + "]", nil
			}
			return "dict", nil
		}
		return string(t), nil
	}
	var paramDoc func(name string, meta pyval.Value, depth int) ([]string, error)
	paramDoc = func(name string, meta pyval.Value, depth int) ([]string, error) {
		indent := strings.Repeat(" ", 8+4*depth)
		pt, err := pyType(meta)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", name, err)
		}
		d, _ := get(meta, "description", pyval.Str(""))
		desc := pyval.StrOf(d)
		md := meta.(*pyval.Dict)
		if e, ok := md.GetStr("enum"); ok {
			desc += fmt.Sprintf(" Enum values: %s.", pyval.StrOf(e))
		}
		defNote := ""
		if def, ok := md.GetStr("default"); ok {
			defNote = ", default=" + pyval.Repr(def)
		}
		lines := []string{fmt.Sprintf("%s%s (%s%s): %s\n", indent, name, pt, defNote, desc)}
		if props, ok := md.GetStr("properties"); ok {
			pd, ok := props.(*pyval.Dict)
			if !ok {
				return nil, fmt.Errorf("parameter %s: properties is a %s", name, props.TypeName())
			}
			for _, kv := range pd.Items() {
				if _, ok := kv.Value.(*pyval.Dict); !ok {
					return nil, fmt.Errorf("parameter %s: property %s is a %s", name, pyval.StrOf(kv.Key), kv.Value.TypeName())
				}
				sub, err := paramDoc(pyval.StrOf(kv.Key), kv.Value, depth+1)
				if err != nil {
					return nil, err
				}
				lines = append(lines, sub...)
			}
		}
		return lines, nil
	}
	var docs []string
	for i, fn := range fns {
		fd, ok := fn.(*pyval.Dict)
		if !ok {
			return "", fmt.Errorf("function doc %d is a %s", i, fn.TypeName())
		}
		name, ok := fd.GetStr("name")
		if !ok {
			return "", fmt.Errorf("function doc %d has no name", i)
		}
		desc, _ := get(fd, "description", pyval.Str(""))
		var b strings.Builder
		fmt.Fprintf(&b, "# Function: %s\n    \"\"\"\n    %s\n\n", pyval.StrOf(name), pyval.StrOf(desc))
		ps, _ := get(fd, "parameters", &pyval.Dict{})
		props, err := get(ps, "properties", &pyval.Dict{})
		if err != nil {
			return "", err
		}
		if pd, ok := props.(*pyval.Dict); ok && pd.Len() > 0 {
			b.WriteString("    Args:\n")
			for _, kv := range pd.Items() {
				if _, ok := kv.Value.(*pyval.Dict); !ok {
					return "", fmt.Errorf("function %s: property %s is a %s", pyval.StrOf(name), pyval.StrOf(kv.Key), kv.Value.TypeName())
				}
				lines, err := paramDoc(pyval.StrOf(kv.Key), kv.Value, 0)
				if err != nil {
					return "", fmt.Errorf("function %s: %w", pyval.StrOf(name), err)
				}
				b.WriteString(strings.Join(lines, ""))
			}
		}
		b.WriteString("    \"\"\"\n")
		docs = append(docs, b.String(), "\n")
	}
	return strings.Join(docs, "\n\n"), nil
}
