// Command tinygguf writes the scripted tiny GGUF model of the CI (see
// internal/testkit/tinygguf) and, optionally, an Ollama Modelfile for it.
//
//	go run ./cmd/tinygguf -o tiny.gguf -modelfile Modelfile -template fixtures/ollama/template.gotmpl
//
// The scripted answers default to tinygguf.DefaultScript; -call1, -call2
// (JSON lists of {"name": ..., "arguments": {...}}), -after and -text
// replace them.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bfcl-go/bfcl/internal/testkit/tinygguf"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "tinygguf:", err)
		os.Exit(1)
	}
}

func run() error {
	out := flag.String("o", "tiny.gguf", "GGUF file to write")
	modelfile := flag.String("modelfile", "", "also write an Ollama Modelfile here (needs -template)")
	tmpl := flag.String("template", "", "chat template file for the Modelfile")
	from := flag.String("from", "", "FROM path written in the Modelfile (default: absolute path of -o)")
	call1 := flag.String("call1", "", "JSON list of calls answering <|mock_call1|>")
	call2 := flag.String("call2", "", "JSON list of calls answering <|mock_call2|>")
	after := flag.String("after", "", "text answering <|mock_after_tool|>")
	text := flag.String("text", "", "text answering <|mock_text|>")
	flag.Parse()

	s := tinygguf.DefaultScript()
	for _, c := range []struct {
		flag string
		dst  *[]tinygguf.Call
	}{{*call1, &s.Call1}, {*call2, &s.Call2}} {
		if c.flag == "" {
			continue
		}
		var calls []tinygguf.Call
		if err := json.Unmarshal([]byte(c.flag), &calls); err != nil {
			return fmt.Errorf("bad call list %q: %w", c.flag, err)
		}
		*c.dst = calls
	}
	if *after != "" {
		s.AfterTool = *after
	}
	if *text != "" {
		s.Text = *text
	}

	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := tinygguf.Write(f, s); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if *modelfile == "" {
		return nil
	}
	if *tmpl == "" {
		return fmt.Errorf("-modelfile needs -template")
	}
	t, err := os.ReadFile(*tmpl)
	if err != nil {
		return err
	}
	src := *from
	if src == "" {
		if src, err = filepath.Abs(*out); err != nil {
			return err
		}
	}
	mf, err := tinygguf.Modelfile(src, string(t))
	if err != nil {
		return err
	}
	return os.WriteFile(*modelfile, []byte(mf), 0o644)
}
