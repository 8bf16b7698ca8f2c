// Package live_test is the BFCL "live" suite: one spec per data-set entry
// of the group's categories (generated/specs/live), run against the model
// chosen with BFCL_MODEL or -bfcl.model, scored at the end.
package live_test

import (
	"testing"

	_ "github.com/bfcl-go/bfcl/generated/specs/live"
	"github.com/bfcl-go/bfcl/suites/specs"
)

func TestLive(t *testing.T) {
	specs.RunSuite(t, "BFCL live")
}
