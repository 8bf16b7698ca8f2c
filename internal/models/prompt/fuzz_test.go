package prompt_test

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/bfcl-go/bfcl/internal/models/prompt"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

var fuzzSeeds = []string{
	``,
	`[]`,
	`[{"function":"calc_area","parameters":{"base":10,"height":5}}]`,
	"```json\n[{\"function\":\"a.b\",\"parameters\":{\"x\":\"y\",\"z\":[1,2.5,null,true]}}]\n```",
	`[{"function":"f","parameters":{"n":NaN,"big":123456789012345678901234567890}}]`,
	`[{"function":["x"],"parameters":{}}]`,
	`5`,
	`<TOOLCALL>[{"function":"f","parameters":{}}]</TOOLCALL>`,
	`<functions><function name="f"><params><param name="a" value="1" type="integer"/><param name="l" value="[1, 'a']" type="array"/></params></function></functions>`,
	`<functions><function name="f"><param name="a" type="integer"> 5 </param><param name="d" type="dict">{'a': (1, 2)}</param></function></functions>`,
	`<functions xmlns="urn:x"><p:function xmlns:p="u" name="f"><![CDATA[x]]><!-- c --><?pi x?></p:function></functions>`,
	"<functions>\r\n<function name='\u00e9' a='&lt;&#65;&#x1F600;'>\u4e2d</function></functions>",
	`<functions><function name="f"></functions>`,
	`<functions><function name="f" name="g"/></functions>`,
	"<functions>\xed\xa0\x80</functions>",
	"<functions>\xff</functions>",
}

// checkCalls asserts the shape every successful parse has: a list of
// one-key dicts whose value is a dict.
func checkCalls(t *testing.T, in string, v pyval.Value, err error) {
	t.Helper()
	if err != nil {
		if _, ok := err.(*pyval.Exception); !ok {
			t.Fatalf("%q: error is not a Python exception: %v", in, err)
		}
		return
	}
	l, ok := v.(*pyval.List)
	if !ok {
		t.Fatalf("%q: result %s is not a list", in, pyval.Repr(v))
	}
	for _, it := range l.Items {
		d, ok := it.(*pyval.Dict)
		if !ok || d.Len() != 1 {
			t.Fatalf("%q: item %s is not a one-key dict", in, pyval.Repr(it))
		}
	}
}

func deterministic(t *testing.T, in string, parse func(string) (pyval.Value, error)) (pyval.Value, error) {
	t.Helper()
	v1, err1 := parse(in)
	v2, err2 := parse(in)
	if outcomeOf(v1, err1) != outcomeOf(v2, err2) {
		t.Fatalf("%q: two parses differ", in)
	}
	return v1, err1
}

func outcomeOf(v pyval.Value, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return pyval.Repr(v)
}

func FuzzParseJSONFormat(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := deterministic(t, in, prompt.ParseJSONFormat)
		if err == nil {
			l := v.(*pyval.List)
			for _, it := range l.Items {
				if it.(*pyval.Dict).Len() != 1 {
					t.Fatalf("%q: bad call %s", in, pyval.Repr(it))
				}
			}
		}
		checkCalls(t, in, v, err)
	})
}

var parseErrorText = regexp.MustCompile(`^.+: line [1-9][0-9]*, column [0-9]+$`)

func fuzzXML(f *testing.F, parse func(string) (pyval.Value, error)) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		v, err := deterministic(t, in, parse)
		checkCalls(t, in, v, err)
		if exc, ok := err.(*pyval.Exception); ok && exc.Type == "ParseError" && !parseErrorText.MatchString(exc.Msg) {
			t.Fatalf("%q: ParseError text %q lacks expat's position", in, exc.Msg)
		}
		if err == nil {
			for _, it := range v.(*pyval.List).Items {
				_, args := it.(*pyval.Dict).At(0)
				if _, ok := args.(*pyval.Dict); !ok {
					t.Fatalf("%q: arguments %s are not a dict", in, pyval.Repr(args))
				}
			}
		}
	})
}

func FuzzParseVerboseXMLFormat(f *testing.F) { fuzzXML(f, prompt.ParseVerboseXMLFormat) }

func FuzzParseConciseXMLFormat(f *testing.F) { fuzzXML(f, prompt.ParseConciseXMLFormat) }

func FuzzExtractToolCall(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := prompt.ExtractToolCall(in)
		if err != nil {
			if _, ok := err.(*pyval.Exception); !ok {
				t.Fatalf("%q: error is not a Python exception: %v", in, err)
			}
			return
		}
		if len(got) > len(in) {
			t.Fatalf("%q: extracted text longer than the input", in)
		}
	})
}

func FuzzSystemPrompt(f *testing.F) {
	f.Add(`{"name":"f","description":"d","parameters":{"type":"dict","properties":{"a":{"type":"array","items":{"type":"integer"},"default":[1,2],"enum":[[1,2]]}},"required":["a"]}}`, uint8(0))
	f.Add(`{"name":"g","parameters":{"properties":{"o":{"type":"dict","properties":{"x":{"type":"string"}},"additionalProperties":{"type":"integer"}}}}}`, uint8(25))
	f.Add(`{"name":1,"parameters":[]}`, uint8(3))
	configs := prompt.AllConfigs()
	f.Fuzz(func(t *testing.T, doc string, which uint8) {
		cfg := configs[int(which)%len(configs)]
		// Invalid JSON is an error; valid JSON of any shape must give a
		// prompt or an error, never a panic.
		_, _ = prompt.SystemPrompt(cfg, []json.RawMessage{json.RawMessage(doc)})
	})
}
