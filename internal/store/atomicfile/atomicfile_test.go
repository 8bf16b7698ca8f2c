package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bfcl-go/bfcl/internal/store/atomicfile"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a", "b", "f.json")
	if err := atomicfile.Write(p, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(p, []byte("two")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "two" {
		t.Fatalf("read %q, %v; want two", b, err)
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", st.Mode().Perm())
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	if len(ents) != 1 {
		t.Fatalf("%d files left in the folder, want only the file", len(ents))
	}
	if err := atomicfile.Write(filepath.Join(p, "under-a-file"), nil); err == nil {
		t.Fatal("writing below a file must fail")
	}
}
