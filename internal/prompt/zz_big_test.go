package prompt_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

func TestZZBigDifferential(t *testing.T) {
	p := os.Getenv("PROMPT_BIG_CASES")
	if p == "" {
		t.Skip("PROMPT_BIG_CASES not set")
	}
	f, _ := os.Open(p)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n, bad := 0, 0
	for sc.Scan() {
		var c decodeCase
		json.Unmarshal(sc.Bytes(), &c)
		want := c.Repr
		if c.Error != "" {
			want = c.Error
		}
		got := outcome(decodeASTPrompting(c.Input, c.RetFmt, c.Tag))
		n++
		if got != want {
			bad++
			if bad < 15 {
				t.Logf("%s %v\n in: %q\n want: %s\n got:  %s", c.RetFmt, c.Tag, c.Input, want, got)
			}
		}
	}
	t.Logf("%d cases, %d differ", n, bad)
}
