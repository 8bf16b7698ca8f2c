// Package prompt is BFCL's prompt mode: the system prompt a model without
// native tool calls receives (all 26 format-sensitivity configurations),
// the way prompting handlers build the conversation around it, the parsers
// of the json / verbose_xml / concise_xml return formats and of the
// <TOOLCALL> tag, and the expansion of the format_sensitivity category into
// its entries.
//
// It follows upstream's bfcl_eval/model_handler/utils.py,
// bfcl_eval/constants/default_prompts.py, bfcl_eval/model_handler/parser/
// {json,xml}_parser.py, the prompting methods of base_handler.py and
// api_inference/openai_completion.py, and bfcl_eval/utils.py.
package prompt

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
)

// Return formats (Config.ReturnFormat), function-doc formats
// (Config.FuncDocFormat), prompt templates (Config.PromptFormat) and styles
// (Config.Style), spelled as in upstream's configuration strings.
const (
	RetPython     = "python"
	RetJSON       = "json"
	RetVerboseXML = "verbose_xml"
	RetConciseXML = "concise_xml"

	DocPython = "python"
	DocXML    = "xml"
	DocJSON   = "json"

	FormatPlaintext = "plaintext"
	FormatMarkdown  = "markdown"

	StyleClassic      = "classic"
	StyleExperimental = "experimental"
)

// DefaultConfigString is upstream's DEFAULT_SYSTEM_PROMPT_FORMAT
// (bfcl_eval/constants/default_prompts.py), used for every entry whose id is
// not a format-sensitivity id.
const DefaultConfigString = "ret_fmt=python&tool_call_tag=False&func_doc_fmt=json&prompt_fmt=plaintext&style=classic"

// Config is one system-prompt configuration, parsed from a string such as
// DefaultConfigString.
type Config struct {
	ReturnFormat  string // python, json, verbose_xml, concise_xml
	ToolCallTag   bool   // the calls are wrapped in <TOOLCALL>...</TOOLCALL>
	FuncDocFormat string // python, xml, json
	PromptFormat  string // plaintext, markdown
	Style         string // classic, experimental
}

// configPattern is the pattern of upstream's parse_prompt_variation_params
// (bfcl_eval/model_handler/utils.py).
var configPattern = regexp.MustCompile(`^ret_fmt=(python|json|verbose_xml|concise_xml)&tool_call_tag=(True|False)&func_doc_fmt=(python|xml|json)&prompt_fmt=(plaintext|markdown)&style=(classic|experimental)$`)

// ParseConfig is upstream's parse_prompt_variation_params. Anything but the
// exact form "ret_fmt=…&tool_call_tag=…&func_doc_fmt=…&prompt_fmt=…&style=…"
// (fixed order, values as listed on Config) is an error.
func ParseConfig(s string) (Config, error) {
	m := configPattern.FindStringSubmatch(s)
	if m == nil {
		return Config{}, fmt.Errorf("prompt: invalid prompt configuration %q (want ret_fmt=python|json|verbose_xml|concise_xml&tool_call_tag=True|False&func_doc_fmt=python|xml|json&prompt_fmt=plaintext|markdown&style=classic|experimental)", s)
	}
	return Config{
		ReturnFormat:  m[1],
		ToolCallTag:   m[2] == "True",
		FuncDocFormat: m[3],
		PromptFormat:  m[4],
		Style:         m[5],
	}, nil
}

// Default is the configuration of DefaultConfigString.
func Default() Config {
	return Config{ReturnFormat: RetPython, FuncDocFormat: DocJSON, PromptFormat: FormatPlaintext, Style: StyleClassic}
}

// String is the configuration string upstream uses in entry ids and score
// files.
func (c Config) String() string {
	tag := "False"
	if c.ToolCallTag {
		tag = "True"
	}
	return "ret_fmt=" + c.ReturnFormat + "&tool_call_tag=" + tag + "&func_doc_fmt=" + c.FuncDocFormat +
		"&prompt_fmt=" + c.PromptFormat + "&style=" + c.Style
}

// Validate reports a configuration whose fields are not among upstream's
// values.
func (c Config) Validate() error {
	_, err := ParseConfig(c.String())
	return err
}

// AllConfigs is upstream's get_all_format_sensitivity_configs, parsed, in
// its order (26 configurations).
func AllConfigs() []Config {
	strs := category.FormatSensitivityConfigs()
	out := make([]Config, len(strs))
	for i, s := range strs {
		c, err := ParseConfig(s)
		if err != nil {
			// The strings are constants of package category; a bad one is a
			// programming error caught by the tests.
			panic(err)
		}
		out[i] = c
	}
	return out
}

// ConfigStringOfEntry is upstream's extract_prompt_format_from_id: the
// middle part of a format-sensitivity id
// "format_sensitivity_<i>:<config>:<source id>", DefaultConfigString for an
// id without ':'. An id with ':' but not exactly two is an error.
func ConfigStringOfEntry(entryID string) (string, error) {
	if !strings.Contains(entryID, ":") {
		return DefaultConfigString, nil
	}
	parts := strings.Split(entryID, ":")
	if len(parts) != 3 {
		return "", fmt.Errorf("prompt: test entry id %q should contain exactly two colons, since they are supposed to be the format sensitivity ids", entryID)
	}
	return parts[1], nil
}

// ConfigOfEntry is ConfigStringOfEntry, parsed.
func ConfigOfEntry(entryID string) (Config, error) {
	s, err := ConfigStringOfEntry(entryID)
	if err != nil {
		return Config{}, err
	}
	c, err := ParseConfig(s)
	if err != nil {
		return Config{}, fmt.Errorf("prompt: entry %q: %w", entryID, err)
	}
	return c, nil
}
