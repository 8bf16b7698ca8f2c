package tinygguf_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestTinyGGUF(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "tinygguf")
}
