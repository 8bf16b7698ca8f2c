package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/check/verdict"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
	"github.com/bfcl-go/bfcl/internal/store/jsonscan"
)

// pyFloatRepr is CPython's repr(float) / str(float) (pyval.FloatRepr).
func pyFloatRepr(f float64) string { return pyval.FloatRepr(f) }

// pyRound is CPython's round(x, ndigits) for a float: the correctly
// rounded decimal (ties to even on the exact binary value), read back.
func pyRound(x float64, ndigits int) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', ndigits, 64), 64)
	if err != nil {
		return x
	}
	return r
}

// npRound is numpy's round(x, decimals) for a float64 scalar
// (np.float64.__round__): rint(x * 10**d) / 10**d, not correctly rounded.
func npRound(x float64, decimals int) float64 {
	f := math.Pow(10, float64(decimals))
	y := float64(x * f)
	return float64(math.RoundToEven(y) / f)
}

// pyPercent is upstream's "{:.2f}%".format(x * 100).
func pyPercent(x float64) string {
	y := float64(x * 100)
	return strconv.FormatFloat(y, 'f', 2, 64) + "%"
}

// PyJSONMarshaler lets a value supply its own Python json.dumps text
// (written verbatim into score files).
type PyJSONMarshaler interface {
	MarshalPyJSON() ([]byte, error)
}

// appendPyJSON appends v as Python's json.dumps(v, ensure_ascii=False)
// writes it: separators ", " and ": ", no HTML escaping, non-ASCII kept,
// floats in repr form, NaN/Infinity allowed. verdict.Fields is an ordered
// object; maps are written with sorted keys; json.RawMessage and other
// json.Marshaler values keep their key order and are re-spaced; any other
// value goes through encoding/json first.
func appendPyJSON(buf []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...), nil
	case pyval.Value:
		return appendPyval(buf, x)
	case PyJSONMarshaler:
		b, err := x.MarshalPyJSON()
		if err != nil {
			return nil, err
		}
		return append(buf, b...), nil
	case bool:
		if x {
			return append(buf, "true"...), nil
		}
		return append(buf, "false"...), nil
	case string:
		return appendPyString(buf, x), nil
	case float64:
		return appendPyFloat(buf, x), nil
	case float32:
		return appendPyFloat(buf, float64(x)), nil
	case int:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(buf, x, 10), nil
	case int32:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case uint64:
		return strconv.AppendUint(buf, x, 10), nil
	case json.Number:
		return appendJSONNumber(buf, string(x)), nil
	case verdict.Fields:
		return appendFields(buf, x)
	case verdict.Field:
		return appendFields(buf, verdict.Fields{x})
	case []string:
		buf = append(buf, '[')
		for i, s := range x {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendPyString(buf, s)
		}
		return append(buf, ']'), nil
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			var err error
			if buf, err = appendPyJSON(buf, e); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendPyString(buf, k)
			buf = append(buf, ": "...)
			var err error
			if buf, err = appendPyJSON(buf, x[k]); err != nil {
				return nil, err
			}
		}
		return append(buf, '}'), nil
	case json.Marshaler:
		raw, err := x.MarshalJSON()
		if err != nil {
			return nil, err
		}
		return appendRespaced(buf, raw)
	}
	return appendReflect(buf, v)
}

func appendReflect(buf []byte, v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return append(buf, "null"...), nil
		}
		return appendPyJSON(buf, rv.Elem().Interface())
	case reflect.Bool:
		return appendPyJSON(buf, rv.Bool())
	case reflect.String:
		return appendPyString(buf, rv.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.AppendInt(buf, rv.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.AppendUint(buf, rv.Uint(), 10), nil
	case reflect.Float32, reflect.Float64:
		return appendPyFloat(buf, rv.Float()), nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return append(buf, "null"...), nil
		}
		buf = append(buf, '[')
		for i := 0; i < rv.Len(); i++ {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			var err error
			if buf, err = appendPyJSON(buf, rv.Index(i).Interface()); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	case reflect.Struct:
		buf = append(buf, '{')
		first := true
		return appendStructFields(buf, rv, &first)
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			if rv.IsNil() {
				return append(buf, "null"...), nil
			}
			m := make(map[string]any, rv.Len())
			it := rv.MapRange()
			for it.Next() {
				m[it.Key().String()] = it.Value().Interface()
			}
			return appendPyJSON(buf, m)
		}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("score file: cannot serialise %T: %w", v, err)
	}
	return appendRespaced(buf, raw)
}

// appendStructFields writes the exported fields of a struct as encoding/json
// would choose them (json tags, omitempty, "-", embedded structs inlined), but
// with Python formatting of the values, and closes the object.
func appendStructFields(buf []byte, rv reflect.Value, first *bool) ([]byte, error) {
	buf, err := structFields(buf, rv, first)
	if err != nil {
		return nil, err
	}
	return append(buf, '}'), nil
}

func structFields(buf []byte, rv reflect.Value, first *bool) ([]byte, error) {
	t := rv.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := rv.Field(i)
		if sf.Anonymous && name == "" {
			ft := fv
			if ft.Kind() == reflect.Pointer {
				if ft.IsNil() {
					continue
				}
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				var err error
				if buf, err = structFields(buf, ft, first); err != nil {
					return nil, err
				}
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		if strings.Contains(","+opts+",", ",omitempty,") && isEmptyValue(fv) {
			continue
		}
		if !*first {
			buf = append(buf, ", "...)
		}
		*first = false
		buf = appendPyString(buf, name)
		buf = append(buf, ": "...)
		var err error
		if buf, err = appendPyJSON(buf, fv.Interface()); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	}
	return v.IsZero()
}

func appendFields(buf []byte, fs verdict.Fields) ([]byte, error) {
	buf = append(buf, '{')
	for i, f := range fs {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = appendPyString(buf, f.Key)
		buf = append(buf, ": "...)
		var err error
		if buf, err = appendPyJSON(buf, f.Value); err != nil {
			return nil, fmt.Errorf("field %q: %w", f.Key, err)
		}
	}
	return append(buf, '}'), nil
}

// appendPyFloat is json.dumps of a float (pyval.AppendJSONFloat).
func appendPyFloat(buf []byte, f float64) []byte { return pyval.AppendJSONFloat(buf, f) }

// appendJSONNumber writes a JSON number literal as Python re-dumps it after
// json.loads: integer literals unchanged (but -0, which is 0), others as
// float repr.
func appendJSONNumber(buf []byte, lit string) []byte {
	if !strings.ContainsAny(lit, ".eE") {
		if lit == "-0" { // int("-0") is 0
			return append(buf, '0')
		}
		return append(buf, lit...)
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return append(buf, lit...)
	}
	return appendPyFloat(buf, f)
}

// appendPyString is json.dumps(s, ensure_ascii=False) for one str
// (pyval.AppendJSONStringUnicode).
func appendPyString(buf []byte, s string) []byte { return pyval.AppendJSONStringUnicode(buf, s) }

// appendRespaced re-emits a JSON text with Python's separators, keeping
// the key order and re-formatting non-integer numbers as Python floats.
// A valid text is re-spaced byte by byte as it is validated (respace);
// anything else goes through the decoder, which reports the error (or, as
// before, reads the first value of several).
func appendRespaced(buf []byte, raw []byte) ([]byte, error) {
	n := len(buf)
	r := respacer{b: raw, buf: buf}
	if r.text() {
		return r.buf, nil
	}
	return appendRespacedDecoder(buf[:n], raw)
}

// maxJSONDepth is encoding/json's nesting limit: a text with deeper
// arrays and objects is not valid to json.Valid.
const maxJSONDepth = 10000

// respacer validates a JSON text as json.Valid does and writes it as
// json.dumps(ensure_ascii=False) would re-write it: whitespace dropped,
// ", " and ": " as separators, strings unchanged when they hold no escape
// and are valid UTF-8 (else decoded and written by appendPyString),
// numbers through appendJSONNumber, literals as they are.
type respacer struct {
	b, buf []byte
	i      int
}

// text reads one value and nothing else but whitespace.
func (r *respacer) text() bool {
	r.ws()
	if !r.value(0) {
		return false
	}
	r.ws()
	return r.i == len(r.b)
}

func (r *respacer) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// value reads the value at r.i, inside depth arrays and objects.
func (r *respacer) value(depth int) bool {
	if r.i >= len(r.b) {
		return false
	}
	switch c := r.b[r.i]; {
	case c == '{' || c == '[':
		if depth+1 > maxJSONDepth {
			return false
		}
		closing := byte(']')
		if c == '{' {
			closing = '}'
		}
		r.buf = append(r.buf, c)
		r.i++
		r.ws()
		if r.i < len(r.b) && r.b[r.i] == closing {
			r.buf = append(r.buf, closing)
			r.i++
			return true
		}
		for {
			if c == '{' {
				if r.i >= len(r.b) || r.b[r.i] != '"' || !r.str() {
					return false
				}
				r.ws()
				if r.i >= len(r.b) || r.b[r.i] != ':' {
					return false
				}
				r.buf = append(r.buf, ": "...)
				r.i++
				r.ws()
			}
			if !r.value(depth + 1) {
				return false
			}
			r.ws()
			if r.i >= len(r.b) {
				return false
			}
			switch r.b[r.i] {
			case ',':
				r.buf = append(r.buf, ", "...)
				r.i++
				r.ws()
			case closing:
				r.buf = append(r.buf, closing)
				r.i++
				return true
			default:
				return false
			}
		}
	case c == '"':
		return r.str()
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return r.number()
	}
	return false
}

func (r *respacer) literal(lit string) bool {
	if !bytes.HasPrefix(r.b[r.i:], []byte(lit)) {
		return false
	}
	r.buf = append(r.buf, lit...)
	r.i += len(lit)
	return true
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (r *respacer) number() bool {
	end, ok := jsonscan.Number(r.b, r.i)
	if !ok {
		return false
	}
	r.buf = appendJSONNumber(r.buf, string(r.b[r.i:end]))
	r.i = end
	return true
}

// str reads a string literal: no control character, valid escapes. A
// literal whose escapes are all ones json.dumps writes the same way
// (\" \\ \b \f \n \r \t) and whose bytes are valid UTF-8 is copied as
// it is; any other is decoded and written again.
func (r *respacer) str() bool {
	end, rewrite, nonASCII, ok := jsonscan.String(r.b, r.i)
	if !ok {
		return false
	}
	lit := r.b[r.i:end]
	r.i = end
	if !rewrite && (!nonASCII || utf8.Valid(lit)) {
		r.buf = append(r.buf, lit...)
		return true
	}
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return false
	}
	r.buf = appendPyString(r.buf, s)
	return true
}

// appendRespacedDecoder is appendRespaced through encoding/json's decoder.
func appendRespacedDecoder(buf []byte, raw []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var err error
	buf, err = respaceValue(buf, dec)
	if err != nil {
		return nil, fmt.Errorf("score file: re-encoding JSON: %w", err)
	}
	return buf, nil
}

func respaceValue(buf []byte, dec *json.Decoder) ([]byte, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		closing := json.Delim(']')
		if t == '{' {
			closing = '}'
		}
		buf = append(buf, byte(t))
		first := true
		for dec.More() {
			if !first {
				buf = append(buf, ", "...)
			}
			first = false
			if t == '{' {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				buf = appendPyString(buf, k)
				buf = append(buf, ": "...)
			}
			if buf, err = respaceValue(buf, dec); err != nil {
				return nil, err
			}
		}
		end, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if end != closing {
			return nil, fmt.Errorf("unbalanced JSON")
		}
		return append(buf, byte(closing)), nil
	case string:
		return appendPyString(buf, t), nil
	case json.Number:
		return appendJSONNumber(buf, string(t)), nil
	case bool:
		return appendPyJSON(buf, t)
	case nil:
		return append(buf, "null"...), nil
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// appendPyval writes a Python value as upstream's make_json_serializable +
// json.dumps(ensure_ascii=False) do: dicts and lists are walked, every other
// value is kept when json.dumps accepts it (tuples become arrays) and
// replaced by str(value) otherwise (sets, Decimal, file-system objects).
func appendPyval(buf []byte, v pyval.Value) ([]byte, error) {
	switch x := v.(type) {
	case pyval.Str:
		return appendPyString(buf, string(x)), nil
	case pyval.Int:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case pyval.BigInt:
		return x.V.Append(buf, 10), nil
	case pyval.Bool:
		return appendPyJSON(buf, bool(x))
	case pyval.NoneType:
		return append(buf, "null"...), nil
	case pyval.Float:
		return appendPyFloat(buf, float64(x)), nil
	case *pyval.List:
		if x == nil {
			return append(buf, "null"...), nil
		}
		return appendPyvalArray(buf, x.Items)
	case pyval.Tuple:
		if _, err := pyval.AppendJSON(nil, x); err != nil {
			return appendPyString(buf, pyval.StrOf(x)), nil
		}
		return appendPyvalArray(buf, x)
	case *pyval.Dict:
		if x == nil {
			return append(buf, "null"...), nil
		}
		buf = append(buf, '{')
		for i := 0; i < x.Len(); i++ {
			k, val := x.At(i)
			if i > 0 {
				buf = append(buf, ", "...)
			}
			switch kk := k.(type) {
			case pyval.Str:
				buf = appendPyString(buf, string(kk))
			case pyval.Int, pyval.BigInt, pyval.Float, pyval.Bool, pyval.NoneType:
				kb, err := pyval.AppendJSON(nil, kk)
				if err != nil {
					return nil, err
				}
				if kb[0] == '"' {
					buf = append(buf, kb...)
				} else {
					buf = appendPyString(buf, string(kb))
				}
			default:
				return nil, fmt.Errorf("keys must be str, int, float, bool or None, not %s", k.TypeName())
			}
			buf = append(buf, ": "...)
			var err error
			if buf, err = appendPyval(buf, val); err != nil {
				return nil, err
			}
		}
		return append(buf, '}'), nil
	}
	if _, err := pyval.AppendJSON(nil, v); err == nil {
		// a serialisable value of a type not listed above: re-space its text
		b, _ := pyval.AppendJSON(nil, v)
		return appendRespaced(buf, b)
	}
	return appendPyString(buf, pyval.StrOf(v)), nil
}

func appendPyvalArray(buf []byte, items []pyval.Value) ([]byte, error) {
	buf = append(buf, '[')
	for i, e := range items {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		var err error
		if buf, err = appendPyval(buf, e); err != nil {
			return nil, err
		}
	}
	return append(buf, ']'), nil
}
