package prompt

import (
	"encoding/json"
	"fmt"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// SystemPrompt is upstream's formulate_system_prompt
// (bfcl_eval/model_handler/utils.py): the system prompt of configuration
// cfg for the given function documents (as the handler receives them, i.e.
// with the language hints of dataset.InferenceView), byte for byte.
func SystemPrompt(cfg Config, functions []json.RawMessage) (string, error) {
	if err := cfg.Validate(); err != nil {
		return "", err
	}
	docs, err := FormatFunctionDoc(functions, cfg.FuncDocFormat)
	if err != nil {
		return "", err
	}
	st := styles[cfg.Style]
	callTmpl := st.toolCallNoTag
	if cfg.ToolCallTag {
		callTmpl = st.toolCallWithTag
	}
	callFormat, err := pyval.FormatFields(callTmpl, map[string]pyval.Value{
		"output_format": pyval.Str(outputFormat[cfg.ReturnFormat]),
		"param_types":   pyval.Str(paramTypes[cfg.ReturnFormat]),
	})
	if err != nil {
		return "", err
	}
	tools, err := pyval.FormatFields(st.availableTools, map[string]pyval.Value{
		"format":    pyval.Str(cfg.FuncDocFormat),
		"functions": pyval.Str(docs),
	})
	if err != nil {
		return "", err
	}
	return pyval.FormatFields(promptTemplates[cfg.PromptFormat], map[string]pyval.Value{
		"persona":            pyval.Str(st.persona),
		"task":               pyval.Str(st.task),
		"tool_call_format":   pyval.Str(callFormat),
		"multiturn_behavior": pyval.Str(st.multiturnBehavior),
		"available_tools":    pyval.Str(tools),
	})
}

// FormatFunctionDoc is upstream's format_function_doc: the function
// documents rendered as json.dumps(functions, indent=4) (DocJSON), as the
// XML listing of _generate_function_doc_xml (DocXML) or as the Python
// docstring listing of _generate_function_doc_python (DocPython).
func FormatFunctionDoc(functions []json.RawMessage, docFormat string) (string, error) {
	fns := make([]pyval.Value, len(functions))
	for i, raw := range functions {
		v, err := pyval.FromJSON(raw)
		if err != nil {
			return "", fmt.Errorf("prompt: function document %d is not valid JSON: %w", i, err)
		}
		fns[i] = v
	}
	var (
		out string
		err error
	)
	switch docFormat {
	case DocJSON:
		var b []byte
		b, err = pyval.AppendJSONWith(nil, pyval.NewList(fns...), pyval.JSONOptions{ASCII: true, Indent: 4})
		out = string(b)
	case DocXML:
		out, err = functionDocXML(fns)
	case DocPython:
		out, err = functionDocPython(fns)
	default:
		return "", fmt.Errorf("prompt: Invalid function doc format: %s", docFormat)
	}
	if err != nil {
		return "", fmt.Errorf("prompt: function documents in %s format: %w", docFormat, err)
	}
	return out, nil
}
