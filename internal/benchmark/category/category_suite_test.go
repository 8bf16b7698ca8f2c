package category_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestCategory(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "category")
}
