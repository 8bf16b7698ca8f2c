package engine

import (
	"strings"
	"sync"

	"github.com/bfcl-go/bfcl/internal/python/pyexpr"
	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// The same call strings come back entry after entry (the ground truth of
// the 800 multi-turn entries holds 712 distinct calls out of 4,625), but
// once rewritten they name each entry's own instances. So a call is parsed
// with a canonical variable per class in place of the instance names, and
// the tree is kept per (involved classes, call text); evaluating it looks
// the canonical names up as the session's instances. This is exactly the
// tree of the real rewritten text, with the names swapped, when the real
// instance names are plain identifiers (as the canonical ones are) and the
// canonical names land only where a name is looked up: a rewrite inside a
// string literal or after a dot (an attribute name) is observable, and
// such calls take the uncached path, as do calls that fail to parse (their
// error text comes from the real text) and calls that already contain the
// canonical prefix.

// canonPrefix starts the canonical variable name of a class's instance.
const canonPrefix = "__bfcl_engine_instance_"

// maxCachedCalls bounds callCache; when it is full it starts over.
const maxCachedCalls = 1 << 14

// preparedCall is the cached outcome of rewriting and parsing one call.
type preparedCall struct {
	blockedHead string      // set: the call is refused with this name
	expr        pyexpr.Expr // nil (and no blockedHead): take the uncached path
}

// callKey is a call text and the class list it was prepared for.
type callKey struct{ classes, call string }

var callCache = struct {
	sync.RWMutex
	m map[callKey]preparedCall
}{m: map[callKey]preparedCall{}}

func cachedCall(key callKey) (preparedCall, bool) {
	callCache.RLock()
	pc, ok := callCache.m[key]
	callCache.RUnlock()
	return pc, ok
}

func storeCall(key callKey, pc preparedCall) {
	callCache.Lock()
	if len(callCache.m) >= maxCachedCalls {
		callCache.m = make(map[callKey]preparedCall, maxCachedCalls/4)
	}
	callCache.m[key] = pc
	callCache.Unlock()
}

// isPlainIdentifier reports whether s is an ASCII identifier that is not a
// keyword (an instance name always ends in "_instance").
func isPlainIdentifier(s string) bool {
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// canonOwner is owner with the canonical variable names.
func (s *Session) canonOwner(method string) (string, bool) {
	for i := len(s.vars) - 1; i >= 0; i-- {
		if s.vars[i].methods[method] {
			return s.vars[i].canon, true
		}
	}
	return "", false
}

// prepare rewrites call with the canonical names and parses it.
func (s *Session) prepare(call string) preparedCall {
	rewritten := rewriteCalls(call, s.canonOwner)
	if head := calledName(rewritten); blocked[head] {
		return preparedCall{blockedHead: head}
	}
	expr, err := pyexpr.Parse(rewritten)
	if err != nil || !canonOnlyLookedUp(expr, false) {
		return preparedCall{}
	}
	return preparedCall{expr: expr}
}

// canonOnlyLookedUp reports whether the canonical prefix occurs in e only
// as whole names that are looked up (not assigned: target is true under a
// := or comprehension target). Unknown nodes count as occurrences.
func canonOnlyLookedUp(e pyexpr.Expr, target bool) bool {
	ok := func(x pyexpr.Expr) bool { return x == nil || canonOnlyLookedUp(x, target) }
	all := func(xs []pyexpr.Expr) bool {
		for _, x := range xs {
			if !ok(x) {
				return false
			}
		}
		return true
	}
	has := func(s string) bool { return strings.Contains(s, canonPrefix) }
	switch x := e.(type) {
	case *pyexpr.Constant:
		switch v := x.Value.(type) {
		case pyval.Str:
			return !has(string(v))
		case pyval.Bytes:
			return !has(string(v))
		}
		return true
	case *pyexpr.Name:
		return !target || !has(x.ID)
	case *pyexpr.Attribute:
		return !has(x.Attr) && ok(x.X)
	case *pyexpr.Call:
		for _, k := range x.Keywords {
			if has(k.Arg) || !ok(k.Value) {
				return false
			}
		}
		return ok(x.Func) && all(x.Args)
	case *pyexpr.Starred:
		return ok(x.X)
	case *pyexpr.List:
		return all(x.Elts)
	case *pyexpr.Tuple:
		return all(x.Elts)
	case *pyexpr.Set:
		return all(x.Elts)
	case *pyexpr.Dict:
		return all(x.Keys) && all(x.Values)
	case *pyexpr.UnaryOp:
		return ok(x.X)
	case *pyexpr.BinOp:
		return ok(x.X) && ok(x.Y)
	case *pyexpr.BoolOp:
		return all(x.Values)
	case *pyexpr.Compare:
		return ok(x.X) && all(x.Comparators)
	case *pyexpr.Subscript:
		return ok(x.X) && ok(x.Index)
	case *pyexpr.Slice:
		return ok(x.Lower) && ok(x.Upper) && ok(x.Step)
	case *pyexpr.IfExp:
		return ok(x.Test) && ok(x.Body) && ok(x.Else)
	case *pyexpr.NamedExpr:
		return canonOnlyLookedUp(x.Target, true) && ok(x.Value)
	case *pyexpr.Lambda:
		for _, p := range x.Params {
			if has(p) {
				return false
			}
		}
		return ok(x.Body)
	case *pyexpr.Comp:
		for _, g := range x.Generators {
			if !canonOnlyLookedUp(g.Target, true) || !ok(g.Iter) || !all(g.Ifs) {
				return false
			}
		}
		return ok(x.Key) && ok(x.Elt)
	case *pyexpr.FormattedValue:
		return ok(x.Value) && ok(x.Spec)
	case *pyexpr.JoinedStr:
		return all(x.Parts)
	}
	return false
}
