package pyval

// Compare applies a Python comparison operator ("==", "!=", "<", "<=",
// ">", ">=", "in", "not in", "is", "is not") and returns its bool result.
// "is" is approximated: identical pointers for mutable containers, equal
// values of the same type for immutable ones (None is None, True is True).
func Compare(op string, a, b Value) (bool, error) {
	switch op {
	case "==":
		return Equal(a, b), nil
	case "!=":
		return !Equal(a, b), nil
	case "<":
		return Less(a, b)
	case "<=":
		return LessEq(a, b)
	case ">":
		return Greater(a, b)
	case ">=":
		return GreaterEq(a, b)
	case "in":
		return Contains(b, a)
	case "not in":
		r, err := Contains(b, a)
		return !r, err
	case "is":
		return Is(a, b), nil
	case "is not":
		return !Is(a, b), nil
	}
	return false, NewSyntaxError("unknown comparison " + op)
}

// Is approximates Python's identity test (see Compare).
func Is(a, b Value) bool {
	switch x := a.(type) {
	case *List:
		y, ok := b.(*List)
		return ok && x == y
	case *Dict:
		y, ok := b.(*Dict)
		return ok && x == y
	case *Set:
		y, ok := b.(*Set)
		return ok && x == y
	case NoneType, EllipsisType, Bool, Str, Int, Float:
		return a == b
	case Tuple:
		y, ok := b.(Tuple)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	case BigInt:
		y, ok := b.(BigInt)
		return ok && x.V == y.V
	}
	return a == b
}

func notSupported(op string, a, b Value) error {
	return NewTypeError("'" + op + "' not supported between instances of '" + a.TypeName() + "' and '" + b.TypeName() + "'")
}

// order compares a and b for op in "<", "<=", ">", ">=".
func order(op string, a, b Value) (bool, error) {
	if isNumber(a) && isNumber(b) {
		c := numCompare(a, b)
		if c == cmpUnordered {
			return false, nil
		}
		return cmpResult(op, c), nil
	}
	switch x := a.(type) {
	case Str:
		if y, ok := b.(Str); ok {
			c := 0
			if x < y {
				c = -1
			} else if x > y {
				c = 1
			}
			return cmpResult(op, c), nil
		}
	case *List:
		if y, ok := b.(*List); ok {
			return seqOrder(op, x.Items, y.Items)
		}
	case Tuple:
		if y, ok := b.(Tuple); ok {
			return seqOrder(op, x, y)
		}
	case *Set:
		if y, ok := b.(*Set); ok {
			return setOrder(op, x, y), nil
		}
	}
	if r, ok, err := objectBinary(op, a, b); ok {
		if err != nil {
			return false, err
		}
		return Truthy(r), nil
	}
	// reflected comparison of an Object on the right
	return false, notSupported(op, a, b)
}

func cmpResult(op string, c int) bool {
	switch op {
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	}
	return c >= 0
}

func seqOrder(op string, a, b []Value) (bool, error) {
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	for i := 0; i < n; i++ {
		if !Equal(a[i], b[i]) {
			return order(op, a[i], b[i])
		}
	}
	return cmpResult(op, cmpInt64(int64(len(a)), int64(len(b)))), nil
}

func subset(a, b *Set) bool {
	if a.Len() > b.Len() {
		return false
	}
	for _, e := range a.Items() {
		if !b.Contains(e) {
			return false
		}
	}
	return true
}

func setOrder(op string, a, b *Set) bool {
	switch op {
	case "<":
		return a.Len() < b.Len() && subset(a, b)
	case "<=":
		return subset(a, b)
	case ">":
		return b.Len() < a.Len() && subset(b, a)
	}
	return subset(b, a)
}

// Less is a < b.
func Less(a, b Value) (bool, error) { return order("<", a, b) }

// LessEq is a <= b.
func LessEq(a, b Value) (bool, error) { return order("<=", a, b) }

// Greater is a > b.
func Greater(a, b Value) (bool, error) { return order(">", a, b) }

// GreaterEq is a >= b.
func GreaterEq(a, b Value) (bool, error) { return order(">=", a, b) }
