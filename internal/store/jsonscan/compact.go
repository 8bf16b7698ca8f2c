package jsonscan

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

// plainByte marks the bytes a string may hold as they are: not a quote, a
// backslash or a control character.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

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

func (c *compactChecker) digits() bool {
	j := c.i
	for c.i < len(c.b) && c.b[c.i] >= '0' && c.b[c.i] <= '9' {
		c.i++
	}
	return c.i > j
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (c *compactChecker) number() bool {
	if c.b[c.i] == '-' {
		c.i++
	}
	switch {
	case c.i < len(c.b) && c.b[c.i] == '0':
		c.i++
	case !c.digits():
		return false
	}
	if c.i < len(c.b) && c.b[c.i] == '.' {
		c.i++
		if !c.digits() {
			return false
		}
	}
	if c.i < len(c.b) && (c.b[c.i] == 'e' || c.b[c.i] == 'E') {
		c.i++
		if c.i < len(c.b) && (c.b[c.i] == '+' || c.b[c.i] == '-') {
			c.i++
		}
		if !c.digits() {
			return false
		}
	}
	return true
}

// str reads a string: no control character, valid escapes (the bytes
// need not be valid UTF-8, as for json.Valid).
func (c *compactChecker) str() bool {
	for j := c.i + 1; j < len(c.b); j++ {
		for j < len(c.b) && plainByte[c.b[j]] {
			j++
		}
		if j >= len(c.b) {
			return false
		}
		switch c.b[j] {
		case '"':
			c.i = j + 1
			return true
		case '\\':
			j++
			if j >= len(c.b) {
				return false
			}
			switch c.b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(c.b) {
					return false
				}
				for _, h := range c.b[j+1 : j+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				j += 4
			default:
				return false
			}
		default: // a control character
			return false
		}
	}
	return false
}
