// Package runmeta records how a result folder was produced: `bfcl generate`
// and the suites write a small JSON file (FileName) into the model's result
// folder, beside its BFCL_v4_<category>_result.json files, and `evaluate`,
// `compare`, `merge` and the report read it, so a folder bfcl-go produced
// is scored the way it was generated from any working directory, without
// the models.yaml it was run with.
//
// The file is ours; upstream's result folders have none (they are tied to
// upstream's registry by their folder name, see internal/scores/evaluate).
package runmeta

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/registry"
	"github.com/bfcl-go/bfcl/internal/store/atomicfile"
)

// FileName is the metadata file in a model's result folder.
const FileName = "bfcl-run.json"

// Format is the version of the file's layout.
const Format = 1

// Meta is how one model's results were produced.
type Meta struct {
	Format int `json:"format"`
	// Model is the name the run was given (--model); the folder is its
	// name with "/" written "_".
	Model    string `json:"model"`
	Provider string `json:"provider"`
	// ProviderModel is the provider's model id (models.yaml's model:).
	ProviderModel   string `json:"provider_model,omitempty"`
	Mode            string `json:"mode"` // fc | prompt
	UnderscoreToDot bool   `json:"underscore_to_dot"`
	Handler         string `json:"handler,omitempty"`  // upstream handler class; "" = the default decoders of Mode
	Upstream        string `json:"upstream,omitempty"` // upstream registry entry the model entry named
	// Corrections are the opt-in, non-official corrections the run applied;
	// every number computed from such a folder is marked.
	Corrections []string `json:"corrections,omitempty"`
	// Diagnostics are other non-official settings of the run (e.g.
	// "turn-isolated").
	Diagnostics []string `json:"diagnostics,omitempty"`
	// DataSetCommit is the upstream commit of the data set the run used.
	DataSetCommit string `json:"dataset_commit"`
	// BFCLVersion is bfcl-go's version (module version and VCS revision).
	BFCLVersion string `json:"bfcl_version"`
}

// Path is the metadata file of model folder dir.
func Path(dir string) string { return filepath.Join(dir, FileName) }

// ErrNone is returned by Read when a folder has no metadata file.
var ErrNone = errors.New("no " + FileName)

// Write writes m into the model folder dir (created if needed), atomically.
// A folder whose existing file says otherwise (another mode, handler or
// name mapping: results of two configurations would be mixed) is an error.
func Write(dir string, m Meta) error {
	m.Format = Format
	m.Corrections = sortedCopy(m.Corrections)
	m.Diagnostics = sortedCopy(m.Diagnostics)
	if old, err := Read(dir); err == nil {
		if why := old.conflict(m); why != "" {
			return fmt.Errorf("runmeta: %s holds results produced with %s; use another --result-dir or remove the folder", dir, why)
		}
	} else if !errors.Is(err, ErrNone) {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(Path(dir), append(b, '\n'))
}

// conflict says how o (the stored file) and n (this run) disagree on what
// decides the scores; "" when they agree.
func (o Meta) conflict(n Meta) string {
	switch {
	case o.Mode != n.Mode:
		return fmt.Sprintf("mode %s (this run: %s)", o.Mode, n.Mode)
	case o.UnderscoreToDot != n.UnderscoreToDot:
		return fmt.Sprintf("underscore_to_dot %v (this run: %v)", o.UnderscoreToDot, n.UnderscoreToDot)
	case o.Handler != n.Handler:
		return fmt.Sprintf("handler %q (this run: %q)", o.Handler, n.Handler)
	case !slices.Equal(o.Corrections, n.Corrections):
		return fmt.Sprintf("corrections %v (this run: %v)", o.Corrections, n.Corrections)
	}
	return ""
}

// Read reads the metadata of model folder dir; ErrNone when it has none.
func Read(dir string) (Meta, error) {
	var m Meta
	b, err := os.ReadFile(Path(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return m, fmt.Errorf("%s: %w", dir, ErrNone)
	}
	if err != nil {
		return m, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("runmeta: %s: %w", Path(dir), err)
	}
	if m.Format != Format {
		return m, fmt.Errorf("runmeta: %s: format %d, this bfcl reads %d", Path(dir), m.Format, Format)
	}
	if m.Mode != "fc" && m.Mode != "prompt" {
		return m, fmt.Errorf("runmeta: %s: mode %q is not fc or prompt", Path(dir), m.Mode)
	}
	return m, nil
}

// NonOfficial lists what makes the folder's numbers not the official ones
// (corrections and diagnostics); empty for an official run.
func (m Meta) NonOfficial() []string {
	return append(append([]string{}, m.Corrections...), m.Diagnostics...)
}

// Describe is a one-line account of m for logs.
func (m Meta) Describe() string {
	h := m.Handler
	if h == "" {
		h = "default"
	}
	s := fmt.Sprintf("provider %s, mode %s, underscore_to_dot %v, handler %s", m.Provider, m.Mode, m.UnderscoreToDot, h)
	if m.Upstream != "" {
		s += ", upstream registry entry " + m.Upstream
	}
	if n := m.NonOfficial(); len(n) > 0 {
		s += fmt.Sprintf(", NOT OFFICIAL: %v", n)
	}
	return s
}

// Version is this build's version: the module version (or "(devel)") and
// the VCS revision when the build recorded one.
func Version() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
	}
	return v
}

func sortedCopy(xs []string) []string {
	if len(xs) == 0 {
		return nil
	}
	out := append([]string{}, xs...)
	sort.Strings(out)
	return slices.Compact(out)
}

// FromModel is the metadata of a run of model entry m (overrides applied)
// on the data set of the pinned upstream commit.
func FromModel(m registry.Model) Meta {
	mode := m.Mode
	if mode == "" {
		mode = "fc"
	}
	return Meta{Model: m.Name, Provider: m.Provider, ProviderModel: m.Model, Mode: mode,
		UnderscoreToDot: m.UnderscoreToDot, Handler: m.Handler, Upstream: m.Upstream,
		DataSetCommit: dataset.UpstreamCommit, BFCLVersion: Version()}
}
