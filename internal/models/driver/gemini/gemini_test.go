package gemini_test

import (
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/models/driver/gemini"
	. "github.com/onsi/ginkgo/v2"
)

func newDriver(cfg core.Config) (core.Driver, error) { return gemini.New(cfg) }

var _ = Describe("gemini driver", func() {
	drivertest.DescribeFixtures(core.ProviderGemini, newDriver)
	drivertest.DescribeBodyLimit(core.ProviderGemini, newDriver)
})
