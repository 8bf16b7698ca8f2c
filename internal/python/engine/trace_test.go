package engine_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
	"github.com/bfcl-go/bfcl/sim"
)

// trace is one line of ../shared/reference/multi_turn_traces.
type trace struct {
	ID              string                     `json:"id"`
	Category        string                     `json:"category"`
	InvolvedClasses []string                   `json:"involved_classes"`
	LongContext     bool                       `json:"long_context"`
	InitialState    map[string]json.RawMessage `json:"initial_state"`
	Turns           []struct {
		Turn         int                        `json:"turn"`
		Calls        []string                   `json:"calls"`
		Results      []string                   `json:"results"`
		StateChecked bool                       `json:"state_checked"`
		State        map[string]json.RawMessage `json:"state"`
	} `json:"turns"`
}

// The reference oracle's model name (meta.json), with upstream's "_eval"
// suffix of evaluation runs.
const oracleModel = "reforacle_trace_ground_truth_eval"

var traceFiles = []string{
	"BFCL_v4_multi_turn_base_trace.jsonl",
	"BFCL_v4_multi_turn_miss_func_trace.jsonl",
	"BFCL_v4_multi_turn_miss_param_trace.jsonl",
	"BFCL_v4_multi_turn_long_context_trace.jsonl",
}

func readTraces(dir string) ([]trace, error) {
	var out []trace
	for _, f := range traceFiles {
		fh, err := os.Open(filepath.Join(dir, "multi_turn_traces", f))
		if err != nil {
			return nil, err
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 0, 1<<20), 256<<20)
		for sc.Scan() {
			var t trace
			if err := json.Unmarshal(sc.Bytes(), &t); err != nil {
				fh.Close()
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			out = append(out, t)
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// canonical decodes JSON into Go values (objects as maps, so key order does
// not matter; pyjson type tags keep int/float/tuple/set apart).
func canonical(b []byte) any {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Sprintf("invalid JSON: %v", err)
	}
	return v
}

// replay runs one trace and returns its mismatches (empty: exact).
func replay(t trace, entry *dataset.Entry, lc *longcontext.Data) []string {
	var problems []string
	cfgV, err := pyval.FromJSON(entry.InitialConfig)
	if err != nil {
		return []string{"initial_config: " + err.Error()}
	}
	s := engine.New(sim.NewEnv(lc), engine.Config{
		ModelName: oracleModel, EntryID: t.ID, Involved: t.InvolvedClasses,
		InitialConfig: cfgV.(*pyval.Dict), LongContext: t.LongContext,
	})
	if err := s.Init(); err != nil {
		return []string{"init: " + err.Error()}
	}
	compareState := func(where string, want map[string]json.RawMessage) {
		got := s.State()
		for _, cl := range sortedKeys(want) {
			st, ok := got[cl]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: no instance of %s", where, cl))
				continue
			}
			b, err := pyval.MarshalPyJSON(st)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %s state not encodable: %v", where, cl, err))
				continue
			}
			if !reflect.DeepEqual(canonical(b), canonical(want[cl])) {
				problems = append(problems, fmt.Sprintf("%s: %s state differs:\n  got  %s\n  want %s", where, cl, clip(string(b)), clip(string(want[cl]))))
			}
		}
	}
	compareState("initial state", t.InitialState)
	for _, turn := range t.Turns {
		got := s.Execute(turn.Calls)
		for i := range turn.Results {
			if i >= len(got) || got[i] != turn.Results[i] {
				g := "<none>"
				if i < len(got) {
					g = got[i]
				}
				problems = append(problems, fmt.Sprintf("turn %d call %d %s:\n  got  %q\n  want %q", turn.Turn, i, turn.Calls[i], clip(g), clip(turn.Results[i])))
			}
		}
		compareState(fmt.Sprintf("after turn %d", turn.Turn), turn.State)
	}
	return problems
}

func sortedKeys(m map[string]json.RawMessage) []string { return slices.Sorted(maps.Keys(m)) }

// loadTraceFixture reads the reference traces and the data set's entries of
// cats (by id) and long_context.py, skipping the spec loudly when the
// reference or the data set is absent.
func loadTraceFixture(cats []string) ([]trace, map[string]*dataset.Entry, *longcontext.Data) {
	ref, ok := testenv.ReferenceDir()
	if !ok {
		Skip(testenv.MissingMessage("reference traces", ref, "BFCL_REFERENCE_DIR"))
	}
	dataDir, ok := testenv.DataDir()
	if !ok {
		Skip(testenv.MissingMessage("BFCL data set", dataDir, dataset.EnvDataDir))
	}
	src, err := dataset.Open(dataDir)
	Expect(err).NotTo(HaveOccurred())
	lcSrc, err := src.ReadLongContext()
	Expect(err).NotTo(HaveOccurred())
	lc, err := longcontext.Parse(lcSrc)
	Expect(err).NotTo(HaveOccurred())
	traces, err := readTraces(ref)
	Expect(err).NotTo(HaveOccurred())
	entries := map[string]*dataset.Entry{}
	for _, cat := range cats {
		list, err := src.Load(category.Category(cat))
		Expect(err).NotTo(HaveOccurred())
		for _, e := range list {
			entries[e.ID] = e
		}
	}
	return traces, entries, lc
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

var _ = Describe("ground-truth traces of the official Python backends", Label("reference"), func() {
	It("replays all 800 multi-turn entries with identical result strings and states", func() {
		var cats []string
		for _, f := range traceFiles {
			cats = append(cats, strings.TrimSuffix(strings.TrimPrefix(f, "BFCL_v4_"), "_trace.jsonl"))
		}
		traces, entries, lc := loadTraceFixture(cats)
		Expect(traces).To(HaveLen(800), "the reference holds 800 traces")
		focus := os.Getenv("BFCL_TRACE_FOCUS")
		passed, checked := 0, 0
		var failures []string
		byClass := map[string][2]int{}
		for _, t := range traces {
			if focus != "" && !strings.Contains(t.ID, focus) && !strings.Contains(strings.Join(t.InvolvedClasses, ","), focus) {
				continue
			}
			checked++
			e, ok := entries[t.ID]
			Expect(ok).To(BeTrue(), t.ID)
			problems := replay(t, e, lc)
			for _, cl := range t.InvolvedClasses {
				c := byClass[cl]
				c[1]++
				if len(problems) == 0 {
					c[0]++
				}
				byClass[cl] = c
			}
			if len(problems) == 0 {
				passed++
			} else if len(failures) < 15 {
				failures = append(failures, t.ID+":\n"+strings.Join(problems[:min(3, len(problems))], "\n"))
			}
		}
		var classes []string
		for cl, c := range byClass {
			classes = append(classes, fmt.Sprintf("%s %d/%d", cl, c[0], c[1]))
		}
		sort.Strings(classes)
		fmt.Fprintf(GinkgoWriter, "traces matched: %d/%d; by class: %s\n", passed, checked, strings.Join(classes, ", "))
		AddReportEntry("traces matched", fmt.Sprintf("%d/%d", passed, checked))
		Expect(checked).To(BeNumerically(">", 0))
		Expect(failures).To(BeEmpty(), fmt.Sprintf("%d/%d traces matched; first failures:\n%s", passed, checked, strings.Join(failures, "\n\n")))
	})
})
