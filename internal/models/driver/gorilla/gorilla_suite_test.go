package gorilla_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestGorilla(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "driver/gorilla")
}
