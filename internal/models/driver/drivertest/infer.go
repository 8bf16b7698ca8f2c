package drivertest

import (
	"context"

	"github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/models/driver/core"
	"github.com/bfcl-go/bfcl/internal/run/infer"
	"github.com/bfcl-go/bfcl/internal/store/results"
)

// Infer serves answers in order on a fake server (Serve of Answers), runs
// e through infer.Run with the driver newDriver builds for the server's URL
// and opts, fails the spec when the run fails, and returns the record, the
// run's stats and the requests the server received.
func Infer(ctx context.Context, newDriver func(base string, mutate ...func(*core.Config)) core.Driver, e *dataset.Entry, opts infer.Options, answers ...Exchange) (results.Record, infer.Stats, []Received) {
	srv := Serve(Answers(answers...))
	defer srv.Close()
	rec, st, err := infer.Run(ctx, newDriver(srv.URL), e, opts)
	gomega.ExpectWithOffset(1, err).NotTo(gomega.HaveOccurred())
	return rec, st, srv.Received()
}

// WithExecutor is opts whose every entry runs its calls on exec.
func WithExecutor(opts infer.Options, exec infer.Executor) infer.Options {
	opts.NewExecutor = func(*dataset.Entry) (infer.Executor, error) { return exec, nil }
	return opts
}
