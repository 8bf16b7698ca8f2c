package htmlreport

import (
	"fmt"
	"unicode/utf8"
)

// maxShownString is the longest JSON string the page embeds whole. A
// model reply of megabytes (a runaway generation, a damaged result line)
// cannot be read in a browser anyway, and copying it into the page costs
// memory many times its size; the page keeps its first maxShownString
// bytes and says how much was left out and where the whole text is.
const maxShownString = 64 << 10

// shrinkStrings returns line (a JSON value) with every string longer than
// maxShownString cut to its first maxShownString bytes (never inside an
// escape or a UTF-8 character) followed by a note naming the bytes left out
// and file. line itself is returned, uncopied, when no string is that long.
func shrinkStrings(line []byte, file string) []byte {
	if len(line) <= maxShownString {
		return line
	}
	var out []byte // nil until a string is cut
	done := 0      // line[:done] is in out
	for i := 0; i < len(line); i++ {
		if line[i] != '"' {
			continue
		}
		start := i + 1
		cut := -1 // where the kept part of this string ends
		j := start
		for ; j < len(line) && line[j] != '"'; j++ {
			if cut < 0 && j-start >= maxShownString {
				cut = j
			}
			if line[j] == '\\' { // skip the escape whole: a cut never splits one
				if j+1 < len(line) && line[j+1] == 'u' {
					j += 5
				} else {
					j++
				}
			}
		}
		j = min(j, len(line)) // a line torn inside an escape
		if cut >= 0 {
			for cut > start && !utf8.RuneStart(line[cut]) {
				cut--
			}
			out = append(out, line[done:cut]...)
			out = fmt.Appendf(out, ` … [%d more bytes: see %s]`, j-cut, jsonSafe(file))
			done = j // the closing quote is copied with what follows
		}
		i = j
	}
	if out == nil {
		return line
	}
	return append(out, line[done:]...)
}

// jsonSafe keeps s usable inside a JSON string: quotes and backslashes (a
// Windows path) become '/'; control characters are dropped.
func jsonSafe(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '/')
		case c < 0x20:
		default:
			b = append(b, c)
		}
	}
	return string(b)
}
