// Package engine executes call strings against simulated backends exactly
// as upstream's execute_multi_turn_func_call (bfcl_eval/eval_checker/
// multi_turn_eval/multi_turn_utils.py) does: it rewrites method names to
// instance-qualified names (inside string arguments too), refuses the
// blocked names, evaluates the expression with Python semantics, and turns
// each outcome into upstream's result string. Calls reach a backend only
// through the generated typed stubs.
//
// A call text is parsed once per process and list of involved classes (see
// callcache.go): the tree is evaluated with each session's own instances,
// so repeated calls (the ground truth repeats most of its calls across
// entries) cost only their evaluation.
package engine

import (
	"fmt"
	"strings"
	"sync"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/sim"
)

// ErrorPrefix starts the result string of a call that raised
// (multi_turn_utils.py).
const ErrorPrefix = "Error during execution: "

// blocked are the function names upstream refuses before evaluating.
var blocked = map[string]bool{"kill": true, "exit": true, "quit": true, "remove": true, "unlink": true, "popen": true, "Popen": true, "run": true}

// Config describes one side of one entry evaluation.
type Config struct {
	// ModelName is the name upstream derives instance names from, with
	// "_eval" already appended for evaluation runs where upstream does that
	// (see InstanceName).
	ModelName     string
	EntryID       string
	Involved      []string    // involved classes, in data-set order (the last class wins a method name)
	InitialConfig *pyval.Dict // class name -> config; deep-copied per instance
	LongContext   bool
}

// Session holds the backend instances of one side of one entry, across turns.
// Like upstream, the instances come into being at the first execution (an
// empty call list included), not before.
type Session struct {
	cfg       Config
	env       *sim.Env
	created   bool
	classes   []string
	instances map[string]sim.Instance // class -> instance
	// vars are the instance variables in cfg.Involved order (a class
	// listed twice twice): a method name belongs to the last one whose
	// class has it, as upstream's loop over the involved classes leaves it.
	vars []instanceVar
	// cacheKey is the class list of this session's callCache keys; ""
	// when the instance names are not plain identifiers.
	cacheKey string
}

// instanceVar is one instance variable name and its class.
type instanceVar struct {
	name    string
	cl      string
	methods map[string]bool // the class's public methods
	ref     *instanceRef    // the value the name evaluates to
	canon   string          // the canonical name of callCache's trees
}

// classTable is sim.Classes() with each class's method names as a set,
// built once: the engine only reads it.
type classTable struct {
	classes map[string]sim.Class
	methods map[string]map[string]bool
}

var classes = sync.OnceValue(func() classTable {
	t := classTable{classes: sim.Classes(), methods: map[string]map[string]bool{}}
	for name, c := range t.classes {
		set := make(map[string]bool, len(c.Methods))
		for _, m := range c.Methods {
			set[m.Name] = true
		}
		t.methods[name] = set
	}
	return t
})

// InstanceName is upstream's variable name of a backend instance:
// "<model>_<entry id>_<class>_instance" with "-", ".", "/" and ":" turned
// into "_". It is observable: the method-name rewriting also applies inside
// string arguments.
func InstanceName(modelName, entryID, class string) string {
	b := make([]byte, 0, len(modelName)+len(entryID)+len(class)+len("___instance"))
	b = append(b, modelName...)
	b = append(b, '_')
	b = append(b, entryID...)
	b = append(b, '_')
	b = append(b, class...)
	b = append(b, "_instance"...)
	for i, c := range b {
		switch c {
		case '-', '.', '/', ':':
			b[i] = '_'
		}
	}
	return string(b)
}

// New returns the session of cfg; its instances are created by the first
// Execute, or by Init.
func New(env *sim.Env, cfg Config) *Session {
	return &Session{
		cfg:       cfg,
		env:       env,
		instances: make(map[string]sim.Instance, len(cfg.Involved)),
	}
}

// Init creates the instances of cfg.Involved and loads their scenarios, if
// that has not happened yet.
func (s *Session) Init() error {
	if s.created {
		return nil
	}
	s.created = true
	cfg, env := s.cfg, s.env
	reg := classes()
	for _, cl := range cfg.Involved {
		info, ok := reg.classes[cl]
		if !ok {
			return fmt.Errorf("engine: unknown backend class %q", cl)
		}
		name := InstanceName(cfg.ModelName, cfg.EntryID, cl)
		inst, seen := s.instances[cl]
		if !seen {
			inst = info.New(env)
			if !info.Stateless {
				conf := pyval.NewDict()
				if cfg.InitialConfig != nil {
					if v, ok := cfg.InitialConfig.GetStr(cl); ok {
						d, ok := pyval.DeepCopy(v).(*pyval.Dict)
						if !ok {
							return fmt.Errorf("engine: initial_config[%s] is not an object", cl)
						}
						conf = d
					}
				}
				if err := inst.LoadScenario(conf, cfg.LongContext); err != nil {
					return fmt.Errorf("engine: %s._load_scenario: %w", cl, err)
				}
			}
			s.instances[cl] = inst
			s.classes = append(s.classes, cl)
		}
		s.vars = append(s.vars, instanceVar{name: name, cl: cl, methods: reg.methods[cl], ref: &instanceRef{name: name, cl: cl, inst: s.instances[cl]}, canon: canonPrefix + cl})
	}
	plain := true
	for _, v := range s.vars {
		plain = plain && isPlainIdentifier(v.name)
	}
	if plain {
		s.cacheKey = strings.Join(cfg.Involved, ",")
	}
	return nil
}

// owner is the instance variable a public method name belongs to.
func (s *Session) owner(method string) (string, bool) {
	for i := len(s.vars) - 1; i >= 0; i-- {
		if s.vars[i].methods[method] {
			return s.vars[i].name, true
		}
	}
	return "", false
}

// variable is the instance an instance variable name holds; with canon,
// the canonical names of callCache's trees are variables too.
func (s *Session) variable(name string, canon bool) (*instanceRef, bool) {
	for i := range s.vars {
		if s.vars[i].name == name || canon && s.vars[i].canon == name {
			return s.vars[i].ref, true
		}
	}
	return nil, false
}

// Created reports whether the instances exist.
func (s *Session) Created() bool { return s.created }

// Classes returns the involved classes in creation order.
func (s *Session) Classes() []string { return append([]string(nil), s.classes...) }

// Instance returns the instance of class cl.
func (s *Session) Instance(cl string) (sim.Instance, bool) {
	i, ok := s.instances[cl]
	return i, ok
}

// Execute runs each call string and returns one result string per call.
// The instances are created first if needed; a failure to create them (a
// malformed initial configuration) is reported in every result string.
func (s *Session) Execute(calls []string) []string {
	if err := s.Init(); err != nil {
		out := make([]string, len(calls))
		for i := range out {
			out[i] = ErrorPrefix + err.Error()
		}
		return out
	}
	out := make([]string, 0, len(calls))
	for _, c := range calls {
		out = append(out, s.ExecuteOne(c))
	}
	return out
}

// ExecuteOne runs one call string.
func (s *Session) ExecuteOne(call string) string {
	if s.cacheKey != "" && !strings.Contains(call, canonPrefix) {
		key := callKey{s.cacheKey, call}
		pc, ok := cachedCall(key)
		if !ok {
			pc = s.prepare(call)
			storeCall(key, pc)
		}
		if pc.blockedHead != "" {
			return ErrorPrefix + "Function call " + pc.blockedHead + " is not allowed."
		}
		if pc.expr != nil {
			return s.run(pc.expr, true)
		}
	}
	rewritten := rewriteCalls(call, s.owner)
	if head := calledName(rewritten); blocked[head] {
		return ErrorPrefix + "Function call " + head + " is not allowed."
	}
	expr, err := pyexpr.Parse(rewritten)
	if err != nil {
		return ErrorPrefix + err.Error()
	}
	return s.run(expr, false)
}

// calledName is the name upstream checks against the blocked ones: the
// rewritten call up to "(", and of a dotted name its second part (as
// head.split(".")[1]).
func calledName(rewritten string) string {
	head := rewritten
	if i := strings.IndexByte(head, '('); i >= 0 {
		head = head[:i]
	}
	if i := strings.IndexByte(head, '.'); i >= 0 {
		head = head[i+1:]
		if j := strings.IndexByte(head, '.'); j >= 0 {
			head = head[:j]
		}
	}
	return head
}

// run evaluates a parsed call and makes its result string; canon tells
// whether the canonical instance names are to be looked up too.
func (s *Session) run(expr pyexpr.Expr, canon bool) string {
	v, err := pyexpr.Eval(expr, evalEnv{s: s, canon: canon})
	if err != nil {
		return ErrorPrefix + err.Error()
	}
	out := ResultString(v)
	// An int too long to print has more digits than the result string has
	// bytes otherwise; only a long result needs the walk.
	if len(out) > maxStrDigits {
		if err := checkIntDigits(v); err != nil {
			return ErrorPrefix + err.Error()
		}
	}
	return out
}

// maxStrDigits is CPython's default sys.get_int_max_str_digits() (3.11+):
// converting a longer int to text raises ValueError, so a result holding
// one cannot be turned into its result string (json.dumps and str() both
// raise) and upstream records the error instead.
const maxStrDigits = 4300

func checkIntDigits(v pyval.Value) error {
	switch x := v.(type) {
	case pyval.BigInt:
		if len(x.V.Text(10)) > maxStrDigits+boolToInt(x.V.Sign() < 0) {
			return pyval.NewValueError("Exceeds the limit (%d digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit", maxStrDigits)
		}
	case *pyval.List:
		for _, it := range x.Items {
			if err := checkIntDigits(it); err != nil {
				return err
			}
		}
	case pyval.Tuple:
		for _, it := range x {
			if err := checkIntDigits(it); err != nil {
				return err
			}
		}
	case *pyval.Dict:
		for _, kv := range x.Items() {
			if err := checkIntDigits(kv.Key); err != nil {
				return err
			}
			if err := checkIntDigits(kv.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

func boolToInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ResultString is how upstream records a return value: a str as is; an
// exact dict through json.dumps, or str() when that fails; anything else
// through str().
func ResultString(v pyval.Value) string {
	switch x := v.(type) {
	case pyval.Str:
		return string(x)
	case *pyval.Dict:
		buf := jsonBufs.Get().(*[]byte)
		b, err := pyval.AppendJSON((*buf)[:0], x)
		out := string(b)
		if cap(b) <= maxResultBuf {
			*buf = b
			jsonBufs.Put(buf)
		}
		if err == nil {
			return out
		}
		return pyval.StrOf(x)
	}
	return pyval.StrOf(v)
}

// jsonBufs are ResultString's JSON buffers, reused between calls.
var jsonBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxResultBuf bounds the JSON buffers kept in jsonBufs.
const maxResultBuf = 1 << 20

// State returns the public attributes of every instance, by class.
func (s *Session) State() map[string]*pyval.Dict {
	out := make(map[string]*pyval.Dict, len(s.instances))
	for cl, inst := range s.instances {
		out[cl] = inst.State()
	}
	return out
}
