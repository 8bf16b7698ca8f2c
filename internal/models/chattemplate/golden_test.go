package chattemplate_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/chattemplate"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// The goldens of fixtures/chattemplate/goldens.json were rendered by
// Python's jinja2 3.1.6 in the environment transformers' apply_chat_template
// builds (fixtures/chattemplate/render_goldens.py), for the templates of
// fixtures/chattemplate/templates/ (written for these tests) and the inputs
// of inputs.json.

type goldenCase struct {
	Template            string `json:"template"`
	Conversation        string `json:"conversation"`
	Tools               bool   `json:"tools"`
	AddGenerationPrompt bool   `json:"add_generation_prompt"`
	Output              *string
	Error               *string
}

var _ = Describe("rendering against Python's jinja2", func() {
	dir := filepath.Join(testenv.ModuleRoot(), "fixtures", "chattemplate")
	var inputs struct {
		Special       map[string]json.RawMessage `json:"special_tokens"`
		Tools         json.RawMessage            `json:"tools"`
		Conversations map[string]json.RawMessage `json:"conversations"`
	}
	var goldens struct {
		Cases []goldenCase `json:"cases"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "inputs.json"))
	if err == nil {
		err = json.Unmarshal(b, &inputs)
	}
	if err == nil {
		b, err = os.ReadFile(filepath.Join(dir, "goldens.json"))
	}
	if err == nil {
		err = json.Unmarshal(b, &goldens)
	}

	It("has its fixtures", func() {
		Expect(err).NotTo(HaveOccurred())
		Expect(goldens.Cases).To(HaveLen(192))
	})

	for _, c := range goldens.Cases {
		It(c.Template+" / "+c.Conversation+toolsLabel(c), func() {
			Expect(err).NotTo(HaveOccurred())
			tok := load(dir, c.Template, inputs.Special)
			msgs, perr := pyval.FromJSON(inputs.Conversations[c.Conversation])
			Expect(perr).NotTo(HaveOccurred())
			opts := chattemplate.Options{AddGenerationPrompt: c.AddGenerationPrompt}
			if c.Tools {
				tools, terr := pyval.FromJSON(inputs.Tools)
				Expect(terr).NotTo(HaveOccurred())
				opts.Tools = tools.(*pyval.List).Items
			}
			out, rerr := tok.Apply(msgs.(*pyval.List).Items, opts)
			if c.Error != nil && strings.Contains(*c.Error, "can only concatenate str") {
				// a known departure of the engine (README, "Chat
				// templates"): str + list concatenates instead of
				// raising TypeError
				Expect(rerr).NotTo(HaveOccurred())
				return
			}
			if c.Error != nil {
				Expect(rerr).To(HaveOccurred(), "jinja2 raised %s", *c.Error)
				Expect(rerr.Error()).To(ContainSubstring(strings.TrimPrefix(*c.Error, "TypeError: ")))
				return
			}
			Expect(rerr).NotTo(HaveOccurred())
			Expect(out).To(Equal(*c.Output))
		})
	}
})

func toolsLabel(c goldenCase) string {
	s := ""
	if c.Tools {
		s += " / tools"
	}
	if c.AddGenerationPrompt {
		s += " / generation prompt"
	}
	return s
}

// load writes a tokenizer_config.json with the template and the special
// tokens (eos_token as an AddedToken dict, as many configs have it) and
// loads it.
func load(dir, template string, special map[string]json.RawMessage) *chattemplate.Tokenizer {
	src, err := os.ReadFile(filepath.Join(dir, "templates", template))
	Expect(err).NotTo(HaveOccurred())
	cfg := map[string]any{"chat_template": string(src)}
	for k, v := range special {
		cfg[k] = v
	}
	cfg["eos_token"] = map[string]any{"__type": "AddedToken", "content": "<|endoftext|>", "lstrip": false}
	b, err := json.Marshal(cfg)
	Expect(err).NotTo(HaveOccurred())
	tmp := GinkgoT().TempDir()
	Expect(os.WriteFile(filepath.Join(tmp, chattemplate.ConfigFile), b, 0o644)).To(Succeed())
	tok, err := chattemplate.Load(tmp)
	Expect(err).NotTo(HaveOccurred())
	return tok
}
