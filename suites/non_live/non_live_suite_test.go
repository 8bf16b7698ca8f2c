// Package nonlive_test is the BFCL "non_live" suite: one spec per data-set entry
// of the group's categories (generated/specs/non_live), run against the model
// chosen with BFCL_MODEL or -bfcl.model, scored at the end.
package nonlive_test

import (
	"testing"

	_ "github.com/bfcl-go/bfcl/generated/specs/non_live"
	"github.com/bfcl-go/bfcl/suites/specs"
)

func TestNonlive(t *testing.T) {
	specs.RunSuite(t, "BFCL non_live")
}
