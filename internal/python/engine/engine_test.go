package engine_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

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

// fsConfig is a small file system of our own.
func fsConfig() *pyval.Dict {
	v, err := pyval.FromJSON([]byte(`{"GorillaFileSystem": {"root": {"alex": {"type": "directory", "contents": {"document": {"type": "directory", "contents": {"a.txt": {"type": "file", "content": "x"}}}}}}}, "MathAPI": {}}`))
	Expect(err).NotTo(HaveOccurred())
	return v.(*pyval.Dict)
}

func newSession(model string) *engine.Session {
	s := engine.New(&sim.Env{}, engine.Config{ModelName: model, EntryID: "multi_turn_base_9", Involved: []string{"GorillaFileSystem", "MathAPI"}, InitialConfig: fsConfig()})
	Expect(s.Init()).To(Succeed())
	return s
}

var _ = Describe("executing call strings as upstream does", func() {
	DescribeTable("result strings",
		func(call, want string) {
			Expect(newSession("m_eval").ExecuteOne(call)).To(Equal(want))
		},
		Entry("a dict result through json.dumps", "cd(folder='document')", `{"current_working_directory": "document"}`),
		Entry("positional arguments", "cd('document')", `{"current_working_directory": "document"}`),
		Entry("white space before the parenthesis", "cd (folder='document')", `{"current_working_directory": "document"}`),
		Entry("an unexpected keyword (TypeError with the qualified name)", "cd(path='x')", "Error during execution: GorillaFileSystem.cd() got an unexpected keyword argument 'path'"),
		Entry("a blocked name", "exit()", "Error during execution: Function call exit is not allowed."),
		Entry("a blocked method name after a dot", "os.remove(x=1)", "Error during execution: Function call remove is not allowed."),
		Entry("a harmony leak", "ls<|channel|>commentary(a=False)", "Error during execution: invalid syntax (<string>, line 1)"),
		Entry("an attribute chain", "functions.ls(a=False)", "Error during execution: name 'functions' is not defined"),
		Entry("a function of no involved class", "get_stock_info(symbol='X')", "Error during execution: name 'get_stock_info' is not defined"),
		Entry("a builtin that is never run", "exec(cmd=['ls'])", "Error during execution: exec() takes at least 1 positional argument (0 given)"),
		Entry("pure builtins nested in arguments", "add(a=len('abc'), b=round(2.675, 2))", `{"result": 5.67}`),
		Entry("max and sum of a list", "add(a=max([1, 7, 3]), b=sum([1, 2]))", `{"result": 10}`),
		Entry("print returns None", "print('x')", "None"),
		Entry("ints stay ints", "add(a=1, b=2)", `{"result": 3}`),
		Entry("an int too long to print (CPython's 4300-digit limit)", "power(base=10, exponent=4300)", "Error during execution: Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"),
		Entry("the longest int that prints", "add(a=10**4299, b=0)", `{"result": 1`+strings.Repeat("0", 4299)+`}`),
		Entry("a list result through str()", "ls()", "{\"current_directory_content\": [\"document\"]}"),
	)

	It("rewrites method names inside string arguments too, exposing the instance name", func() {
		s := newSession("my-model_eval")
		Expect(s.ExecuteOne("touch(file_name='b.txt')")).To(Equal("None"))
		Expect(s.ExecuteOne("echo(content='see ls() now', file_name='b.txt')")).To(Equal("None"))
		Expect(s.ExecuteOne("cat(file_name='b.txt')")).To(Equal(`{"file_content": "see my_model_eval_multi_turn_base_9_GorillaFileSystem_instance.ls() now"}`))
	})

	It("drops the white space between any name and a parenthesis inside string arguments, as the rewriting regex does", func() {
		// gpt-oss-120b's create_ticket description in multi_turn_base_187
		// ("travel expenses (Booking ID ...") is stored upstream as
		// "expenses(Booking ID ...".
		s := newSession("m_eval")
		Expect(s.ExecuteOne("touch(file_name='b.txt')")).To(Equal("None"))
		Expect(s.ExecuteOne("echo(content='my expenses (see ls  (x) and pwd\t()) end', file_name='b.txt')")).To(Equal("None"))
		Expect(s.ExecuteOne("cat(file_name='b.txt')")).To(Equal(`{"file_content": "my expenses(see m_eval_multi_turn_base_9_GorillaFileSystem_instance.ls(x) and m_eval_multi_turn_base_9_GorillaFileSystem_instance.pwd()) end"}`))
	})

	It("names instances as upstream does", func() {
		Expect(engine.InstanceName("openai/gpt-4o:latest.v1", "multi_turn_base_1", "TravelAPI")).To(Equal("openai_gpt_4o_latest_v1_multi_turn_base_1_TravelAPI_instance"))
	})

	It("runs the same entry concurrently with identical, independent results", func() {
		calls := []string{"cd(folder='document')", "touch(file_name='n.txt')", "echo(content='hi', file_name='n.txt')", "ls()", "mean(numbers=[1.5, 2, 3])"}
		want := newSession("m_eval").Execute(calls)
		var wg sync.WaitGroup
		outs := make([][]string, 100)
		for i := range outs {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				s := engine.New(&sim.Env{}, engine.Config{ModelName: "m_eval", EntryID: "multi_turn_base_9", Involved: []string{"GorillaFileSystem", "MathAPI"}, InitialConfig: fsConfig()})
				outs[i] = s.Execute(calls)
			}(i)
		}
		wg.Wait()
		for _, o := range outs {
			Expect(o).To(Equal(want))
		}
	})
})

var _ = Describe("100 concurrent replays of reference traces", Label("reference"), func() {
	It("give the same results and states as one replay", func() {
		traces, entries, lc := loadTraceFixture([]string{"multi_turn_base", "multi_turn_long_context"})
		// One entry per backend class, long-context ones included (shared
		// module-level data is where leaks between instances would show).
		picked := map[string]bool{}
		var chosen []trace
		for _, t := range traces {
			if _, ok := entries[t.ID]; !ok {
				continue
			}
			key := strings.Join(t.InvolvedClasses, ",") + fmt.Sprint(t.LongContext)
			if !picked[key] && len(chosen) < 12 {
				picked[key] = true
				chosen = append(chosen, t)
			}
		}
		for _, t := range chosen {
			var wg sync.WaitGroup
			problems := make([][]string, 100)
			for i := range problems {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					problems[i] = replay(t, entries[t.ID], lc)
				}(i)
			}
			wg.Wait()
			for _, p := range problems {
				Expect(p).To(BeEmpty(), t.ID)
			}
		}
	})
})

// BenchmarkReplayAllTraces executes the ground truth of all 800 multi-turn
// entries (fresh instances each, states encoded after every turn as the
// trace test does) per iteration.
func BenchmarkReplayAllTraces(b *testing.B) {
	ref, ok := testenv.ReferenceDir()
	dataDir, ok2 := testenv.DataDir()
	if !ok || !ok2 {
		b.Skip("reference traces or data set missing")
	}
	src, err := dataset.Open(dataDir)
	if err != nil {
		b.Fatal(err)
	}
	lcb, _ := src.ReadLongContext()
	lc, err := longcontext.Parse(lcb)
	if err != nil {
		b.Fatal(err)
	}
	traces, err := readTraces(ref)
	if err != nil {
		b.Fatal(err)
	}
	entries := map[string]*dataset.Entry{}
	for _, f := range traceFiles {
		cat := strings.TrimSuffix(strings.TrimPrefix(f, "BFCL_v4_"), "_trace.jsonl")
		list, err := src.Load(category.Category(cat))
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range list {
			entries[e.ID] = e
		}
	}
	configs := map[string]*pyval.Dict{}
	for id, e := range entries {
		v, _ := pyval.FromJSON(e.InitialConfig)
		configs[id] = v.(*pyval.Dict)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range traces {
			s := engine.New(sim.NewEnv(lc), engine.Config{ModelName: "bench_eval", EntryID: t.ID, Involved: t.InvolvedClasses, InitialConfig: configs[t.ID], LongContext: t.LongContext})
			for _, turn := range t.Turns {
				s.Execute(turn.Calls)
				for _, st := range s.State() {
					if _, err := pyval.MarshalPyJSON(st); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	}
	b.ReportMetric(float64(b.N*len(traces))/b.Elapsed().Seconds(), "entries/s")
}
