package bm25_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestBM25(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "bm25")
}
