package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func TestBFCL(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "bfcl command")
}

var _ = Describe("bfcl exec", Label("reference"), func() {
	It("prints the reference traces' results and states for their ground-truth calls, and error strings for bad calls", func() {
		execMatchesReferenceTraces(GinkgoT())
	})
})

// execMatchesReferenceTraces runs `bfcl exec` on the ground-truth calls of
// reference trace entries (every tenth line of each file) and compares its
// output with the traces: the same results and pyjson states per turn.
func execMatchesReferenceTraces(t FullGinkgoTInterface) {
	ref := testenv.NeedReferenceDir(t, "reference traces")
	src := testenv.OpenDataSet(t)
	lc, err := score.LongContextOf(src)
	if err != nil {
		t.Fatal(err)
	}
	lcOf := func() (*longcontext.Data, error) { return lc, nil }
	checked := 0
	for _, f := range []string{"base", "miss_func", "miss_param", "long_context"} {
		fh, err := os.Open(filepath.Join(ref, "multi_turn_traces", "BFCL_v4_multi_turn_"+f+"_trace.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
		for n := 0; sc.Scan(); n++ {
			if n%10 != 0 {
				continue
			}
			var want struct {
				ID           string                     `json:"id"`
				InitialState map[string]json.RawMessage `json:"initial_state"`
				Turns        []struct {
					Calls   []string                   `json:"calls"`
					Results []string                   `json:"results"`
					State   map[string]json.RawMessage `json:"state"`
				} `json:"turns"`
			}
			if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
				t.Fatal(err)
			}
			req := execRequest{ID: want.ID}
			for _, turn := range want.Turns {
				req.Turns = append(req.Turns, turn.Calls)
			}
			got := execEntry(src, lcOf, req, "reforacle_trace_ground_truth")
			if got.Error != "" {
				t.Fatalf("%s: %s", want.ID, got.Error)
			}
			if !sameJSONMap(got.InitialState, want.InitialState) {
				t.Errorf("%s: initial state differs", want.ID)
			}
			for i, turn := range want.Turns {
				if !reflect.DeepEqual(got.Turns[i].Results, turn.Results) {
					t.Errorf("%s turn %d: results %q, want %q", want.ID, i, got.Turns[i].Results, turn.Results)
				}
				if !sameJSONMap(got.Turns[i].State, turn.State) {
					t.Errorf("%s turn %d: state differs", want.ID, i)
				}
			}
			checked++
		}
		fh.Close()
	}
	if checked != 80 {
		t.Fatalf("checked %d entries, want 80", checked)
	}
	bad := execEntry(src, lcOf, execRequest{ID: "multi_turn_base_0", Turns: [][]string{{"cd(folder=", "nosuch()"}}}, "m")
	if bad.Error != "" || len(bad.Turns) != 1 {
		t.Fatalf("bad calls must give error results, not fail: %+v", bad)
	}
	if want := []string{"Error during execution: '(' was never closed (<string>, line 1)", "Error during execution: name 'nosuch' is not defined"}; !reflect.DeepEqual(bad.Turns[0].Results, want) {
		t.Fatalf("results %q, want %q", bad.Turns[0].Results, want)
	}
}

func sameJSONMap(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		var x, y any
		if json.Unmarshal(va, &x) != nil || json.Unmarshal(b[k], &y) != nil || !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}
