package netguard_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestNetguard(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "netguard")
}
