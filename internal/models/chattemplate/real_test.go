package chattemplate_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/models/chattemplate"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// The real chat templates that ship with the engine's module
// (testdata/templates of github.com/ardanlabs/jinja v1.8.0: Qwen3, Llama
// 3.2, Mistral, Gemma, gpt-oss, GLM, DeepSeek, ...), rendered with the
// inputs of fixtures/chattemplate and compared with the SHA-256 of what
// Python's jinja2 renders in transformers' environment
// (fixtures/chattemplate/render_real_goldens.py; the templates' text is not
// copied here).
// departuresPinned is how many renderings of the real templates jinja2
// refuses (an attribute of an undefined value, str + list) while the
// engine renders them.
const departuresPinned = 44

var _ = Describe("real chat templates against Python's jinja2", func() {
	It("renders every conversation as jinja2 does, and fails where jinja2 fails save the engine's known departures", func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ardanlabs/jinja").Output()
		dir := filepath.Join(strings.TrimSpace(string(out)), "testdata", "templates")
		if _, serr := os.Stat(dir); err != nil || serr != nil {
			msg := fmt.Sprintf("the templates of the module github.com/ardanlabs/jinja are not in the module cache (%s): run go mod download", dir)
			if os.Getenv("CI") == "true" {
				Fail(msg)
			}
			Skip(msg)
		}
		fixtures := filepath.Join(testenv.ModuleRoot(), "fixtures", "chattemplate")
		var goldens struct {
			Module string
			Cases  []struct {
				Template, Conversation, Tools string
				AddGenerationPrompt           bool `json:"add_generation_prompt"`
				SHA256, Error                 string
			}
		}
		b, err := os.ReadFile(filepath.Join(fixtures, "real_goldens.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(b, &goldens)).To(Succeed())
		Expect(goldens.Module).To(Equal("github.com/ardanlabs/jinja@v1.8.0"))
		Expect(goldens.Cases).To(HaveLen(816))
		var inputs struct {
			Special       map[string]json.RawMessage `json:"special_tokens"`
			Tools         json.RawMessage            `json:"tools"`
			Conversations map[string]json.RawMessage `json:"conversations"`
		}
		b, err = os.ReadFile(filepath.Join(fixtures, "inputs.json"))
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(b, &inputs)).To(Succeed())
		cfg := map[string]any{}
		for k, v := range inputs.Special {
			cfg[k] = v
		}
		bfclTools, err := pyval.FromJSON(inputs.Tools)
		Expect(err).NotTo(HaveOccurred())
		shapes := map[string][]pyval.Value{"bfcl": bfclTools.(*pyval.List).Items}
		for _, t := range bfclTools.(*pyval.List).Items {
			d := pyval.NewDict()
			d.SetStr("type", pyval.Str("function"))
			d.SetStr("function", t)
			shapes["openai"] = append(shapes["openai"], d)
		}
		toks := map[string]*chattemplate.Tokenizer{}
		same, failed, departures := 0, 0, 0
		var wrong []string
		for _, c := range goldens.Cases {
			tok, ok := toks[c.Template]
			if !ok {
				src, err := os.ReadFile(filepath.Join(dir, c.Template))
				Expect(err).NotTo(HaveOccurred())
				cfg["chat_template"] = string(src)
				j, err := json.Marshal(cfg)
				Expect(err).NotTo(HaveOccurred())
				tmp := GinkgoT().TempDir()
				Expect(os.WriteFile(filepath.Join(tmp, chattemplate.ConfigFile), j, 0o644)).To(Succeed())
				tok, err = chattemplate.Load(tmp)
				Expect(err).NotTo(HaveOccurred(), c.Template)
				toks[c.Template] = tok
			}
			msgs, err := pyval.FromJSON(inputs.Conversations[c.Conversation])
			Expect(err).NotTo(HaveOccurred())
			out, rerr := tok.Apply(msgs.(*pyval.List).Items, chattemplate.Options{Tools: shapes[c.Tools], AddGenerationPrompt: c.AddGenerationPrompt,
				Now: func() time.Time { return time.Date(2026, 1, 15, 9, 30, 5, 0, time.Local) }})
			where := fmt.Sprintf("%s / %s / tools %s / generation prompt %v", c.Template, c.Conversation, c.Tools, c.AddGenerationPrompt)
			switch {
			case c.Error == "":
				sum := sha256.Sum256([]byte(out))
				if rerr != nil || hex.EncodeToString(sum[:]) != c.SHA256 {
					wrong = append(wrong, fmt.Sprintf("%s: rendered differently (error %v)", where, rerr))
					continue
				}
				same++
			case strings.Contains(c.Error, "has no attribute") || strings.Contains(c.Error, "can only concatenate str"):
				// the engine's known departures (README): an attribute
				// of an undefined value is undefined, str + list
				// concatenates; the rendering may still fail further on
				if rerr != nil {
					failed++
					continue
				}
				departures++
			default:
				if rerr == nil {
					wrong = append(wrong, fmt.Sprintf("%s: jinja2 raised %s, the engine rendered", where, c.Error))
					continue
				}
				failed++
			}
		}
		AddReportEntry("real chat templates", fmt.Sprintf("%d templates: %d renderings identical to jinja2's, %d failing as in jinja2, %d known departures (jinja2 raises, the engine renders)", len(toks), same, failed, departures))
		Expect(wrong).To(BeEmpty())
		Expect(same).To(Equal(712), "every rendering jinja2 makes")
		Expect(departures).To(Equal(departuresPinned), "the renderings where jinja2 raises and the engine does not (README: update its departures)")
	})
})
