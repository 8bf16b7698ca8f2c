package pyrandom_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestPyrandom(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "pyrandom")
}
