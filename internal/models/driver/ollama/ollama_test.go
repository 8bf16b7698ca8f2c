package ollama_test

import (
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	. "github.com/onsi/ginkgo/v2"
)

var _ = Describe("ollama driver", func() {
	drivertest.DescribeFixtures(core.ProviderOllama)
	drivertest.DescribeBodyLimit(core.ProviderOllama)
})
