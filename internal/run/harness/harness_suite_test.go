package harness_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func TestHarness(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "harness")
}

// openDataSet opens BFCL's data set, or skips the spec saying where it
// was looked for.
func openDataSet() *dataset.Source {
	src := testenv.OpenDataSet(GinkgoT())
	return src
}
