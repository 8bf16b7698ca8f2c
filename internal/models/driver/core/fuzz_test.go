package core_test

import (
	"encoding/json"
	"testing"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
)

// FuzzConvertFunctions: any JSON document either converts to valid JSON
// tools for every provider or fails with an error, never a panic.
func FuzzConvertFunctions(f *testing.F) {
	f.Add(`{"name":"a.b","description":"d","parameters":{"type":"dict","properties":{"x":{"type":"float","description":"v","default":1.5,"enum":[1,2]},"y":{"type":"array","items":{"type":"dict","properties":{"z":{"type":"tuple","description":""}}}}},"required":["x"]},"response":{"type":"dict"}}`)
	f.Add(`{"name":"f","description":"d","parameters":{"type":"dict","properties":{"o":{"type":"dict","description":"o","properties":{"p":{"type":"any","description":"p","required":true}},"additionalProperties":{"type":"string"}}}}}`)
	f.Add(`{"name":"g","parameters":{"properties":[]}}`)
	f.Add(`[1,2]`)
	f.Fuzz(func(t *testing.T, doc string) {
		if !json.Valid([]byte(doc)) {
			return
		}
		for _, p := range []string{"openai", "anthropic", "gemini"} {
			tools, err := core.ConvertFunctions([]json.RawMessage{json.RawMessage(doc)}, p)
			if err != nil {
				continue
			}
			for _, tool := range tools {
				if !json.Valid(tool) {
					t.Fatalf("%s: invalid JSON tool %s", p, tool)
				}
			}
		}
	})
}
