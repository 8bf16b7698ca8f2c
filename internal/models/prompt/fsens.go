package prompt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
)

// FormatSensitivityCategory is the category name of the expanded entries.
const FormatSensitivityCategory = "format_sensitivity"

// FormatSensitivityID is the id upstream gives entry number index (counted
// over all expanded entries, source entry by source entry, configuration
// by configuration) of the format-sensitivity category:
// "format_sensitivity_<index>:<config>:<source id>".
func FormatSensitivityID(index int, cfg Config, sourceID string) string {
	return FormatSensitivityCategory + "_" + strconv.Itoa(index) + ":" + cfg.String() + ":" + sourceID
}

// SplitFormatSensitivityID splits a format-sensitivity id into its index,
// configuration and source entry id.
func SplitFormatSensitivityID(id string) (index int, cfg Config, sourceID string, err error) {
	parts := strings.Split(id, ":")
	if len(parts) != 3 || !strings.HasPrefix(parts[0], FormatSensitivityCategory+"_") {
		return 0, Config{}, "", fmt.Errorf("prompt: %q is not a format-sensitivity id (format_sensitivity_<i>:<config>:<source id>)", id)
	}
	index, err = strconv.Atoi(strings.TrimPrefix(parts[0], FormatSensitivityCategory+"_"))
	if err != nil || index < 0 {
		return 0, Config{}, "", fmt.Errorf("prompt: format-sensitivity id %q: bad index %q", id, parts[0])
	}
	cfg, err = ParseConfig(parts[1])
	if err != nil {
		return 0, Config{}, "", fmt.Errorf("prompt: format-sensitivity id %q: %w", id, err)
	}
	return index, cfg, parts[2], nil
}

// FormatSensitivityEntries is upstream's
// load_dataset_entry("format_sensitivity", include_language_specific_hint=False)
// (load_format_sensitivity_test_cases): for each category of
// BFCL_v4_format_sensitivity.json in file order, the listed entries in
// data-set order, each repeated for the 26 configurations of AllConfigs,
// with ids FormatSensitivityID(i, cfg, source id) numbered from 0.
//
// The source entries are loaded as upstream loads them, with their own
// language hint already in the function descriptions (exactly what the
// checker sees at evaluation time). Hand each entry to
// dataset.InferenceView before inference, as for every other category:
// that appends the hint a second time, which is what upstream sends the
// model (load_dataset_entry hints the source entries, then hints the
// expanded ones again under the format_sensitivity category).
// Question, Answer and the other fields are the source entry's; Category
// is "format_sensitivity".
func FormatSensitivityEntries(src *dataset.Source) ([]*dataset.Entry, error) {
	ids, order, err := src.FormatSensitivityIDs()
	if err != nil {
		return nil, err
	}
	configs := AllConfigs()
	var out []*dataset.Entry
	index := 0
	for _, cat := range order {
		want := map[string]bool{}
		for _, id := range ids[cat] {
			want[id] = true
		}
		if len(want) == 0 {
			continue
		}
		entries, err := src.Load(cat)
		if err != nil {
			return nil, fmt.Errorf("prompt: format sensitivity: %w", err)
		}
		found := 0
		for _, e := range entries {
			if !want[e.ID] {
				continue
			}
			found++
			hinted, err := dataset.InferenceView(e)
			if err != nil {
				return nil, fmt.Errorf("prompt: format sensitivity: %w", err)
			}
			for _, cfg := range configs {
				x := *hinted
				x.ID = FormatSensitivityID(index, cfg, e.ID)
				x.Category = FormatSensitivityCategory
				x.Question = make([][]dataset.Message, len(hinted.Question))
				for i, t := range hinted.Question {
					x.Question[i] = append([]dataset.Message(nil), t...)
				}
				out = append(out, &x)
				index++
			}
		}
		if found != len(want) {
			return nil, fmt.Errorf("prompt: format sensitivity: BFCL_v4_format_sensitivity.json lists %d %s ids, the data set has %d of them", len(want), cat, found)
		}
	}
	return out, nil
}

// LoadCategory is the entries of any category: src.Load for the data set's
// own categories, FormatSensitivityEntries for format_sensitivity.
func LoadCategory(src *dataset.Source, category string) ([]*dataset.Entry, error) {
	if category == FormatSensitivityCategory {
		return FormatSensitivityEntries(src)
	}
	return src.Load(category)
}
