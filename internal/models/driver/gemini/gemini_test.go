package gemini_test

import (
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	. "github.com/onsi/ginkgo/v2"
)

var _ = Describe("gemini driver", func() {
	drivertest.DescribeFixtures(core.ProviderGemini)
	drivertest.DescribeBodyLimit(core.ProviderGemini)
})
