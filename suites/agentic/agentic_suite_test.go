// Package agentic_test is the BFCL "agentic" suite: one spec per data-set entry
// of the group's categories (generated/specs/agentic), run against the model
// chosen with BFCL_MODEL or -bfcl.model, scored at the end.
package agentic_test

import (
	"testing"

	_ "github.com/bfcl-go/bfcl/generated/specs/agentic"
	"github.com/bfcl-go/bfcl/suites/specs"
)

func TestAgentic(t *testing.T) {
	specs.RunSuite(t, "BFCL agentic")
}
