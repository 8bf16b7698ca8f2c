package core_test

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

type goldenCase struct {
	Source    string            `json:"source"`
	Functions []json.RawMessage `json:"functions"`
	OpenAI    json.RawMessage   `json:"openai"`
	Anthropic json.RawMessage   `json:"anthropic"`
	Gemini    json.RawMessage   `json:"gemini"`
	Mistral   json.RawMessage   `json:"mistral"`
	Cohere    json.RawMessage   `json:"cohere"`
	Bedrock   json.RawMessage   `json:"bedrock"`
}

// readGoldenLines calls fn on each line of a gzipped JSON-lines golden
// file of fixtures/drivers/convert (written by the gen_*.py next to it).
func readGoldenLines(name string, fn func([]byte)) {
	path := filepath.Join(testenv.ModuleRoot(), "fixtures", "drivers", "convert", name)
	f, err := os.Open(path)
	Expect(err).NotTo(HaveOccurred(), "golden file of upstream outputs")
	defer f.Close()
	zr, err := gzip.NewReader(f)
	Expect(err).NotTo(HaveOccurred())
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		fn(sc.Bytes())
	}
	Expect(sc.Err()).NotTo(HaveOccurred())
}

func loadGolden() []goldenCase {
	var out []goldenCase
	readGoldenLines("convert_golden.jsonl.gz", func(line []byte) {
		var c goldenCase
		Expect(json.Unmarshal(line, &c)).To(Succeed())
		out = append(out, c)
	})
	return out
}

func toStrings(raws []json.RawMessage) []string {
	out := make([]string, len(raws))
	for i, r := range raws {
		out[i] = string(r)
	}
	return out
}

var _ = Describe("ConvertFunctions", func() {
	It("reproduces upstream convert_to_tool byte for byte on real dataset function docs", func() {
		cases := loadGolden()
		Expect(len(cases)).To(BeNumerically(">", 150))
		compared := 0
		for _, c := range cases {
			for _, p := range []struct {
				provider string
				want     json.RawMessage
			}{{"openai", c.OpenAI}, {"ollama", c.OpenAI}, {"anthropic", c.Anthropic}, {"gemini", c.Gemini},
				{"mistral", c.Mistral}, {"qwen", c.OpenAI}, {"cohere", c.Cohere}, {"bedrock", c.Bedrock}} {
				var want []string
				Expect(json.Unmarshal(p.want, &want)).To(Succeed(), "%s %s: golden holds an error, none expected", c.Source, p.provider)
				got, err := core.ConvertFunctions(c.Functions, p.provider, true)
				Expect(err).NotTo(HaveOccurred(), "%s %s", c.Source, p.provider)
				Expect(toStrings(got)).To(Equal(want), "%s %s", c.Source, p.provider)
				compared += len(want)
			}
		}
		Expect(compared).To(BeNumerically(">", 1000))
	})

	It("replaces every dot in names for every provider, as upstream's convert_to_tool", func() {
		doc := json.RawMessage(`{"name":"math.stats.mean","description":"d","parameters":{"type":"dict","properties":{"x":{"type":"float","description":"v"}},"required":["x"]}}`)
		oa, err := core.ConvertFunctions([]json.RawMessage{doc}, "openai", true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(oa[0])).To(Equal(`{"type": "function", "function": {"name": "math_stats_mean", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "v This is a float type value.", "format": "float"}}, "required": ["x"]}}}`))
		an, err := core.ConvertFunctions([]json.RawMessage{doc}, "anthropic", true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(an[0])).To(Equal(`{"name": "math_stats_mean", "description": "d", "input_schema": {"type": "object", "properties": {"x": {"type": "number", "description": "v This is a float type value.", "format": "float"}}, "required": ["x"]}}`))
		rs, err := core.ConvertFunctions([]json.RawMessage{doc}, "responses", true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(rs[0])).To(Equal(`{"name": "math_stats_mean", "description": "d", "parameters": {"type": "object", "properties": {"x": {"type": "number", "description": "v This is a float type value.", "format": "float"}}, "required": ["x"]}, "type": "function"}`))
	})

	It("folds Gemini-rejected fields into the description in upstream's order and wording", func() {
		doc := json.RawMessage(`{"name":"f","description":"d","parameters":{"type":"dict","optional":["a"],"properties":{` +
			`"a":{"type":"integer","description":"A","default":5,"maximum":10,"enum":[1,2]},` +
			`"b":{"type":"string","format":"date","enum":["x","y"],"optional":true},` +
			`"c":{"type":"array","items":{"type":"tuple"},"minItems":1,"maxItems":3,"required":true}},"required":[]},` +
			`"response":{"type":"dict","properties":{"ok":{"type":"boolean"}}}}`)
		got, err := core.ConvertFunctions([]json.RawMessage{doc}, "gemini", true)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(got[0])).To(Equal(`{"name": "f", "description": "d The response field has the following schema: {\"type\": \"dict\", \"properties\": {\"ok\": {\"type\": \"boolean\"}}}", "parameters": {"type": "object", "properties": {` +
			`"a": {"type": "integer", "description": "A Default is: 5. Maximum value: 10. Enum values: [1, 2]."}, ` +
			`"b": {"type": "string", "enum": ["x", "y"], "description": " Optional: True. Format: date."}, ` +
			`"c": {"type": "array", "items": {"type": "array"}, "description": " Required: True. Minimum number of items: 1. Maximum number of items: 3."}}, "required": []}}`))
	})

	It("fails like upstream on docs upstream cannot convert, naming the function", func() {
		noDesc := json.RawMessage(`{"name":"g","description":"d","parameters":{"type":"dict","properties":{"x":{"type":"float"}}}}`)
		_, err := core.ConvertFunctions([]json.RawMessage{noDesc}, "openai", true)
		Expect(err).To(MatchError(ContainSubstring(`function g`)))
		Expect(err).To(MatchError(ContainSubstring(`KeyError 'description'`)))
		badItems := json.RawMessage(`{"name":"h","description":"d","parameters":{"type":"dict","properties":{"x":{"type":"array","description":"","items":{"type":"complex"}}}}}`)
		_, err = core.ConvertFunctions([]json.RawMessage{badItems}, "openai", true)
		Expect(err).To(MatchError(ContainSubstring(`unknown item type 'complex'`)))
		_, err = core.ConvertFunctions([]json.RawMessage{noDesc}, "cerebras", true)
		Expect(err).To(MatchError(ContainSubstring(`unknown provider "cerebras"`)))
	})

	It("converts every function doc of the dataset for every provider", func() {
		data, _ := testenv.DataDir()
		dir := filepath.Join(data, "data")
		files, _ := filepath.Glob(filepath.Join(dir, "BFCL_v4_*.json"))
		if len(files) == 0 {
			Skip("DATASET NOT FOUND at " + dir + " (set BFCL_DATA_DIR): full-dataset conversion not checked")
		}
		n := 0
		for _, path := range files {
			if strings.Contains(path, "format_sensitivity") {
				continue
			}
			f, err := os.Open(path)
			Expect(err).NotTo(HaveOccurred())
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
			for sc.Scan() {
				var e struct {
					ID       string            `json:"id"`
					Function []json.RawMessage `json:"function"`
				}
				Expect(json.Unmarshal(sc.Bytes(), &e)).To(Succeed())
				for _, p := range []string{"openai", "anthropic", "gemini", "bedrock"} {
					got, err := core.ConvertFunctions(e.Function, p, true)
					Expect(err).NotTo(HaveOccurred(), "%s %s", e.ID, p)
					Expect(got).To(HaveLen(len(e.Function)))
				}
				n += len(e.Function)
			}
			f.Close()
		}
		Expect(n).To(BeNumerically(">", 5000))
	})
})

var _ = Describe("AppendToolsJSON", func() {
	It("remembers an array per slice of documents, never across slices or lengths", func() {
		doc := func(name string) json.RawMessage {
			return json.RawMessage(`{"name":"` + name + `","description":"d","parameters":{"type":"dict","properties":{},"required":[]}}`)
		}
		want := func(docs []json.RawMessage) string {
			tools, err := core.ConvertFunctions(docs, core.ProviderOpenAI, true)
			Expect(err).NotTo(HaveOccurred())
			b, err := json.Marshal(tools)
			Expect(err).NotTo(HaveOccurred())
			return string(b)
		}
		got := func(docs []json.RawMessage) string {
			b, err := core.AppendToolsJSON([]byte("x"), docs, core.ProviderOpenAI, true)
			Expect(err).NotTo(HaveOccurred())
			Expect(b[0]).To(Equal(byte('x')), "appends")
			return string(b[1:])
		}
		docs := make([]json.RawMessage, 1, 4)
		docs[0] = doc("a")
		Expect(got(docs)).To(Equal(want(docs)))
		Expect(got(docs)).To(Equal(want(docs)), "the same slice again")
		longer := append(docs, doc("b")) // same first element, one more
		Expect(got(longer)).To(Equal(want(longer)))
		Expect(got(longer[:1])).To(Equal(want(docs)))
		other := []json.RawMessage{doc("c")}
		Expect(got(other)).To(Equal(want(other)))
		Expect(got(nil)).To(Equal("[]"))
	})
})
