package decode

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Decoding families: the distinct decode_ast / decode_execute behaviours of
// upstream's handler classes (bfcl_eval/model_handler/api_inference/*.py
// and local_inference/*.py at the pinned commit). Each is named after the
// handler class that defines it.
const (
	FamilyPrompt     = "prompt"            // default_decode_*_prompting (OSSHandler and the prompt mode of the API handlers)
	FamilyFCJSON     = "fc_json"           // OpenAICompletionsHandler FC: [{name: "<JSON arguments>"}]
	FamilyFCDict     = "fc_dict"           // Nova, Arch, MistralFC, PhiFC, Granite3FC, Gemini FC: [{name: {arguments}}] as stored
	FamilyToolCall   = "tool_call_json"    // QwenFCHandler: <tool_call>\n{"name", "arguments"}\n</tool_call> blocks
	FamilyXLAM       = "xlam_json"         // SalesforceQwenHandler: a JSON list of {"name", "arguments"}
	FamilyGeminiTool = "gemini_tool_code"  // GeminiHandler prompt: ```tool_code fences around Python calls
	FamilyHammer     = "hammer_json"       // HammerHandler: JSON {"name", "arguments"} list, fences removed
	FamilyFalcon     = "falcon_tool_call"  // Falcon3FCHandler: the first <tool_call> block
	FamilyCohere     = "cohere"            // CohereHandler: [{"tool_name", "parameters"}]
	FamilyNameArgs   = "name_arguments"    // MiningHandler / DMCitoHandler: [{"name", "arguments"}] as stored
	FamilyLlama31    = "llama_3_1_json"    // LlamaHandler_3_1: <|python_tag|> JSON with "parameters"
	FamilyPhiPrompt  = "phi_prompt"        // PhiHandler: ```json / ```python prefixes
	FamilyNemotron   = "nemotron_toolcall" // NemotronHandler: <TOOLCALL>...</TOOLCALL>
	FamilyGorilla    = "gorilla"           // GorillaHandler
	FamilyFuncGemma  = "functiongemma"     // FunctionGemmaHandler
	FamilyGraniteFC  = "granite_function_call"
	FamilyGLM        = "glm"        // GLMHandler: name line, JSON arguments line
	FamilyMiniCPMFC  = "minicpm_fc" // MiniCPMFCHandler: <|tool_call_start|> Python calls
	FamilyThinkAgent = "think_agent"
)

// Handler is one upstream handler class as the evaluator uses it: its
// decode_ast and decode_execute. Classes whose behaviour depends on
// is_fc_model take the mode from Options.Mode.
type Handler struct {
	// Class is upstream's class name (what --handler and models.yaml's
	// handler: take).
	Class string
	// fcFamily and promptFamily are the family in FC and prompt mode.
	fcFamily, promptFamily string
	// Note says where upstream's own handler is broken (empty if it works).
	Note string
	// Unconstructible: upstream's evaluator cannot create the handler, so
	// no result of the model can be scored (Note says why).
	Unconstructible bool

	ast  func(result pyval.Value, fc bool, lang string, tag bool) (pyval.Value, error)
	exec func(result pyval.Value, fc bool) ([]string, error)
}

// Family is the decoding family the class uses in the given mode.
func (h *Handler) Family(fc bool) string {
	if fc {
		return h.fcFamily
	}
	return h.promptFamily
}

// LookupHandler returns the upstream handler class of that name.
func LookupHandler(class string) (*Handler, bool) {
	h, ok := handlers[class]
	return h, ok
}

// HandlerClasses lists every handler class known, sorted.
func HandlerClasses() []string {
	out := make([]string, 0, len(handlers))
	for k := range handlers {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// CheckHandler returns an error naming the known classes when class is
// not one of them ("" is the default decoding and always valid).
func CheckHandler(class string) error {
	if class == "" {
		return nil
	}
	if _, ok := handlers[class]; !ok {
		return fmt.Errorf("decode: unknown upstream handler class %q; known: %s", class, strings.Join(HandlerClasses(), ", "))
	}
	return nil
}

func handlerFor(opts Options) (*Handler, error) {
	h, ok := handlers[opts.Handler]
	if !ok {
		return nil, CheckHandler(opts.Handler)
	}
	return h, nil
}

// modeSwitch is the decoding of the API handlers that follow is_fc_model:
// FC with JSON-string arguments, or the default prompt decoder.
func modeSwitch(class string) *Handler {
	return &Handler{Class: class, fcFamily: FamilyFCJSON, promptFamily: FamilyPrompt,
		ast: func(r pyval.Value, fc bool, lang string, tag bool) (pyval.Value, error) {
			if fc {
				return decodeFC(r)
			}
			return decodePromptAST(r, lang, tag)
		},
		exec: func(r pyval.Value, fc bool) ([]string, error) {
			if fc {
				return convertToFunctionCall(r)
			}
			return promptExecute(r)
		},
	}
}

// promptOnly is a class that always decodes with the default prompt
// decoder, whatever is_fc_model says (OSSHandler and NvidiaHandler).
func promptOnly(class string) *Handler {
	return &Handler{Class: class, fcFamily: FamilyPrompt, promptFamily: FamilyPrompt,
		ast: func(r pyval.Value, _ bool, lang string, tag bool) (pyval.Value, error) {
			return decodePromptAST(r, lang, tag)
		},
		exec: func(r pyval.Value, _ bool) ([]string, error) { return promptExecute(r) },
	}
}

// fixed is a class with one decoder in both modes.
func fixed(class, family string, ast func(pyval.Value, string, bool) (pyval.Value, error), exec func(pyval.Value) ([]string, error)) *Handler {
	return &Handler{Class: class, fcFamily: family, promptFamily: family,
		ast:  func(r pyval.Value, _ bool, lang string, tag bool) (pyval.Value, error) { return ast(r, lang, tag) },
		exec: func(r pyval.Value, _ bool) ([]string, error) { return exec(r) },
	}
}

func promptExecute(r pyval.Value) ([]string, error) {
	decoded, err := decodePromptAST(r, LangPython, false)
	if err != nil {
		return nil, err
	}
	return executionList(decoded)
}

var handlers = func() map[string]*Handler {
	m := map[string]*Handler{}
	add := func(h *Handler) { m[h.Class] = h }
	// OpenAICompletionsHandler and the subclasses that keep its decoders,
	// and the other API handlers whose decoders are the same two.
	for _, c := range []string{"OpenAICompletionsHandler", "OpenAIResponsesHandler", "ClaudeHandler", "MistralHandler",
		"QwenAPIHandler", "QwenAgentThinkHandler", "DeepSeekAPIHandler", "FireworksHandler", "FunctionaryHandler",
		"GLMAPIHandler", "GoGoAgentHandler", "GrokHandler", "KimiHandler", "LingAPIHandler", "NanbeigeAPIHandler",
		"NovitaHandler", "WriterHandler"} {
		add(modeSwitch(c))
	}
	nothink := modeSwitch("QwenAgentNoThinkHandler")
	nothink.Unconstructible = true
	nothink.Note = "upstream's evaluator cannot construct it: its __init__(model_name, temperature) rejects the registry_name and is_fc_model keywords get_handler passes (TypeError), so evaluation of this model stops"
	add(nothink)
	// OSSHandler subclasses without their own decoders, and NvidiaHandler.
	for _, c := range []string{"OSSHandler", "QwenHandler", "LlamaHandler", "GemmaHandler", "BielikHandler",
		"DeepseekReasoningHandler", "MiniCPMHandler", "QuickTestingOSSHandler", "NvidiaHandler"} {
		add(promptOnly(c))
	}
	// Arguments already decoded: [{name: {args}}] stored as is.
	add(fixed("NovaHandler", FamilyFCDict, decodeStoredList, execStoredList))
	add(fixed("MistralFCHandler", FamilyFCDict, decodeStoredList, execStoredList))
	for _, c := range []string{"ArchHandler", "PhiFCHandler", "Granite3FCHandler"} {
		add(fixed(c, FamilyFCDict, decodeStoredDicts, execStoredDicts))
	}
	add(&Handler{Class: "GeminiHandler", fcFamily: FamilyFCDict, promptFamily: FamilyGeminiTool,
		ast: func(r pyval.Value, fc bool, lang string, tag bool) (pyval.Value, error) {
			if fc {
				if !isList(r) {
					return pyval.NewList(r), nil
				}
				return r, nil
			}
			s, err := geminiUnfence(r)
			if err != nil {
				return nil, err
			}
			return decodePromptAST(pyval.Str(s), lang, tag)
		},
		exec: func(r pyval.Value, fc bool) ([]string, error) {
			if fc {
				return execGeminiFC(r)
			}
			s, err := geminiUnfence(r)
			if err != nil {
				return nil, err
			}
			return promptExecute(pyval.Str(s))
		},
	})
	for _, c := range []string{"QwenFCHandler", "Granite4FCHandler", "NanbeigeFCHandler", "PelicanVLFCHandler"} {
		add(fixed(c, FamilyToolCall, decodeToolCallBlocks, execToolCallBlocks))
	}
	add(fixed("SalesforceQwenHandler", FamilyXLAM, decodeXLAM(true), execXLAM(true)))
	add(fixed("SalesforceLlamaHandler", FamilyXLAM, decodeXLAM(true), execXLAM(true)))
	add(fixed("BitAgentHandler", FamilyXLAM, decodeXLAM(false), execXLAM(false)))
	add(fixed("HammerHandler", FamilyHammer, decodeHammer, execHammer))
	add(fixed("Falcon3FCHandler", FamilyFalcon, decodeFalcon, execFalcon))
	add(fixed("CohereHandler", FamilyCohere, decodeCohere, execCohere))
	// MiningHandler.decode_ast (DMCitoHandler's is a copy)
	add(fixed("MiningHandler", FamilyNameArgs, objectsAST(iterItems, "name", "arguments"), execNameArgs))
	add(fixed("DMCitoHandler", FamilyNameArgs, objectsAST(iterItems, "name", "arguments"), execNameArgs))
	add(fixed("LlamaHandler_3_1", FamilyLlama31, objectsAST(llama31Calls, "name", "parameters"), objectsExec(llama31Calls, "name", "parameters", ",")))
	add(fixed("PhiHandler", FamilyPhiPrompt, decodePhi, execPhi))
	add(fixed("NemotronHandler", FamilyNemotron, decodeNemotron, execNemotron))
	gorilla := fixed("GorillaHandler", FamilyGorilla, decodeGorilla, execGorilla)
	gorilla.Note = "upstream's decode_execute passes has_tool_call_tag as the language to ast_parse, which raises NotImplementedError(\"Unsupported language: False\") for every answer: no multi-turn call of this model is ever executed"
	add(gorilla)
	add(fixed("GraniteFunctionCallingHandler", FamilyGraniteFC, decodeGranite, execGranite))
	glm := fixed("GLMHandler", FamilyGLM, decodeGLM, execGLM)
	glm.Note = "upstream's decode_execute hands a one-line answer (a str) to convert_to_function_call, which raises AttributeError ('str' object has no attribute 'items') unless the answer is empty"
	add(glm)
	add(fixed("FunctionGemmaHandler", FamilyFuncGemma, decodeFunctionGemma, execFunctionGemma))
	add(fixed("MiniCPMFCHandler", FamilyMiniCPMFC, decodeMiniCPMFC, execMiniCPMFC))
	think := fixed("ThinkAgentHandler", FamilyThinkAgent, objectsAST(thinkAgentJSON, "name", "arguments"), execThinkAgent)
	think.Note = "upstream's decode_execute formats each call as a str and then calls .items() on it: it raises AttributeError for every answer holding a call, so no multi-turn call of this model is ever executed"
	add(think)
	return m
}()

// decodeStoredList is NovaHandler / MistralFCHandler.decode_ast: a list is
// returned as is.
func decodeStoredList(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
	if !isList(r) {
		return nil, notAListError(r)
	}
	return r, nil
}

func execStoredList(r pyval.Value) ([]string, error) {
	if !isList(r) {
		return nil, notAListError(r)
	}
	return convertToFunctionCall(r)
}

// decodeStoredDicts is ArchHandler.decode_ast (also PhiFC, Granite3FC): a
// list of dicts is returned as is.
func decodeStoredDicts(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
	if !listOfDicts(r) {
		return nil, notAListError(r)
	}
	return r, nil
}

func execStoredDicts(r pyval.Value) ([]string, error) {
	if !listOfDicts(r) {
		return nil, notAListError(r)
	}
	return convertToFunctionCall(r)
}

// execGeminiFC is GeminiHandler.decode_execute in FC mode.
func execGeminiFC(r pyval.Value) ([]string, error) {
	calls, err := iterItems(r)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, c := range calls {
		kvs, err := items(c)
		if err != nil {
			return nil, err
		}
		for _, kv := range kvs {
			s, err := callText(kv.Key, kv.Value, ",")
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// geminiUnfence removes the ```tool_code fence as GeminiHandler does in
// prompt mode.
func geminiUnfence(r pyval.Value) (string, error) {
	s, err := strArg(r, "replace")
	if err != nil {
		return "", err
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "```tool_code\n", ""), "\n```", ""), nil
}

var toolCallBlock = regexp.MustCompile(`(?s)<tool_call>\n(.*?)\n</tool_call>`)

// toolCallBlocks is QwenFCHandler._extract_tool_calls followed by its
// list-of-dicts check: every block that is JSON, in order.
func toolCallBlocks(r pyval.Value) ([]*pyval.Dict, error) {
	s, err := reSubject(r)
	if err != nil {
		return nil, err
	}
	var calls []*pyval.Dict
	for _, m := range toolCallBlock.FindAllStringSubmatch(s, -1) {
		v, err := pyval.FromJSONString(m[1])
		if err != nil {
			continue
		}
		d, ok := v.(*pyval.Dict)
		if !ok {
			return nil, notAListError(r)
		}
		calls = append(calls, d)
	}
	return calls, nil
}

// toolCallList is [{c["name"]: arg(c["arguments"])} for c in the tool-call
// blocks of r], the list both of QwenFCHandler's readings build.
func toolCallList(r pyval.Value, arg func(pyval.Value) (pyval.Value, error)) (*pyval.List, error) {
	calls, err := toolCallBlocks(r)
	if err != nil {
		return nil, err
	}
	out := pyval.NewList()
	for _, c := range calls {
		name, err := getItem(c, "name")
		if err != nil {
			return nil, err
		}
		a, err := getItem(c, "arguments")
		if err != nil {
			return nil, err
		}
		if a, err = arg(a); err != nil {
			return nil, err
		}
		d, err := oneCall(name, a)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, d)
	}
	return out, nil
}

func decodeToolCallBlocks(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
	// the arguments as a new dict of their items
	out, err := toolCallList(r, func(a pyval.Value) (pyval.Value, error) {
		kvs, err := items(a)
		if err != nil {
			return nil, err
		}
		return pyval.DictFromItems(kvs), nil
	})
	if err != nil {
		return nil, err // no typed nil in the interface
	}
	return out, nil
}

func execToolCallBlocks(r pyval.Value) ([]string, error) {
	decoded, err := toolCallList(r, func(a pyval.Value) (pyval.Value, error) { return a, nil })
	if err != nil {
		return nil, err
	}
	return convertToFunctionCall(decoded)
}

// xlamCalls is the JSON reading of SalesforceQwenHandler: one JSON value
// (a non-list wrapped in a list) or, when that is not JSON and fallback is
// set, one JSON value per ";"-separated part.
func xlamCalls(r pyval.Value, fallback bool) ([]pyval.Value, error) {
	v, err := jsonLoads(r)
	if err != nil {
		if !fallback || !pyval.IsException(err, "JSONDecodeError") {
			return nil, err
		}
		s := string(r.(pyval.Str))
		var out []pyval.Value
		for _, part := range strings.Split(s, ";") {
			x, err := pyval.FromJSONString(pyval.Strip(part))
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	}
	if l, ok := v.(*pyval.List); ok {
		return l.Items, nil
	}
	return []pyval.Value{v}, nil
}

// nameArgs reads call["name"] and call[argsKey].
func nameArgs(call pyval.Value, nameKey, argsKey string) (pyval.Value, pyval.Value, error) {
	name, err := getItem(call, nameKey)
	if err != nil {
		return nil, nil, err
	}
	args, err := getItem(call, argsKey)
	if err != nil {
		return nil, nil, err
	}
	return name, args, nil
}

// astOfObjects is [{c[nameKey]: c[argsKey]} for c in calls].
func astOfObjects(calls []pyval.Value, nameKey, argsKey string) (pyval.Value, error) {
	out := pyval.NewList()
	for _, c := range calls {
		name, args, err := nameArgs(c, nameKey, argsKey)
		if err != nil {
			return nil, err
		}
		d, err := oneCall(name, args)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, d)
	}
	return out, nil
}

// objectsAST is the decode_ast of the handlers that read a list of call
// objects (extract) and return [{c[nameKey]: c[argsKey]} for c in calls].
func objectsAST(extract func(pyval.Value) ([]pyval.Value, error), nameKey, argsKey string) func(pyval.Value, string, bool) (pyval.Value, error) {
	return func(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
		calls, err := extract(r)
		if err != nil {
			return nil, err
		}
		return astOfObjects(calls, nameKey, argsKey)
	}
}

// objectsExec is the matching decode_execute: f"{name}({sep.join(k=repr(v))})".
func objectsExec(extract func(pyval.Value) ([]pyval.Value, error), nameKey, argsKey, sep string) func(pyval.Value) ([]string, error) {
	return func(r pyval.Value) ([]string, error) {
		calls, err := extract(r)
		if err != nil {
			return nil, err
		}
		return execOfObjects(calls, nameKey, argsKey, sep)
	}
}

// execOfObjects is [f"{c[nameKey]}({sep.join(k=repr(v))})" for c in calls].
func execOfObjects(calls []pyval.Value, nameKey, argsKey, sep string) ([]string, error) {
	var out []string
	for _, c := range calls {
		name, args, err := nameArgs(c, nameKey, argsKey)
		if err != nil {
			return nil, err
		}
		s, err := callText(name, args, sep)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func decodeXLAM(fallback bool) func(pyval.Value, string, bool) (pyval.Value, error) {
	return func(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
		calls, err := xlamCalls(r, fallback)
		if err != nil {
			return nil, err
		}
		return astOfObjects(calls, "name", "arguments")
	}
}

func execXLAM(fallback bool) func(pyval.Value) ([]string, error) {
	return func(r pyval.Value) ([]string, error) {
		calls, err := xlamCalls(r, fallback)
		if err != nil {
			return nil, err
		}
		return execOfObjects(calls, "name", "arguments", ",")
	}
}

// hammerJSON is HammerHandler's reading: fences removed, JSON or [] when
// it is not JSON.
func hammerJSON(r pyval.Value) (pyval.Value, error) {
	s, err := strArg(r, "replace")
	if err != nil {
		return nil, err
	}
	v, err := pyval.FromJSONString(strings.ReplaceAll(s, "```", ""))
	if err != nil {
		return pyval.NewList(), nil
	}
	return v, nil
}

func decodeHammer(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
	v, err := hammerJSON(r)
	if err != nil {
		return nil, err
	}
	calls, err := iterItems(v)
	if err != nil {
		return nil, err
	}
	return astOfObjects(calls, "name", "arguments")
}

func execHammer(r pyval.Value) ([]string, error) {
	v, err := hammerJSON(r)
	if err != nil {
		return nil, err
	}
	var calls pyval.Value
	switch x := v.(type) {
	case *pyval.List:
		calls = x
	case *pyval.Dict:
		if calls, err = dictGet(x, "tool_calls", pyval.NewList()); err != nil {
			return nil, err
		}
	default:
		calls = pyval.NewList()
	}
	return xlamToPython(calls, ", ")
}

// xlamToPython is HammerHandler.xlam_json_to_python_tool_calls (the body
// of MiningHandler.decode_execute too): dict items only, missing name ""
// and arguments {}.
func xlamToPython(calls pyval.Value, sep string) ([]string, error) {
	var list []pyval.Value
	if l, ok := calls.(*pyval.List); ok {
		list = l.Items
	} else {
		list = []pyval.Value{calls}
	}
	return xlamItems(list, sep)
}

func xlamItems(list []pyval.Value, sep string) ([]string, error) {
	out := []string{}
	for _, c := range list {
		if !isDict(c) {
			continue
		}
		name, _ := dictGet(c, "name", pyval.Str(""))
		args, _ := dictGet(c, "arguments", pyval.NewDict())
		s, err := callText(name, args, sep)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// falconCalls is the reading shared by Falcon3FCHandler's decoders; the
// errors it catches (JSONDecodeError, KeyError, IndexError) become one
// ValueError, the others pass.
func falconCalls(r pyval.Value, each func(name, args pyval.Value) error) error {
	fail := func(err error) error {
		if pyval.IsException(err, "JSONDecodeError") || pyval.IsException(err, "KeyError") || pyval.IsException(err, "IndexError") {
			return pyval.NewValueError("Failed to decode the model's response: %s", pyval.StrOf(r))
		}
		return err
	}
	has, err := pyval.Contains(nonNil(r), pyval.Str("<tool_call>"))
	if err != nil {
		return err
	}
	if !has {
		return pyval.NewValueError("No <tool_call> found in the model's response: %s", pyval.StrOf(r))
	}
	s, err := strArg(r, "split")
	if err != nil {
		return err
	}
	body := strings.Split(s, "<tool_call>")[1]
	body = pyval.Strip(strings.Split(body, "</tool_call>")[0])
	if strings.HasPrefix(body, "```") && strings.HasSuffix(body, "```") {
		body = pyval.Strip(pyStripChars(body, "`"))
		if strings.HasPrefix(body, "json") {
			body = pyval.Strip(string([]rune(body)[4:]))
		}
	}
	v, err := pyval.FromJSONString(body)
	if err != nil {
		return fail(err)
	}
	calls := []pyval.Value{v}
	if l, ok := v.(*pyval.List); ok {
		calls = l.Items
	}
	for _, c := range calls {
		name, args, err := nameArgs(c, "name", "arguments")
		if err != nil {
			return fail(err)
		}
		if err := each(name, args); err != nil {
			return fail(err)
		}
	}
	return nil
}

func nonNil(v pyval.Value) pyval.Value {
	if v == nil {
		return pyval.None
	}
	return v
}

func decodeFalcon(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
	out := pyval.NewList()
	err := falconCalls(r, func(name, args pyval.Value) error {
		d, err := oneCall(name, args)
		if err != nil {
			return err
		}
		out.Items = append(out.Items, d)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func execFalcon(r pyval.Value) ([]string, error) {
	var out []string
	err := falconCalls(r, func(name, args pyval.Value) error {
		s, err := callText(name, args, ",")
		if err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// decodeCohere is CohereHandler.decode_ast: only a list is read.
func decodeCohere(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
	l, ok := r.(*pyval.List)
	if !ok {
		return pyval.NewList(), nil
	}
	return astOfObjects(l.Items, "tool_name", "parameters")
}

// execCohere reads "parameters" before "tool_name", as upstream does.
func execCohere(r pyval.Value) ([]string, error) {
	l, ok := r.(*pyval.List)
	if !ok {
		return []string{}, nil
	}
	var out []string
	for _, c := range l.Items {
		args, err := getItem(c, "parameters")
		if err != nil {
			return nil, err
		}
		kvs, err := items(args)
		if err != nil {
			return nil, err
		}
		name, err := getItem(c, "tool_name")
		if err != nil {
			return nil, err
		}
		s, err := callText(name, pyval.DictFromItems(kvs), ",")
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// execNameArgs is MiningHandler.decode_execute (and DMCitoHandler's copy).
func execNameArgs(r pyval.Value) ([]string, error) {
	calls, err := iterItems(r)
	if err != nil {
		return nil, err
	}
	return xlamItems(calls, ", ")
}

// llama31Calls is LlamaHandler_3_1's reading: <|python_tag|> removed, then
// JSON per ";"-separated part, or else eval() of the whole text.
func llama31Calls(r pyval.Value) ([]pyval.Value, error) {
	s, err := strArg(r, "replace")
	if err != nil {
		return nil, err
	}
	s = strings.ReplaceAll(s, "<|python_tag|>", "")
	if strings.Contains(s, ";") {
		var out []pyval.Value
		for _, part := range strings.Split(s, ";") {
			v, err := pyval.FromJSONString(part)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	v, err := evalText(s)
	if err != nil {
		return nil, err
	}
	if isDict(v) {
		return []pyval.Value{v}, nil
	}
	return iterItems(v)
}

// phiUnfence drops a leading ```json or ```python (PhiHandler); decode_ast
// strips the answer first, decode_execute does not.
func phiUnfence(s string) string {
	s = strings.TrimPrefix(s, "```json")
	return strings.TrimPrefix(s, "```python")
}

func decodePhi(r pyval.Value, lang string, tag bool) (pyval.Value, error) {
	s, err := strArg(r, "strip")
	if err != nil {
		return nil, err
	}
	return decodePromptAST(pyval.Str(phiUnfence(pyval.Strip(s))), lang, tag)
}

func execPhi(r pyval.Value) ([]string, error) {
	s, err := strArg(r, "startswith")
	if err != nil {
		return nil, err
	}
	return promptExecute(pyval.Str(phiUnfence(s)))
}

var nemotronToolCall = regexp.MustCompile(`(?s)<TOOLCALL>(.*?)</TOOLCALL>`)

func decodeNemotron(r pyval.Value, lang string, tag bool) (pyval.Value, error) {
	s, err := reSubject(r)
	if err != nil {
		return nil, err
	}
	body, ok := firstGroup(nemotronToolCall, s)
	if !ok {
		return pyval.NewList(), nil
	}
	return decodePromptAST(pyval.Str(body), lang, tag)
}

func execNemotron(r pyval.Value) ([]string, error) {
	s, err := reSubject(r)
	if err != nil {
		return nil, err
	}
	body, ok := firstGroup(nemotronToolCall, s)
	if !ok {
		return []string{}, nil
	}
	return promptExecute(pyval.Str(body))
}

// decodeGorilla is GorillaHandler.decode_ast: brackets added, no strip.
func decodeGorilla(r pyval.Value, lang string, tag bool) (pyval.Value, error) {
	s, err := concatStr("[", r, "]")
	if err != nil {
		return nil, err
	}
	if lang == "" {
		lang = LangPython
	}
	return astParse(s, lang, tag)
}

// execGorilla is GorillaHandler.decode_execute, which calls
// ast_parse(func, has_tool_call_tag): the language is False and ast_parse
// raises for it.
func execGorilla(r pyval.Value) ([]string, error) {
	if _, err := concatStr("[", r, "]"); err != nil {
		return nil, err
	}
	return nil, pyval.NewException("NotImplementedError", "Unsupported language: False")
}

// graniteParts is GraniteFunctionCallingHandler's reading: the non-empty
// stripped parts between <function_call> markers, each JSON or kept as
// text; fn renders one call.
func graniteParts(r pyval.Value, fn func(name, args pyval.Value) (pyval.Value, error)) ([]pyval.Value, error) {
	s, err := strArg(r, "split")
	if err != nil {
		return nil, err
	}
	var out []pyval.Value
	for _, part := range strings.Split(s, "<function_call>") {
		part = pyval.Strip(part)
		if part == "" {
			continue
		}
		v, err := pyval.FromJSONString(part)
		if err != nil {
			out = append(out, pyval.Str(part))
			continue
		}
		n, err := dictGet(v, "name", pyval.Str(""))
		if err != nil {
			return nil, err
		}
		ns, err := strArg(n, "strip")
		if err != nil {
			return nil, err
		}
		args, err := dictGet(v, "arguments", pyval.NewDict())
		if err != nil {
			return nil, err
		}
		ns = pyval.Strip(ns)
		if ns == "no_function" {
			out = append(out, pyval.Str("No function is called"))
			continue
		}
		x, err := fn(pyval.Str(ns), args)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

func decodeGranite(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
	parts, err := graniteParts(r, func(name, args pyval.Value) (pyval.Value, error) { return oneCall(name, args) })
	if err != nil {
		return nil, err
	}
	return pyval.NewList(parts...), nil
}

func execGranite(r pyval.Value) ([]string, error) {
	parts, err := graniteParts(r, func(name, args pyval.Value) (pyval.Value, error) {
		s, err := callText(name, args, ",")
		return pyval.Str(s), err
	})
	if err != nil {
		return nil, err
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = string(p.(pyval.Str))
	}
	return out, nil
}

// decodeGLM is GLMHandler.decode_ast: one line is returned as [line],
// otherwise the first line names the call and the second is its JSON
// arguments.
func decodeGLM(r pyval.Value, _ string, _ bool) (pyval.Value, error) {
	s, err := strArg(r, "split")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(s, "\n")
	if len(lines) == 1 {
		return pyval.NewList(pyval.Str(lines[0])), nil
	}
	args, err := pyval.FromJSONString(lines[1])
	if err != nil {
		return nil, err
	}
	d := pyval.NewDictCap(1)
	d.Set(pyval.Str(lines[0]), args)
	return pyval.NewList(d), nil
}

func execGLM(r pyval.Value) ([]string, error) {
	s, err := strArg(r, "split")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(s, "\n")
	if len(lines) == 1 {
		return convertToFunctionCall(pyval.Str(lines[0]))
	}
	d := pyval.NewDictCap(1)
	d.Set(pyval.Str(lines[0]), pyval.Str(lines[1]))
	return convertToFunctionCall(pyval.NewList(d))
}

// thinkAgentJSON is ThinkAgentHandler's reading: strip, every ' made ",
// the text after the first </think> (or "[]" without one), JSON.
func thinkAgentJSON(r pyval.Value) ([]pyval.Value, error) {
	s, err := strArg(r, "strip")
	if err != nil {
		return nil, err
	}
	s = strings.ReplaceAll(pyval.Strip(s), "'", `"`)
	text := "[]"
	if _, after, ok := strings.Cut(s, "</think>"); ok {
		text = pyval.Strip(after)
	}
	v, err := pyval.FromJSONString(text)
	if err != nil {
		return nil, err
	}
	return iterItems(v)
}

func execThinkAgent(r pyval.Value) ([]string, error) {
	calls, err := thinkAgentJSON(r)
	if err != nil {
		return nil, err
	}
	for _, c := range calls {
		if _, _, err := nameArgs(c, "name", "arguments"); err != nil {
			return nil, err
		}
	}
	if len(calls) > 0 {
		// Each call became f"{name}({arguments})", a str, and upstream
		// then iterates str.items().
		return nil, pyval.NewAttributeError("'str' object has no attribute 'items'")
	}
	return []string{}, nil
}
