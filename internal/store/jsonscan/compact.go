package jsonscan

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

// Compact reports whether b is one valid JSON value (as json.Valid says)
// written without insignificant whitespace: then json.Compact would copy
// it unchanged, and encoding/json's Encoder writes a Marshaler's output
// returning b as it is.
func Compact(b []byte) bool {
	c := compactChecker{b: b}
	return c.value(0) && c.i == len(b)
}

type compactChecker struct {
	b []byte
	i int
}

func (c *compactChecker) value(depth int) bool {
	if c.i >= len(c.b) {
		return false
	}
	switch ch := c.b[c.i]; {
	case ch == '{' || ch == '[':
		if depth+1 > maxDepth {
			return false
		}
		closing := byte(']')
		if ch == '{' {
			closing = '}'
		}
		c.i++
		if c.i < len(c.b) && c.b[c.i] == closing {
			c.i++
			return true
		}
		for {
			if ch == '{' {
				if c.i >= len(c.b) || c.b[c.i] != '"' || !c.str() {
					return false
				}
				if c.i >= len(c.b) || c.b[c.i] != ':' {
					return false
				}
				c.i++
			}
			if !c.value(depth + 1) {
				return false
			}
			if c.i >= len(c.b) {
				return false
			}
			switch c.b[c.i] {
			case ',':
				c.i++
			case closing:
				c.i++
				return true
			default:
				return false
			}
		}
	case ch == '"':
		return c.str()
	case ch == 't':
		return c.literal("true")
	case ch == 'f':
		return c.literal("false")
	case ch == 'n':
		return c.literal("null")
	case ch == '-' || (ch >= '0' && ch <= '9'):
		return c.number()
	}
	return false
}

func (c *compactChecker) literal(lit string) bool {
	if len(c.b)-c.i < len(lit) || string(c.b[c.i:c.i+len(lit)]) != lit {
		return false
	}
	c.i += len(lit)
	return true
}

// number reads a number literal.
func (c *compactChecker) number() bool {
	end, ok := Number(c.b, c.i)
	c.i = end
	return ok
}

// str reads a string: no control character, valid escapes (the bytes
// need not be valid UTF-8, as for json.Valid).
func (c *compactChecker) str() bool {
	end, _, _, ok := String(c.b, c.i)
	c.i = end
	return ok
}
