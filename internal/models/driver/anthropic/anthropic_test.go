package anthropic_test

import (
	"github.com/bfcl-go/bfcl/internal/models/driver/anthropic"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	. "github.com/onsi/ginkgo/v2"
)

func newDriver(cfg core.Config) (core.Driver, error) { return anthropic.New(cfg) }

var _ = Describe("anthropic driver", func() {
	drivertest.DescribeFixtures(core.ProviderAnthropic, newDriver)
	drivertest.DescribeBodyLimit(core.ProviderAnthropic, newDriver)
})
