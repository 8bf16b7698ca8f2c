package sim

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/pyval"
)

var _ = Describe("GorillaFileSystem", func() {
	It("replays every reference trace entry (results and states)", func() {
		replayAllFor("GorillaFileSystem")
	})
})

var _ = pyval.None
var _ = Equal
