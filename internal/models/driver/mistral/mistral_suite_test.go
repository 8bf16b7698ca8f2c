package mistral_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestMistral(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "driver/mistral")
}
