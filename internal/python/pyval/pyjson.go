package pyval

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file implements "pyjson v1", the typed JSON encoding of Python
// values used by the reference traces (see
// shared/reference/multi_turn_traces/README.md, "Typed JSON encoding"):
//
//	None/bool/str      null/true/false/"..."
//	int                integer; {"$int": "<digits>"} when abs(v) >= 2**53
//	float              {"$float": repr(v)}
//	list               [...]
//	tuple              {"$tuple": [...]}
//	set                {"$set": [...]} sorted by encoded JSON text
//	dict (str keys, none starting with "$")  {...} in insertion order
//	other dict         {"$dict": [[k, v], ...]}
//	Ellipsis           {"$ellipsis": true}
//	Object             its PyJSON()
//
// MarshalPyJSON writes the compact form of the trace files: separators ","
// and ":", non-ASCII characters unescaped, no HTML escaping (what Python's
// json.dumps(..., separators=(",", ":"), ensure_ascii=False) writes).

// Field is one member of an OrderedObject.
type Field struct {
	Key   string
	Value any
}

// OrderedObject is a JSON object that keeps its member order when
// marshalled. Values may be any JSON-marshalable Go value, including pyval
// Values (encoded with the pyjson rules) and nested OrderedObjects.
type OrderedObject []Field

// MarshalJSON writes the object compactly, in order.
func (o OrderedObject) MarshalJSON() ([]byte, error) { return appendAnyJSON(nil, o) }

// AppendAny appends the compact encoding of a Go value built from nil,
// bool, strings, numbers, []any, []string, map[string]any, OrderedObject,
// json.RawMessage and pyval Values, as OrderedObject.MarshalJSON writes
// it: no HTML escaping, strings as json.dumps(ensure_ascii=False) writes
// them, RawMessages compacted in place. It is json.Marshal of such a value
// without encoding/json's validation and re-compaction of every nested
// MarshalJSON result.
func AppendAny(b []byte, v any) ([]byte, error) { return appendAnyJSON(b, v) }

const maxExactInt = 1 << 53

// EncodePyJSON returns the pyjson v1 encoding of v as a JSON-marshalable Go
// value built from nil, bool, string, int64, []any and OrderedObject (and
// whatever Objects return from PyJSON). json.Marshal of the result keeps
// member order; use MarshalPyJSON for the exact bytes of the trace files.
func EncodePyJSON(v Value) any {
	switch x := v.(type) {
	case NoneType:
		return nil
	case Bool:
		return bool(x)
	case Str:
		return string(x)
	case Int:
		if x >= maxExactInt || x <= -maxExactInt {
			return OrderedObject{{"$int", strconv.FormatInt(int64(x), 10)}}
		}
		return int64(x)
	case BigInt:
		return OrderedObject{{"$int", x.V.String()}}
	case Float:
		return OrderedObject{{"$float", FloatRepr(float64(x))}}
	case *List:
		out := make([]any, len(x.Items))
		for i, e := range x.Items {
			out[i] = EncodePyJSON(e)
		}
		return out
	case Tuple:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = EncodePyJSON(e)
		}
		return OrderedObject{{"$tuple", out}}
	case *Set:
		type enc struct {
			text string
			v    any
		}
		items := make([]enc, 0, x.Len())
		for i := range x.d.ents {
			e := EncodePyJSON(x.d.ents[i].key)
			b, _ := appendAnyJSON(nil, e)
			items = append(items, enc{string(b), e})
		}
		sort.Slice(items, func(i, j int) bool { return items[i].text < items[j].text })
		out := make([]any, len(items))
		for i := range items {
			out[i] = items[i].v
		}
		return OrderedObject{{"$set", out}}
	case *Dict:
		if plainKeys(x) {
			out := make(OrderedObject, len(x.ents))
			for i := range x.ents {
				out[i] = Field{string(x.ents[i].key.(Str)), EncodePyJSON(x.ents[i].val)}
			}
			return out
		}
		pairs := make([]any, len(x.ents))
		for i := range x.ents {
			pairs[i] = []any{EncodePyJSON(x.ents[i].key), EncodePyJSON(x.ents[i].val)}
		}
		return OrderedObject{{"$dict", pairs}}
	case EllipsisType:
		return OrderedObject{{"$ellipsis", true}}
	case Object:
		return x.PyJSON()
	}
	return nil
}

func plainKeys(d *Dict) bool {
	for i := range d.ents {
		s, ok := d.ents[i].key.(Str)
		if !ok || strings.HasPrefix(string(s), "$") {
			return false
		}
	}
	return true
}

// PyJSONAppender is implemented by Objects that write the compact bytes of
// their PyJSON() themselves (without building the Go value first); the
// bytes must be those AppendAny(b, v.PyJSON()) writes.
type PyJSONAppender interface {
	Object
	AppendPyJSON(b []byte) ([]byte, error)
}

// MarshalPyJSON returns the compact pyjson v1 bytes of v.
func MarshalPyJSON(v Value) ([]byte, error) {
	sb := getScratch()
	b, err := AppendPyJSON(sb.b[:0], v)
	if err != nil {
		putScratch(sb, nil)
		return nil, err
	}
	out := make([]byte, len(b))
	copy(out, b)
	putScratch(sb, b)
	return out, nil
}

// AppendPyJSON appends the compact pyjson v1 bytes of v to b.
func AppendPyJSON(b []byte, v Value) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case NoneType:
		return append(b, "null"...), nil
	case Bool:
		return strconv.AppendBool(b, bool(x)), nil
	case Str:
		return AppendJSONStringUnicode(b, string(x)), nil
	case Int:
		if x >= maxExactInt || x <= -maxExactInt {
			b = append(b, `{"$int":"`...)
			b = strconv.AppendInt(b, int64(x), 10)
			return append(b, `"}`...), nil
		}
		return strconv.AppendInt(b, int64(x), 10), nil
	case BigInt:
		b = append(b, `{"$int":"`...)
		b = x.V.Append(b, 10)
		return append(b, `"}`...), nil
	case Float:
		b = append(b, `{"$float":"`...)
		b = AppendFloatRepr(b, float64(x))
		return append(b, `"}`...), nil
	case *List:
		b = append(b, '[')
		for i, e := range x.Items {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = AppendPyJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case Tuple:
		b = append(b, `{"$tuple":[`...)
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = AppendPyJSON(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, "]}"...), nil
	case *Dict:
		if plainKeys(x) {
			b = append(b, '{')
			for i := range x.ents {
				if i > 0 {
					b = append(b, ',')
				}
				b = AppendJSONStringUnicode(b, string(x.ents[i].key.(Str)))
				b = append(b, ':')
				if b, err = AppendPyJSON(b, x.ents[i].val); err != nil {
					return nil, err
				}
			}
			return append(b, '}'), nil
		}
		b = append(b, `{"$dict":[`...)
		for i := range x.ents {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			if b, err = AppendPyJSON(b, x.ents[i].key); err != nil {
				return nil, err
			}
			b = append(b, ',')
			if b, err = AppendPyJSON(b, x.ents[i].val); err != nil {
				return nil, err
			}
			b = append(b, ']')
		}
		return append(b, "]}"...), nil
	case PyJSONAppender:
		return x.AppendPyJSON(b)
	case *Set:
		return appendPyJSONSet(b, x)
	case EllipsisType, Object:
		return appendAnyJSON(b, EncodePyJSON(v))
	case nil:
		return nil, NewTypeError("pyjson: nil Value (argument not supplied) cannot be encoded")
	}
	return nil, NewTypeError("pyjson: cannot encode value of type " + v.TypeName())
}

// appendPyJSONSet writes {"$set": [...]} with the members sorted by their
// encoded text, as EncodePyJSON orders them.
func appendPyJSONSet(b []byte, x *Set) ([]byte, error) {
	b = append(b, `{"$set":[`...)
	if x.Len() > 0 {
		sb := getScratch()
		text := sb.b[:0]
		var spanBuf [16][2]int
		spans := spanBuf[:0]
		for i := range x.d.ents {
			start := len(text)
			var err error
			if text, err = AppendPyJSON(text, x.d.ents[i].key); err != nil {
				putScratch(sb, nil)
				return nil, err
			}
			spans = append(spans, [2]int{start, len(text)})
		}
		slices.SortFunc(spans, func(p, q [2]int) int { return bytes.Compare(text[p[0]:p[1]], text[q[0]:q[1]]) })
		for i, sp := range spans {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, text[sp[0]:sp[1]]...)
		}
		putScratch(sb, text)
	}
	return append(b, "]}"...), nil
}

// CompactJSON is JSON text known to be valid and compact (written by this
// package with JSONOptions.Compact): AppendAny writes it as it is, where a
// json.RawMessage is compacted again.
type CompactJSON []byte

// appendJSONArray writes items as a compact JSON array, each with elem.
func appendJSONArray[T any](b []byte, items []T, elem func([]byte, T) ([]byte, error)) ([]byte, error) {
	b = append(b, '[')
	for i, e := range items {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = elem(b, e); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendObjectMember writes member i of an object: a ',' before all but
// the first, then the key, ':' and the value.
func appendObjectMember(b []byte, i int, key string, v any) ([]byte, error) {
	if i > 0 {
		b = append(b, ',')
	}
	b = AppendJSONStringUnicode(b, key)
	b = append(b, ':')
	return appendAnyJSON(b, v)
}

// appendAnyJSON writes a Go value compactly without HTML escaping; pyval
// Values inside are written with the pyjson rules.
func appendAnyJSON(b []byte, v any) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, bool(x)), nil
	case string:
		return AppendJSONStringUnicode(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return AppendJSONFloat(b, x), nil
		}
		return AppendFloatRepr(b, x), nil
	case *big.Int:
		return x.Append(b, 10), nil
	case OrderedObject:
		b = append(b, '{')
		for i, f := range x {
			if b, err = appendObjectMember(b, i, f.Key, f.Value); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []any:
		return appendJSONArray(b, x, appendAnyJSON)
	case map[string]any:
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(x)) {
			if b, err = appendObjectMember(b, i, k, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case []string:
		return appendJSONArray(b, x, func(b []byte, s string) ([]byte, error) { return AppendJSONStringUnicode(b, s), nil })
	case CompactJSON:
		return append(b, x...), nil
	case json.RawMessage:
		// Compacted as it is: no HTML escaping (json.Marshal would add it).
		buf := bytes.NewBuffer(b)
		if err := json.Compact(buf, x); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	case Value:
		return AppendPyJSON(b, x)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, raw...), nil
}

// Instance is a decoded pyjson object that has no Go type of its own:
// "$Directory", "$File", "$decimal", "$mpf", "$datetime", "$date" and
// "$object" values. Tag is the "$..." member name; Payload is the decoded
// value of that member (a *Dict of attributes for $Directory/$File, a Str
// for $decimal/$mpf/$datetime/$date, a Str class path for $object); Extra
// holds the remaining members in order ("repr" of $mpf, "attrs" of
// $object), decoded.
//
// Equality: an Instance equals another Instance with the same Tag whose
// Payload and Extra are Equal (dicts ignore order), and any other Object
// whose PyJSON decodes to such an Instance. This lets states decoded from
// the traces be compared with live objects of the simulated backends.
// (The checker's Directory equality ignores "parent"; the Directory Object
// of the file-system backend implements that itself.)
type Instance struct {
	Tag     string
	Payload Value
	Extra   *Dict
}

// TypeName is the Python class name: Directory, File, Decimal, mpf,
// datetime, date, or the last component of an $object class path.
func (in *Instance) TypeName() string {
	switch in.Tag {
	case "$decimal":
		return "Decimal"
	case "$mpf":
		return "mpf"
	case "$object":
		if s, ok := in.Payload.(Str); ok {
			p := string(s)
			if i := strings.LastIndexByte(p, '.'); i >= 0 {
				return p[i+1:]
			}
			return p
		}
	}
	return strings.TrimPrefix(in.Tag, "$")
}

// PyRepr approximates repr(): Decimal('x'), the recorded repr of an mpf,
// datetime/date constructor-like text, or <Class object>.
func (in *Instance) PyRepr() string {
	s, isStr := in.Payload.(Str)
	switch in.Tag {
	case "$decimal":
		return "Decimal(" + Repr(s) + ")"
	case "$mpf":
		if in.Extra != nil {
			if r, ok := in.Extra.GetStr("repr"); ok {
				return StrOf(r)
			}
		}
		return "mpf(" + Repr(s) + ")"
	}
	if isStr && (in.Tag == "$datetime" || in.Tag == "$date") {
		return in.TypeName() + ".fromisoformat(" + Repr(s) + ")"
	}
	return "<" + in.TypeName() + " object>"
}

// PyStr is str(): the recorded text of Decimal/mpf, isoformat with a space
// separator for datetime, isoformat for date, else PyRepr.
func (in *Instance) PyStr() string {
	if s, ok := in.Payload.(Str); ok {
		switch in.Tag {
		case "$decimal", "$mpf", "$date":
			return string(s)
		case "$datetime":
			return strings.Replace(string(s), "T", " ", 1)
		}
	}
	return in.PyRepr()
}

// PyEqual: see the type comment.
func (in *Instance) PyEqual(other Value) bool {
	var o *Instance
	switch x := other.(type) {
	case *Instance:
		o = x
	case Object:
		b, err := appendAnyJSON(nil, x.PyJSON())
		if err != nil {
			return false
		}
		dv, err := DecodePyJSON(b)
		if err != nil {
			return false
		}
		var ok bool
		if o, ok = dv.(*Instance); !ok {
			return false
		}
	default:
		return false
	}
	if in.Tag != o.Tag || !Equal(in.Payload, o.Payload) {
		return false
	}
	if in.Extra.Len() != o.Extra.Len() {
		return false
	}
	return in.Extra.Len() == 0 || Equal(in.Extra, o.Extra)
}

// PyJSON re-encodes the instance as it was read.
func (in *Instance) PyJSON() any {
	obj := OrderedObject{{in.Tag, EncodePyJSON(in.Payload)}}
	if in.Extra != nil {
		for i := range in.Extra.ents {
			obj = append(obj, Field{string(in.Extra.ents[i].key.(Str)), EncodePyJSON(in.Extra.ents[i].val)})
		}
	}
	return obj
}

// PyDeepCopy copies the payload.
func (in *Instance) PyDeepCopy() Value {
	n := &Instance{Tag: in.Tag, Payload: DeepCopy(in.Payload)}
	if in.Extra != nil {
		n.Extra = DeepCopy(in.Extra).(*Dict)
	}
	return n
}

// DecodePyJSON parses pyjson v1 bytes into Values, keeping dict order.
// Tagged objects decode to Int/BigInt ($int), Float ($float), Tuple,
// *Set, *Dict ($dict), Ellipsis, and *Instance for the object tags.
func DecodePyJSON(data []byte) (Value, error) {
	v, err := FromJSON(data)
	if err != nil {
		return nil, err
	}
	return fromPlain(v)
}

// FromPyJSONValue converts a value already read with FromJSON (plain JSON
// structure) by interpreting its pyjson tags.
func FromPyJSONValue(v Value) (Value, error) { return fromPlain(v) }

func pyjsonErr(msg string) error {
	return NewValueError("pyjson: " + msg)
}

func fromPlain(v Value) (Value, error) {
	switch x := v.(type) {
	case *List:
		for i, e := range x.Items {
			d, err := fromPlain(e)
			if err != nil {
				return nil, err
			}
			x.Items[i] = d
		}
		return x, nil
	case *Dict:
		if x.Len() == 0 {
			return x, nil
		}
		k0, v0 := x.At(0)
		tag := string(k0.(Str))
		if !strings.HasPrefix(tag, "$") {
			for i := range x.ents {
				d, err := fromPlain(x.ents[i].val)
				if err != nil {
					return nil, err
				}
				x.ents[i].val = d
			}
			return x, nil
		}
		return fromTagged(tag, v0, x)
	}
	return v, nil
}

func fromTagged(tag string, payload Value, whole *Dict) (Value, error) {
	switch tag {
	case "$int":
		s, ok := payload.(Str)
		if !ok {
			return nil, pyjsonErr("$int needs a string")
		}
		n, err := strconv.ParseInt(string(s), 10, 64)
		if err == nil {
			return Int(n), nil
		}
		bi, ok := new(big.Int).SetString(string(s), 10)
		if !ok {
			return nil, pyjsonErr("bad $int " + strconv.Quote(string(s)))
		}
		return BigInt{bi}, nil
	case "$float":
		s, ok := payload.(Str)
		if !ok {
			return nil, pyjsonErr("$float needs a string")
		}
		f, err := ParseFloatRepr(string(s))
		if err != nil {
			return nil, pyjsonErr("bad $float " + strconv.Quote(string(s)))
		}
		return Float(f), nil
	case "$tuple", "$set":
		l, ok := payload.(*List)
		if !ok {
			return nil, pyjsonErr(tag + " needs an array")
		}
		items := make([]Value, len(l.Items))
		for i, e := range l.Items {
			d, err := fromPlain(e)
			if err != nil {
				return nil, err
			}
			items[i] = d
		}
		if tag == "$tuple" {
			return Tuple(items), nil
		}
		return NewSet(items...), nil
	case "$dict":
		l, ok := payload.(*List)
		if !ok {
			return nil, pyjsonErr("$dict needs an array")
		}
		d := NewDictCap(len(l.Items))
		for _, e := range l.Items {
			pair, ok := e.(*List)
			if !ok || len(pair.Items) != 2 {
				return nil, pyjsonErr("$dict items must be [key, value] pairs")
			}
			k, err := fromPlain(pair.Items[0])
			if err != nil {
				return nil, err
			}
			val, err := fromPlain(pair.Items[1])
			if err != nil {
				return nil, err
			}
			d.Set(k, val)
		}
		return d, nil
	case "$ellipsis":
		return Ellipsis, nil
	}
	p, err := fromPlain(payload)
	if err != nil {
		return nil, err
	}
	in := &Instance{Tag: tag, Payload: p}
	if whole.Len() > 1 {
		in.Extra = NewDictCap(whole.Len() - 1)
		for i := 1; i < len(whole.ents); i++ {
			ev, err := fromPlain(whole.ents[i].val)
			if err != nil {
				return nil, err
			}
			in.Extra.Set(whole.ents[i].key, ev)
		}
	}
	return in, nil
}

// ParseFloatRepr parses the text of repr(float) (also "nan", "inf",
// "-inf"), as float() does for such strings.
func ParseFloatRepr(s string) (float64, error) {
	switch s {
	case "nan":
		return math.NaN(), nil
	case "inf":
		return math.Inf(1), nil
	case "-inf":
		return math.Inf(-1), nil
	}
	if !utf8.ValidString(s) {
		return 0, strconv.ErrSyntax
	}
	return strconv.ParseFloat(s, 64)
}
