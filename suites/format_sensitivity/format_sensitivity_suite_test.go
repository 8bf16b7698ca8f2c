// Package formatsensitivity_test is the BFCL "format_sensitivity" suite: every format-sensitivity
// variant (200 entries x 26 prompt configurations, prompt-mode models only,
// as upstream; gold answers them too), scored at the end with upstream's
// spread metric. Not part of the overall score.
package formatsensitivity_test

import (
	"testing"

	_ "github.com/bfcl-go/bfcl/generated/specs/format_sensitivity"
	"github.com/bfcl-go/bfcl/suites/specs"
)

func TestFormatSensitivity(t *testing.T) {
	specs.RunSuite(t, "BFCL format_sensitivity")
}
