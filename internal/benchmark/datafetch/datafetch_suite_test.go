package datafetch_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestDatafetch(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "datafetch")
}
