package engine

import (
	"strings"
	"unicode/utf8"

	"github.com/bfcl-go/bfcl/internal/python/pyval"
)

// rewriteCalls reproduces upstream's _process_method_calls
// (multi_turn_utils.py): every identifier immediately followed (after
// optional white space) by "(" and naming a public method of an involved
// class becomes "<instance>.<name>", wherever it stands, inside string
// literals included; the white space before "(" is dropped with it, also
// after a name that is not rewritten. It is
// the regex \b([a-zA-Z_]\w*)\s*(?=\() applied with Python's Unicode \w, \s
// and \b.
func rewriteCalls(s string, owner func(method string) (string, bool)) string {
	var b strings.Builder
	i, last := 0, 0
	prevWord := false // whether the rune before i is a \w rune
	for i < len(s) {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if !prevWord && isIdentStart(r) {
			j := i + size
			for j < len(s) {
				if c := s[j]; c < utf8.RuneSelf {
					if !asciiWord[c] {
						break
					}
					j++
					continue
				}
				r2, sz := utf8.DecodeRuneInString(s[j:])
				if !pyval.IsWord(r2) {
					break
				}
				j += sz
			}
			k := j
			for k < len(s) {
				if c := s[k]; c < utf8.RuneSelf {
					if !asciiSpace[c] {
						break
					}
					k++
					continue
				}
				r2, sz := utf8.DecodeRuneInString(s[k:])
				if !pyval.IsSpace(r2) {
					break
				}
				k += sz
			}
			if k < len(s) && s[k] == '(' {
				name := s[i:j]
				if inst, ok := owner(name); ok {
					if last == 0 {
						b.Grow(len(s) + len(inst) + 1)
					}
					b.WriteString(s[last:i])
					b.WriteString(inst)
					b.WriteByte('.')
					b.WriteString(name)
					last = k
				} else if k > j {
					// Any other name is replaced by itself, which drops
					// the white space too ("expenses (ID" in a string
					// argument becomes "expenses(ID").
					b.WriteString(s[last:j])
					last = k
				}
			}
			// The regex cannot match inside the identifier (no \b there);
			// continue after it.
			i = j
			prevWord = true
			continue
		}
		if size == 1 && r < utf8.RuneSelf {
			prevWord = asciiWord[r]
		} else {
			prevWord = pyval.IsWord(r)
		}
		i += size
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// asciiWord and asciiSpace are pyval.IsWord and pyval.IsSpace (Python's
// Unicode \w and \s) on the ASCII characters, as tables.
var asciiWord, asciiSpace = func() (w, sp [utf8.RuneSelf]bool) {
	for c := rune(0); c < utf8.RuneSelf; c++ {
		w[c], sp[c] = pyval.IsWord(c), pyval.IsSpace(c)
	}
	return w, sp
}()

func isIdentStart(r rune) bool {
	return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
}
