package sim

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/bfcl-go/bfcl/generated/stubs"
	"github.com/bfcl-go/bfcl/internal/benchmark/longcontext"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/testkit/testenv"
)

func TestSim(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "sim")
}

// ---- trace replay harness (test only) ----
//
// The reference traces (shared/reference/multi_turn_traces) record, for
// every multi-turn entry, the ground-truth call strings, the exact result
// strings and the state of every involved class after every turn. The
// helpers below replay those calls directly on the Go classes of this
// package (binding arguments by reflection from the Class registry), so a
// class can be checked before the engine exists. Calls routed to a class
// the test does not know are skipped; classes are independent, so that
// does not change the others' results.

type traceTurn struct {
	Turn    int                        `json:"turn"`
	Calls   []string                   `json:"calls"`
	Results []string                   `json:"results"`
	State   map[string]json.RawMessage `json:"state"`
}

type traceEntry struct {
	ID              string                     `json:"id"`
	Category        string                     `json:"category"`
	InvolvedClasses []string                   `json:"involved_classes"`
	LongContext     bool                       `json:"long_context"`
	InitialState    map[string]json.RawMessage `json:"initial_state"`
	Turns           []traceTurn                `json:"turns"`
}

var traceCategories = []string{"multi_turn_base", "multi_turn_miss_func", "multi_turn_miss_param", "multi_turn_long_context"}

type traceData struct {
	entries []*traceEntry
	configs map[string]*pyval.Dict // entry id -> initial_config
	lc      *longcontext.Data      // nil when long_context.py cannot be parsed
	lcErr   error
}

// loadTraces reads every trace file and the matching dataset files once.
var loadTraces = sync.OnceValues(func() (*traceData, error) {
	ref, ok := testenv.ReferenceDir()
	if !ok {
		return nil, fmt.Errorf("%s", testenv.MissingMessage("reference traces", ref, "BFCL_REFERENCE_DIR"))
	}
	data, ok := testenv.DataDir()
	if !ok {
		return nil, fmt.Errorf("%s", testenv.MissingMessage("BFCL data set", data, "BFCL_DATA_DIR"))
	}
	td := &traceData{configs: map[string]*pyval.Dict{}}
	for _, cat := range traceCategories {
		if err := readJSONL(filepath.Join(ref, "multi_turn_traces", "BFCL_v4_"+cat+"_trace.jsonl"), func(line []byte) error {
			e := &traceEntry{}
			if err := json.Unmarshal(line, e); err != nil {
				return err
			}
			td.entries = append(td.entries, e)
			return nil
		}); err != nil {
			return nil, err
		}
		if err := readJSONL(filepath.Join(data, "data", "BFCL_v4_"+cat+".json"), func(line []byte) error {
			var head struct {
				ID            string          `json:"id"`
				InitialConfig json.RawMessage `json:"initial_config"`
			}
			if err := json.Unmarshal(line, &head); err != nil {
				return err
			}
			v, err := pyval.FromJSON(head.InitialConfig)
			if err != nil {
				return fmt.Errorf("%s initial_config: %w", head.ID, err)
			}
			d, ok := v.(*pyval.Dict)
			if !ok {
				return fmt.Errorf("%s initial_config is not an object", head.ID)
			}
			td.configs[head.ID] = d
			return nil
		}); err != nil {
			return nil, err
		}
	}
	td.lc, td.lcErr = longcontext.Load(data)
	return td, nil
})

func readJSONL(path string, f func([]byte) error) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if len(strings.TrimSpace(string(line))) == 0 {
			continue
		}
		if err := f(line); err != nil {
			return fmt.Errorf("%s line %d: %w", path, n, err)
		}
	}
	return sc.Err()
}

// knownClasses are the classes this test file can replay.
func knownClasses() map[string]Class {
	out := map[string]Class{}
	for _, c := range []Class{classGorillaFileSystem(), classMathAPI(), classMessageAPI(), classTwitterAPI(), classTicketAPI()} {
		out[c.Name] = c
	}
	return out
}

// tracesInvolving returns the trace entries whose involved classes include name.
func tracesInvolving(td *traceData, name string) []*traceEntry {
	var out []*traceEntry
	for _, e := range td.entries {
		for _, c := range e.InvolvedClasses {
			if c == name {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// pyjsonCanon decodes trace pyjson and re-encodes it compactly, so it can
// be compared byte for byte with MarshalPyJSON of a live state.
func pyjsonCanon(raw []byte) (string, error) {
	v, err := pyval.DecodePyJSON(raw)
	if err != nil {
		return "", err
	}
	b, err := pyval.MarshalPyJSON(v)
	return string(b), err
}

// serialiseResult turns a method's return into the string upstream's
// execute_multi_turn_func_call appends.
func serialiseResult(v pyval.Value, err error) string {
	if err != nil {
		return "Error during execution: " + err.Error()
	}
	switch x := v.(type) {
	case pyval.Str:
		return string(x)
	case *pyval.Dict:
		if s, err := pyval.JSONDumps(x); err == nil {
			return s
		}
		return pyval.Repr(x)
	}
	return pyval.StrOf(v)
}

// replayReport is what replaying one entry for one class found.
type replayReport struct {
	calls    int // calls executed on the class
	mismatch []string
}

// replayEntry replays entry e for class cls (other classes' calls are
// skipped) and compares every result and every state.
func replayEntry(td *traceData, e *traceEntry, cls string) (*replayReport, error) {
	known := knownClasses()
	c, ok := known[cls]
	if !ok {
		return nil, fmt.Errorf("class %s unknown to the test", cls)
	}
	env := &Env{}
	if e.LongContext {
		if td.lc == nil {
			return nil, fmt.Errorf("long-context data unavailable: %v", td.lcErr)
		}
		env.LC = td.lc.Clone()
	}
	inst := c.New(env)
	if !c.Stateless {
		d, ok := td.scenario(e.ID, cls)
		if !ok {
			return nil, fmt.Errorf("%s: no dataset entry", e.ID)
		}
		if err := inst.LoadScenario(d, e.LongContext); err != nil {
			return nil, fmt.Errorf("%s: LoadScenario: %w", e.ID, err)
		}
	}
	rep := &replayReport{}
	compareState := func(where string, raw json.RawMessage) error {
		want, err := pyjsonCanon(raw)
		if err != nil {
			return fmt.Errorf("%s %s: decoding trace state: %w", e.ID, where, err)
		}
		gotB, err := pyval.MarshalPyJSON(inst.State())
		if err != nil {
			return fmt.Errorf("%s %s: encoding state: %w", e.ID, where, err)
		}
		if string(gotB) != want {
			rep.mismatch = append(rep.mismatch, fmt.Sprintf("%s %s state differs:\n got: %s\nwant: %s", e.ID, where, firstDiff(string(gotB), want), firstDiff(want, string(gotB))))
		}
		return nil
	}
	if err := compareState("initial", e.InitialState[cls]); err != nil {
		return nil, err
	}
	for _, t := range e.Turns {
		for i, call := range t.Calls {
			name, args, kwargs, err := parseCall(call)
			if err != nil {
				return nil, fmt.Errorf("%s turn %d: parsing %q: %w", e.ID, t.Turn, call, err)
			}
			owner := lastOwner(e.InvolvedClasses, func(ic string) bool {
				if kc, ok := known[ic]; ok {
					return hasMethod(kc, name)
				}
				return otherClassHasMethod(ic, name)
			})
			if owner != cls {
				continue
			}
			rep.calls++
			got := serialiseResult(invoke(c, inst, name, args, kwargs))
			if got != t.Results[i] {
				rep.mismatch = append(rep.mismatch, fmt.Sprintf("%s turn %d call %q:\n got: %s\nwant: %s", e.ID, t.Turn, call, got, t.Results[i]))
			}
		}
		if err := compareState(fmt.Sprintf("after turn %d", t.Turn), t.State[cls]); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// scenario is a fresh copy of class cls's part of entry id's initial
// config ({} when it has none); ok is false when the data set has no entry
// id.
func (td *traceData) scenario(id, cls string) (*pyval.Dict, bool) {
	cfg, ok := td.configs[id]
	if !ok {
		return nil, false
	}
	sub, _ := cfg.GetStr(cls)
	if d, _ := sub.(*pyval.Dict); d != nil {
		return pyval.DeepCopy(d).(*pyval.Dict), true
	}
	return pyval.NewDict(), true
}

// lastOwner is the class a call goes to, the way upstream's rewrite routes
// it: the last of the involved classes that has the method ("" when none).
func lastOwner(involved []string, has func(cls string) bool) string {
	owner := ""
	for _, ic := range involved {
		if has(ic) {
			owner = ic
		}
	}
	return owner
}

// otherClassHasMethod is a conservative stand-in for the method lists of
// classes this test file does not own: it reads the function docs.
func otherClassHasMethod(cls, name string) bool {
	docs := otherClassDocs()
	return docs[cls][name]
}

var otherClassDocs = sync.OnceValue(func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	data, ok := testenv.DataDir()
	if !ok {
		return out
	}
	files := map[string]string{"TradingBot": "trading_bot.json", "TravelAPI": "travel_booking.json", "VehicleControlAPI": "vehicle_control.json"}
	for cls, f := range files {
		out[cls] = map[string]bool{}
		_ = readJSONL(filepath.Join(data, "data", "multi_turn_func_doc", f), func(line []byte) error {
			var d struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(line, &d) == nil {
				out[cls][d.Name] = true
			}
			return nil
		})
	}
	return out
})

func hasMethod(c Class, name string) bool {
	for _, m := range c.Methods {
		if m.Name == name {
			return true
		}
	}
	return false
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	start := i - 80
	if start < 0 {
		start = 0
	}
	end := i + 160
	if end > len(a) {
		end = len(a)
	}
	return fmt.Sprintf("…[%d]%s", start, a[start:end])
}

// invoke calls a public method as the engine does: through the generated
// stubs, which bind Python-style arguments and dispatch to the backend.
func invoke(c Class, inst Instance, name string, args []pyval.Value, kwargs []pyval.KV) (pyval.Value, error) {
	if !hasMethod(c, name) {
		return nil, fmt.Errorf("test harness: %s has no method %s", c.Name, name)
	}
	return stubs.Call(inst, name, args, kwargs)
}

// ---- a small parser for the literal call strings of the traces ----

type callParser struct {
	s   string
	pos int
}

func parseCall(s string) (string, []pyval.Value, []pyval.KV, error) {
	p := &callParser{s: strings.TrimSpace(s)}
	name := p.ident()
	if name == "" {
		return "", nil, nil, fmt.Errorf("no function name")
	}
	p.ws()
	if !p.eat('(') {
		return "", nil, nil, fmt.Errorf("expected ( at %d", p.pos)
	}
	var args []pyval.Value
	var kwargs []pyval.KV
	for {
		p.ws()
		if p.eat(')') {
			break
		}
		save := p.pos
		id := p.ident()
		p.ws()
		if id != "" && p.peek() == '=' && !strings.HasPrefix(p.s[p.pos:], "==") {
			p.pos++
			v, err := p.value()
			if err != nil {
				return "", nil, nil, err
			}
			kwargs = append(kwargs, pyval.KV{Key: pyval.Str(id), Value: v})
		} else {
			p.pos = save
			v, err := p.value()
			if err != nil {
				return "", nil, nil, err
			}
			args = append(args, v)
		}
		p.ws()
		if p.eat(',') {
			continue
		}
		if p.eat(')') {
			break
		}
		return "", nil, nil, fmt.Errorf("unexpected %q at %d", p.rest(), p.pos)
	}
	return name, args, kwargs, nil
}

func (p *callParser) rest() string { return p.s[p.pos:] }

func (p *callParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *callParser) eat(c byte) bool {
	if p.peek() == c {
		p.pos++
		return true
	}
	return false
}

func (p *callParser) ws() {
	for p.pos < len(p.s) && strings.ContainsRune(" \t\n\r", rune(p.s[p.pos])) {
		p.pos++
	}
}

func (p *callParser) ident() string {
	start := p.pos
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (p.pos > start && c >= '0' && c <= '9') {
			p.pos++
			continue
		}
		break
	}
	return p.s[start:p.pos]
}

func (p *callParser) value() (pyval.Value, error) {
	p.ws()
	c := p.peek()
	switch {
	case c == '\'' || c == '"':
		return p.str()
	case c == '[':
		p.pos++
		items, err := p.seq(']')
		return pyval.NewList(items...), err
	case c == '(':
		p.pos++
		items, err := p.seq(')')
		return pyval.Tuple(items), err
	case c == '{':
		p.pos++
		d := pyval.NewDict()
		for {
			p.ws()
			if p.eat('}') {
				return d, nil
			}
			k, err := p.value()
			if err != nil {
				return nil, err
			}
			p.ws()
			if !p.eat(':') {
				return nil, fmt.Errorf("expected : at %d", p.pos)
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			d.Set(k, v)
			p.ws()
			p.eat(',')
		}
	case c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9':
		start := p.pos
		p.pos++
		for p.pos < len(p.s) && strings.ContainsRune("0123456789.eE_+-", rune(p.s[p.pos])) {
			if (p.s[p.pos] == '+' || p.s[p.pos] == '-') && !(p.s[p.pos-1] == 'e' || p.s[p.pos-1] == 'E') {
				break
			}
			p.pos++
		}
		lit := strings.ReplaceAll(p.s[start:p.pos], "_", "")
		if !strings.ContainsAny(lit, ".eE") {
			n, err := strconv.ParseInt(lit, 10, 64)
			if err != nil {
				b, ok := new(big.Int).SetString(lit, 10)
				if !ok {
					return nil, err
				}
				return pyval.BigInt{V: b}, nil
			}
			return pyval.Int(n), nil
		}
		f, err := strconv.ParseFloat(lit, 64)
		return pyval.Float(f), err
	}
	id := p.ident()
	switch id {
	case "True":
		return pyval.Bool(true), nil
	case "False":
		return pyval.Bool(false), nil
	case "None":
		return pyval.None, nil
	}
	return nil, fmt.Errorf("unsupported literal at %d: %q", p.pos, p.rest())
}

func (p *callParser) seq(end byte) ([]pyval.Value, error) {
	var items []pyval.Value
	for {
		p.ws()
		if p.eat(end) {
			return items, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		p.ws()
		p.eat(',')
	}
}

func (p *callParser) str() (pyval.Value, error) {
	q := p.s[p.pos]
	p.pos++
	var b strings.Builder
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == q:
			p.pos++
			return pyval.Str(b.String()), nil
		case c == '\\' && p.pos+1 < len(p.s):
			e := p.s[p.pos+1]
			p.pos += 2
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'u':
				n, err := strconv.ParseUint(p.s[p.pos:p.pos+4], 16, 32)
				if err != nil {
					return nil, err
				}
				b.WriteRune(rune(n))
				p.pos += 4
			default:
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		default:
			r, w := utf8.DecodeRuneInString(p.s[p.pos:])
			b.WriteRune(r)
			p.pos += w
		}
	}
	return nil, fmt.Errorf("unterminated string")
}

// replayAllFor is the body of the per-class trace specs: it replays every
// trace entry involving cls and reports the totals.
func replayAllFor(cls string) {
	td, err := loadTraces()
	if err != nil {
		if strings.HasPrefix(err.Error(), "SKIPPED LOUDLY") {
			Skip(err.Error())
		}
		Fail(err.Error())
	}
	entries := tracesInvolving(td, cls)
	Expect(entries).NotTo(BeEmpty(), "no trace entry involves %s", cls)
	var mismatches []string
	calls, replayed, skippedLC := 0, 0, 0
	for _, e := range entries {
		if e.LongContext && td.lc == nil {
			skippedLC++
			continue
		}
		rep, err := replayEntry(td, e, cls)
		Expect(err).NotTo(HaveOccurred())
		replayed++
		calls += rep.calls
		mismatches = append(mismatches, rep.mismatch...)
	}
	if skippedLC > 0 {
		AddReportEntry("long-context entries NOT replayed", fmt.Sprintf("%d entries of %s: long_context.py unavailable: %v", skippedLC, cls, td.lcErr))
	}
	AddReportEntry("replayed", fmt.Sprintf("%s: %d entries, %d calls", cls, replayed, calls))
	GinkgoWriter.Printf("%s: replayed %d entries, %d calls, %d mismatches\n", cls, replayed, calls, len(mismatches))
	if len(mismatches) > 10 {
		mismatches = append(mismatches[:10], fmt.Sprintf("... and %d more", len(mismatches)-10))
	}
	Expect(mismatches).To(BeEmpty())
	Expect(replayed).To(BeNumerically(">", 0))
}

// ---- differential cases recorded from the upstream Python classes ----

type diffCase struct {
	Name   string               `json:"name"`
	Class  string               `json:"class"`
	Config json.RawMessage      `json:"config"`
	LC     bool                 `json:"lc"`
	Steps  [][]*json.RawMessage `json:"steps"`
}

// replayUpstreamDiff replays testdata/simA_upstream_diff.json (generated by
// testdata/gen_simA_upstream_diff.py from the upstream Python classes) for
// one class: every result string and every recorded state must match.
func replayUpstreamDiff(cls string) { replayUpstreamFixture("simA_upstream_diff.json", cls) }

// replayUpstreamFixture replays one recorded fixture file for one class.
func replayUpstreamFixture(file, cls string) {
	raw, err := os.ReadFile(filepath.Join("testdata", file))
	Expect(err).NotTo(HaveOccurred())
	var cases []diffCase
	Expect(json.Unmarshal(raw, &cases)).To(Succeed())
	c := knownClasses()[cls]
	n := 0
	var mismatches []string
	for _, dc := range cases {
		if dc.Class != cls {
			continue
		}
		env := &Env{}
		if dc.LC {
			data := testenv.NeedDataDir(GinkgoT(), "BFCL data set (long_context.py)")
			lc, err := longcontext.Load(data)
			Expect(err).NotTo(HaveOccurred())
			env.LC = lc
		}
		inst := c.New(env)
		if string(dc.Config) != "null" {
			cfg, err := pyval.FromJSON(dc.Config)
			Expect(err).NotTo(HaveOccurred())
			Expect(inst.LoadScenario(cfg.(*pyval.Dict), dc.LC)).To(Succeed(), dc.Name)
		}
		for _, step := range dc.Steps {
			var call, want string
			Expect(json.Unmarshal(*step[0], &call)).To(Succeed())
			Expect(json.Unmarshal(*step[1], &want)).To(Succeed())
			name, args, kwargs, err := parseCall(call)
			Expect(err).NotTo(HaveOccurred(), call)
			got := serialiseResult(invoke(c, inst, name, args, kwargs))
			n++
			if got != want {
				mismatches = append(mismatches, fmt.Sprintf("%s %s:\n got: %s\nwant: %s", dc.Name, call, got, want))
			}
			if step[2] != nil && string(*step[2]) != "null" {
				var stateJSON string
				Expect(json.Unmarshal(*step[2], &stateJSON)).To(Succeed())
				wantState, err := pyjsonCanon([]byte(stateJSON))
				Expect(err).NotTo(HaveOccurred())
				gotState, err := pyval.MarshalPyJSON(inst.State())
				Expect(err).NotTo(HaveOccurred())
				if string(gotState) != wantState {
					mismatches = append(mismatches, fmt.Sprintf("%s state after %s:\n got: %s\nwant: %s", dc.Name, call, firstDiff(string(gotState), wantState), firstDiff(wantState, string(gotState))))
				}
			}
		}
	}
	Expect(n).To(BeNumerically(">", 5), "no differential case for %s", cls)
	Expect(mismatches).To(BeEmpty())
}

// checkSignatures compares a class's registry entry with the upstream
// signatures recorded in testdata/simA_signatures.json (inspect.getmembers
// order, parameter names, which ones have defaults).
func checkSignatures(cls string) {
	raw, err := os.ReadFile(filepath.Join("testdata", "simA_signatures.json"))
	Expect(err).NotTo(HaveOccurred())
	var all map[string]struct {
		Module  string              `json:"module"`
		Methods [][]json.RawMessage `json:"methods"`
	}
	Expect(json.Unmarshal(raw, &all)).To(Succeed())
	want, ok := all[cls]
	Expect(ok).To(BeTrue(), "no recorded signatures for %s", cls)
	c := knownClasses()[cls]
	Expect(c.Module).To(Equal(want.Module))
	var got, exp []string
	for _, m := range c.Methods {
		s := m.Name + "("
		for _, p := range m.Params {
			s += fmt.Sprintf("%s:%v,", p.Name, p.Optional)
		}
		got = append(got, s+")")
	}
	for _, m := range want.Methods {
		var name string
		Expect(json.Unmarshal(m[0], &name)).To(Succeed())
		var params [][]any
		Expect(json.Unmarshal(m[1], &params)).To(Succeed())
		s := name + "("
		for _, p := range params {
			s += fmt.Sprintf("%s:%v,", p[0], p[1])
		}
		exp = append(exp, s+")")
	}
	Expect(got).To(Equal(exp))
	for _, m := range c.Methods {
		_, found := reflect.TypeOf(c.New(&Env{})).MethodByName(m.GoName)
		Expect(found).To(BeTrue(), "%s has no Go method %s", cls, m.GoName)
	}
}
