package decode_test

import (
	"testing"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// FuzzPromptDecoders feeds arbitrary model text to the three prompt-mode
// decoders and the execute decoder: they must return a value or an
// exception, never panic, and a value must be printable.
func FuzzPromptDecoders(f *testing.F) {
	for _, s := range []string{
		"[f(a=1)]", "[f(a=new HashMap<String, Object>() {{ put(\"k\", 1); }})]", "[f(a=`x${1}`)]",
		"[f(a=x => {return 1;})]", "[a.b(c=[1, {d: 2}])]", "[f(a=(int) x, b=y -> y)]",
		"[f(a=\"\\\"\")]", "[f(a=1 if x else 2)]", "[f(a=lambda: 1)]", "[f(a=-g()[0])]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lang := range []string{decode.LangPython, decode.LangJava, decode.LangJavaScript} {
			v, err := decode.DecodeASTValue(pyval.Str(s), decode.Options{Spec: decode.Spec{Mode: decode.ModePrompt}, Language: lang})
			if err == nil {
				_ = pyval.Repr(v)
				decode.IsEmptyOutput(v)
			} else if _, isExc := err.(*pyval.Exception); !isExc {
				t.Fatalf("%s: non-Python error %T: %v", lang, err, err)
			}
		}
		if _, err := decode.DecodeExecuteValue(pyval.Str(s), decode.Options{Spec: decode.Spec{Mode: decode.ModePrompt}}); err != nil {
			if _, isExc := err.(*pyval.Exception); !isExc {
				t.Fatalf("execute: non-Python error %T: %v", err, err)
			}
		}
	})
}
