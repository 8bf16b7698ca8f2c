package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

// The whole `bfcl evaluate` and `bfcl exec` of the reference run, in
// process (README, "Performance"; the side-by-side figures with upstream are
// whole processes, see there):
//
//	go test ./cmd/bfcl -run '^$' -bench 'Evaluate|Exec' -benchtime 5x
//
// Each iteration is a fresh command on a fresh score folder; the data set
// stays loaded, as it would not between processes (the start-up cost is in
// the process figures of the README, not here).

func referenceRun(b *testing.B) string {
	b.Helper()
	ref := testenv.NeedReferenceDir(b, "reference results")
	if _, ok := testenv.DataDir(); !ok {
		b.Skip("BFCL data set not found (BFCL_DATA_DIR)")
	}
	return filepath.Join(ref, filepath.FromSlash(refRun))
}

// quiet sends stdout and stderr to /dev/null for the benchmark's commands.
func quiet(b *testing.B) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	out, errw := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = null, null
	b.Cleanup(func() { os.Stdout, os.Stderr = out, errw; null.Close() })
}

func benchEvaluate(b *testing.B, cats string, extra ...string) {
	res := referenceRun(b)
	quiet(b)
	root := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dir := filepath.Join(root, "s", string(rune('a'+i%26)), filepath.Base(b.TempDir()))
		args := append([]string{"--result-dir", res, "--score-dir", dir, "--test-category", cats}, extra...)
		if err := cmdEvaluate(args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateSingleTurn is `bfcl evaluate` of the 3,641 single-turn
// entries of the reference run, report included.
func BenchmarkEvaluateSingleTurn(b *testing.B) { benchEvaluate(b, "single_turn") }

// BenchmarkEvaluateSingleTurnNoReport is the same with --no-report.
func BenchmarkEvaluateSingleTurnNoReport(b *testing.B) {
	benchEvaluate(b, "single_turn", "--no-report")
}

// BenchmarkEvaluateMultiTurn is `bfcl evaluate` of its 600 multi-turn
// entries, report included.
func BenchmarkEvaluateMultiTurn(b *testing.B) { benchEvaluate(b, "multi_turn") }

// BenchmarkEvaluateMultiTurnNoReport is the same with --no-report.
func BenchmarkEvaluateMultiTurnNoReport(b *testing.B) {
	benchEvaluate(b, "multi_turn", "--no-report")
}

// BenchmarkExec is `bfcl exec` of the ground-truth calls of the 800
// reference traces (every multi-turn entry), states included.
func BenchmarkExec(b *testing.B) {
	ref := testenv.NeedReferenceDir(b, "reference results")
	if _, ok := testenv.DataDir(); !ok {
		b.Skip("BFCL data set not found (BFCL_DATA_DIR)")
	}
	in := filepath.Join(b.TempDir(), "in.jsonl")
	if err := writeExecInput(filepath.Join(ref, "multi_turn_traces"), in); err != nil {
		b.Fatal(err)
	}
	quiet(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := cmdExec([]string{"--in", in}); err != nil {
			b.Fatal(err)
		}
	}
}

// writeExecInput writes the exec requests of the reference traces: per
// entry its id and each turn's ground-truth calls.
func writeExecInput(traces, out string) error {
	files, err := filepath.Glob(filepath.Join(traces, "BFCL_v4_*_trace.jsonl"))
	if err != nil {
		return err
	}
	var buf []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var t struct {
				ID    string `json:"id"`
				Turns []struct {
					Calls []string `json:"calls"`
				} `json:"turns"`
			}
			if err := json.Unmarshal(line, &t); err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			req := execRequest{ID: t.ID, Turns: make([][]string, len(t.Turns))}
			for i, turn := range t.Turns {
				req.Turns[i] = turn.Calls
			}
			l, err := json.Marshal(req)
			if err != nil {
				return err
			}
			buf = append(append(buf, l...), '\n')
		}
	}
	return os.WriteFile(out, buf, 0o644)
}
