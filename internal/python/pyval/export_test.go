package pyval

import "unicode/utf8"

// AppendFloatReprSlow exposes the uncached float formatting to the tests.
var AppendFloatReprSlow = appendFloatReprSlow

// AppendJSONStringBytewise is AppendJSONString written byte by byte (the
// form before runs were copied whole), the oracle of its spec.
func AppendJSONStringBytewise(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			i++
			if c < 0x20 || c == '"' || c == '\\' || c == 0x7f {
				b = appendJSONEscape(b, c)
			} else {
				b = append(b, c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if sr, ok := isSurrogateSeq(s[i:]); ok {
				r, size = sr, 3
			}
		}
		i += size
		if r > 0xffff {
			r -= 0x10000
			b = appendU4(b, 0xd800|(r>>10)&0x3ff)
			b = appendU4(b, 0xdc00|r&0x3ff)
		} else {
			b = appendU4(b, r)
		}
	}
	return append(b, '"')
}
