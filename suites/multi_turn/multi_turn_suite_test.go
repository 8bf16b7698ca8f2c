// Package multiturn_test is the BFCL "multi_turn" suite: one spec per data-set entry
// of the group's categories (generated/specs/multi_turn), run against the model
// chosen with BFCL_MODEL or -bfcl.model, scored at the end.
package multiturn_test

import (
	"testing"

	_ "github.com/bfcl-go/bfcl/generated/specs/multi_turn"
	"github.com/bfcl-go/bfcl/suites/specs"
)

func TestMultiturn(t *testing.T) {
	specs.RunSuite(t, "BFCL multi_turn")
}
