package pyval

// Bytes is a Python bytes value (only produced by b'...' literals).
type Bytes string

// TypeName is "bytes".
func (Bytes) TypeName() string { return "bytes" }

// AppendBytesRepr appends repr(b).
func AppendBytesRepr(out []byte, b string) []byte {
	quote := reprQuote(b)
	out = append(out, 'b', quote)
	for i := 0; i < len(b); i++ {
		out = appendReprByte(out, b[i], quote)
	}
	return append(out, quote)
}

// appendReprByte appends the byte c as repr() of a str or bytes quoted
// with quote shows it: backslash escapes for the quote, the backslash, tab,
// newline and carriage return, \xXX for other control bytes, DEL and (in
// bytes; a str passes only ASCII here) bytes beyond ASCII.
func appendReprByte(out []byte, c, quote byte) []byte {
	switch {
	case c == quote || c == '\\':
		return append(out, '\\', c)
	case c == '\t':
		return append(out, '\\', 't')
	case c == '\n':
		return append(out, '\\', 'n')
	case c == '\r':
		return append(out, '\\', 'r')
	case c < 0x20 || c >= 0x7f:
		return append(out, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
	}
	return append(out, c)
}
