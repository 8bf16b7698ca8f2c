package qwen_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestQwen(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "driver/qwen")
}
