package turniso_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTurniso(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "turniso")
}
