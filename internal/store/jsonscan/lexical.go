package jsonscan

import "unicode/utf8"

// The JSON literals' grammar, once for every scanner of the project that
// validates as encoding/json does (Compact here, the score files'
// re-spacer, the usage numbers of a result line).

// Number returns the index just after the number literal at b[i]
// (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?); ok is false when
// none starts there.
func Number(b []byte, i int) (end int, ok bool) {
	digits := func() bool {
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return 0, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return 0, false
		}
	}
	return i, true
}

// asciiPlain marks the bytes a string literal may hold as they are and
// that are ASCII: not a quote, a backslash or a control character.
var asciiPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// String returns the index just after the string literal at b[i] (a
// quote), whether it holds an escape that decoding changes beyond the
// one json.dumps writes back (\/ or \uXXXX; \" \\ \b \f \n \r \t are
// written as they are), and whether it holds a byte that is not ASCII
// (the bytes need not be valid UTF-8, as for json.Valid). ok is false for
// a control byte, an invalid escape or a missing closing quote.
func String(b []byte, i int) (end int, rewrite, nonASCII, ok bool) {
	for j := i + 1; j < len(b); j++ {
		for j < len(b) && asciiPlain[b[j]] {
			j++
		}
		if j >= len(b) {
			break
		}
		switch c := b[j]; {
		case c == '"':
			return j + 1, rewrite, nonASCII, true
		case c < 0x20:
			return 0, false, false, false
		case c == '\\':
			j++
			if j >= len(b) {
				return 0, false, false, false
			}
			switch b[j] {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
			case '/':
				rewrite = true
			case 'u':
				rewrite = true
				if j+4 >= len(b) {
					return 0, false, false, false
				}
				for _, h := range b[j+1 : j+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return 0, false, false, false
					}
				}
				j += 4
			default:
				return 0, false, false, false
			}
		default: // c >= utf8.RuneSelf
			nonASCII = true
		}
	}
	return 0, false, false, false
}
