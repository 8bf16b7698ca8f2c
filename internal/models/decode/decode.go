// Package decode turns a model's raw single-turn output (the "result" field
// of a BFCL result line) into the forms upstream's checkers consume: the AST
// form (a list of one-key dicts {function name: {param: value}}) and the
// execution form (a list of call strings such as "f(a=1,b='x')").
//
// It follows upstream's OpenAICompletionsHandler (FC mode: each call is a
// {name: "<JSON arguments>"} dict) and the default prompt-mode decoders of
// bfcl_eval/model_handler/utils.py (Python via ast.parse, Java and
// JavaScript via the tree-sitter based parsers); with Options.Handler, the
// decode_ast / decode_execute of any upstream handler class instead
// (handlers.go: one decoder per decoding family). Decode failures are
// returned as *pyval.Exception values whose text is Python's str(e) for the
// exception upstream would raise, because eval_runner embeds that text in
// its error messages.
package decode

import (
	"encoding/json"
	"fmt"
	"iter"
	"slices"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Mode values for Options.Mode.
const (
	ModeFC     = "fc"
	ModePrompt = "prompt"
)

// Language values for Options.Language (upstream's ReturnFormat for the
// three single-turn languages).
const (
	LangPython     = "python"
	LangJava       = "java"
	LangJavaScript = "javascript"
)

// Options selects the decoder.
type Options struct {
	// Spec is the model's mode ("" means ModeFC here), underscore_to_dot
	// and handler class.
	Spec
	// Language is the return format for prompt-mode decoding: LangPython
	// ("" means LangPython), LangJava or LangJavaScript. FC decoding ignores it.
	Language string
	// ToolCallTag: prompt-mode answers hold their calls inside
	// <TOOLCALL>...</TOOLCALL> (format-sensitivity configurations with
	// tool_call_tag=True); AST decoding only, as upstream.
	ToolCallTag bool
}

func (o Options) fc() bool { return o.Mode == "" || o.Mode == ModeFC }

// Call is one decoded function call: {Name: Args}.
type Call struct {
	Name string
	// Args holds the keyword arguments in the model's order; keys are
	// pyval.Str (except the odd None key a prompt-mode "**kw" produces).
	Args *pyval.Dict
}

// ParseResult converts the raw "result" field of a result line into the
// Python value upstream sees after json.load of the result file.
func ParseResult(raw json.RawMessage) (pyval.Value, error) {
	v, err := pyval.FromJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("decode: result field is not valid JSON: %w", err)
	}
	return v, nil
}

// DecodeAST is handler.decode_ast(result, language, has_tool_call_tag=False)
// for the raw result field. The returned value is the Python-level decoded
// output (normally a *pyval.List of one-key *pyval.Dict); use Calls to check
// it is in function-calling format. A decode failure is returned as a
// *pyval.Exception whose Error() is Python's str(e). A result field that is
// not JSON at all is a plain error (upstream could not load the file).
func DecodeAST(raw json.RawMessage, opts Options) (pyval.Value, error) {
	v, err := ParseResult(raw)
	if err != nil {
		return nil, err
	}
	return DecodeASTValue(v, opts)
}

// DecodeASTValue is DecodeAST for an already parsed result value.
func DecodeASTValue(result pyval.Value, opts Options) (pyval.Value, error) {
	if opts.Handler != "" {
		h, err := handlerFor(opts)
		if err != nil {
			return nil, err
		}
		lang := opts.Language
		if lang == "" {
			lang = LangPython
		}
		return h.ast(result, opts.fc(), lang, opts.ToolCallTag)
	}
	if opts.fc() {
		return decodeFC(result)
	}
	return decodePromptAST(result, opts.Language, opts.ToolCallTag)
}

// DecodeExecute is handler.decode_execute(result, has_tool_call_tag=False):
// FC mode is convert_to_function_call (`name(k=repr(v),...)`, no spaces),
// prompt mode default_decode_execute_prompting (Python only, ", " separated,
// nested calls rendered as calls).
func DecodeExecute(raw json.RawMessage, opts Options) ([]string, error) {
	v, err := ParseResult(raw)
	if err != nil {
		return nil, err
	}
	return DecodeExecuteValue(v, opts)
}

// DecodeExecuteValue is DecodeExecute for an already parsed result value.
func DecodeExecuteValue(result pyval.Value, opts Options) ([]string, error) {
	if opts.Handler != "" {
		h, err := handlerFor(opts)
		if err != nil {
			return nil, err
		}
		return h.exec(result, opts.fc())
	}
	if opts.fc() {
		return convertToFunctionCall(result)
	}
	decoded, err := decodePromptAST(result, LangPython, false)
	if err != nil {
		return nil, err
	}
	return executionList(decoded)
}

// Calls is is_function_calling_format_output: it reports whether decoded is
// a list whose items are one-key dicts with a dict value, and returns those
// calls. An empty list is in format. Names that are not str (possible only
// in theory) make the output not in format for this Go view.
func Calls(decoded pyval.Value) ([]Call, bool) {
	l, ok := decoded.(*pyval.List)
	if !ok {
		return nil, false
	}
	calls := make([]Call, 0, len(l.Items))
	for _, it := range l.Items {
		d, ok := it.(*pyval.Dict)
		if !ok || d.Len() != 1 {
			return nil, false
		}
		k, v := d.At(0)
		args, ok := v.(*pyval.Dict)
		if !ok {
			return nil, false
		}
		name, ok := k.(pyval.Str)
		if !ok {
			return nil, false
		}
		calls = append(calls, Call{Name: string(name), Args: args})
	}
	return calls, true
}

// IsEmptyOutput is upstream's is_empty_output: output not in
// function-calling format, [], or a single empty dict counts as no call.
func IsEmptyOutput(decoded pyval.Value) bool {
	calls, ok := Calls(decoded)
	if !ok {
		return true
	}
	if len(calls) == 0 {
		return true
	}
	// [{}] is not in format (a call dict needs one key), so it was handled
	// above; upstream's extra len(...)==0 test can never fire after it.
	return false
}

// HasCall is the relevance runner's "contains a function call" predicate:
// decode_ast (with the Python return format) succeeded and the output is
// not empty. It also returns the decoded value (nil on failure) and the
// decode error text (as str(e)), which the relevance verdict reports.
func HasCall(result pyval.Value, opts Options) (has bool, decoded pyval.Value, decodeErr error) {
	o := opts
	o.Language = LangPython
	decoded, err := DecodeASTValue(result, o)
	if err != nil {
		return false, nil, err
	}
	return !IsEmptyOutput(decoded), decoded, nil
}

// iterate is Python's iteration over v for the types a JSON value can have:
// a list yields its items, a dict its keys, a str its characters; anything
// else raises TypeError "'<type>' object is not iterable". A str's
// characters are yielded one at a time: every caller stops at the first
// item that is not a dict, so a long text reply costs one character, not a
// value per character.
func iterate(v pyval.Value) (iter.Seq[pyval.Value], error) {
	switch x := v.(type) {
	case *pyval.List:
		return slices.Values(x.Items), nil
	case pyval.Tuple:
		return slices.Values([]pyval.Value(x)), nil
	case *pyval.Dict:
		return slices.Values(x.Keys()), nil
	case pyval.Str:
		return func(yield func(pyval.Value) bool) {
			for _, r := range string(x) {
				if !yield(pyval.Str(string(r))) {
					return
				}
			}
		}, nil
	}
	return nil, pyval.NewTypeError("'%s' object is not iterable", typeName(v))
}

func typeName(v pyval.Value) string {
	if v == nil {
		return "NoneType"
	}
	return v.TypeName()
}

// decodeFC is OpenAICompletionsHandler.decode_ast in FC mode: for each item,
// the first key names the call and its value is json.loads'ed.
func decodeFC(result pyval.Value) (pyval.Value, error) {
	items, err := iterate(result)
	if err != nil {
		return nil, err
	}
	out := make([]pyval.Value, 0, 4)
	for it := range items {
		d, ok := it.(*pyval.Dict)
		if !ok {
			return nil, pyval.NewAttributeError("'%s' object has no attribute 'keys'", typeName(it))
		}
		if d.Len() == 0 {
			return nil, pyval.NewIndexError("list index out of range")
		}
		name, argStr := d.At(0)
		params, err := jsonLoads(argStr)
		if err != nil {
			return nil, err
		}
		call := pyval.NewDictCap(1)
		call.Set(name, params)
		out = append(out, call)
	}
	return pyval.NewList(out...), nil
}

// jsonLoads is json.loads(v) for a value that should be a str.
func jsonLoads(v pyval.Value) (pyval.Value, error) {
	s, ok := v.(pyval.Str)
	if !ok {
		return nil, pyval.NewTypeError("the JSON object must be str, bytes or bytearray, not %s", typeName(v))
	}
	if len(s) >= 3 && s[:3] == "\ufeff" {
		return nil, pyval.NewException("JSONDecodeError", "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)")
	}
	return pyval.FromJSONString(string(s))
}

// eachCall walks calls as upstream's `for item in calls: for name, args in
// item.items()` does, calling f with each name and its arguments dict; with
// loadStr a str argument value is json.loads'ed first
// (convert_to_function_call). A non-dict item or arguments value is
// Python's AttributeError on .items().
func eachCall(calls pyval.Value, loadStr bool, f func(name pyval.Value, args *pyval.Dict) error) error {
	items, err := iterate(calls)
	if err != nil {
		return err
	}
	for it := range items {
		d, ok := it.(*pyval.Dict)
		if !ok {
			return pyval.NewAttributeError("'%s' object has no attribute 'items'", typeName(it))
		}
		for _, kv := range d.Items() {
			val := kv.Value
			if _, isStr := val.(pyval.Str); isStr && loadStr {
				if val, err = jsonLoads(val); err != nil {
					return err
				}
			}
			args, ok := val.(*pyval.Dict)
			if !ok {
				return pyval.NewAttributeError("'%s' object has no attribute 'items'", typeName(val))
			}
			if err := f(kv.Key, args); err != nil {
				return err
			}
		}
	}
	return nil
}

// convertToFunctionCall is utils.convert_to_function_call.
func convertToFunctionCall(result pyval.Value) ([]string, error) {
	if d, ok := result.(*pyval.Dict); ok {
		result = pyval.NewList(d)
	}
	var out []string
	err := eachCall(result, true, func(name pyval.Value, args *pyval.Dict) error {
		b := make([]byte, 0, 64)
		b = append(b, pyval.StrOf(name)...)
		b = append(b, '(')
		for i, a := range args.Items() {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, pyval.StrOf(a.Key)...)
			b = append(b, '=')
			b = pyval.AppendRepr(b, a.Value)
		}
		out = append(out, string(append(b, ')')))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// executionList is decoded_output_to_execution_list.
func executionList(decoded pyval.Value) ([]string, error) {
	var out []string
	err := eachCall(decoded, false, func(name pyval.Value, args *pyval.Dict) error {
		b := append([]byte(pyval.StrOf(name)), '(')
		for i, a := range args.Items() {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, pyval.StrOf(a.Key)...)
			b = append(b, '=')
			var err error
			if b, err = appendNestedValue(b, a.Value); err != nil {
				return err
			}
		}
		out = append(out, string(append(b, ')')))
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// appendNestedValue is parse_nested_value: a dict whose values are all
// dicts is rendered as a call of its first key, another dict as
// {'k': v, ...} (keys through str(), not repr()), anything else by repr().
func appendNestedValue(b []byte, v pyval.Value) ([]byte, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return pyval.AppendRepr(b, v), nil
	}
	allDicts := true
	for _, x := range d.Values() {
		if _, ok := x.(*pyval.Dict); !ok {
			allDicts = false
			break
		}
	}
	var err error
	if allDicts {
		if d.Len() == 0 {
			return nil, pyval.NewIndexError("list index out of range")
		}
		k, a := d.At(0)
		args := a.(*pyval.Dict)
		b = append(b, pyval.StrOf(k)...)
		b = append(b, '(')
		for i, kv := range args.Items() {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, pyval.StrOf(kv.Key)...)
			b = append(b, '=')
			if b, err = appendNestedValue(b, kv.Value); err != nil {
				return nil, err
			}
		}
		return append(b, ')'), nil
	}
	b = append(b, '{')
	for i, kv := range d.Items() {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, '\'')
		b = append(b, pyval.StrOf(kv.Key)...)
		b = append(b, "': "...)
		if b, err = appendNestedValue(b, kv.Value); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// WrongFormatError reports decoded output that is not in function-calling
// format (upstream's "ast_decoder:decoder_wrong_output_format").
type WrongFormatError struct {
	// Decoded is what decode_ast returned.
	Decoded pyval.Value
}

func (e *WrongFormatError) Error() string {
	return "decoded output is not a list of {name: {args}} calls: " + pyval.Repr(e.Decoded)
}

// DecodeCalls is DecodeAST followed by Calls, for callers that only want
// the calls: a decode failure is the *pyval.Exception upstream raises, an
// output not in call format a *WrongFormatError.
func DecodeCalls(raw json.RawMessage, opts Options) ([]Call, error) {
	v, err := DecodeAST(raw, opts)
	if err != nil {
		return nil, err
	}
	calls, ok := Calls(v)
	if !ok {
		return nil, &WrongFormatError{Decoded: v}
	}
	return calls, nil
}
