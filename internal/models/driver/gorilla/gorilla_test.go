package gorilla_test

import (
	"time"

	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/models/driver/drivertest"
	"github.com/bfcl-go/bfcl/internal/models/driver/gorilla"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func newDriver(base string, mutate ...func(*core.Config)) core.Driver {
	return drivertest.NewDriver(core.Config{Provider: core.ProviderGorilla, Model: "gorilla-openfunctions-v2", BaseURL: base}, mutate...)
}

var _ = Describe("gorilla driver", func() {
	// upstream's GorillaHandler (gorilla.py) on real entries: requests.post
	// of json.dumps(requestData), compared byte for byte
	drivertest.DescribeUpstreamRun("GorillaHandler", gorilla.DefaultBaseURL, decode.Spec{Mode: "fc", Handler: "GorillaHandler"},
		func(url string) core.Driver { return newDriver(url) })
	drivertest.DescribeBodyLimit(core.ProviderGorilla)

	It("posts json.dumps of the request with Authorization: EMPTY, the functions as the data set has them", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(200, `{"choices":[{"message":{"role":"assistant","content":"math.factorial(number=5)"}}],"usage":{"prompt_tokens":7,"completion_tokens":3}}`)))
		defer srv.Close()
		e := drivertest.DottedEntry()
		e.Question[0][0].Content = "Calculate 5! — the factorial of five."
		rec, _, err := infer.Run(ctx, newDriver(srv.URL+"/v1"), e, infer.Options{Spec: decode.Spec{Mode: "fc", Handler: "GorillaHandler"}, Temperature: 0.001})
		Expect(err).NotTo(HaveOccurred())
		got := srv.Received()
		Expect(got).To(HaveLen(1))
		Expect(got[0].Path).To(Equal("/v1/chat/completions"))
		Expect(got[0].Header.Get("Authorization")).To(Equal("EMPTY"))
		Expect(got[0].Header.Get("Content-Type")).To(Equal("application/json"))
		Expect(string(got[0].Body)).To(Equal(`{"model": "gorilla-openfunctions-v2", "messages": [{"role": "user", "content": "Calculate 5! \u2014 the factorial of five."}], ` +
			`"functions": [{"name": "math.factorial", "description": "Calculate the factorial of a given number. Note that the provided function is in Python 3 syntax.", "parameters": {"type": "dict", "properties": {"number": {"type": "integer", "description": "The number for which factorial needs to be calculated."}}, "required": ["number"]}}], "temperature": 0.001}`))
		Expect(string(rec.Result)).To(Equal(`"math.factorial(number=5)"`))
		Expect(string(rec.InputTokenCount)).To(Equal("7"))
		Expect(string(rec.OutputTokenCount)).To(Equal("3"))
	})

	It("stores a null content as null and sends it back as null", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(200, `{"choices":[{"message":{"role":"assistant","content":null}}],"usage":{"prompt_tokens":7,"completion_tokens":0}}`)))
		defer srv.Close()
		d := newDriver(srv.URL + "/v1")
		resp, err := d.Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(resp.Result)).To(Equal("null"))
		b, err := d.(*gorilla.Driver).BuildRequest(core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}, {Role: "assistant", Replay: resp.Replay}, {Role: "tool", Content: "ok", ToolCallID: "x"}}})
		Expect(err).NotTo(HaveOccurred())
		Expect(string(b)).To(Equal(`{"model": "gorilla-openfunctions-v2", "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": null}, {"role": "tool", "content": "ok"}], "functions": [], "temperature": 0.0}`))
	})

	It("fails, naming the field, on an answer without choices or usage (upstream's KeyError)", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(200, `{"choices":[{"message":{"role":"assistant","content":"f()"}}]}`)))
		defer srv.Close()
		_, err := newDriver(srv.URL+"/v1", func(c *core.Config) { c.MaxRetries = -1 }).Complete(ctx, core.Request{Messages: []core.Message{{Role: "user", Content: "hi"}}})
		Expect(err).To(MatchError(ContainSubstring("usage.prompt_tokens")))
	})

	It("names an unreachable server at the probe, and passes any HTTP answer", func(ctx SpecContext) {
		srv := drivertest.Serve(drivertest.Answers(drivertest.JSON(404, `{"detail":"Not Found"}`)))
		Expect(driver.Probe(ctx, newDriver(srv.URL+"/v1"), 0)).To(Succeed())
		srv.Close()
		start := time.Now()
		err := driver.Probe(ctx, newDriver(srv.URL+"/v1"), 0)
		Expect(err).To(MatchError(ContainSubstring("cannot reach " + srv.URL + "/v1")))
		Expect(time.Since(start)).To(BeNumerically("<", time.Second))
	})

	It("refuses prompt mode, which upstream's GorillaHandler cannot run", func() {
		_, err := gorilla.New(core.Config{Model: "gorilla-openfunctions-v2", Mode: core.ModePrompt})
		Expect(err).To(MatchError(ContainSubstring("no prompt mode")))
	})
})
