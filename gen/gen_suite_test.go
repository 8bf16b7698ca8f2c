package main

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func TestGen(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "gen")
}

// openDataSet opens the BFCL data set of the test environment; the spec is
// skipped loudly when there is none.
func openDataSet() *dataset.Source {
	src := testenv.OpenDataSet(GinkgoT())
	return src
}
