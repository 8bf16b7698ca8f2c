package sim

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// Small pieces of Python semantics that the ported backends rely on, each
// raising the exception CPython 3.12 would raise, and the builders of the
// result dicts the backends return ({"result": ...}, {"error": msg}, ...).

// dictOf builds a result dict from alternating string keys and values.
func dictOf(kv ...any) *pyval.Dict {
	var buf [32]pyval.KV
	items := buf[:0]
	for i := 0; i+1 < len(kv); i += 2 {
		v, _ := kv[i+1].(pyval.Value) // a nil value stays nil, as d[key] = v stores it
		items = append(items, pyval.KV{Key: pyval.StrKey(kv[i].(string)), Value: v})
	}
	return pyval.DictFromItems(items)
}

// attr is one attribute a backend's _load_scenario assigns with
// scenario.get(name, def): its Python name, the field holding it and the
// default.
type attr struct {
	name string
	v    *pyval.Value
	def  pyval.Value
}

// loadAttrs is _load_scenario's `self.<name> = scenario.get(name, def)`
// for each attribute, in order.
func loadAttrs(config *pyval.Dict, attrs []attr) {
	for _, a := range attrs {
		*a.v = configGet(config, a.name, a.def)
	}
}

// publicAttrs is vars(self) without private names for a class whose
// __init__ only annotates its attributes: empty until _load_scenario has
// assigned them (loaded false), else the name, value pairs of kv in
// assignment order.
func publicAttrs(loaded bool, kv ...any) *pyval.Dict {
	if !loaded {
		return pyval.NewDict()
	}
	return dictOf(kv...)
}

// attrState is publicAttrs of attributes assigned by loadAttrs.
func attrState(loaded bool, attrs []attr) *pyval.Dict {
	if !loaded {
		return pyval.NewDict()
	}
	var buf [32]pyval.KV
	items := buf[:0]
	for _, a := range attrs {
		items = append(items, pyval.KV{Key: pyval.StrKey(a.name), Value: *a.v}) // a nil value stays nil, as in dictOf
	}
	return pyval.DictFromItems(items)
}

// increment is `self.<counter> += 1`.
func increment(counter *pyval.Value) error {
	next, err := pyval.Add(*counter, pyval.Int(1))
	if err != nil {
		return err
	}
	*counter = next
	return nil
}

// configGet is scenario.get(key, def).
func configGet(config *pyval.Dict, key string, def pyval.Value) pyval.Value {
	if v, ok := config.GetStr(key); ok {
		return v
	}
	return def
}

// errorUnlessIn is `if key not in container: return {"error": msg}`: that
// result when key is not in container, else nil (and Python's exception
// when the test raises).
func errorUnlessIn(container, key pyval.Value, msg string) (pyval.Value, error) {
	in, err := pyval.Contains(container, key)
	if err != nil || in {
		return nil, err
	}
	return errorDict(msg), nil
}

// oneKey is the one-key dict {key: v}.
func oneKey(key string, v pyval.Value) *pyval.Dict {
	d := pyval.NewDictCap(1)
	d.SetStr(key, v)
	return d
}

// errorDict is {"error": msg}, the error result of most backend methods.
func errorDict(msg string) *pyval.Dict { return oneKey("error", pyval.Str(msg)) }

// scenarioValue is scenario.get(key, DEFAULT_STATE_COPY[defKey]): def is
// the class's DEFAULT_STATE as built once (shared, never modified), and
// only a default actually used is deep-copied. The values of a
// DEFAULT_STATE share no containers, so copying them one by one is
// deepcopy(DEFAULT_STATE) read key by key.
func scenarioValue(config, def *pyval.Dict, key, defKey string) pyval.Value {
	if config != nil {
		if v, ok := config.GetStr(key); ok {
			return v
		}
	}
	v, ok := def.GetStr(defKey)
	if !ok {
		panic("sim: default state has no key " + defKey)
	}
	return pyval.DeepCopy(v)
}

// longContextValue is the long-context module value name of this entry evaluation.
func longContextValue(env *Env, class, name string) pyval.Value {
	if env == nil || env.LongContext() == nil {
		panic(class + ": long-context data requested but the Env has no long_context data")
	}
	return env.LC.Get(name)
}

// strIsDigit is Python's str.isdigit(): non-empty and every character a
// decimal digit (category Nd) or another Numeric_Type=Digit character
// (superscripts, circled digits, ...).
func strIsDigit(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsDigit(r) && !isOtherDigit(r) {
			return false
		}
	}
	return true
}

// isOtherDigit reports the characters with Numeric_Type=Digit that are
// not decimal digits (Unicode 15.0, as CPython 3.12's str.isdigit sees them:
// [c for c in map(chr, range(0x110000)) if c.isdigit() and not c.isdecimal()]).
func isOtherDigit(r rune) bool {
	ranges := [...][2]rune{
		{0xB2, 0xB3}, {0xB9, 0xB9}, {0x1369, 0x1371}, {0x19DA, 0x19DA}, {0x2070, 0x2070},
		{0x2074, 0x2079}, {0x2080, 0x2089}, {0x2460, 0x2468}, {0x2474, 0x247C}, {0x2488, 0x2490},
		{0x24EA, 0x24EA}, {0x24F5, 0x24FD}, {0x24FF, 0x24FF}, {0x2776, 0x277E}, {0x2780, 0x2788},
		{0x278A, 0x2792}, {0x10A40, 0x10A43}, {0x10E60, 0x10E68}, {0x11052, 0x1105A}, {0x1F100, 0x1F10A},
	}
	for _, rg := range ranges {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// copyValue is v.copy() (a shallow copy).
func copyValue(v pyval.Value) (pyval.Value, error) {
	switch x := v.(type) {
	case *pyval.Dict:
		return x.Copy(), nil
	case *pyval.List:
		return pyval.NewList(append([]pyval.Value(nil), x.Items...)...), nil
	case *pyval.Set:
		return x.Copy(), nil
	}
	return nil, pyval.NoAttribute(v, "copy")
}

// augAssignItem is container[key] <op>= operand (e.g. balance -= amount).
func augAssignItem(container, key pyval.Value, op func(a, b pyval.Value) (pyval.Value, error), operand pyval.Value) error {
	cur, err := pyval.GetItem(container, key)
	if err != nil {
		return err
	}
	nv, err := op(cur, operand)
	if err != nil {
		return err
	}
	return pyval.SetItem(container, key, nv)
}

// listIndex is the index of the first item == x, or -1 (`x in list`,
// list.remove(x)).
func listIndex(items []pyval.Value, x pyval.Value) int {
	for i, it := range items {
		if pyval.Equal(it, x) {
			return i
		}
	}
	return -1
}

// formatFixed is format(v, ".<prec>f") (an f-string "{v:.2f}").
func formatFixed(v pyval.Value, prec int) (string, error) {
	switch v.(type) {
	case pyval.Float, pyval.Int, pyval.Bool, pyval.BigInt:
	default:
		return "", pyval.NewValueError("Unknown format code 'f' for object of type '%s'", v.TypeName())
	}
	fv, err := pyval.ToFloat(v)
	if err != nil {
		return "", err
	}
	f := float64(fv.(pyval.Float))
	switch {
	case math.IsNaN(f):
		return "nan", nil
	case math.IsInf(f, 1):
		return "inf", nil
	case math.IsInf(f, -1):
		return "-inf", nil
	}
	return strconv.FormatFloat(f, 'f', prec, 64), nil
}

// datetimeMin and datetimeMax are datetime.min and datetime.max.
func datetimeMin() time.Time { return time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC) }
func datetimeMax() time.Time { return time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC) }

// strptime is datetime.strptime(v, format) for formats made of %Y %m %d
// %H %M %S and literal text, with CPython's _strptime matching (regular
// expression per directive, case-insensitive, whitespace in the format
// matching any run of whitespace) and error texts.
func strptime(v pyval.Value, format string) (time.Time, error) {
	s, ok := v.(pyval.Str)
	if !ok {
		return time.Time{}, pyval.NewTypeError("strptime() argument 1 must be str, not %s", pyval.ArgTypeName(v))
	}
	re, err := strptimeRegexp(format)
	if err != nil {
		return time.Time{}, err
	}
	data := string(s)
	m := re.FindStringSubmatchIndex(data)
	if m == nil {
		return time.Time{}, pyval.NewValueError("time data %s does not match format %s",
			pyval.Repr(s), pyval.Repr(pyval.Str(format)))
	}
	if m[1] != len(data) {
		return time.Time{}, pyval.NewValueError("unconverted data remains: %s", data[m[1]:])
	}
	field := func(name string) (int, bool) {
		i := re.SubexpIndex(name)
		if i < 0 || m[2*i] < 0 {
			return 0, false
		}
		n := 0
		for _, r := range data[m[2*i]:m[2*i+1]] {
			n = n*10 + digitValue(r)
		}
		return n, true
	}
	year, month, day := 1900, 1, 1
	if y, ok := field("Y"); ok {
		year = y
	}
	if mo, ok := field("m"); ok {
		month = mo
	}
	if d, ok := field("d"); ok {
		day = d
	}
	hour, _ := field("H")
	minute, _ := field("M")
	second, _ := field("S")
	if year < 1 || year > 9999 {
		return time.Time{}, pyval.NewValueError("year %d is out of range", year)
	}
	if day > daysInMonth(year, month) {
		return time.Time{}, pyval.NewValueError("day is out of range for month")
	}
	if second > 59 {
		// _strptime accepts 60 and 61 for leap seconds; datetime() then
		// rejects them.
		return time.Time{}, pyval.NewValueError("second must be in 0..59")
	}
	return time.Date(year, time.Month(month), day, hour, minute, second, 0, time.UTC), nil
}

// strptimeRegexp builds the regular expression _strptime.TimeRE builds for
// format (CPython 3.12, directives %Y %m %d %H %M %S). Go's regexp picks the
// same leftmost-first match as Python's backtracking engine; \d in a Python
// str pattern is any Unicode decimal digit, hence \p{Nd}.
func strptimeRegexp(format string) (*regexp.Regexp, error) {
	if c, ok := strptimeCache.Load(format); ok {
		return c.(*regexp.Regexp), nil
	}
	re, err := buildStrptimeRegexp(format)
	if err != nil {
		return nil, err
	}
	if strptimeCacheCount.Add(1) <= maxStrptimeCache {
		strptimeCache.Store(format, re)
	}
	return re, nil
}

// strptimeCache holds the compiled expressions of the formats met (the
// backends use a handful); a *regexp.Regexp may be shared by goroutines.
var (
	strptimeCache      sync.Map
	strptimeCacheCount atomic.Int64
)

const maxStrptimeCache = 256

// buildStrptimeRegexp is strptimeRegexp without the cache.
func buildStrptimeRegexp(format string) (*regexp.Regexp, error) {
	const d = `\p{Nd}`
	directives := map[byte]string{
		'Y': `(?P<Y>` + d + d + d + d + `)`,
		'm': `(?P<m>1[0-2]|0[1-9]|[1-9])`,
		'd': `(?P<d>3[01]|[12]` + d + `|0[1-9]|[1-9]| [1-9])`,
		'H': `(?P<H>2[0-3]|[0-1]` + d + `|` + d + `)`,
		'M': `(?P<M>[0-5]` + d + `|` + d + `)`,
		'S': `(?P<S>6[0-1]|[0-5]` + d + `|` + d + `)`,
	}
	var b strings.Builder
	b.WriteString(`(?i)^`)
	seen := map[byte]bool{}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '%' && i+1 < len(format) {
			i++
			if format[i] == '%' {
				b.WriteString("%")
				continue
			}
			re, ok := directives[format[i]]
			if !ok {
				return nil, fmt.Errorf("sim: strptime directive %%%c is not supported", format[i])
			}
			if seen[format[i]] {
				return nil, fmt.Errorf("sim: strptime directive %%%c repeated", format[i])
			}
			seen[format[i]] = true
			b.WriteString(re)
			continue
		}
		r, size := utf8.DecodeRuneInString(format[i:])
		if unicode.IsSpace(r) {
			b.WriteString(`[\s\v\p{Z}\x{1c}-\x{1f}\x{85}]+`)
			for i+size < len(format) {
				r2, s2 := utf8.DecodeRuneInString(format[i+size:])
				if !unicode.IsSpace(r2) {
					break
				}
				size += s2
			}
		} else {
			b.WriteString(regexp.QuoteMeta(format[i : i+size]))
		}
		i += size - 1
	}
	return regexp.Compile(b.String())
}

func digitValue(r rune) int {
	if r >= '0' && r <= '9' {
		return int(r - '0')
	}
	// Every block of Unicode decimal digits starts with a zero and is made
	// of runs of ten; the value is the distance to the block start mod 10.
	n := 0
	for z := r; unicode.IsDigit(z - 1); z-- {
		n++
	}
	return n % 10
}

func daysInMonth(year, month int) int {
	return time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// strSplitLines is v.splitlines() for a str v (AttributeError otherwise).
func strSplitLines(v pyval.Value) ([]string, error) {
	s, ok := v.(pyval.Str)
	if !ok {
		return nil, pyval.NoAttribute(v, "splitlines")
	}
	return pyval.SplitLines(string(s)), nil
}

// sortCodePoints sorts strings by code point, as Python's sorted() does
// (UTF-8 byte order is code point order).
func sortCodePoints(lines []string) { sort.Strings(lines) }

// sliceBound is operator.index(v) as a slice bound (huge ints clamped).
func sliceBound(v pyval.Value) (int64, error) {
	switch x := v.(type) {
	case pyval.Int:
		if x == math.MinInt64 {
			return math.MinInt64 + 1, nil
		}
		return int64(x), nil
	case pyval.Bool:
		if x {
			return 1, nil
		}
		return 0, nil
	case pyval.BigInt:
		if x.V.Sign() < 0 {
			return math.MinInt64 + 1, nil
		}
		return math.MaxInt64, nil
	}
	return 0, pyval.NewTypeError("slice indices must be integers or None or have an __index__ method")
}
