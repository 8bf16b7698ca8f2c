package pyexpr_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestPyexpr(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "pyexpr Suite")
}
