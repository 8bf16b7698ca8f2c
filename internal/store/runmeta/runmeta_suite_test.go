package runmeta_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestRunmeta(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "runmeta")
}
