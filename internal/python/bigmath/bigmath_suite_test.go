package bigmath_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestBigmath(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "bigmath")
}
