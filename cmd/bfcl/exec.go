package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/check/score"
	"github.com/bfcl-go/bfcl/internal/config"
	"github.com/bfcl-go/bfcl/internal/python/engine"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/sim"
)

// execRequest is one input line of `bfcl exec`.
type execRequest struct {
	ID    string     `json:"id"`
	Turns [][]string `json:"turns"`
}

type execTurn struct {
	Turn    int                        `json:"turn"`
	Calls   []string                   `json:"calls"`
	Results []string                   `json:"results"`
	State   map[string]json.RawMessage `json:"state"`
}

type execOutput struct {
	ID              string                     `json:"id"`
	Category        string                     `json:"category,omitempty"`
	InvolvedClasses []string                   `json:"involved_classes,omitempty"`
	LongContext     bool                       `json:"long_context"`
	InitialState    map[string]json.RawMessage `json:"initial_state,omitempty"`
	Turns           []execTurn                 `json:"turns"`
	Error           string                     `json:"error,omitempty"`
}

// cmdExec reads JSON Lines {"id": ENTRY_ID, "turns": [[CALL, ...], ...]} and
// executes the calls turn by turn on fresh backends of that entry, printing
// per line the shape of the reference traces (results and pyjson-v1 state
// per turn).
func cmdExec(args []string) error {
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	f := config.Register(fs, "", config.DataDir)
	model := fs.String("model-name", "reforacle_trace_ground_truth", "model name the instance names derive from (upstream appends _eval)")
	in := fs.String("in", "-", "input file (JSON Lines); - for stdin")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	_, src, err := resolveWithData(f)
	if err != nil {
		return err
	}
	lc, err := score.LongContextOf(src)
	if err != nil {
		return err
	}
	var r io.Reader = os.Stdin
	if *in != "-" {
		f, err := os.Open(*in)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	cache := map[string]map[string]*dataset.Entry{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var req execRequest
		if err := json.Unmarshal([]byte(line), &req); err != nil {
			out.Encode(execOutput{ID: "", Error: fmt.Sprintf("line %d: malformed request: %v", n, err), Turns: []execTurn{}})
			continue
		}
		res := execEntry(src, lc, cache, req, *model)
		if err := out.Encode(res); err != nil {
			return err
		}
	}
	return sc.Err()
}

func execEntry(src *dataset.Source, lc *longcontext.Data, cache map[string]map[string]*dataset.Entry, req execRequest, model string) execOutput {
	o := execOutput{ID: req.ID, Turns: []execTurn{}}
	c, err := category.FromEntryID(req.ID)
	if err != nil || !c.IsMultiTurn() {
		o.Error = fmt.Sprintf("%s is not a multi-turn entry id", req.ID)
		return o
	}
	m, ok := cache[string(c)]
	if !ok {
		list, err := src.Load(string(c))
		if err != nil {
			o.Error = err.Error()
			return o
		}
		m = map[string]*dataset.Entry{}
		for _, e := range list {
			m[e.ID] = e
		}
		cache[string(c)] = m
	}
	e, ok := m[req.ID]
	if !ok {
		o.Error = fmt.Sprintf("no entry %s in %s", req.ID, c)
		return o
	}
	conf, err := e.InitialConfigDict()
	if err != nil {
		o.Error = err.Error()
		return o
	}
	long := e.LongContext()
	s := engine.New(sim.NewEnv(lc), engine.Config{
		ModelName: model + "_eval", EntryID: e.ID, Involved: e.InvolvedClasses,
		InitialConfig: conf, LongContext: long,
	})
	if err := s.Init(); err != nil {
		o.Error = err.Error()
		return o
	}
	o.Category, o.InvolvedClasses, o.LongContext = string(c), e.InvolvedClasses, long
	if o.InitialState, err = encodeState(s); err != nil {
		o.Error = err.Error()
		return o
	}
	for t, calls := range req.Turns {
		if calls == nil {
			calls = []string{}
		}
		results := s.Execute(calls)
		st, err := encodeState(s)
		if err != nil {
			o.Error = err.Error()
			return o
		}
		o.Turns = append(o.Turns, execTurn{Turn: t, Calls: calls, Results: results, State: st})
	}
	return o
}

func encodeState(s *engine.Session) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	for cl, st := range s.State() {
		b, err := pyval.MarshalPyJSON(st)
		if err != nil {
			return nil, fmt.Errorf("state of %s: %w", cl, err)
		}
		out[cl] = b
	}
	return out, nil
}
