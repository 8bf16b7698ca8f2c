package drivertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/decode"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/internal/testkit/reqparity"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/sim"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// UpstreamRun is what one of upstream's handler classes sent when it ran
// real data-set entries against scripted replies
// (fixtures/drivers/upstream/<class>.json; see the README there): for each
// entry every request (address, headers, body) with the reply it got, and
// the result it stored.
type UpstreamRun struct {
	Handler  string         `json:"handler"`
	Registry string         `json:"registry"`
	Model    string         `json:"model"`
	Cases    []UpstreamCase `json:"cases"`
}

// UpstreamCase is one entry of an UpstreamRun.
type UpstreamCase struct {
	ID        string             `json:"id"`
	Result    json.RawMessage    `json:"result"`
	Error     *string            `json:"error"`
	Exchanges []UpstreamExchange `json:"exchanges"`
}

// UpstreamExchange is one request and its scripted reply. Raw, when set,
// is the body byte for byte (a handler that serializes it itself).
type UpstreamExchange struct {
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body"`
	Raw     *string           `json:"raw"`
	Reply   json.RawMessage   `json:"reply"`
}

// LoadUpstreamRun reads fixtures/drivers/upstream/<class>.json.
func LoadUpstreamRun(class string) (*UpstreamRun, error) {
	b, err := os.ReadFile(filepath.Join(FixtureDir("upstream"), class+".json"))
	if err != nil {
		return nil, err
	}
	var r UpstreamRun
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s.json: %w", class, err)
	}
	return &r, nil
}

// DescribeUpstreamRun declares one spec per entry of upstream's run of
// class: the driver built by newDriver (given the fake server's address,
// which stands for upstream's base URL) runs the entry from the data set
// through the inference loop (multi-turn entries on the simulated
// backends), answered with upstream's scripted replies in order; every
// request must equal upstream's in value (and byte for byte where upstream
// serialized the body itself), arrive at upstream's path with upstream's
// headers (Authorization, and Content-Type where upstream set it), and the
// stored result must equal upstream's. base is upstream's API root, the
// part of each recorded address the fake server replaces.
func DescribeUpstreamRun(class, base string, spec decode.Spec, newDriver func(url string) core.Driver) {
	run, err := LoadUpstreamRun(class)
	if err != nil {
		panic(err)
	}
	Describe("requests of upstream's "+class+" (recorded on real entries)", func() {
		for _, c := range run.Cases {
			It(c.ID, func(ctx SpecContext) {
				Expect(c.Error).To(BeNil(), "upstream's run of %s raised", c.ID)
				dir, ok := testenv.DataDir()
				if !ok {
					Skip(testenv.MissingMessage("BFCL data set", dir, dataset.EnvDataDir))
				}
				src, err := dataset.Open(dir)
				Expect(err).NotTo(HaveOccurred())
				cat, err := category.FromEntryID(c.ID)
				Expect(err).NotTo(HaveOccurred())
				e, err := src.Entry(cat, c.ID)
				Expect(err).NotTo(HaveOccurred())

				replies := make([]Exchange, len(c.Exchanges))
				for i, ex := range c.Exchanges {
					replies[i] = JSON(http.StatusOK, string(ex.Reply))
				}
				srv := Serve(Answers(replies...))
				defer srv.Close()

				rec, _, err := infer.Run(ctx, newDriver(srv.URL), e, infer.Options{Spec: spec, Temperature: 0.001, ExcludeStateLog: true,
					NewExecutor: func(e *dataset.Entry) (infer.Executor, error) {
						conf, err := e.InitialConfigDict()
						if err != nil {
							return nil, err
						}
						s := engine.New(sim.NewEnv(nil), engine.Config{ModelName: run.Model, EntryID: e.ID, Involved: e.InvolvedClasses,
							InitialConfig: conf, LongContext: e.LongContext()})
						return s, s.Init()
					}})
				Expect(err).NotTo(HaveOccurred())
				got := srv.Received()
				Expect(got).To(HaveLen(len(c.Exchanges)), "requests sent")
				for i, ex := range c.Exchanges {
					Expect(got[i].Path).To(Equal(strings.TrimPrefix(ex.URL, base)), "request %d: path", i+1)
					for k, v := range ex.Headers {
						Expect(got[i].Header.Get(k)).To(Equal(v), "request %d: header %s", i+1, k)
					}
					want, have := jsonValue(ex.Body), jsonValue(got[i].Body)
					Expect(reqparity.Diff(have, want)).To(BeEmpty(), "request %d differs from upstream's", i+1)
					if ex.Raw != nil {
						Expect(string(got[i].Body)).To(Equal(*ex.Raw), "request %d: bytes", i+1)
					}
				}
				Expect(reqparity.Diff(jsonValue(rec.Result), jsonValue(c.Result))).To(BeEmpty(), "stored result")
			}, SpecTimeout(60*time.Second))
		}
	})
}

// jsonValue decodes b with its numbers as written (reqparity.Diff tells
// 1 from 1.0, as Python's json does).
func jsonValue(b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	ExpectWithOffset(1, d.Decode(&v)).To(Succeed(), "not JSON: %s", b)
	return v
}
