package astcheck_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAST(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "AST checker suite")
}
