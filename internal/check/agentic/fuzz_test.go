package agentic

import (
	"regexp"
	"testing"
)

// FuzzContainsWordASCII compares ContainsWord with Go's regexp on ASCII
// text, where Go's \b and Python's Unicode \b agree.
func FuzzContainsWordASCII(f *testing.F) {
	for _, s := range [][2]string{{"i am 35", "35"}, {"350", "35"}, {`say "hi"`, `"hi"`}, {"", ""}, {"ab ab", "b a"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, hay, needle string) {
		for _, s := range []string{hay, needle} {
			for i := 0; i < len(s); i++ {
				if s[i] >= 0x80 {
					t.Skip()
				}
			}
		}
		want := regexp.MustCompile(`\b` + regexp.QuoteMeta(needle) + `\b`).MatchString(hay)
		if got := ContainsWord(hay, needle); got != want {
			t.Fatalf("ContainsWord(%q, %q) = %v, regexp says %v", hay, needle, got, want)
		}
	})
}
