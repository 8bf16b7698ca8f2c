package turns_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTurns(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "turns")
}
