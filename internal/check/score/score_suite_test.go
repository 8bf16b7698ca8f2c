package score_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestScore(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "score")
}
