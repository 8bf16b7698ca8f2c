package ollama_test

import (
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/models/driver/ollama"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = It("builds a request for every function list of the dataset", func() {
	lists, err := drivertest.DatasetFunctionLists()
	Expect(err).NotTo(HaveOccurred())
	if lists == nil {
		Skip("DATASET NOT FOUND (set BFCL_DATA_DIR): Ollama tool schemas of the dataset not checked")
	}
	d, err := ollama.New(core.Config{Model: "m"})
	Expect(err).NotTo(HaveOccurred())
	n := 0
	for id, fns := range lists {
		cr, err := d.BuildRequest(core.Request{Messages: []core.Message{{Role: "user", Content: "q"}}, Functions: fns})
		Expect(err).NotTo(HaveOccurred(), id)
		Expect(cr.Tools).To(HaveLen(len(fns)), id)
		n++
	}
	Expect(n).To(BeNumerically(">", 3000))
})
