package prompt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
)

// FormatSensitivityCategory is the category name of the expanded entries.
const FormatSensitivityCategory = dataset.FormatSensitivityCategory

// FormatSensitivityID is the id upstream gives entry number index (counted
// over all expanded entries, source entry by source entry, configuration
// by configuration) of the format-sensitivity category:
// "format_sensitivity_<index>:<config>:<source id>".
func FormatSensitivityID(index int, cfg Config, sourceID string) string {
	return dataset.FormatSensitivityID(index, cfg.String(), sourceID)
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
// load_dataset_entry("format_sensitivity", include_language_specific_hint=False):
// the 26-fold expansion that src owns and loads once (see
// dataset.Source.LoadCategory). Hand each entry to dataset.InferenceView
// before inference, as for every other category.
func FormatSensitivityEntries(src *dataset.Source) ([]*dataset.Entry, error) {
	return src.LoadCategory(FormatSensitivityCategory)
}

// LoadCategory is the entries of any category (src.LoadCategory, loaded
// once per data set).
func LoadCategory(src *dataset.Source, c category.Category) ([]*dataset.Entry, error) {
	return src.LoadCategory(c)
}
