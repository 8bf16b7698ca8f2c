package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/benchmark/category"
	"github.com/bfcl-go/bfcl/internal/benchmark/dataset"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
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
	Category        category.Category          `json:"category,omitempty"`
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
	fs, f := newVerb("exec")
	model := fs.String("model-name", "reforacle_trace_ground_truth", "model name the instance names derive from (upstream appends _eval)")
	in := fs.String("in", "-", "input file (JSON Lines); - for stdin")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	_, src, err := resolveWithData(f)
	if err != nil {
		return err
	}
	// long_context.py is parsed while the first entries load their
	// category and initial configuration; an entry waits for it only to
	// build its backends.
	lc := sync.OnceValues(src.LongContext)
	go lc()
	var r io.Reader = os.Stdin
	if *in != "-" {
		f, err := os.Open(*in)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	var lines []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return err
	}
	// Entries run on fresh backends each, one per CPU; lines are written
	// in input order as they finish.
	outs := make([]chan []byte, len(lines))
	for i := range outs {
		outs[i] = make(chan []byte, 1)
	}
	go func() {
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		for i, text := range lines {
			sem <- struct{}{}
			go func() {
				defer func() { <-sem }()
				outs[i] <- execLine(src, lc, i+1, text, *model)
			}()
		}
	}()
	if _, err := lc(); err != nil {
		return err // before any line is written, as a data-set error
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	for _, ch := range outs {
		if _, err := out.Write(<-ch); err != nil {
			return err
		}
	}
	return out.Flush()
}

// execLine runs input line n and returns its output line (nil for a blank
// line).
func execLine(src *dataset.Source, lc func() (*longcontext.Data, error), n int, text, model string) []byte {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	var req execRequest
	res := execOutput{Turns: []execTurn{}}
	if err := json.Unmarshal([]byte(text), &req); err != nil {
		res.Error = fmt.Sprintf("line %d: malformed request: %v", n, err)
	} else {
		res = execEntry(src, lc, req, model)
	}
	return res.appendJSON(make([]byte, 0, res.sizeHint()))
}

// sizeHint is about the length of o's JSON line: its strings and states
// plus room for the punctuation and the escapes.
func (o execOutput) sizeHint() int {
	n := 256 + len(o.Error)
	for _, st := range o.InitialState {
		n += len(st) + 32
	}
	for _, t := range o.Turns {
		n += 64
		for _, c := range t.Calls {
			n += len(c) + 8
		}
		for _, r := range t.Results {
			n += len(r) + len(r)/8 + 8
		}
		for _, st := range t.State {
			n += len(st) + 32
		}
	}
	return n
}

// appendJSON writes o as encoding/json (HTML not escaped) writes it, plus
// a newline: the states are pyval's compact bytes, appended as they are
// instead of being validated and compacted again.
func (o execOutput) appendJSON(b []byte) []byte {
	b = append(b, `{"id":`...)
	b = appendGoJSONString(b, o.ID)
	if o.Category != "" {
		b = append(b, `,"category":`...)
		b = appendGoJSONString(b, o.Category.String())
	}
	if len(o.InvolvedClasses) > 0 {
		b = append(b, `,"involved_classes":`...)
		b = appendGoJSONStrings(b, o.InvolvedClasses)
	}
	b = append(b, `,"long_context":`...)
	b = strconv.AppendBool(b, o.LongContext)
	if len(o.InitialState) > 0 {
		b = append(b, `,"initial_state":`...)
		b = appendState(b, o.InitialState)
	}
	b = append(b, `,"turns":[`...)
	for i, t := range o.Turns {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"turn":`...)
		b = strconv.AppendInt(b, int64(t.Turn), 10)
		b = append(b, `,"calls":`...)
		b = appendGoJSONStrings(b, t.Calls)
		b = append(b, `,"results":`...)
		b = appendGoJSONStrings(b, t.Results)
		b = append(b, `,"state":`...)
		b = appendState(b, t.State)
		b = append(b, '}')
	}
	b = append(b, ']')
	if o.Error != "" {
		b = append(b, `,"error":`...)
		b = appendGoJSONString(b, o.Error)
	}
	return append(b, "}\n"...)
}

// appendState writes a class -> state map with sorted keys (as
// encoding/json writes maps); null for a nil map.
func appendState(b []byte, m map[string]json.RawMessage) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendGoJSONString(b, k)
		b = append(b, ':')
		b = append(b, m[k]...)
	}
	return append(b, '}')
}

// appendGoJSONStrings writes a string list as encoding/json does (null for
// nil).
func appendGoJSONStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendGoJSONString(b, s)
	}
	return append(b, ']')
}

// appendGoJSONString writes s as encoding/json writes a string without
// HTML escaping: \" \\ \b \f \n \r \t, other control bytes as \u00xx,
// U+2028 and U+2029 escaped, invalid UTF-8 as \ufffd.
func appendGoJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func execEntry(src *dataset.Source, lcOf func() (*longcontext.Data, error), req execRequest, model string) execOutput {
	o := execOutput{ID: req.ID, Turns: []execTurn{}}
	c, err := category.FromEntryID(req.ID)
	if err != nil || !c.IsMultiTurn() {
		o.Error = fmt.Sprintf("%s is not a multi-turn entry id", req.ID)
		return o
	}
	m, err := src.Index(c)
	if err != nil {
		o.Error = err.Error()
		return o
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
	lc, err := lcOf()
	if err != nil {
		o.Error = err.Error()
		return o
	}
	s := engine.New(sim.NewEnv(lc), engine.Config{
		ModelName: model + "_eval", EntryID: e.ID, Involved: e.InvolvedClasses,
		InitialConfig: conf, LongContext: long,
	})
	if err := s.Init(); err != nil {
		o.Error = err.Error()
		return o
	}
	o.Category, o.InvolvedClasses, o.LongContext = c, e.InvolvedClasses, long
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
