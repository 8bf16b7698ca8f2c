package ollama_test

import (
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/models/driver/ollama"
	. "github.com/onsi/ginkgo/v2"
)

func newDriver(cfg core.Config) (core.Driver, error) { return ollama.New(cfg) }

var _ = Describe("ollama driver", func() {
	drivertest.DescribeFixtures(core.ProviderOllama, newDriver)
	drivertest.DescribeBodyLimit(core.ProviderOllama, newDriver)
})
