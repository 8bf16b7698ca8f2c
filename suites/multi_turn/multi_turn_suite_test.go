// Package multiturn_test is the BFCL "multi_turn" suite: one spec per data-set entry
// of the group's categories (generated/specs/multi_turn), run against the model
// chosen with BFCL_MODEL or -bfcl.model, scored at the end.
package multiturn_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	_ "github.com/bfcl-go/bfcl/generated/specs/multi_turn"
	"github.com/bfcl-go/bfcl/suites/specs"
)

func init() { specs.RegisterFlags() }

func TestMultiturn(t *testing.T) {
	RegisterFailHandler(Fail)
	specs.RunSuite(t, "BFCL multi_turn")
}

var _ = ReportAfterSuite("BFCL score", specs.Finish)
