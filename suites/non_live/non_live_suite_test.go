// Package nonlive_test is the BFCL "non_live" suite: one spec per data-set entry
// of the group's categories (generated/specs/non_live), run against the model
// chosen with BFCL_MODEL or -bfcl.model, scored at the end.
package nonlive_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	_ "github.com/bfcl-go/bfcl/generated/specs/non_live"
	"github.com/bfcl-go/bfcl/suites/specs"
)

func init() { specs.RegisterFlags() }

func TestNonlive(t *testing.T) {
	RegisterFailHandler(Fail)
	specs.RunSuite(t, "BFCL non_live")
}

var _ = ReportAfterSuite("BFCL score", specs.Finish)
