package cohere_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCohere(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "driver/cohere")
}
