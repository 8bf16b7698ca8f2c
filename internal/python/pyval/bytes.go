package pyval

// Bytes is a Python bytes value (only produced by b'...' literals).
type Bytes string

// TypeName is "bytes".
func (Bytes) TypeName() string { return "bytes" }

// AppendBytesRepr appends repr(b).
func AppendBytesRepr(out []byte, b string) []byte {
	quote := byte('\'')
	hasSingle, hasDouble := false, false
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\'':
			hasSingle = true
		case '"':
			hasDouble = true
		}
	}
	if hasSingle && !hasDouble {
		quote = '"'
	}
	out = append(out, 'b', quote)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == quote || c == '\\':
			out = append(out, '\\', c)
		case c == '\t':
			out = append(out, '\\', 't')
		case c == '\n':
			out = append(out, '\\', 'n')
		case c == '\r':
			out = append(out, '\\', 'r')
		case c < 0x20 || c >= 0x7f:
			out = append(out, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		default:
			out = append(out, c)
		}
	}
	return append(out, quote)
}
