package agenticsetup_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestAgentic(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "agentic hooks")
}
