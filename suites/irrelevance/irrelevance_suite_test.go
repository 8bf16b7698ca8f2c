// Package irrelevance_test is the BFCL "irrelevance" suite: one spec per data-set entry
// of the group's categories (generated/specs/irrelevance), run against the model
// chosen with BFCL_MODEL or -bfcl.model, scored at the end.
package irrelevance_test

import (
	"testing"

	_ "github.com/bfcl-go/bfcl/generated/specs/irrelevance"
	"github.com/bfcl-go/bfcl/suites/specs"
)

func TestIrrelevance(t *testing.T) {
	specs.RunSuite(t, "BFCL irrelevance")
}
