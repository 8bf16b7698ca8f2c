package pyval

import "fmt"

// Exception is a Python exception raised by simulated code or by the
// operators of this package. Type is the class name ("TypeError"); Msg is
// exactly str(e).
type Exception struct {
	Type string
	Msg  string
}

// Error returns str(e), as Python prints it.
func (e *Exception) Error() string { return e.Msg }

// TypeName is the exception class name.
func (e *Exception) TypeName() string { return e.Type }

// PyRepr is repr(e), e.g. ValueError('bad') or KeyError('x').
func (e *Exception) PyRepr() string {
	if e.Msg == "" {
		return e.Type + "()"
	}
	if e.Type == "KeyError" {
		return e.Type + "(" + e.Msg + ")"
	}
	return e.Type + "(" + Repr(Str(e.Msg)) + ")"
}

// PyStr is str(e).
func (e *Exception) PyStr() string { return e.Msg }

// PyEqual is identity-free equality: same type and message.
func (e *Exception) PyEqual(other Value) bool {
	o, ok := other.(*Exception)
	return ok && o.Type == e.Type && o.Msg == e.Msg
}

// PyJSON encodes the exception as a pyjson object.
func (e *Exception) PyJSON() any {
	return map[string]any{"$object": "builtins." + e.Type, "attrs": map[string]any{"args": []any{e.Msg}}}
}

// NewException returns an exception of class typ with str() msg.
func NewException(typ, msg string) *Exception { return &Exception{Type: typ, Msg: msg} }

func newf(typ, format string, args []any) *Exception {
	if len(args) == 0 {
		return &Exception{Type: typ, Msg: format}
	}
	return &Exception{Type: typ, Msg: fmt.Sprintf(format, args...)}
}

// NewTypeError returns a TypeError; format is used verbatim when no args.
func NewTypeError(format string, args ...any) *Exception { return newf("TypeError", format, args) }

// NewValueError returns a ValueError.
func NewValueError(format string, args ...any) *Exception { return newf("ValueError", format, args) }

// NewIndexError returns an IndexError.
func NewIndexError(format string, args ...any) *Exception { return newf("IndexError", format, args) }

// NewZeroDivisionError returns a ZeroDivisionError.
func NewZeroDivisionError(format string, args ...any) *Exception {
	return newf("ZeroDivisionError", format, args)
}

// NewAttributeError returns an AttributeError.
func NewAttributeError(format string, args ...any) *Exception {
	return newf("AttributeError", format, args)
}

// NewNameError returns a NameError.
func NewNameError(format string, args ...any) *Exception { return newf("NameError", format, args) }

// NewSyntaxError returns a SyntaxError whose str() is the formatted text.
func NewSyntaxError(format string, args ...any) *Exception {
	return newf("SyntaxError", format, args)
}

// NewOverflowError returns an OverflowError.
func NewOverflowError(format string, args ...any) *Exception {
	return newf("OverflowError", format, args)
}

// NewKeyError returns KeyError(key); its str() is repr(key), as in Python.
func NewKeyError(key Value) *Exception { return &Exception{Type: "KeyError", Msg: Repr(key)} }

// IsException reports whether err is a *Exception of class typ.
func IsException(err error, typ string) bool {
	e, ok := err.(*Exception)
	return ok && e.Type == typ
}

// ArgTypeName is how CPython's argument parsers (_PyArg_BadArgument, the
// "f() argument N must be T, not X" errors of argument clinic) name the
// type of a bad argument: "None" for None, the type name otherwise. Other
// messages (indices, operators, int() / float()) print "NoneType".
func ArgTypeName(v Value) string {
	if v == nil {
		return "None"
	}
	if _, isNone := v.(NoneType); isNone {
		return "None"
	}
	return v.TypeName()
}
