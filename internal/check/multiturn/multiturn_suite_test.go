package multiturn_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestMultiturn(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "multiturn checker")
}
