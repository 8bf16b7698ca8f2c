package ollama_test

import (
	"encoding/json"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/models/driver/ollama"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = It("builds a request for every function list of the dataset", func() {
	d, err := ollama.New(core.Config{Model: "m"})
	Expect(err).NotTo(HaveOccurred())
	drivertest.EachFunctionList("Ollama tool schemas of the dataset", func(id string, fns []json.RawMessage) {
		cr, err := d.BuildRequest(core.Request{Messages: []core.Message{{Role: "user", Content: "q"}}, Functions: fns})
		Expect(err).NotTo(HaveOccurred(), id)
		Expect(cr.Tools).To(HaveLen(len(fns)), id)
	})
})
