package dataset

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bfcl-go/bfcl/internal/cache/memo"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Texts added to what the model sees; byte-identical to upstream
// (bfcl_eval/utils.py _get_language_specific_hint and
// _func_doc_language_specific_pre_processing; bfcl_eval/constants/default_prompts.py
// ADDITIONAL_SYSTEM_PROMPT_FOR_AGENTIC_RESPONSE_FORMAT).
const (
	hintJava       = " Note that the provided function is in Java 8 SDK syntax."
	hintJavaScript = " Note that the provided function is in JavaScript syntax."
	hintPython     = " Note that the provided function is in Python 3 syntax."

	// AgenticResponseFormatPrompt is inserted as the first system message of
	// every agentic entry (not of memory prerequisite conversations).
	AgenticResponseFormatPrompt = "For your final answer to the user, you must respond in this format: {'answer': A short and precise answer to the question, 'context': A brief explanation of how you arrived at this answer or why it is correct}. If you do not know the answer, respond with {'answer': 'I do not know', 'context': 'I do not know'}. If you think the question cannot be properly answered, response with {'answer': 'I cannot answer this question', 'context': A short reason explaining why this question cannot be answered}.\n"
)

// InferenceView returns a copy of e as upstream's load_dataset_entry hands
// it to a model handler: the language hint appended to every function
// description (Java and JavaScript parameters turned into strings with their
// type described), and, for agentic entries, the response-format system
// message first. Held-out miss_func documents get no hint, as upstream
// (they are moved out before the hints are added). e is not modified.
func InferenceView(e *Entry) (*Entry, error) {
	v := *e
	lang := hintPython
	switch {
	case e.Category.IsJS():
		lang = hintJavaScript
	case e.Category.IsJava():
		lang = hintJava
	}
	v.Functions = make([]json.RawMessage, 0, len(e.Functions))
	for _, doc := range e.Functions {
		d, err := hintDoc(doc, lang)
		if err != nil {
			return nil, fmt.Errorf("dataset: %s: function document: %w", e.Where(), err)
		}
		v.Functions = append(v.Functions, d)
	}
	v.Question = make([][]Message, len(e.Question))
	for i, t := range e.Question {
		v.Question[i] = append([]Message(nil), t...)
	}
	isAgentic := strings.Contains(e.ID, "memory") || strings.Contains(e.ID, "web_search")
	if isAgentic && !strings.Contains(e.ID, "prereq") && len(v.Question) > 0 {
		v.Question[0] = append([]Message{{Role: "system", Content: AgenticResponseFormatPrompt}}, v.Question[0]...)
	}
	return &v, nil
}

// hinted remembers hintDoc's results: the documents of a backend class
// are hinted again for every multi-turn entry that involves it.
var hinted memo.Table[string, json.RawMessage]

func hintDoc(raw json.RawMessage, hint string) (json.RawMessage, error) {
	return hinted.Get(hint, raw, func() (json.RawMessage, error) { return hintDocOnce(raw, hint) })
}

func hintDocOnce(raw json.RawMessage, hint string) (json.RawMessage, error) {
	val, err := pyval.FromJSON(raw)
	if err != nil {
		return nil, err
	}
	doc, ok := val.(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("not a JSON object")
	}
	desc, _ := doc.GetStr("description")
	ds, _ := desc.(pyval.Str)
	doc.SetStr("description", ds+pyval.Str(hint))
	if hint != hintPython {
		params, _ := doc.GetStr("parameters")
		pd, _ := params.(*pyval.Dict)
		if pd != nil {
			props, _ := pd.GetStr("properties")
			if pp, ok := props.(*pyval.Dict); ok {
				for _, kv := range pp.Items() {
					if p, ok := kv.Value.(*pyval.Dict); ok {
						if err := hintParam(p, hint == hintJava); err != nil {
							return nil, err
						}
					}
				}
			}
		}
	}
	s, err := pyval.JSONDumps(doc)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(s), nil
}

// hintParam rewrites one Java or JavaScript parameter as upstream does.
func hintParam(p *pyval.Dict, java bool) error {
	typ := strOf(p, "type")
	desc := strOf(p, "description")
	langName := "JavaScript"
	if java {
		langName = "Java"
	}
	if typ == "any" {
		desc += " This parameter can be of any type of " + langName + " object in string representation."
	} else {
		desc += " This is " + langName + " " + typ + " type parameter in string representation."
	}
	isList := (java && (typ == "ArrayList" || typ == "Array")) || (!java && typ == "array")
	if isList {
		items, _ := p.GetStr("items")
		itemType := ""
		if id, ok := items.(*pyval.Dict); ok {
			itemType = strOf(id, "type")
		}
		desc += " The list elements are of type " + itemType + "; they are not in string representation."
		p.Delete(pyval.Str("items"))
	}
	if !java && typ == "dict" {
		if props, ok := p.GetStr("properties"); ok {
			js, err := pyval.JSONDumps(props)
			if err != nil {
				return err
			}
			desc += " The dictionary entries have the following schema; they are not in string representation. " + js
			p.Delete(pyval.Str("properties"))
		}
	}
	p.SetStr("description", pyval.Str(desc))
	p.SetStr("type", pyval.Str("string"))
	return nil
}

func strOf(d *pyval.Dict, k string) string {
	v, _ := d.GetStr(k)
	s, _ := v.(pyval.Str)
	return string(s)
}

// InitialConfigDict decodes initial_config (class name -> configuration)
// into Python values, in document order; an entry without one gives an
// empty dict.
func (e *Entry) InitialConfigDict() (*pyval.Dict, error) {
	if len(e.InitialConfig) == 0 {
		return pyval.NewDict(), nil
	}
	v, err := pyval.FromJSON(e.InitialConfig)
	if err != nil {
		return nil, fmt.Errorf("dataset: %s: initial_config: %w", e.Where(), err)
	}
	d, ok := v.(*pyval.Dict)
	if !ok {
		return nil, fmt.Errorf("dataset: %s: initial_config is not an object", e.Where())
	}
	return d, nil
}

// LongContext reports whether the backends run in long-context mode for
// this entry, as upstream decides it: "long_context" (or "composite") in the
// category.
func (e *Entry) LongContext() bool {
	return e.Category.IsLongContext()
}
