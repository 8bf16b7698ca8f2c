// Package chattemplate renders a Hugging Face chat template as
// transformers' tokenizer.apply_chat_template(messages, tools=...,
// tokenize=False, add_generation_prompt=...) does
// (transformers.utils.chat_template_utils: render_jinja_template and
// _compile_jinja_template; tokenization_utils_base: get_chat_template).
//
// The template and the special tokens come from the model's
// tokenizer_config.json (Load). Rendering is done by
// github.com/ardanlabs/jinja, a Jinja engine written for chat templates
// (trim_blocks and lstrip_blocks as transformers sets them, ordered dicts,
// loop controls, namespace, macros, raise_exception, strftime_now), with
// transformers' own tojson: json.dumps(x, ensure_ascii=False, indent=None,
// separators=None, sort_keys=False), which keeps the key order, writes
// floats as Python does (1.0, 1e-05) and does not escape HTML characters.
// The engine's own tojson does not (Go's float format, and sorted keys with
// indent), so every `| tojson` of a template is bound to this package's
// filter before compiling, and the text around the tags is cut as
// Jinja2's lexer cuts it (prepare, in bind.go).
//
// Values are pyval values (Python's dicts keep their order; floats stay
// floats), so what a template sees is what upstream's Python dicts hold.
package chattemplate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ardanlabs/jinja"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// ConfigFile is the tokenizer file that holds the chat template and the
// special tokens.
const ConfigFile = "tokenizer_config.json"

// TemplateFile is the separate template file newer transformers versions
// save beside tokenizer_config.json; when present it is the template
// (transformers reads it in place of the config's chat_template).
const TemplateFile = "chat_template.jinja"

// specialTokenKeys are the attributes of transformers' special_tokens_map
// (SpecialTokensMixin.SPECIAL_TOKENS_ATTRIBUTES), passed to the template
// as variables when the tokenizer has them.
var specialTokenKeys = []string{"bos_token", "eos_token", "unk_token", "sep_token",
	"pad_token", "cls_token", "mask_token", "additional_special_tokens"}

// ErrNoTemplate is returned by Load for a tokenizer without a chat
// template.
var ErrNoTemplate = errors.New("no chat_template")

// Tokenizer is what apply_chat_template reads of a tokenizer: its chat
// templates and special tokens.
type Tokenizer struct {
	// Source is the file the template was read from.
	Source string
	// templates: "" is the single (unnamed) template; otherwise the named
	// templates of a list-valued chat_template.
	templates map[string]*compiled
	// special are the special tokens, in specialTokenKeys order.
	special []special
}

type special struct {
	name  string
	value jinja.Value
}

type compiled struct {
	name  string
	t     *jinja.Template
	texts jinja.Value // the template's texts (prepare)
}

// Load reads dir's tokenizer_config.json (and chat_template.jinja when
// present) and compiles its chat template(s). A folder without a template
// gives an error wrapping ErrNoTemplate (or fs.ErrNotExist for a missing
// tokenizer_config.json).
func Load(dir string) (*Tokenizer, error) {
	path := filepath.Join(dir, ConfigFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cfg map[string]json.RawMessage
	if err := json.Unmarshal(b, &cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tok := &Tokenizer{Source: path, templates: map[string]*compiled{}}
	for _, key := range specialTokenKeys {
		raw, ok := cfg[key]
		if !ok {
			continue
		}
		v, err := specialToken(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, key, err)
		}
		if !v.IsNone() {
			tok.special = append(tok.special, special{key, v})
		}
	}
	if src, err := os.ReadFile(filepath.Join(dir, TemplateFile)); err == nil {
		tok.Source = filepath.Join(dir, TemplateFile)
		c, err := compile("", string(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", tok.Source, err)
		}
		tok.templates[""] = c
		return tok, nil
	}
	raw, ok := cfg["chat_template"]
	if !ok || string(raw) == "null" {
		return nil, fmt.Errorf("%s: %w", path, ErrNoTemplate)
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		c, err := compile("", one)
		if err != nil {
			return nil, fmt.Errorf("%s: chat_template: %w", path, err)
		}
		tok.templates[""] = c
		return tok, nil
	}
	var named []struct {
		Name     *string `json:"name"`
		Template *string `json:"template"`
	}
	if err := json.Unmarshal(raw, &named); err != nil {
		return nil, fmt.Errorf("%s: chat_template is neither a string nor a list of {\"name\", \"template\"}: %w", path, err)
	}
	for i, n := range named {
		if n.Name == nil || n.Template == nil {
			return nil, fmt.Errorf("%s: chat_template[%d] has no name or no template", path, i)
		}
		c, err := compile(*n.Name, *n.Template)
		if err != nil {
			return nil, fmt.Errorf("%s: chat_template %q: %w", path, *n.Name, err)
		}
		tok.templates[*n.Name] = c
	}
	if len(tok.templates) == 0 {
		return nil, fmt.Errorf("%s: %w (an empty list)", path, ErrNoTemplate)
	}
	return tok, nil
}

// specialToken reads a special token as transformers keeps it: a string,
// an AddedToken dict ({"content": ..., ...}, its content), a list of those
// (additional_special_tokens), or null.
func specialToken(raw json.RawMessage) (jinja.Value, error) {
	var s *string
	if err := json.Unmarshal(raw, &s); err == nil {
		if s == nil {
			return jinja.None(), nil
		}
		return jinja.NewString(*s), nil
	}
	var added struct {
		Content *string `json:"content"`
	}
	if err := json.Unmarshal(raw, &added); err == nil && added.Content != nil {
		return jinja.NewString(*added.Content), nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err == nil {
		items := make([]jinja.Value, 0, len(list))
		for i, r := range list {
			v, err := specialToken(r)
			if err != nil || !v.IsString() {
				return jinja.None(), fmt.Errorf("item %d is not a token", i)
			}
			items = append(items, v)
		}
		return jinja.NewList(items), nil
	}
	return jinja.None(), fmt.Errorf("%s is not a token (a string or {\"content\": ...})", raw)
}

// Parse compiles one template string with the given special tokens (name
// → token), for callers that have the template itself.
func Parse(template string, specialTokens map[string]string) (*Tokenizer, error) {
	c, err := compile("", template)
	if err != nil {
		return nil, err
	}
	tok := &Tokenizer{Source: "(template)", templates: map[string]*compiled{"": c}}
	for _, key := range specialTokenKeys {
		if v, ok := specialTokens[key]; ok {
			tok.special = append(tok.special, special{key, jinja.NewString(v)})
		}
	}
	return tok, nil
}

func compile(name, src string) (*compiled, error) {
	engine, texts := prepare(src)
	t, err := jinja.Compile(engine)
	if err != nil {
		return nil, err
	}
	items := make([]jinja.Value, len(texts))
	for i, s := range texts {
		items[i] = jinja.NewString(s)
	}
	return &compiled{name: name, t: t, texts: jinja.NewList(items)}, nil
}

// Names lists the named templates ("" alone for a single template).
func (t *Tokenizer) Names() []string {
	out := make([]string, 0, len(t.templates))
	for n := range t.templates {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Special returns a special token's text ("" when the tokenizer has none).
func (t *Tokenizer) Special(name string) string {
	for _, s := range t.special {
		if s.name == name && s.value.IsString() {
			return s.value.AsString()
		}
	}
	return ""
}

// template is get_chat_template(None, tools): the single template; of
// named ones, "tool_use" when tools are given and it exists, else
// "default".
func (t *Tokenizer) template(withTools bool) (*compiled, error) {
	if c, ok := t.templates[""]; ok {
		return c, nil
	}
	if withTools {
		if c, ok := t.templates["tool_use"]; ok {
			return c, nil
		}
	}
	if c, ok := t.templates["default"]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("%s: the tokenizer has several chat templates (%s) and none is named \"default\" (transformers: \"This model has multiple chat templates with no default specified\")", t.Source, strings.Join(t.Names(), ", "))
}

// Options are apply_chat_template's arguments besides the messages.
type Options struct {
	// Tools is tools= (nil: None, the template sees tools as none; an
	// empty list is passed as []).
	Tools []pyval.Value
	// AddGenerationPrompt is add_generation_prompt.
	AddGenerationPrompt bool
	// Extra are further template variables (apply_chat_template's
	// **kwargs, e.g. enable_thinking); they override special tokens of
	// the same name, as in transformers.
	Extra map[string]pyval.Value
	// Now is the clock of strftime_now (nil: time.Now, as transformers'
	// datetime.now()).
	Now func() time.Time
}

// Apply renders messages (a list of message dicts) as
// apply_chat_template(messages, tools=o.Tools, tokenize=False,
// add_generation_prompt=o.AddGenerationPrompt, **o.Extra) does. An error
// of the template (raise_exception, a failed operation) is returned with
// the template's source named.
func (t *Tokenizer) Apply(messages []pyval.Value, o Options) (string, error) {
	c, err := t.template(o.Tools != nil)
	if err != nil {
		return "", err
	}
	data := make(map[string]jinja.Value, 8+len(t.special)+len(o.Extra))
	now := o.Now
	if now == nil {
		now = time.Now
	}
	data["strftime_now"] = strftimeNow(now) // a global: variables of the same name win
	for _, s := range t.special {
		data[s.name] = s.value
	}
	for k, v := range o.Extra {
		jv, err := toJinja(v)
		if err != nil {
			return "", fmt.Errorf("chat template variable %s: %w", k, err)
		}
		data[k] = jv
	}
	msgs, err := toJinja(pyval.NewList(messages...))
	if err != nil {
		return "", fmt.Errorf("chat template messages: %w", err)
	}
	data["messages"] = msgs
	data["tools"] = jinja.None()
	if o.Tools != nil {
		tools, err := toJinja(pyval.NewList(o.Tools...))
		if err != nil {
			return "", fmt.Errorf("chat template tools: %w", err)
		}
		data["tools"] = tools
	}
	data["documents"] = jinja.None()
	data["add_generation_prompt"] = jinja.NewBool(o.AddGenerationPrompt)
	data[tojsonName] = tojsonFilter
	data[textVar] = c.texts
	data[strName] = strFunc
	data[stringName] = strFunc
	data[joinName] = joinFilter
	data[sortName] = sortFilter
	out, err := c.t.RenderValues(data)
	if err != nil {
		where := t.Source
		if c.name != "" {
			where += " (template " + c.name + ")"
		}
		return "", fmt.Errorf("chat template of %s: %w", where, err)
	}
	return out, nil
}
