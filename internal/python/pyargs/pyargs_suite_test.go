package pyargs_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestPyargs(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "pyargs")
}
