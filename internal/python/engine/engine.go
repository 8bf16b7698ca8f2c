// Package engine executes call strings against simulated backends exactly
// as upstream's execute_multi_turn_func_call (bfcl_eval/eval_checker/
// multi_turn_eval/multi_turn_utils.py) does: it rewrites method names to
// instance-qualified names (inside string arguments too), refuses the
// blocked names, evaluates the expression with Python semantics, and turns
// each outcome into upstream's result string. Calls reach a backend only
// through the generated typed stubs.
package engine

import (
	"fmt"
	"regexp"
	"strings"

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
	names     map[string]string       // instance variable name -> class
	owner     map[string]string       // public method name -> instance variable name
}

var nameSanitizer = regexp.MustCompile(`[-./:]`)

// InstanceName is upstream's variable name of a backend instance:
// "<model>_<entry id>_<class>_instance" with "-", ".", "/" and ":" turned
// into "_". It is observable: the method-name rewriting also applies inside
// string arguments.
func InstanceName(modelName, entryID, class string) string {
	return nameSanitizer.ReplaceAllString(modelName+"_"+entryID+"_"+class+"_instance", "_")
}

// New returns the session of cfg; its instances are created by the first
// Execute, or by Init.
func New(env *sim.Env, cfg Config) *Session {
	return &Session{
		cfg:       cfg,
		env:       env,
		instances: map[string]sim.Instance{},
		names:     map[string]string{},
		owner:     map[string]string{},
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
	reg := sim.Classes()
	for _, cl := range cfg.Involved {
		info, ok := reg[cl]
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
		s.names[name] = cl
		for _, m := range info.Methods {
			s.owner[m.Name] = name
		}
	}
	return nil
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
	rewritten := rewriteCalls(call, s.owner)
	head := rewritten
	if i := strings.IndexByte(head, '('); i >= 0 {
		head = head[:i]
	}
	if strings.Contains(head, ".") {
		head = strings.Split(head, ".")[1]
	}
	if blocked[head] {
		return ErrorPrefix + "Function call " + head + " is not allowed."
	}
	expr, err := pyexpr.Parse(rewritten)
	if err != nil {
		return ErrorPrefix + err.Error()
	}
	v, err := pyexpr.Eval(expr, evalEnv{s})
	if err != nil {
		return ErrorPrefix + err.Error()
	}
	if err := checkIntDigits(v); err != nil {
		return ErrorPrefix + err.Error()
	}
	return ResultString(v)
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
		if js, err := pyval.JSONDumps(x); err == nil {
			return js
		}
		return pyval.StrOf(x)
	}
	return pyval.StrOf(v)
}

// State returns the public attributes of every instance, by class.
func (s *Session) State() map[string]*pyval.Dict {
	out := make(map[string]*pyval.Dict, len(s.instances))
	for cl, inst := range s.instances {
		out[cl] = inst.State()
	}
	return out
}
