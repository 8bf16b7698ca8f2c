package gemini_test

import (
	"encoding/json"

	"google.golang.org/genai"

	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/models/driver/gemini"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = It("builds a request for every function list of the dataset", func() {
	d, err := gemini.New(core.Config{Model: "m", APIKey: "k", BaseURL: "http://127.0.0.1:9"})
	Expect(err).NotTo(HaveOccurred())
	drivertest.EachFunctionList("Gemini schemas of the dataset", func(id string, fns []json.RawMessage) {
		body, err := d.BuildRequest(core.Request{Messages: []core.Message{{Role: "user", Content: "q"}}, Functions: fns})
		Expect(err).NotTo(HaveOccurred(), id)
		var w struct {
			Tools []*genai.Tool `json:"tools"`
		}
		Expect(json.Unmarshal(body, &w)).To(Succeed(), id) // the SDK's types read the body
		Expect(w.Tools[0].FunctionDeclarations).To(HaveLen(len(fns)), id)
	})
})
