package pyexpr_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// hasNonFinite reports NaN/inf floats and Ellipsis, whose reprs ("nan",
// "inf", "Ellipsis") are names, not literals.
func hasNonFinite(v pyval.Value) bool {
	switch x := v.(type) {
	case pyval.EllipsisType:
		return true
	case pyval.Float:
		return math.IsNaN(float64(x)) || math.IsInf(float64(x), 0)
	case *pyval.List:
		for _, e := range x.Items {
			if hasNonFinite(e) {
				return true
			}
		}
	case pyval.Tuple:
		for _, e := range x {
			if hasNonFinite(e) {
				return true
			}
		}
	case *pyval.Set:
		for _, e := range x.Items() {
			if hasNonFinite(e) {
				return true
			}
		}
	case *pyval.Dict:
		for _, kv := range x.Items() {
			if hasNonFinite(kv.Key) || hasNonFinite(kv.Value) {
				return true
			}
		}
	}
	return false
}

// FuzzParse checks that Parse never panics, that its errors are Python
// exceptions, and that repr() of a literal re-parses to the same value.
func FuzzParse(f *testing.F) {
	f.Add("f(a=1, b=[1, 2.5, 'x'], c={'k': (None,)})")
	f.Add("{'a': -1e-05, 'b': {1, 2}, 'c': b'\\x00'}")
	f.Fuzz(func(t *testing.T, src string) {
		done := make(chan struct{})
		go func() {
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				panic(fmt.Sprintf("HANG on %q", src))
			}
		}()
		defer close(done)
		e, err := pyexpr.Parse(src)
		if err != nil {
			if _, ok := err.(*pyval.Exception); !ok {
				t.Fatalf("Parse(%q) error %T is not a *pyval.Exception: %v", src, err, err)
			}
			return
		}
		_ = pyexpr.Source(src, e)
		v, err := pyexpr.LiteralEval(e)
		if err != nil || hasNonFinite(v) {
			return
		}
		r := pyval.Repr(v)
		e2, err := pyexpr.Parse(r)
		if err != nil {
			t.Fatalf("repr %q of literal %q does not parse: %v", r, src, err)
		}
		v2, err := pyexpr.LiteralEval(e2)
		if err != nil {
			t.Fatalf("repr %q of literal %q does not literal-eval: %v", r, src, err)
		}
		if r2 := pyval.Repr(v2); r2 != r || !pyval.Equal(v, v2) {
			t.Fatalf("round trip of %q: %q became %q", src, r, r2)
		}
	})
}
