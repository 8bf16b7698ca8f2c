package reqcache_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func TestReqcache(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "reqcache")
}
