package pyval_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestPyval(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "pyval Suite")
}
