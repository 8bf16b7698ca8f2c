package anthropic_test

import (
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	. "github.com/onsi/ginkgo/v2"
)

var _ = Describe("anthropic driver", func() {
	drivertest.DescribeFixtures(core.ProviderAnthropic)
	drivertest.DescribeBodyLimit(core.ProviderAnthropic)
})
