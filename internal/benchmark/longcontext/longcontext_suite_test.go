package longcontext_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestLongcontext(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "longcontext")
}
