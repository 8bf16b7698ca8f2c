// Package upstream is upstream BFCL's model registry as data: every entry
// of MODEL_CONFIG_MAPPING (bfcl_eval/constants/model_config.py at the
// pinned commit) with its handler class, is_fc_model, underscore_to_dot,
// display name, organisation, licence, URL and prices, and the decoding
// family of our decode package the handler uses. A result folder named
// after an entry (with "/" written "_") is scored with that entry's
// configuration, as upstream's evaluator does.
//
// The table (registry.tsv) is generated from model_config.py and keeps
// the registry's own mistakes: a wrong underscore_to_dot upstream is a
// wrong score upstream too, so it is one here.
package upstream

import (
	_ "embed"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/bfcl-go/bfcl/internal/models/decode"
)

// Commit is the upstream commit the table was read from.
const Commit = "6ea57973c7a6"

// ConfigPath is model_config.py inside upstream's repository.
const ConfigPath = "berkeley-function-call-leaderboard/bfcl_eval/constants/model_config.py"

// Entry is one model of upstream's registry.
type Entry struct {
	Name            string   // registry key: what upstream's --model takes
	ModelName       string   // model_name: the vendor / Hugging Face id
	DisplayName     string   // leaderboard name
	Org             string   // organisation
	License         string   // licence
	URL             string   // reference URL
	Handler         string   // model_handler class name
	IsFC            bool     // is_fc_model
	UnderscoreToDot bool     // underscore_to_dot
	InputPrice      *float64 // USD per million input tokens; nil when upstream has None
	OutputPrice     *float64 // USD per million output tokens; nil when upstream has None
	Map             string   // which map of model_config.py: api_inference, local_inference, third_party_inference
	// Family is the decoding family of decode the handler uses in this
	// entry's mode; Note says where upstream's handler is broken.
	Family string
	Note   string
}

// Decoding is how the entry's answers are decoded and checked.
func (e Entry) Decoding() decode.Spec {
	return decode.Spec{Mode: e.Mode(), UnderscoreToDot: e.UnderscoreToDot, Handler: e.Handler}
}

// Folder is the result folder name of the entry ("/" written "_").
func (e Entry) Folder() string { return strings.ReplaceAll(e.Name, "/", "_") }

// Mode is "fc" or "prompt", from is_fc_model.
func (e Entry) Mode() string {
	if e.IsFC {
		return decode.ModeFC
	}
	return decode.ModePrompt
}

//go:embed registry.tsv
var registryTSV string

// Columns of registry.tsv, in order.
var Columns = []string{"name", "handler", "is_fc_model", "underscore_to_dot", "display_name", "model_name",
	"org", "license", "url", "input_price", "output_price", "map", "family", "note"}

var (
	loadOnce sync.Once
	entries  []Entry
	byName   map[string]int
	loadErr  error
)

func load() {
	entries, loadErr = ParseTSV(registryTSV)
	byName = map[string]int{}
	for i, e := range entries {
		byName[e.Name] = i
	}
}

// All returns every entry in upstream's order.
func All() []Entry {
	loadOnce.Do(load)
	if loadErr != nil {
		panic("upstream: embedded registry.tsv: " + loadErr.Error())
	}
	return append([]Entry(nil), entries...)
}

// Lookup returns the entry of a registry name.
func Lookup(name string) (Entry, bool) {
	loadOnce.Do(load)
	if loadErr != nil {
		panic("upstream: embedded registry.tsv: " + loadErr.Error())
	}
	i, ok := byName[name]
	if !ok {
		return Entry{}, false
	}
	return entries[i], true
}

// ByFolder returns the entry a result folder is scored with. Upstream's
// evaluator maps the folder back to a name by writing every "_" as "/"
// (eval_runner.py), so a folder matches when that spelling is a registry
// name; no name at the pin contains "_", so this is also the inverse of
// Folder.
func ByFolder(folder string) (Entry, bool) {
	return Lookup(strings.ReplaceAll(folder, "_", "/"))
}

// ParseTSV reads a table in the registry.tsv layout: a header line with
// Columns, then one tab-separated line per entry. Prices are empty for
// None; booleans are True or False as in Python.
func ParseTSV(s string) ([]Entry, error) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) == 0 || lines[0] != strings.Join(Columns, "\t") {
		return nil, fmt.Errorf("registry.tsv: header is not %q", strings.Join(Columns, "\t"))
	}
	var out []Entry
	seen := map[string]bool{}
	for i, ln := range lines[1:] {
		f := strings.Split(ln, "\t")
		if len(f) != len(Columns) {
			return nil, fmt.Errorf("registry.tsv:%d: %d fields, want %d", i+2, len(f), len(Columns))
		}
		e := Entry{Name: f[0], Handler: f[1], DisplayName: f[4], ModelName: f[5], Org: f[6], License: f[7], URL: f[8],
			Map: f[11], Family: f[12], Note: f[13]}
		var err error
		if e.IsFC, err = pyBool(f[2]); err != nil {
			return nil, fmt.Errorf("registry.tsv:%d: is_fc_model: %w", i+2, err)
		}
		if e.UnderscoreToDot, err = pyBool(f[3]); err != nil {
			return nil, fmt.Errorf("registry.tsv:%d: underscore_to_dot: %w", i+2, err)
		}
		if e.InputPrice, err = price(f[9]); err != nil {
			return nil, fmt.Errorf("registry.tsv:%d: input_price: %w", i+2, err)
		}
		if e.OutputPrice, err = price(f[10]); err != nil {
			return nil, fmt.Errorf("registry.tsv:%d: output_price: %w", i+2, err)
		}
		if e.Name == "" || e.Handler == "" {
			return nil, fmt.Errorf("registry.tsv:%d: name and handler are required", i+2)
		}
		if seen[e.Name] {
			return nil, fmt.Errorf("registry.tsv:%d: duplicate name %s", i+2, e.Name)
		}
		seen[e.Name] = true
		out = append(out, e)
	}
	return out, nil
}

// FormatTSV writes entries in the registry.tsv layout.
func FormatTSV(es []Entry) string {
	var b strings.Builder
	b.WriteString(strings.Join(Columns, "\t"))
	b.WriteByte('\n')
	for _, e := range es {
		f := []string{e.Name, e.Handler, boolStr(e.IsFC), boolStr(e.UnderscoreToDot), e.DisplayName, e.ModelName,
			e.Org, e.License, e.URL, priceStr(e.InputPrice), priceStr(e.OutputPrice), e.Map, e.Family, e.Note}
		b.WriteString(strings.Join(f, "\t"))
		b.WriteByte('\n')
	}
	return b.String()
}

// Annotate fills Family and Note from the decode package's handler
// classes; a class decode does not know gets an empty family.
func Annotate(es []Entry) {
	for i := range es {
		h, ok := decode.LookupHandler(es[i].Handler)
		if !ok {
			es[i].Family, es[i].Note = "", "handler class not supported"
			continue
		}
		es[i].Family, es[i].Note = h.Family(es[i].IsFC), h.Note
	}
}

// FamilyCounts counts the entries per decoding family.
func FamilyCounts(es []Entry) map[string]int {
	m := map[string]int{}
	for _, e := range es {
		m[e.Family]++
	}
	return m
}

// Families lists the families of es, most used first.
func Families(es []Entry) []string {
	c := FamilyCounts(es)
	out := make([]string, 0, len(c))
	for f := range c {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if c[out[i]] != c[out[j]] {
			return c[out[i]] > c[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

func pyBool(s string) (bool, error) {
	switch s {
	case "True":
		return true, nil
	case "False":
		return false, nil
	}
	return false, fmt.Errorf("%q is not True or False", s)
}

func boolStr(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

func price(s string) (*float64, error) {
	if s == "" {
		return nil, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, err
	}
	return &f, nil
}

func priceStr(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

// WriteTable prints entries as an aligned table (what `bfcl models
// --upstream` shows): name, handler, mode, underscore_to_dot, decoding
// family, prices, display name, and a mark on entries whose handler is
// broken upstream (the note follows the table).
func WriteTable(w io.Writer, es []Entry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tHANDLER\tMODE\tUNDERSCORE_TO_DOT\tFAMILY\tINPUT $/M\tOUTPUT $/M\tDISPLAY NAME")
	notes := map[string]string{}
	var order []string
	for _, e := range es {
		mark := ""
		if e.Note != "" {
			mark = " (*)"
			if _, seen := notes[e.Handler]; !seen {
				order = append(order, e.Handler)
			}
			notes[e.Handler] = e.Note
		}
		fmt.Fprintf(tw, "%s\t%s%s\t%s\t%v\t%s\t%s\t%s\t%s\n", e.Name, e.Handler, mark, e.Mode(), e.UnderscoreToDot, e.Family,
			orNA(priceStr(e.InputPrice)), orNA(priceStr(e.OutputPrice)), e.DisplayName)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%d models of upstream's registry at %s. (*) upstream's handler is broken:\n", len(es), Commit)
	for _, h := range order {
		if _, err := fmt.Fprintf(w, "  %s: %s\n", h, notes[h]); err != nil {
			return err
		}
	}
	return nil
}

func orNA(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
