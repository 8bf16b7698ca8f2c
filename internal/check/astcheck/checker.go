// Package astcheck is upstream's AST checker (bfcl_eval/eval_checker/ast_eval/
// ast_checker.py) for the single-turn categories: it judges decoded calls
// against an entry's function docs and possible answers, with upstream's
// error types and messages byte for byte.
//
// ScoreEntry does the whole of eval_runner's per-entry work (decode, then
// the AST checker or the relevance rule) for one result line.
package astcheck

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Languages (upstream's Language enum values).
const (
	Python     = "python"
	Java       = "java"
	JavaScript = "javascript"
)

// LanguageOf is the checker language eval_runner picks for a category
// (category.Category.Language).
func LanguageOf(c category.Category) string { return string(c.Language()) }

// Input is one entry for Check, in raw JSON as the dataset files hold it.
type Input struct {
	ID       string
	Category category.Category
	// Functions is the entry's "function" list, one document per element.
	Functions []json.RawMessage
	// PossibleAnswer is the "ground_truth" value of the possible-answer line.
	PossibleAnswer json.RawMessage
	// Decoded is the decoded model output (decode.Calls of DecodeAST).
	Decoded []decode.Call
	// Language is Python, Java or JavaScript ("" -> LanguageOf(Category)).
	Language string
	// UnderscoreToDot is the model config flag: expected names have their
	// "." replaced by "_" before comparison.
	UnderscoreToDot bool
}

// ValueInput is Input with the JSON already parsed into Python values.
type ValueInput struct {
	ID              string
	Category        category.Category
	Functions       pyval.Value // the "function" list
	PossibleAnswer  pyval.Value // the "ground_truth" list
	Decoded         []decode.Call
	Language        string
	UnderscoreToDot bool
}

// UpstreamError reports input on which upstream's checker raises a Python
// exception (which aborts upstream's whole evaluation run), e.g. a function
// doc without "parameters" or a Java parameter of an unknown type.
type UpstreamError struct {
	ID  string
	Exc *pyval.Exception
}

func (e *UpstreamError) Error() string {
	return fmt.Sprintf("ast checker: entry %s: upstream raises %s: %s", e.ID, e.Exc.Type, e.Exc.Msg)
}

// Check is ast_checker for one entry.
func Check(in Input) (verdict.Verdict, error) {
	funcs := make([]pyval.Value, 0, len(in.Functions))
	for i, f := range in.Functions {
		v, err := pyval.FromJSON(f)
		if err != nil {
			return verdict.Verdict{}, fmt.Errorf("ast checker: entry %s: function doc %d is not JSON: %w", in.ID, i, err)
		}
		funcs = append(funcs, v)
	}
	pa, err := pyval.FromJSON(in.PossibleAnswer)
	if err != nil {
		return verdict.Verdict{}, fmt.Errorf("ast checker: entry %s: possible answer is not JSON: %w", in.ID, err)
	}
	return CheckValues(ValueInput{
		ID: in.ID, Category: in.Category, Functions: pyval.NewList(funcs...),
		PossibleAnswer: pa, Decoded: in.Decoded, Language: in.Language,
		UnderscoreToDot: in.UnderscoreToDot,
	})
}

// CheckValues is Check on parsed values. The verdict's Errors hold
// upstream's "error" list; items that are dicts upstream (the per-index
// sub-errors of parallel matching) are rendered as their json.dumps text.
func CheckValues(in ValueInput) (verdict.Verdict, error) {
	lang := in.Language
	if lang == "" {
		lang = LanguageOf(in.Category)
	}
	c := checker{lang: lang, u2d: in.UnderscoreToDot}
	r, exc := c.dispatch(in.Functions, in.Decoded, in.PossibleAnswer, in.Category)
	if exc != nil {
		return verdict.Verdict{}, &UpstreamError{ID: in.ID, Exc: exc}
	}
	v := verdict.Verdict{ID: in.ID, Category: in.Category, Valid: r.valid}
	if !r.valid {
		v.ErrorType = r.errType
		v.Errors = renderErrors(r.errs)
	}
	return v, nil
}

// result is the dict upstream's checker functions return.
type result struct {
	valid   bool
	errs    []any // string or subError
	errType string
	isVar   bool
}

// subError is one {"Model Result Index i": {...}} item of a parallel
// cannot_find_match error list.
type subError struct {
	index      int
	errs       []any
	errType    string
	modelItem  decode.Call
	answerItem pyval.Value
}

func fail(errType string, msg string) result {
	return result{errs: []any{msg}, errType: errType}
}

func ok() result { return result{valid: true} }

type checker struct {
	lang string
	u2d  bool
}

// asException converts an error raised by the Python-semantics helpers.
func asException(err error) *pyval.Exception {
	if err == nil {
		return nil
	}
	if e, ok := err.(*pyval.Exception); ok {
		return e
	}
	return pyval.NewException("Exception", err.Error())
}

func (c *checker) dispatch(funcs pyval.Value, out []decode.Call, answers pyval.Value, cat category.Category) (result, *pyval.Exception) {
	switch {
	case cat.IsParallel():
		return c.parallelNoOrder(funcs, out, answers)
	case cat.IsMultiple():
		return c.multiple(funcs, out, answers)
	}
	if len(out) != 1 {
		return fail("simple_function_checker:wrong_count", "Wrong number of functions."), nil
	}
	doc, err := index0(funcs)
	if err != nil {
		return result{}, asException(err)
	}
	ans, err := index0(answers)
	if err != nil {
		return result{}, asException(err)
	}
	return c.simple(doc, out[0], ans)
}

// index0 is v[0].
func index0(v pyval.Value) (pyval.Value, error) {
	items, err := pyItems(v)
	if err != nil {
		return nil, pyval.NewTypeError("'%s' object is not subscriptable", typeName(v))
	}
	if len(items) == 0 {
		return nil, pyval.NewIndexError("list index out of range")
	}
	return items[0], nil
}

// findDescription is find_description: the first doc whose "name" equals
// name, nil (None) when there is none; a non-list is returned as is.
func findDescription(funcs pyval.Value, name pyval.Value) (pyval.Value, error) {
	l, isList := funcs.(*pyval.List)
	if !isList {
		return funcs, nil
	}
	for _, f := range l.Items {
		n, err := getItem(f, "name")
		if err != nil {
			return nil, err
		}
		if pyval.Equal(n, name) {
			return f, nil
		}
	}
	return pyval.None, nil
}

// firstKey is list(d.keys())[0].
func firstKey(v pyval.Value) (pyval.Value, error) {
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, pyval.NewAttributeError("'%s' object has no attribute 'keys'", typeName(v))
	}
	if d.Len() == 0 {
		return nil, pyval.NewIndexError("list index out of range")
	}
	k, _ := d.At(0)
	return k, nil
}

func (c *checker) multiple(funcs pyval.Value, out []decode.Call, answers pyval.Value) (result, *pyval.Exception) {
	n, err := pyLen(answers)
	if err != nil {
		return result{}, asException(err)
	}
	if len(out) != n {
		return fail("multiple_function_checker:wrong_count", "Wrong number of functions."), nil
	}
	ans, err := index0(answers)
	if err != nil {
		return result{}, asException(err)
	}
	name, err := firstKey(ans)
	if err != nil {
		return result{}, asException(err)
	}
	doc, err := findDescription(funcs, name)
	if err != nil {
		return result{}, asException(err)
	}
	return c.simple(doc, out[0], ans)
}

func (c *checker) parallelNoOrder(funcs pyval.Value, out []decode.Call, answers pyval.Value) (result, *pyval.Exception) {
	ansItems, err := pyItems(answers)
	if err != nil {
		return result{}, asException(err)
	}
	if len(out) != len(ansItems) {
		return fail("parallel_function_checker_no_order:wrong_count", "Wrong number of functions."), nil
	}
	matched := make([]bool, len(out))
	for i, ans := range ansItems {
		name, err := firstKey(ans)
		if err != nil {
			return result{}, asException(err)
		}
		doc, err := findDescription(funcs, name)
		if err != nil {
			return result{}, asException(err)
		}
		var all []any
		var last result
		for idx := range out {
			if matched[idx] {
				continue
			}
			r, exc := c.simple(doc, out[idx], ans)
			if exc != nil {
				return result{}, exc
			}
			last = r
			if r.valid {
				matched[idx] = true
				break
			}
			all = append(all, subError{index: idx, errs: r.errs, errType: r.errType, modelItem: out[idx], answerItem: ans})
		}
		if !last.valid {
			var considered []string
			for j := range out {
				if !matched[j] {
					considered = append(considered, fmt.Sprint(j))
				}
			}
			head := fmt.Sprintf("Could not find a matching function among index [%s] of model output for index %d of possible answers.", strings.Join(considered, ", "), i)
			return result{errs: append([]any{head}, all...), errType: "parallel_function_checker_no_order:cannot_find_match"}, nil
		}
	}
	return ok(), nil
}

// convertFuncName is convert_func_name.
func (c *checker) convertFuncName(name string) string {
	if c.u2d && strings.Contains(name, ".") {
		return strings.ReplaceAll(name, ".", "_")
	}
	return name
}

var pythonTypes = map[string]string{
	"string": "str", "integer": "int", "float": "float", "boolean": "bool",
	"array": "list", "tuple": "list", "dict": "dict", "any": "str",
}

func pyRepr(v pyval.Value) string { return pyval.Repr(v) }

// simple is simple_function_checker.
func (c *checker) simple(doc pyval.Value, call decode.Call, answer pyval.Value) (result, *pyval.Exception) {
	ad, isAD := answer.(*pyval.Dict)
	if !isAD {
		return result{}, pyval.NewAttributeError("'%s' object has no attribute 'values'", typeName(answer))
	}
	if ad.Len() == 0 {
		return result{}, pyval.NewIndexError("list index out of range")
	}
	_, paramAnswers := ad.At(0)
	d, err := readDoc(doc)
	if err != nil {
		return result{}, asException(err)
	}

	funcName := pyval.StrOf(d.name)
	if _, isStr := d.name.(pyval.Str); isStr {
		funcName = c.convertFuncName(funcName)
	}
	if funcName != call.Name {
		return fail("simple_function_checker:wrong_func_name",
			"Function name "+pyRepr(pyval.Str(funcName))+" not found in model output."), nil
	}
	modelParams := call.Args
	if r, exc := requiredGiven(d.required, modelParams); exc != nil || !r.valid {
		return r, exc
	}
	for _, kv := range modelParams.Items() {
		if r, exc := c.param(kv.Key, kv.Value, d.properties, paramAnswers); exc != nil || !r.valid {
			return r, exc
		}
	}
	return optionalsOmitted(paramAnswers, modelParams)
}

// funcDoc is what simple_function_checker reads of a function document.
type funcDoc struct {
	name, properties, required pyval.Value
}

// readDoc reads doc["name"], doc["parameters"]["properties"] and
// doc["parameters"]["required"], raising as upstream's subscripts do.
func readDoc(doc pyval.Value) (funcDoc, error) {
	var d funcDoc
	var err error
	if d.name, err = getItem(doc, "name"); err != nil {
		return d, err
	}
	params, err := getItem(doc, "parameters")
	if err != nil {
		return d, err
	}
	if d.properties, err = getItem(params, "properties"); err != nil {
		return d, err
	}
	d.required, err = getItem(params, "required")
	return d, err
}

// requiredGiven checks that the model gave every required parameter.
func requiredGiven(required pyval.Value, modelParams *pyval.Dict) (result, *pyval.Exception) {
	reqItems, err := pyIter(required)
	if err != nil {
		return result{}, asException(err)
	}
	for _, p := range reqItems {
		if err := pyval.CheckHashable(p); err != nil {
			return result{}, asException(err)
		}
		if !modelParams.Has(p) {
			return fail("simple_function_checker:missing_required", "Missing required parameter: "+pyRepr(p)+"."), nil
		}
	}
	return ok(), nil
}

// param checks one parameter the model gave: that the document and the
// possible answer know it, its type (Java and JavaScript values converted
// from their string form first), then its value against the options.
func (c *checker) param(param, value, details, paramAnswers pyval.Value) (result, *pyval.Exception) {
	inDetails, err := pyIn(param, details)
	if err != nil {
		return result{}, asException(err)
	}
	inAnswer, err := pyIn(param, paramAnswers)
	if err != nil {
		return result{}, asException(err)
	}
	if !inDetails || !inAnswer {
		return fail("simple_function_checker:unexpected_param", "Unexpected parameter: "+pyRepr(param)+"."), nil
	}
	pdetail, _ := details.(*pyval.Dict).Get(param)
	options, _ := paramAnswers.(*pyval.Dict).Get(param)
	t, value, r, exc := c.expectedType(param, value, pdetail)
	if exc != nil || !r.valid {
		return r, exc
	}
	tr, err := typeChecker(pyval.StrOf(param), param, value, options, t.desc, t.typ, t.nested)
	if err != nil {
		return result{}, asException(err)
	}
	if !tr.valid {
		return tr, nil
	}
	return valueMatches(param, value, options, t, tr.isVar)
}

// paramType is a parameter's documented type: the document's name for it
// ("integer", "ArrayList", ...), the Python type it maps to, and the
// item type of arrays.
type paramType struct {
	desc, typ, nested string
}

// expectedType resolves the parameter's documented type for the checker's
// language and returns the value as the type check sees it: Java and
// JavaScript values parsed from the string the model must give, tuples as
// lists, Python ints widened for "float".
func (c *checker) expectedType(param, value, pdetail pyval.Value) (paramType, pyval.Value, result, *pyval.Exception) {
	var t paramType
	expDesc, _, err := getStrItem(pdetail, "type")
	if err != nil {
		return t, nil, result{}, asException(err)
	}
	t.desc = expDesc
	switch c.lang {
	case Java, JavaScript:
		table, errType, conv := javaTypes, "type_error:java", javaConvert
		if c.lang == JavaScript {
			table, errType, conv = jsTypes, "type_error:js", jsConvert
		}
		typ, known := table[expDesc]
		if !known {
			return t, nil, result{}, pyval.NewKeyError(pyval.Str(expDesc))
		}
		t.typ = typ
		sv, isStr := value.(pyval.Str)
		if !isStr {
			return t, nil, fail(errType, "Incorrect type for parameter "+pyRepr(param)+". Expected type String, got "+typeName(value)+". Parameter value: "+pyRepr(value)+"."), nil
		}
		nestedDesc := ""
		if expDesc == "Array" || expDesc == "ArrayList" || expDesc == "array" {
			nd, nt, exc := itemType(pdetail, table)
			if exc != nil {
				return t, nil, result{}, exc
			}
			t.nested, nestedDesc = nt, nd
		}
		if value, err = conv(string(sv), expDesc, nestedDesc); err != nil {
			return t, nil, result{}, asException(err)
		}
	default:
		typ, known := pythonTypes[expDesc]
		if !known {
			return t, nil, result{}, pyval.NewKeyError(pyval.Str(expDesc))
		}
		t.typ = typ
		if expDesc == "array" || expDesc == "tuple" {
			_, nt, exc := itemType(pdetail, pythonTypes)
			if exc != nil {
				return t, nil, result{}, exc
			}
			t.nested = nt
		}
	}

	if expDesc == "tuple" {
		if tu, isTuple := value.(pyval.Tuple); isTuple {
			value = pyval.NewList(append([]pyval.Value(nil), tu...)...)
		}
	}
	if c.lang == Python && expDesc == "float" {
		switch n := value.(type) {
		case pyval.Int:
			value = pyval.Float(float64(n))
		case pyval.BigInt:
			f, _ := n.V.Float64()
			if f > 1.7976931348623157e308 || f < -1.7976931348623157e308 {
				return t, nil, result{}, pyval.NewOverflowError("int too large to convert to float")
			}
			value = pyval.Float(f)
		}
	}
	return t, value, ok(), nil
}

// itemType reads pdetail["items"]["type"] and maps it through table.
func itemType(pdetail pyval.Value, table map[string]string) (desc, typ string, exc *pyval.Exception) {
	items, err := getItem(pdetail, "items")
	if err != nil {
		return "", "", asException(err)
	}
	desc, _, err = getStrItem(items, "type")
	if err != nil {
		return "", "", asException(err)
	}
	typ, known := table[desc]
	if !known {
		return "", "", pyval.NewKeyError(pyval.Str(desc))
	}
	return desc, typ, nil
}

// valueMatches checks a well-typed value against the possible answer's
// options: dicts, lists of dicts, strings and lists by their own checkers,
// anything else (and a variable reference) by membership.
func valueMatches(param, value, options pyval.Value, t paramType, isVar bool) (result, *pyval.Exception) {
	if !isVar {
		var r result
		var err error
		handled := true
		switch {
		case t.typ == "dict":
			r, err = dictChecker(value, options)
		case t.typ == "list" && t.nested == "dict":
			r, err = listDictChecker(value, options)
		case t.typ == "str":
			r, err = stringChecker(param, value, options)
		case t.typ == "list":
			r, err = listChecker(param, value, options)
		default:
			handled = false
		}
		if err != nil {
			return result{}, asException(err)
		}
		if handled {
			return r, nil
		}
	}
	in, err := pyIn(value, options)
	if err != nil {
		return result{}, asException(err)
	}
	if !in {
		return fail("value_error:others", "Invalid value for parameter "+pyRepr(param)+": "+pyRepr(value)+". Expected one of "+pyval.StrOf(options)+"."), nil
	}
	return ok(), nil
}

// optionalsOmitted checks that every parameter the model left out may be
// omitted ("" among its options).
func optionalsOmitted(paramAnswers pyval.Value, modelParams *pyval.Dict) (result, *pyval.Exception) {
	missing, err := firstNotOmittable(paramAnswers, modelParams, "keys")
	if err != nil {
		return result{}, asException(err)
	}
	if missing != nil {
		return fail("simple_function_checker:missing_optional",
			"Optional parameter "+pyRepr(missing)+" not provided and not marked as optional."), nil
	}
	return ok(), nil
}

// firstNotOmittable is the first key of the possible answers opts that
// model lacks although "" is not among its options (nil when there is
// none). opts must be a dict: upstream walks it with its method .keys() or
// .items(), which is Python's AttributeError on anything else.
func firstNotOmittable(opts pyval.Value, model *pyval.Dict, method string) (pyval.Value, error) {
	od, isDict := opts.(*pyval.Dict)
	if !isDict {
		return nil, pyval.NewAttributeError("'%s' object has no attribute '%s'", typeName(opts), method)
	}
	for _, kv := range od.Items() {
		if model.Has(kv.Key) {
			continue
		}
		hasEmpty, err := pyIn(pyval.Str(""), kv.Value)
		if err != nil {
			return nil, err
		}
		if !hasEmpty {
			return kv.Key, nil
		}
	}
	return nil, nil
}

// answerType is get_possible_answer_type: the type of the first option
// that is not "" ("" when there is none).
func answerType(options pyval.Value) (string, error) {
	items, err := pyIter(options)
	if err != nil {
		return "", err
	}
	for _, o := range items {
		if s, isStr := o.(pyval.Str); isStr && s == "" {
			continue
		}
		return typeName(o), nil
	}
	return "", nil
}

// typeChecker is type_checker. expType and nestedType are Python type names
// ("" for None).
func typeChecker(pname string, param, value, options pyval.Value, expDesc, expType, nestedType string) (result, error) {
	r := result{valid: true, errType: "type_error:simple"}
	pat, err := answerType(options)
	if err != nil {
		return result{}, err
	}
	isVar := pat != "" && pat != expType
	if typeName(value) == expType {
		if nestedType == "" {
			r.isVar = isVar
			return r, nil
		}
		opts, err := pyIter(options)
		if err != nil {
			return result{}, err
		}
		valueItems, err := pyIter(value)
		if err != nil {
			return result{}, err
		}
		for _, opt := range opts {
			flag := true
			if _, isList := opt.(*pyval.List); isList {
				for _, vi := range valueItems {
					ir, err := typeChecker(pname, param, vi, opt, "<class '"+nestedType+"'>", nestedType, "")
					if err != nil {
						return result{}, err
					}
					if !ir.valid {
						flag = false
						break
					}
				}
			}
			if flag {
				return result{valid: true, isVar: isVar}, nil
			}
		}
		r.valid = false
		r.errs = []any{"Nested type checking failed for parameter " + pyRepr(param) + ". Expected outer type " + expDesc + " with inner type <class '" + nestedType + "'>. Parameter value: " + pyRepr(value) + "."}
		r.errType = "type_error:nested"
	}
	if pat != "" && typeName(value) == pat {
		r.isVar = true
		return r, nil
	}
	r.valid = false
	r.errs = append(r.errs, "Incorrect type for parameter "+pyRepr(param)+". Expected type "+expDesc+", got "+typeName(value)+". Parameter value: "+pyRepr(value)+".")
	r.errType = "type_error:simple"
	return r, nil
}

// standardizeOptions returns the options with str items standardized
// (non-str items kept), as upstream builds its comparison lists.
func standardizeOptions(options pyval.Value) ([]pyval.Value, error) {
	items, err := pyItems(options)
	if err != nil {
		return nil, err
	}
	out := make([]pyval.Value, 0, len(items))
	for _, o := range items {
		if s, isStr := o.(pyval.Str); isStr {
			out = append(out, pyval.Str(standardize(string(s))))
		} else {
			out = append(out, o)
		}
	}
	return out, nil
}

func contains(list []pyval.Value, x pyval.Value) bool {
	for _, e := range list {
		if pyval.Equal(x, e) {
			return true
		}
	}
	return false
}

// stringChecker is string_checker; only str options take part.
func stringChecker(param, value, options pyval.Value) (result, error) {
	items, err := pyItems(options)
	if err != nil {
		return result{}, err
	}
	model := pyval.Str(standardize(string(value.(pyval.Str))))
	for _, o := range items {
		if s, isStr := o.(pyval.Str); isStr && standardize(string(s)) == string(model) {
			return ok(), nil
		}
	}
	return fail("value_error:string", "Invalid value for parameter "+pyRepr(param)+": "+pyRepr(value)+". Expected one of "+pyval.StrOf(options)+". Case insensitive."), nil
}

// listChecker is list_checker.
func listChecker(param, value, options pyval.Value) (result, error) {
	vitems, err := pyItems(value)
	if err != nil {
		return result{}, err
	}
	model := make([]pyval.Value, len(vitems))
	for i, v := range vitems {
		if s, isStr := v.(pyval.Str); isStr {
			model[i] = pyval.Str(standardize(string(s)))
		} else {
			model[i] = v
		}
	}
	modelList := pyval.NewList(model...)
	opts, err := pyItems(options)
	if err != nil {
		return result{}, err
	}
	stdOpts := make([]pyval.Value, 0, len(opts))
	for _, o := range opts {
		so, err := standardizeOptions(o)
		if err != nil {
			return result{}, err
		}
		stdOpts = append(stdOpts, pyval.NewList(so...))
	}
	if !contains(stdOpts, modelList) {
		return fail("value_error:list/tuple", "Invalid value for parameter "+pyRepr(param)+": "+pyRepr(value)+". Expected one of "+pyval.StrOf(options)+"."), nil
	}
	return ok(), nil
}

// dictChecker is dict_checker.
func dictChecker(value, options pyval.Value) (result, error) {
	r := result{errType: "dict_checker:unclear"}
	opts, err := pyItems(options)
	if err != nil {
		return result{}, err
	}
	model, isDict := value.(*pyval.Dict)
	if !isDict {
		return result{}, pyval.NewAttributeError("'%s' object has no attribute 'items'", typeName(value))
	}
	for _, opt := range opts {
		if s, isStr := opt.(pyval.Str); isStr && s == "" {
			continue
		}
		r = result{errType: "dict_checker:unclear"}
		flag := true
		for _, kv := range model.Items() {
			in, err := pyIn(kv.Key, opt)
			if err != nil {
				return result{}, err
			}
			if !in {
				r.errs = append(r.errs, "Unexpected dict key parameter: '"+pyval.StrOf(kv.Key)+"'.")
				r.errType = "value_error:dict_key"
				flag = false
				break
			}
			std := kv.Value
			if s, isStr := std.(pyval.Str); isStr {
				std = pyval.Str(standardize(string(s)))
			}
			keyOpts, err := subscript(opt, kv.Key)
			if err != nil {
				return result{}, err
			}
			stdOpts, err := standardizeOptions(keyOpts)
			if err != nil {
				return result{}, err
			}
			if !contains(stdOpts, std) {
				r.errs = append(r.errs, "Invalid value for parameter "+pyRepr(kv.Key)+": "+pyRepr(kv.Value)+". Expected one of "+pyRepr(pyval.NewList(stdOpts...))+".")
				r.errType = "value_error:dict_value"
				flag = false
				break
			}
		}
		missing, err := firstNotOmittable(opt, model, "items")
		if err != nil {
			return result{}, err
		}
		if missing != nil {
			r.errs = append(r.errs, "Missing dict key parameter: '"+pyval.StrOf(missing)+"'.")
			r.errType = "value_error:dict_key"
			flag = false
		}
		if flag {
			return ok(), nil
		}
	}
	return r, nil
}

// subscript is container[key] for a possible-answer dict.
func subscript(container, key pyval.Value) (pyval.Value, error) {
	if d, isDict := container.(*pyval.Dict); isDict {
		v, found := d.Get(key)
		if !found {
			return nil, pyval.NewKeyError(key)
		}
		return v, nil
	}
	return nil, pyval.NewTypeError("'%s' object is not subscriptable", typeName(container))
}

// listDictChecker is list_dict_checker.
func listDictChecker(value, options pyval.Value) (result, error) {
	r := result{errType: "list_dict_checker:unclear"}
	model, err := pyItems(value)
	if err != nil {
		return result{}, err
	}
	opts, err := pyItems(options)
	if err != nil {
		return result{}, err
	}
	for _, opt := range opts {
		flag := true
		n, err := pyLen(opt)
		if err != nil {
			return result{}, err
		}
		if len(model) != n {
			r = fail("value_error:list_dict_count", "Wrong number of dictionaries in the list.")
			continue
		}
		optItems, err := pyItems(opt)
		if err != nil {
			return result{}, err
		}
		for i := range model {
			r, err = dictChecker(model[i], pyval.NewList(optItems[i]))
			if err != nil {
				return result{}, err
			}
			if !r.valid {
				flag = false
				break
			}
		}
		if flag {
			return ok(), nil
		}
	}
	return r, nil
}
