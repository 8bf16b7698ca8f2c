package prompt_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bfcl-go/bfcl/internal/models/prompt"
)

var benchDocs = []json.RawMessage{
	json.RawMessage(`{"name":"calc.area","description":"Compute an area.","parameters":{"type":"dict","properties":{"base":{"type":"integer","description":"Base."},"unit":{"type":"string","enum":["m","cm"],"default":"m"},"dims":{"type":"array","items":{"type":"float"}},"opts":{"type":"dict","properties":{"round":{"type":"boolean"}}}},"required":["base"]}}`),
}

func BenchmarkSystemPrompt(b *testing.B) {
	configs := prompt.AllConfigs()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := prompt.SystemPrompt(configs[i%len(configs)], benchDocs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseVerboseXMLFormat(b *testing.B) {
	one := `<function name="f"><params><param name="a" value="1" type="integer"/><param name="l" value="[1, 2, 3]" type="array"/><param name="s" value="x &amp; y" type="string"/></params></function>`
	in := "<functions>" + strings.Repeat(one, 8) + "</functions>"
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := prompt.ParseVerboseXMLFormat(in); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseJSONFormat(b *testing.B) {
	in := "```json\n[" + strings.Repeat(`{"function":"f","parameters":{"a":1,"b":"x","c":[1,2,{"d":null}]}},`, 7) + `{"function":"g","parameters":{}}]` + "\n```"
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := prompt.ParseJSONFormat(in); err != nil {
			b.Fatal(err)
		}
	}
}
